"""Attacks (Basic Contested Roll; Critical Success or Failure; ranges; Weapon Special Rules;
Multiple/Automatic Shots; Suppressive Fire; Dual Wielding; Aimed Shots; Sneak Attacks;
Firing into Melee; Cover; Changing Stance; Unarmed; Armor).

``attack`` checks an ``attack`` action (refusing what the rules forbid, before any roll:
``attack_shots``) and resolves it: the defender's dodge, the attack dice by range band,
criticals (``attack_rolls``), the damage tallied per target before modifiers and DR, then
the effects the hits triggered (stun, bleed, burn, prone; never on someone the damage took
out of the fight), suppression (``attack_hits``), shots at those in or near a melee
(``into_melee``) and ammunition.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.kit.table_base import not_arrived
from fightlog.events.model import Action, AttackResolved, ResourceSpent, StatusChanged
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.attack_hits import Hits, Triggered, debuffs, deal, suppress, trigger
from fightlog.rules.roe7.attack_rolls import accuracy, can_crit, gm_modifier, outcome
from fightlog.rules.roe7.attack_shots import MODES, Shot, aim_shots, check_secondaries, volley_of
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.into_melee import bystanders, stray
from fightlog.rules.roe7.sheet import Weapon
from fightlog.rules.roe7.tokens import WeaponToken
from fightlog.kit.table import Scribe


def attack(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Resolve one ``attack`` action of ``actor``'s declaration (``declaration`` is its seq)."""
    state = scribe.state
    a = Fighter(state, actor)
    mode = action.mode or "single"
    if mode not in MODES:
        raise RefusedError(f"unknown attack mode {mode!r} (modes: {', '.join(sorted(MODES))})")
    gm_modifier(action, a.options)  # a bad gm= is refused before any die is rolled
    if action.target is None:
        raise RefusedError("an attack needs a target (target=ID)", code="rules.target")
    t = Fighter(state, action.target)
    if t.actor == actor:
        raise RefusedError("a combatant cannot attack themselves", code="rules.target")
    if t.has("reserve"):
        raise RefusedError(f"{t.actor} is in reserve, not in the fight yet (a com call brings them in)",
                           code="rules.target")
    arriving = not_arrived(state, t.actor)
    if arriving is not None:
        raise arriving
    if t.has("fled") or t.has("left"):
        raise RefusedError(f"{t.actor} is not in the fight any more", code="rules.target")
    volley, dual = volley_of(a, t, mode, action)
    if t.out:
        _attacked_while_wounded(scribe, a, t, declaration)
        return
    shots = aim_shots(scribe, a, volley, mode, action)
    check_secondaries(shots, mode, action)
    aim = a.effect("aim")
    aimed = mode == "aimed"
    if aimed and (aim is None or aim.params.get("target") != t.actor or not a.at_turn_start(aim)):
        raise RefusedError(f"no aim on {t.actor} from a previous turn (aim target={t.actor} first, fire next turn)")
    sneak = mode == "sneak" and _sneak_check(scribe, a, t, declaration)
    _resolve(scribe, a, shots, mode, dual, action, declaration, aimed=aimed, sneak=sneak)
    _after(scribe, a, volley, shots, declaration, aimed=aimed)


def _attacked_while_wounded(scribe: Scribe, a: Fighter, t: Fighter, declaration: int) -> None:
    """Wounded: a wounded character who is attacked is downed again, four more hours."""
    scribe.emit(
        StatusChanged(
            actor=t.actor,
            status="wounded",
            cause=declaration,
            note=f"attacked while wounded: downed again, {a.options.wound_hours} more real hours",
        )
    )


def _after(
    scribe: Scribe, a: Fighter, volley: list[tuple[WeaponToken, Weapon | None, str]], shots: list[Shot], declaration: int,
    *, aimed: bool,
) -> None:
    """Rounds fired, a chainfed reload interrupted, the aim used or lost, hiding ended, and
    the attacker marked as engaged (no more sneak attacks)."""
    actor = a.actor
    for tok, _, _ in volley:
        if tok.family == "firearm":
            fired = sum(1 for s in shots if s.token is tok)
            scribe.emit(ResourceSpent(actor=actor, resource=tok.text, amount=fired, cause=declaration))
    after = Fighter(scribe.state, actor)
    reloading = after.effect("reloading")
    if reloading is not None:
        conditions.expire(scribe, reloading, "interrupted", cause=declaration)
    aim = after.effect("aim")
    if aim is not None:
        conditions.expire(scribe, aim, "used" if aimed else "lost", cause=declaration)
    if after.has("hidden"):
        scribe.emit(StatusChanged(actor=actor, status="hidden", on=False, cause=declaration, note="attacked"))
    if not after.has("engaged"):
        scribe.emit(StatusChanged(actor=actor, status="engaged", cause=declaration, note="first attack made"))


def _sneak_check(scribe: Scribe, a: Fighter, t: Fighter, declaration: int) -> bool:
    """Sneak Attacks: first attack of the combat, after hiding; a stealth roll against the
    target's perception (ties to the target) confirms the attacker is unseen."""
    if not a.has("hidden"):
        raise RefusedError(f"{a.actor} is not hidden: a sneak attack needs an earlier hide action")
    if a.has("engaged"):
        raise RefusedError("a sneak attack must be the first attack of the combat")
    opts = a.options
    stealth, s_seq = scribe.roll(
        "1d100", roller=a.actor, purpose="stealth", modifiers=capped(a.stealth_mods(), opts.modifier_cap), for_seq=declaration
    )
    spot, p_seq = scribe.roll(
        "1d100", roller=t.actor, purpose="perception", modifiers=capped(t.mods("perception"), opts.modifier_cap), for_seq=declaration
    )
    unseen = stealth.total > spot.total
    scribe.emit(
        AttackResolved(
            attacker=a.actor,
            target=t.actor,
            hit=unseen,
            score=stealth.total,
            against=spot.total,
            rolls=[s_seq, p_seq],
            declaration=declaration,
            notes=["sneak: unseen" if unseen else "sneak: spotted, a normal attack"],
        )
    )
    return unseen


