"""Attacks (Basic Contested Roll; Critical Success or Failure; ranges; Weapon Special Rules;
Multiple/Automatic Shots; Suppressive Fire; Dual Wielding; Aimed Shots; Sneak Attacks;
Firing into Melee; Cover; Changing Stance; Unarmed; Armor).

``attack`` checks an ``attack`` action (refusing what the rules forbid) and resolves it:
the attack dice by range band, the defender's dodge, criticals, damage tallied per target
before modifiers and DR, melee and chemical effects, suppression, ammunition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, ResourceSpent, StatusChanged
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import Fighter, Mods, capped, sum_mods
from fightlog.rules.roe7.geometry import Band, band, distance
from fightlog.rules.roe7.harm import take
from fightlog.rules.roe7.sheet import Weapon
from fightlog.rules.roe7.terms import DamageType
from fightlog.rules.roe7.tokens import WeaponToken
from fightlog.rules.table import Scribe

MODES: Final = frozenset({"single", "auto", "suppressive", "multi", "aimed", "sneak"})
AUTO_SHOTS: Final = 3


@dataclass
class Shot:
    """One attack roll of an action."""

    token: WeaponToken
    weapon: Weapon | None
    target: str
    sides: int
    damage_sides: int
    band: Band
    index: int


@dataclass
class Hits:
    """What landed on one target in one action."""

    dice: list[tuple[WeaponToken, int, int]] = field(default_factory=list)  # token, sides, multiplier
    pierce: bool = False
    crit: bool = False
    cause: int | None = None
    half: bool = False


def attack_die(token: WeaponToken, where: Band) -> int:
    """Close 1d100; medium 1d20 (sniper 1d70); long 1d10 (sniper 1d60)."""
    if where == "close":
        return 100
    if where == "medium":
        return 70 if token.sniper else 20
    return 60 if token.sniper else 10


def can_crit(token: WeaponToken, where: Band) -> bool:
    """Only sniper-class weapons crit at medium or long range."""
    return where == "close" or token.sniper


def measure(scribe: Scribe, a: Fighter, t: Fighter, action: Action) -> int:
    """Metres between attacker and target: from positions, else the action's ``distance``,
    else the band named in ``range``."""
    if a.position is not None and t.position is not None:
        return distance(a.position, t.position)
    if action.distance is not None:
        return action.distance
    named = {"close": 10, "medium": 30, "long": 60, "melee": 1}.get(action.range or "")
    if named is None:
        raise RefusedError(f"how far is {t.actor} from {a.actor}? give positions, distance=METRES or range=close|medium|long")
    return named


def check_reach(a: Fighter, token: WeaponToken, metres: int, target: str) -> None:
    where = band(metres)
    if token.max_range_m is not None and metres > token.max_range_m:
        what = {
            "melee": "melee reach",
            "magika": "magika's close range",
            "firearm": "a flamer's reach",
        }[token.family]
        raise RefusedError(
            f"target out of range: {target} is {metres} m away, beyond {what} of {token.max_range_m} m ({token.text})"
        )
    if where != "close" and token.shotgun is False and token.close_only:
        raise RefusedError(f"target out of range: {token.text} works only at close range")


def check_ready(a: Fighter, token: WeaponToken) -> None:
    state = a.who.weapons.get(token.text)
    if state is None:
        return
    if state.needs_reload:
        what = "work the bolt" if token.sniper else "reload"
        raise RefusedError(f"{token.text} needs a reload first ({what}: one action{', two for chainfed' if token.chainfed else ''})")
    if state.cooldown > 0:
        why = "the shotgun is racking the next shell" if token.shotgun else "a heavy pistol fires once per turn"
        raise RefusedError(f"{token.text} cannot fire yet: {why}")


def _shots(token: WeaponToken, mode: str, where: Band, action: Action) -> tuple[int, int]:
    """(attack rolls, damage die sides) for one weapon's part of the action."""
    requested = action.params.get("shots")
    if token.family == "melee":
        swings = token.swings
        if isinstance(requested, int):
            if not 1 <= requested <= swings:
                raise RefusedError(f"{token.text} swings 1 to {swings} times per action, not {requested}")
            swings = requested
        return (1 if mode == "sneak" else swings), token.damage_sides
    if token.family == "magika":
        return 1, token.damage_sides
    if mode in ("auto", "suppressive"):
        if token.fire_mode != "automatic":
            raise RefusedError(f"{token.text} is not automatic: no {mode} fire")
        sides = token.damage_sides // 2 if mode == "suppressive" else token.damage_sides
        return AUTO_SHOTS, max(1, sides)
    if token.shotgun:
        if where == "close":
            return 1, token.close_range_damage_sides or token.damage_sides
        return AUTO_SHOTS, token.damage_sides
    if token.fires_twice and isinstance(requested, int):
        if not 1 <= requested <= 2:
            raise RefusedError(f"{token.text} fires once or twice per turn, not {requested} times")
        return requested, token.damage_sides
    return 1, token.damage_sides