# ---------------------------------------------------------------------- resolution


def _resolve(
    scribe: Scribe,
    a: Fighter,
    shots: list[Shot],
    mode: str,
    dual: int,
    action: Action,
    declaration: int,
    *,
    aimed: bool,
    sneak: bool,
) -> None:
    """Every attack roll against its target's dodge (``_fire``), then: the attacker's lost
    action for a natural 1, a magika surge, the damage on each target hit, the effects the
    hits triggered, suppression, and automatic fire at a melee's bystanders."""
    opts = a.options
    hits: dict[str, Hits] = {}
    triggered = Triggered()
    if _fire(scribe, a, shots, dual, action, declaration, hits, triggered, aimed=aimed, sneak=sneak):
        conditions.lose_action(scribe, a.actor, whole_turn=False, source="critical failure", cause=declaration)
    if triggered.surge is not None:
        conditions.apply(
            scribe, "magika_surge", a.actor, source=a.actor, duration=1, counts_on=a.actor, magnitude=10, cause=triggered.surge
        )
    dealer = Fighter(scribe.state, a.actor) if opts.magika_surge_same_action else a
    for target, landed in sorted(hits.items()):
        deal(scribe, dealer, target, landed, ignore_armour=aimed or landed.pierce)
    debuffs(scribe, a, triggered)
    if mode == "suppressive":
        for target in sorted({s.target for s in shots}):
            suppress(scribe, a, target, declaration)
    secondaries = action.params.get("secondaries")
    if isinstance(secondaries, str):
        first = shots[0]
        bystanders(
            scribe, dealer, [s for s in shots if s.target == first.target], secondaries, declaration,
            suppressive=mode == "suppressive",
        )


def _fire(
    scribe: Scribe, a: Fighter, shots: list[Shot], dual: int, action: Action, declaration: int,
    hits: dict[str, Hits], triggered: Triggered, *, aimed: bool, sneak: bool,
) -> bool:
    """Each shot's dodge (once per target, unless ``dodge_per_shot``), attack roll and
    outcome; a miss's stray shot at the ally in the way; the dice of each hit (doubled by a
    crit, an aim or a sneak attack) into ``hits``, what it triggers into ``triggered``.
    Whether a natural 1 costs the attacker their next action."""
    opts = a.options
    defence: dict[str, tuple[int, int, int]] = {}  # target -> total, natural, seq
    lost_action = False
    through = action.params.get("through")
    for shot in shots:
        t = Fighter(scribe.state, shot.target)
        if shot.target not in defence or opts.dodge_per_shot:
            defence[shot.target] = _dodge(scribe, t, shot, through, declaration)
        against, natural_def, def_seq = defence[shot.target]
        label = f"shot {shot.index + 1}" if sum(1 for s in shots if s.token is shot.token) > 1 else None
        rolled, att_seq = scribe.roll(
            f"1d{shot.sides}", roller=a.actor, purpose="attack", modifiers=accuracy(a, shot.token, shot.weapon, dual, action),
            for_seq=declaration, label=label,
        )
        natural = rolled.dice[0].face
        result = outcome(natural, rolled.total, shot.sides, can_crit(shot.token, shot.band), (against, natural_def), opts)
        lost_action = lost_action or result.fumble
        resolved = scribe.emit(AttackResolved(
            attacker=a.actor, target=shot.target, hit=result.hit, score=rolled.total, against=against,
            margin=rolled.total - against, critical=result.critical, rolls=[att_seq, def_seq], weapon=shot.token.text,
            declaration=declaration, notes=list(result.notes),
        ))
        if result.crit and result.hit and t.racial == "advanced-prosthetics":
            conditions.lose_action(scribe, shot.target, whole_turn=True, source="critical hit (Advanced Prosthetics)", cause=resolved)
        if not result.hit:
            if isinstance(through, str) and shot.token.family == "firearm":
                stray(scribe, a, shot, rolled.total, through, declaration)
            continue
        doubled = sneak or (aimed and not t.armoured(shot.token.damage_type))
        multiplier = (3 if doubled else 2) if result.crit else (2 if doubled else 1)
        landed = hits.setdefault(shot.target, Hits())
        landed.dice.append((shot.token, shot.damage_sides, multiplier))
        landed.cause = resolved
        trigger(a, shot, natural, rolled.total, landed, triggered, resolved)
    return lost_action


def _dodge(scribe: Scribe, t: Fighter, shot: Shot, through: object, declaration: int) -> tuple[int, int, int]:
    """The defender's 1d100 dodge (an ally in the line of fire is +15 cover); a natural 1
    costs the defender their next action (the whole turn with Advanced Prosthetics)."""
    opts = t.options
    mods = t.dodge_mods(against=shot.token.family)
    if isinstance(through, str) and shot.token.family == "firearm":
        mods.append((opts.cover_bonus, f"{through} in the line of fire"))
    rolled, seq = scribe.roll(
        "1d100", roller=shot.target, purpose="dodge", modifiers=capped(mods, opts.modifier_cap), for_seq=declaration
    )
    if rolled.dice[0].face == 1:
        whole = t.racial == "advanced-prosthetics"
        conditions.lose_action(scribe, shot.target, whole_turn=whole, source="critical failure on defence", cause=seq)
    return rolled.total, rolled.dice[0].face, seq