def _accuracy(a: Fighter, token: WeaponToken, weapon: Weapon | None, dual: int, action: Action) -> Mods:
    opts = a.options
    if token.family == "melee":
        mods = a.mods("melee_accuracy", weapon)
    elif token.family == "magika":
        mods = a.mods("magika_accuracy", weapon)
        if a.effect("magika_surge") is not None:
            mods.append((10, "magika surge"))
    else:
        mods = a.mods("ranged_accuracy", weapon)
        if a.has("prone"):
            mods.append((opts.prone_accuracy_bonus, "prone"))
        elif a.has("kneeling"):
            mods.append((opts.kneel_bonus, "kneeling"))
    if a.effect("suppressed") is not None:
        mods.append((-opts.suppression_penalty, "suppressed"))
    if dual:
        mods.append((-dual, "dual wielding"))
    gm = action.params.get("gm")
    if isinstance(gm, int) and gm:
        if abs(gm) > opts.gm_modifier_limit:
            raise RefusedError(f"a GM circumstance modifier is within +/-{opts.gm_modifier_limit}, not {gm}")
        mods.append((gm, "GM circumstance"))
    return capped(mods, opts.modifier_cap)


def attack(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Resolve one ``attack`` action of ``actor``'s declaration (``declaration`` is its seq)."""
    state = scribe.state
    a = Fighter(state, actor)
    mode = action.mode or "single"
    if mode not in MODES:
        raise RefusedError(f"unknown attack mode {mode!r} (modes: {', '.join(sorted(MODES))})")
    if action.target is None:
        raise RefusedError("an attack needs a target (target=ID)")
    t = Fighter(state, action.target)
    if t.actor == actor:
        raise RefusedError("a combatant cannot attack themselves")
    if t.has("fled") or t.has("reserve") or t.has("left"):
        raise RefusedError(f"{t.actor} is not in the fight any more")
    token, weapon = a.weapon(action.weapon)
    volley: list[tuple[WeaponToken, Weapon | None, str]] = [(token, weapon, t.actor)]
    offhand_ref = action.params.get("offhand")
    dual = 0
    if isinstance(offhand_ref, str):
        second, second_weapon = a.weapon(offhand_ref)
        if token.text == "unarmed" or second.text == "unarmed":
            raise RefusedError("unarmed attacks cannot be dual wielded")
        if weapon is None or second_weapon is None or weapon is second_weapon:
            raise RefusedError("dual wielding needs two different weapons")
        if not a.sheet.can_dual_wield(weapon, second_weapon):
            raise RefusedError(f"a {a.sheet.size_class} character cannot dual wield {token.text} and {second.text}")
        if mode in ("auto", "suppressive", "aimed", "sneak") and mode != "auto":
            raise RefusedError(f"{mode} attacks are single-weapon attacks")
        other = action.params.get("offhand_target")
        volley.append((second, second_weapon, other if isinstance(other, str) else t.actor))
        larger = max(a.sheet.handling_size(weapon), a.sheet.handling_size(second_weapon), key="SMLH".index)
        dual = a.options.dual_penalty(larger)
    if t.out:
        scribe.emit(
            StatusChanged(
                actor=t.actor,
                status="wounded",
                cause=declaration,
                note=f"attacked while wounded: downed again, {a.options.wound_hours} more real hours",
            )
        )
        return
    shots: list[Shot] = []
    for tok, wpn, who in volley:
        target = Fighter(state, who)
        if target.out or target.has("fled") or who == actor:
            raise RefusedError(f"{who} cannot be attacked now")
        metres = measure(scribe, a, target, action)
        where = band(metres)
        check_reach(a, tok, metres, who)
        check_ready(a, tok)
        count, damage_sides = _shots(tok, mode, where, action)
        if mode in ("aimed", "sneak") and (dual or count > 1) and tok.family != "melee":
            raise RefusedError(f"{mode} attacks are single shots (not automatic, dual or multiple)")
        sides = attack_die(tok, where)
        shots.extend(Shot(tok, wpn, who, sides, damage_sides, where, i) for i in range(count))
    aim = a.effect("aim")
    aimed = mode == "aimed"
    if aimed:
        if aim is None or aim.params.get("target") != t.actor or not a.at_turn_start(aim):
            raise RefusedError(f"no aim on {t.actor} from a previous turn (aim target={t.actor} first, fire next turn)")
    sneak = False
    if mode == "sneak":
        sneak = _sneak_check(scribe, a, t, declaration)
    _resolve(scribe, a, shots, mode, dual, action, declaration, aimed=aimed, sneak=sneak)
    for tok, _, _ in volley:
        if tok.family == "firearm":
            fired = sum(1 for s in shots if s.token is tok)
            scribe.emit(ResourceSpent(actor=actor, resource=tok.text, amount=fired, cause=declaration))
    after = Fighter(scribe.state, actor)
    reloading = after.effect("reloading")
    if reloading is not None:
        conditions.expire(scribe, reloading, "interrupted")
    if aim is not None and Fighter(scribe.state, actor).effect("aim") is not None:
        conditions.expire(scribe, aim, "used" if aimed else "lost")
    if after.has("hidden"):
        scribe.emit(StatusChanged(actor=actor, status="hidden", on=False, cause=declaration, note="attacked"))
    if not after.has("engaged"):
        scribe.emit(StatusChanged(actor=actor, status="engaged", cause=declaration, note="first attack made"))


def _sneak_check(scribe: Scribe, a: Fighter, t: Fighter, declaration: int) -> bool:
    """Sneak Attacks: first attack of the combat, after hiding; a stealth roll against the
    target's perception confirms the attacker is unseen."""
    if not a.has("hidden"):
        raise RefusedError(f"{a.actor} is not hidden: a sneak attack needs an earlier hide action")
    if a.has("engaged"):
        raise RefusedError("a sneak attack must be the first attack of the combat")
    opts = a.options
    stealth, s_seq = scribe.roll(
        "1d100", roller=a.actor, purpose="stealth", modifiers=capped(a.mods("stealth"), opts.modifier_cap), for_seq=declaration
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
    opts = a.options
    defence: dict[str, tuple[int, int, int]] = {}  # target -> total, natural, seq
    hits: dict[str, Hits] = {}
    triggered: set[str] = set()
    lost_action = False
    through = action.params.get("through")
    for shot in shots:
        t = Fighter(scribe.state, shot.target)
        if shot.target not in defence or opts.dodge_per_shot:
            mods = t.dodge_mods(against="melee" if shot.token.family == "melee" else shot.token.family)
            if isinstance(through, str) and shot.token.family == "firearm":
                mods.append((opts.cover_bonus, f"{through} in the line of fire"))
            rolled, seq = scribe.roll(
                "1d100", roller=shot.target, purpose="dodge", modifiers=capped(mods, opts.modifier_cap), for_seq=declaration
            )
            defence[shot.target] = (rolled.total, rolled.dice[0].face, seq)
            if rolled.dice[0].face == 1:
                whole = t.racial == "advanced-prosthetics"
                conditions.lose_action(scribe, shot.target, whole_turn=whole, source="critical failure on defence", cause=seq)
        against, natural_def, def_seq = defence[shot.target]
        acc = _accuracy(a, shot.token, shot.weapon, dual, action)
        label = f"shot {shot.index + 1}" if len([s for s in shots if s.token is shot.token]) > 1 else None
        rolled, att_seq = scribe.roll(
            f"1d{shot.sides}", roller=a.actor, purpose="attack", modifiers=acc, for_seq=declaration, label=label
        )
        natural = rolled.dice[0].face
        crit_fail = natural == 1
        crit = natural == shot.sides and can_crit(shot.token, shot.band)
        notes: list[str] = []
        if crit_fail:
            hit = False
            notes.append("natural 1: the attack fails and the next action is lost")
            lost_action = True
        elif natural_def == 100:
            hit = False
            notes.append("critical dodge: natural 100")
        elif crit:
            hit = True
            notes.append(f"critical: natural {natural}, only a critical dodge stops it; damage dice doubled")
        elif natural_def == 1:
            hit = True
            notes.append("defender's natural 1: hit")
        else:
            hit = rolled.total > against
            if rolled.total == against:
                notes.append("tie: the defender wins")
        if natural == shot.sides and not crit:
            notes.append(f"natural {natural} is no critical at {shot.band} range without a sniper weapon")
        resolved = scribe.emit(
            AttackResolved(
                attacker=a.actor,
                target=shot.target,
                hit=hit,
                score=rolled.total,
                against=against,
                margin=rolled.total - against,
                critical="failure" if crit_fail else ("success" if crit and hit else None),
                rolls=[att_seq, def_seq],
                weapon=shot.token.text,
                declaration=declaration,
                notes=notes,
            )
        )
        if crit and hit and t.racial == "advanced-prosthetics":
            conditions.lose_action(scribe, shot.target, whole_turn=True, source="critical hit (Advanced Prosthetics)", cause=resolved)
        if not hit:
            if isinstance(through, str) and shot.token.family == "firearm":
                _stray(scribe, a, shot, rolled.total, through, declaration)
            continue
        bonus = 1 if not (aimed or sneak) else 2
        if aimed and Fighter(scribe.state, shot.target).dr(shot.token.damage_type) > 0:
            bonus = 1  # an aimed shot doubles only against the unarmoured; it ignores DR instead
        multiplier = 2 if crit else 1
        if bonus == 2:
            multiplier = 3 if crit else 2
        landed = hits.setdefault(shot.target, Hits())
        landed.dice.append((shot.token, shot.damage_sides, multiplier))
        landed.crit = landed.crit or crit
        landed.cause = resolved
        _effects(scribe, a, shot, natural, rolled.total, landed, triggered, resolved)
    if lost_action:
        conditions.lose_action(scribe, a.actor, whole_turn=False, source="critical failure", cause=declaration)
    for target, landed in sorted(hits.items()):
        _damage(scribe, a, target, landed, aimed=aimed)
    if mode == "suppressive":
        for target in sorted({s.target for s in shots}):
            conditions.apply(
                scribe, "suppressed", target, source=a.actor, duration=1, magnitude=-opts.suppression_penalty, cause=declaration
            )
    secondaries = action.params.get("secondaries")
    if isinstance(secondaries, str):
        first = shots[0]
        spraying = mode in ("auto", "suppressive") or (first.token.shotgun and first.band != "close")
        if not spraying:
            raise RefusedError("secondaries are for automatic fire (or a shotgun beyond close range) into a melee")
        _into_melee(
            scribe, a, [s for s in shots if s.target == first.target], secondaries, declaration,
            suppressive=mode == "suppressive",
        )


def _effects(
    scribe: Scribe, a: Fighter, shot: Shot, natural: int, total: int, landed: Hits, triggered: set[str], cause: int
) -> None:
    """Melee and magika effects on the unmodified die of a successful roll, once per action;
    a chemical weapon's burn on 60+."""
    token = shot.token
    opts = a.options
    if token.chemical:
        reached = natural if opts.burn_threshold_natural else total
        if reached >= opts.burn_threshold and "burn" not in triggered:
            triggered.add("burn")
            conditions.burn(scribe, shot.target, source=a.actor, cause=cause)
        return
    if token.family == "firearm" or not token.damage_kinds:
        return
    if natural < opts.effect_threshold(token.size):
        return
    for kind in token.damage_kinds:
        if kind in triggered:
            continue
        triggered.add(kind)
        if kind == "blunt":
            conditions.stun(scribe, shot.target, source=a.actor, cause=cause)
        elif kind == "slash":
            conditions.bleed(scribe, shot.target, source=a.actor, cause=cause)
        elif kind == "pierce":
            landed.pierce = True
        elif kind == "magika":
            conditions.apply(scribe, "magika_surge", a.actor, source=a.actor, duration=1, counts_on=a.actor, magnitude=10, cause=cause)
        elif kind == "whip":
            if not Fighter(scribe.state, shot.target).has("prone"):
                scribe.emit(StatusChanged(actor=shot.target, status="prone", cause=cause, note="knocked prone by a whip"))


def _damage(scribe: Scribe, a: Fighter, target: str, landed: Hits, *, aimed: bool, half: bool = False) -> None:
    """Damage dice of every hit on ``target`` summed, then the damage modifiers once, then DR
    once (Multiple/Automatic Shots; Armor; Dual Wielding for several damage types)."""
    opts = a.options
    t = Fighter(scribe.state, target)
    terms = [f"1d{sides}*{mult}" if mult > 1 else f"1d{sides}" for _, sides, mult in landed.dice]
    notation = " + ".join(terms)
    if half:
        notation = f"({notation}) // 2"
    types: list[DamageType] = sorted({tok.damage_type for tok, _, _ in landed.dice})
    extra: list[tuple[int, str]] = []
    if t.racial == "environmental-suit" and any(
        tok.damage_type == "ballistic" or "pierce" in tok.damage_kinds for tok, _, _ in landed.dice
    ):
        notation = f"{notation} + 1d10"
        extra.append((0, "Environmental Suit: +1d10 from ballistic or piercing"))
    mods = _mixed([a.damage_mods(kind) for kind in types], opts.modifier_cap)
    rolled, seq = scribe.roll(notation, roller=a.actor, purpose="damage", modifiers=mods, for_seq=landed.cause)
    raw = max(0, rolled.total)
    if landed.pierce or aimed:
        dr = 0
    else:
        drs = sorted((t.dr(kind) for kind in types), reverse=True)
        dr = min(opts.dr_cap, drs[0] + sum(d // 2 for d in drs[1:]))
    source = " + ".join(sorted({tok.text for tok, _, _ in landed.dice}))
    kind = types[0] if len(types) == 1 else "+".join(types)
    take(scribe, target, raw, dr, damage_type=kind, source=source, cause=seq, attacker=a.actor)


def _mixed(by_type: list[Mods], cap: int) -> Mods:
    """Damage modifiers of one action: one type's, capped; several types: the largest
    total, plus half of each other (rounded down), to the cap."""
    if len(by_type) == 1:
        return capped(by_type[0], cap)
    totals = sorted(((sum_mods(m), i) for i, m in enumerate(by_type)), reverse=True)
    out: Mods = list(by_type[totals[0][1]])
    for total, i in totals[1:]:
        if total:
            out.append((total // 2, "half of another damage type's modifiers"))
    return capped(out, cap)


def _stray(scribe: Scribe, a: Fighter, shot: Shot, score: int, ally: str, declaration: int) -> None:
    """Firing into Melee: an ally directly in the way dodges every shot that missed."""
    if ally not in scribe.state.combatants:
        raise RefusedError(f"through={ally}: {ally} is not in the fight")
    who = Fighter(scribe.state, ally)
    if who.out:
        return
    rolled, seq = scribe.roll(
        "1d100",
        roller=ally,
        purpose="dodge",
        modifiers=capped(who.dodge_mods(against="firearm"), a.options.modifier_cap),
        for_seq=declaration,
        label="in the line of fire",
    )
    hit = score > rolled.total and rolled.dice[0].face != 100
    resolved = scribe.emit(
        AttackResolved(
            attacker=a.actor,
            target=ally,
            hit=hit,
            score=score,
            against=rolled.total,
            rolls=[seq],
            weapon=shot.token.text,
            declaration=declaration,
            notes=["a missed shot at the ally in the line of fire"],
        )
    )
    if hit:
        landed = Hits(dice=[(shot.token, shot.damage_sides, 1)], cause=resolved)
        _damage(scribe, a, ally, landed, aimed=False)


def _into_melee(
    scribe: Scribe, a: Fighter, shots: list[Shot], names: str, declaration: int, *, suppressive: bool
) -> None:
    """Automatic fire into a melee: everyone else within 3 m of the primary target (or in the
    line of fire) dodges at +15 and takes half of the dice that hit them, with the full
    damage modifier."""
    opts = a.options
    primary = Fighter(scribe.state, shots[0].target)
    for name in [n for n in names.split(",") if n]:
        if name not in scribe.state.combatants:
            raise RefusedError(f"secondaries: {name} is not in the fight")
        who = Fighter(scribe.state, name)
        if who.out or name in (a.actor, primary.actor):
            continue
        if primary.position is not None and who.position is not None:
            if distance(primary.position, who.position) > opts.melee_bystander_range_m:
                raise RefusedError(
                    f"secondaries: {name} is not within {opts.melee_bystander_range_m} m of {primary.actor}"
                )
        mods = [*who.dodge_mods(against="firearm"), (opts.cover_bonus, "caught in a melee")]
        rolled, seq = scribe.roll(
            "1d100", roller=name, purpose="dodge", modifiers=capped(mods, opts.modifier_cap), for_seq=declaration
        )
        landed = Hits(half=True)
        results = [e for e in scribe.events if isinstance(e, AttackResolved) and e.declaration == declaration and e.target == primary.actor]
        for shot, result in zip(shots, results):
            if result.score > rolled.total and rolled.dice[0].face != 100:
                landed.dice.append((shot.token, shot.damage_sides, 1))
        resolved = scribe.emit(
            AttackResolved(
                attacker=a.actor,
                target=name,
                hit=bool(landed.dice),
                score=max((r.score for r in results), default=0),
                against=rolled.total,
                rolls=[seq],
                weapon=shots[0].token.text,
                declaration=declaration,
                notes=[f"caught in automatic fire at {primary.actor}: {len(landed.dice)} of {len(results)} shots, half damage"],
            )
        )
        if landed.dice:
            landed.cause = resolved
            _damage(scribe, a, name, landed, aimed=False, half=True)
        if suppressive:
            conditions.apply(
                scribe, "suppressed", name, source=a.actor, duration=1, magnitude=-opts.suppression_penalty, cause=declaration
            )
