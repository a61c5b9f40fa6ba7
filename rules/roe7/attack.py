"""Attacks (Basic Contested Roll; Critical Success or Failure; ranges; Weapon Special Rules;
Multiple/Automatic Shots; Suppressive Fire; Dual Wielding; Aimed Shots; Sneak Attacks;
Firing into Melee; Cover; Changing Stance; Unarmed; Armor).

``attack`` checks an ``attack`` action (refusing what the rules forbid, before any roll) and
resolves it: the defender's dodge, the attack dice by range band, criticals, the damage
tallied per target before modifiers and DR, then the effects the hits triggered (stun,
bleed, burn, prone; never on someone the damage took out of the fight), suppression and
ammunition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, ResourceSpent, StatusChanged
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import UNARMED, Fighter, Mods, capped, sum_mods
from fightlog.rules.roe7.geometry import CLOSE_MAX_M, LONG_MIN_M, Band, band, distance
from fightlog.rules.roe7.harm import take
from fightlog.rules.roe7.options import Roe7Options
from fightlog.rules.roe7.sheet import Weapon
from fightlog.rules.roe7.terms import DamageType
from fightlog.rules.roe7.tokens import WeaponToken
from fightlog.kit.table import Scribe

MODES: Final = frozenset({"single", "auto", "suppressive", "multi", "aimed", "sneak"})
AUTO_SHOTS: Final = 3
SHOTGUN_SPRAY_M: Final = 10
"""Firing into Melee: beyond 10 m a shotgun counts as automatic fire."""
BANDS: Final[tuple[Band, ...]] = ("close", "medium", "long")


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
    metres: int


@dataclass
class Hits:
    """What landed on one target in one action."""

    dice: list[tuple[WeaponToken, int, int]] = field(default_factory=list)  # token, sides, multiplier
    pierce: bool = False
    cause: int | None = None


@dataclass
class Triggered:
    """Effects the hits of one action triggered, each at most once per action (melee
    effects do not stack across hits): ``(kind, target, cause)`` in the order rolled."""

    kinds: set[str] = field(default_factory=set)
    debuffs: list[tuple[str, str, int]] = field(default_factory=list)
    surge: int | None = None


class Outcome(NamedTuple):
    """One attack roll against one defence: hit, critical success, critical failure."""

    hit: bool
    crit: bool
    fumble: bool
    notes: tuple[str, ...]

    @property
    def critical(self) -> Literal["success", "failure"] | None:
        """What ``attack_resolved.critical`` records: a fumble, or a critical that hit."""
        if self.fumble:
            return "failure"
        return "success" if self.crit and self.hit else None


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


def band_of_die(token: WeaponToken, sides: int) -> Band | None:
    """The range band an attack die of ``sides`` was rolled at with ``token`` (``attack_die``
    read backwards), or ``None`` when no band gives that die."""
    for where in BANDS:
        if attack_die(token, where) == sides:
            return where
    return None


def stray_hit(score: int, dodge_total: int, dodge_face: int) -> bool:
    """Firing into Melee: a shot hits an ally in the way, or someone caught in automatic
    fire, when it beats their dodge (a tie to the one dodging) and the dodge is not a
    natural 100."""
    return score > dodge_total and dodge_face != 100


_HIT: Final = Outcome(True, False, False, ())
_MISS: Final = Outcome(False, False, False, ())
_TIE: Final = Outcome(False, False, False, ("tie: the defender wins",))
"""``outcome``'s answers when no natural face decides (built once: it runs for every attack)."""


def outcome(natural: int, total: int, sides: int, crit_allowed: bool, defence: tuple[int, int], opts: Roe7Options) -> Outcome:
    """Basic Contested Roll and Critical Success or Failure: the higher wins, a tie goes to
    the defender; a natural 1 misses; the defender's natural 1 is hit; the attacker's natural
    maximum (where a crit is allowed) hits unless the defender rolls a natural 100, which
    dodges anything else too. ``defence`` is the dodge's (total, natural die)."""
    against, natural_def = defence
    if 1 < natural < sides and 1 < natural_def < 100:  # no natural face decides: the common case
        return _HIT if total > against else _TIE if total == against else _MISS
    crit = natural == sides and crit_allowed
    notes: list[str] = []
    if natural == 1 and not (natural_def == 1 and opts.both_natural_ones == "hit"):
        return Outcome(False, False, True, ("natural 1: the attack fails and the next action is lost",))
    if natural == sides and not crit:
        notes.append(f"natural {natural} is no critical at this range without a sniper weapon")
    if natural_def == 100:
        return Outcome(False, False, natural == 1, (*notes, "critical dodge: natural 100"))
    if crit:
        note = f"critical: natural {natural}, only a critical dodge stops it"
        return Outcome(True, True, False, (*notes, note))
    if natural_def == 1:
        return Outcome(True, False, natural == 1, (*notes, "defender's natural 1: hit"))
    if total == against:
        notes.append("tie: the defender wins")
    return Outcome(total > against, False, False, tuple(notes))


def measure(scribe: Scribe, a: Fighter, t: Fighter, action: Action) -> int:
    """Metres between attacker and target: from positions, else the action's ``distance``,
    else the band named in ``range``."""
    if a.position is not None and t.position is not None:
        return distance(a.position, t.position)
    if action.distance is not None:
        return action.distance
    named = {"close": 10, "medium": 30, "long": 60, "melee": 1}.get(action.range or "")
    if named is None:
        raise RefusedError(f"how far is {t.actor} from {a.actor}? give positions, distance=METRES or range=close|medium|long",
                           code="rules.incomplete")
    return named


NEAREST_M: Final = {"melee": 0, "close": 0, "medium": CLOSE_MAX_M + 1, "long": LONG_MIN_M}
"""The nearest a named band can be, in metres."""


def nearest_m(a: Fighter, t: Fighter, action: Action) -> int | None:
    """How near the target may be when ``measure`` took the distance from a named band
    (``range=close`` is 10 m to it, but anything within the band); ``None`` when positions
    or ``distance`` give it exactly."""
    if (a.position is not None and t.position is not None) or action.distance is not None:
        return None
    return NEAREST_M.get(action.range or "")


def check_reach(a: Fighter, token: WeaponToken, metres: int, target: str, *, nearest: int | None = None) -> None:
    """Melee reach (3 m, 6 m for shafted weapons and whips), a flamer's 8 m, magika's close
    range: weapons useful only at close range do not work beyond it. ``nearest``: how near
    the target may be when ``metres`` came from a named band (``nearest_m``): within reach,
    the post is refused as too vague (``rules.incomplete``), not as out of range."""
    if token.max_range_m is not None and metres > token.max_range_m:
        if nearest is not None and nearest <= token.max_range_m:
            raise RefusedError(
                f"how far is {target}? range={band(metres)} is taken as {metres} m, beyond the reach of "
                f"{token.text} ({token.max_range_m} m): give distance=METRES, range=melee or positions",
                code="rules.incomplete",
            )
        what = {
            "melee": "melee reach",
            "magika": "magika's close range",
            "firearm": "a flamer's reach",
        }[token.family]
        raise RefusedError(
            f"target out of range: {target} is {metres} m away, beyond {what} of {token.max_range_m} m ({token.text})",
            code="rules.range",
        )


def check_ready(a: Fighter, token: WeaponToken) -> None:
    """A weapon that must be reloaded (or its bolt worked) or is still racking cannot fire."""
    state = a.who.weapons.get(token.text)
    if state is None:
        return
    if state.needs_reload:
        what = "work the bolt" if token.sniper else "reload"
        raise RefusedError(
            f"{token.text} needs a reload first ({what}: one action{', two for chainfed' if token.chainfed else ''})",
            code="rules.reload",
        )
    if state.cooldown > 0:
        why = "the shotgun is racking the next shell" if token.shotgun else "a heavy pistol fires once per turn"
        raise RefusedError(f"{token.text} cannot fire yet: {why}", code="rules.reload")


def _shots(token: WeaponToken, mode: str, where: Band, action: Action) -> tuple[int, int]:
    """(attack rolls, damage die sides) for one weapon's part of the action."""
    requested = action.params.get("shots")
    if token.family == "melee":
        return _swings(token, mode, requested), token.damage_sides
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
    if token.fires_twice:
        count = requested if isinstance(requested, int) else (2 if mode == "multi" else 1)
        if not 1 <= count <= 2:
            raise RefusedError(f"{token.text} fires once or twice per turn, not {count} times")
        return count, token.damage_sides
    if mode == "multi" or (isinstance(requested, int) and requested != 1):
        raise RefusedError(f"{token.text} fires one shot per action (automatic weapons: mode=auto)")
    return 1, token.damage_sides


def _swings(token: WeaponToken, mode: str, requested: object) -> int:
    """Medium melee swings twice, small (and unarmed) three times; an aimed or sneak attack
    is one basic attack."""
    if mode in ("aimed", "sneak"):
        return 1
    if not isinstance(requested, int):
        return token.swings
    if not 1 <= requested <= token.swings:
        allowed = "once" if token.swings == 1 else f"1 to {token.swings} times"
        raise RefusedError(f"{token.text} swings {allowed} per action, not {requested}")
    return requested


def accuracy(a: Fighter, token: WeaponToken, weapon: Weapon | None, dual: int, action: Action) -> Mods:
    """Attack modifiers, capped: the sheet's for the weapon's family (and attachments),
    magika surge, stance (ranged only), suppression, dual wielding, Adaptability's -5 with
    guns, a GM circumstance modifier (within +/-5)."""
    opts = a.options
    if token.family == "melee":
        mods = a.mods("melee_accuracy", weapon)
    elif token.family == "magika":
        mods = a.mods("magika_accuracy", weapon)
        if a.effect("magika_surge") is not None:
            mods.append((10, "magika surge"))
    else:
        mods = a.mods("ranged_accuracy", weapon) + a.racial_tech_mods()
        if a.has("prone"):
            mods.append((opts.prone_accuracy_bonus, "prone"))
        elif a.has("kneeling"):
            mods.append((opts.kneel_bonus, "kneeling"))
    if a.effect("suppressed") is not None:
        mods.append((-opts.suppression_penalty, "suppressed"))
    if dual:
        mods.append((-dual, "dual wielding"))
    return capped(mods + gm_modifier(action, opts), opts.modifier_cap)


def gm_modifier(action: Action, opts: Roe7Options) -> Mods:
    """A GM's circumstance modifier (``gm=N``): within +/-5 (Skill Rolls)."""
    gm = action.params.get("gm")
    if not isinstance(gm, int) or isinstance(gm, bool) or gm == 0:
        return []
    if abs(gm) > opts.gm_modifier_limit:
        raise RefusedError(f"a GM circumstance modifier is within +/-{opts.gm_modifier_limit}, not {gm}")
    return [(gm, "GM circumstance")]


# ---------------------------------------------------------------------- the action


def attack(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Resolve one ``attack`` action of ``actor``'s declaration (``declaration`` is its seq)."""
    state = scribe.state
    a = Fighter(state, actor)
    mode = action.mode or "single"
    if mode not in MODES:
        raise RefusedError(f"unknown attack mode {mode!r} (modes: {', '.join(sorted(MODES))})")
    if action.target is None:
        raise RefusedError("an attack needs a target (target=ID)", code="rules.target")
    t = Fighter(state, action.target)
    if t.actor == actor:
        raise RefusedError("a combatant cannot attack themselves", code="rules.target")
    if t.has("fled") or t.has("reserve") or t.has("left"):
        raise RefusedError(f"{t.actor} is not in the fight any more", code="rules.target")
    volley, dual = _volley(a, t, mode, action)
    if t.out:
        _attacked_while_wounded(scribe, a, t, declaration)
        return
    shots = _aim_shots(scribe, a, volley, mode, action)
    _check_secondaries(shots, mode, action)
    aim = a.effect("aim")
    aimed = mode == "aimed"
    if aimed and (aim is None or aim.params.get("target") != t.actor or not a.at_turn_start(aim)):
        raise RefusedError(f"no aim on {t.actor} from a previous turn (aim target={t.actor} first, fire next turn)")
    sneak = mode == "sneak" and _sneak_check(scribe, a, t, declaration)
    _resolve(scribe, a, shots, mode, dual, action, declaration, aimed=aimed, sneak=sneak)
    _after(scribe, a, volley, shots, declaration, aimed=aimed)


def _volley(a: Fighter, t: Fighter, mode: str, action: Action) -> tuple[list[tuple[WeaponToken, Weapon | None, str]], int]:
    """The weapons used and at whom, and the dual-wielding penalty (0 with one weapon)."""
    token, weapon = a.weapon(action.weapon)
    volley: list[tuple[WeaponToken, Weapon | None, str]] = [(token, weapon, t.actor)]
    offhand_ref = action.params.get("offhand")
    if not isinstance(offhand_ref, str):
        return volley, 0
    second, second_weapon = a.weapon(offhand_ref)
    if token.text == UNARMED or second.text == UNARMED:
        raise RefusedError("unarmed attacks cannot be dual wielded")
    if weapon is None or second_weapon is None or weapon is second_weapon:
        raise RefusedError("dual wielding needs two different weapons")
    if not a.sheet.can_dual_wield(weapon, second_weapon):
        raise RefusedError(f"a {a.sheet.size_class} character cannot dual wield {token.text} and {second.text}")
    if mode in ("aimed", "sneak"):
        raise RefusedError(f"{mode} attacks give no bonus when dual wielding: declare a plain dual attack")
    other = action.params.get("offhand_target")
    volley.append((second, second_weapon, other if isinstance(other, str) else t.actor))
    larger = max(a.sheet.handling_size(weapon), a.sheet.handling_size(second_weapon), key="SMLH".index)
    return volley, a.options.dual_penalty(larger)


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


def _aim_shots(
    scribe: Scribe, a: Fighter, volley: list[tuple[WeaponToken, Weapon | None, str]], mode: str, action: Action
) -> list[Shot]:
    """Every attack roll of the action, checked: reach, readiness, shots per weapon, and
    that aimed and sneak attacks are single basic attacks."""
    shots: list[Shot] = []
    for tok, wpn, who in volley:
        target = Fighter(scribe.state, who)
        if target.out or target.has("fled") or target.has("reserve") or who == a.actor:
            raise RefusedError(f"{who} cannot be attacked now", code="rules.target")
        metres = measure(scribe, a, target, action)
        nearest = nearest_m(a, target, action)
        if nearest is not None and tok.max_range_m is not None and nearest <= tok.max_range_m < metres:
            metres = tok.max_range_m  # a named band the weapon can reach: the attacker is within its reach
        where = band(metres)
        check_reach(a, tok, metres, who, nearest=nearest)
        check_ready(a, tok)
        count, damage_sides = _shots(tok, mode, where, action)
        if mode in ("aimed", "sneak"):
            if tok.family == "magika":
                raise RefusedError(f"{mode} attacks are basic attacks: not with magika")
            if count > 1:
                raise RefusedError(f"{mode} attacks are single shots (not automatic, dual or multiple)")
        sides = attack_die(tok, where)
        shots.extend(Shot(tok, wpn, who, sides, damage_sides, where, i, metres) for i in range(count))
    return shots


def _spraying(shot: Shot, mode: str) -> bool:
    """Automatic (or suppressive) fire, or a shotgun beyond 10 m (Firing into Melee)."""
    return mode in ("auto", "suppressive") or (shot.token.shotgun and shot.metres > SHOTGUN_SPRAY_M)


def _check_secondaries(shots: list[Shot], mode: str, action: Action) -> None:
    if "secondaries" in action.params and not _spraying(shots[0], mode):
        raise RefusedError("secondaries are for automatic fire (or a shotgun beyond 10 m) into a melee")


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
        conditions.expire(scribe, reloading, "interrupted")
    aim = after.effect("aim")
    if aim is not None:
        conditions.expire(scribe, aim, "used" if aimed else "lost")
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
    opts = a.options
    defence: dict[str, tuple[int, int, int]] = {}  # target -> total, natural, seq
    hits: dict[str, Hits] = {}
    triggered = Triggered()
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
        resolved = scribe.emit(
            AttackResolved(
                attacker=a.actor,
                target=shot.target,
                hit=result.hit,
                score=rolled.total,
                against=against,
                margin=rolled.total - against,
                critical=result.critical,
                rolls=[att_seq, def_seq],
                weapon=shot.token.text,
                declaration=declaration,
                notes=list(result.notes),
            )
        )
        if result.crit and result.hit and t.racial == "advanced-prosthetics":
            conditions.lose_action(scribe, shot.target, whole_turn=True, source="critical hit (Advanced Prosthetics)", cause=resolved)
        if not result.hit:
            if isinstance(through, str) and shot.token.family == "firearm":
                _stray(scribe, a, shot, rolled.total, through, declaration)
            continue
        doubled = sneak or (aimed and not t.armoured(shot.token.damage_type))
        multiplier = (3 if doubled else 2) if result.crit else (2 if doubled else 1)
        landed = hits.setdefault(shot.target, Hits())
        landed.dice.append((shot.token, shot.damage_sides, multiplier))
        landed.cause = resolved
        _trigger(a, shot, natural, rolled.total, landed, triggered, resolved)
    if lost_action:
        conditions.lose_action(scribe, a.actor, whole_turn=False, source="critical failure", cause=declaration)
    if triggered.surge is not None:
        conditions.apply(
            scribe, "magika_surge", a.actor, source=a.actor, duration=1, counts_on=a.actor, magnitude=10, cause=triggered.surge
        )
    dealer = Fighter(scribe.state, a.actor) if opts.magika_surge_same_action else a
    for target, landed in sorted(hits.items()):
        _damage(scribe, dealer, target, landed, ignore_armour=aimed or landed.pierce)
    _debuffs(scribe, a, triggered)
    if mode == "suppressive":
        for target in sorted({s.target for s in shots}):
            _suppress(scribe, a, target, declaration)
    secondaries = action.params.get("secondaries")
    if isinstance(secondaries, str):
        first = shots[0]
        _into_melee(
            scribe, dealer, [s for s in shots if s.target == first.target], secondaries, declaration,
            suppressive=mode == "suppressive",
        )


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


def _trigger(a: Fighter, shot: Shot, natural: int, total: int, landed: Hits, triggered: Triggered, cause: int) -> None:
    """Melee and magika effects on the unmodified die of a successful roll (70/75/80 by
    size), once per action; a chemical weapon's burn on 60+."""
    token = shot.token
    opts = a.options
    if token.chemical:
        reached = natural if opts.burn_threshold_natural else total
        if reached >= opts.burn_threshold and "burn" not in triggered.kinds:
            triggered.kinds.add("burn")
            triggered.debuffs.append(("burn", shot.target, cause))
        return
    if token.family == "firearm" or not token.damage_kinds or natural < opts.effect_threshold(token.size):
        return
    for kind in token.damage_kinds:
        if kind in triggered.kinds:
            continue
        triggered.kinds.add(kind)
        if kind == "pierce":
            landed.pierce = True
        elif kind == "magika":
            triggered.surge = cause
        else:
            triggered.debuffs.append((kind, shot.target, cause))


def _debuffs(scribe: Scribe, a: Fighter, triggered: Triggered) -> None:
    """The triggered effects, after the damage: blunt stuns, slash bleeds, a whip knocks
    prone, a flamer burns; none lands on someone the damage took out of the fight."""
    for kind, target, cause in triggered.debuffs:
        if Fighter(scribe.state, target).out:
            continue
        if kind == "blunt":
            conditions.stun(scribe, target, source=a.actor, cause=cause)
        elif kind == "slash":
            conditions.bleed(scribe, target, source=a.actor, cause=cause)
        elif kind == "burn":
            conditions.burn(scribe, target, source=a.actor, cause=cause)
        elif kind == "whip" and not Fighter(scribe.state, target).has("prone"):
            scribe.emit(StatusChanged(actor=target, status="prone", cause=cause, note="knocked prone by a whip"))


def _suppress(scribe: Scribe, a: Fighter, target: str, declaration: int) -> None:
    """Suppressive Fire: -15 accuracy until the end of the target's next turn."""
    opts = a.options
    conditions.apply(
        scribe, "suppressed", target, source=a.actor, duration=1, magnitude=-opts.suppression_penalty, cause=declaration
    )


def _damage(scribe: Scribe, a: Fighter, target: str, landed: Hits, *, ignore_armour: bool, half: bool = False) -> None:
    """Damage dice of every hit on ``target`` summed, then the damage modifiers once, then DR
    once (Multiple/Automatic Shots; Armor; Dual Wielding for several damage types)."""
    opts = a.options
    t = Fighter(scribe.state, target)
    terms = [f"1d{sides}*{mult}" if mult > 1 else f"1d{sides}" for _, sides, mult in landed.dice]
    notation = " + ".join(terms)
    if half:
        notation = f"({notation}) // 2"
    types: list[DamageType] = sorted({tok.damage_type for tok, _, _ in landed.dice})
    if t.racial == "environmental-suit" and any(
        tok.damage_type == "ballistic" or "pierce" in tok.damage_kinds for tok, _, _ in landed.dice
    ):
        notation = f"{notation} + 1d10"
    mods = mixed([a.damage_mods(kind) for kind in types], opts.modifier_cap)
    rolled, seq = scribe.roll(notation, roller=a.actor, purpose="damage", modifiers=mods, for_seq=landed.cause)
    raw = max(0, rolled.total)
    drs = sorted((t.dr(kind, ignore_armour=ignore_armour) for kind in types), reverse=True)
    dr = min(opts.dr_cap, drs[0] + sum(d // 2 for d in drs[1:]))
    source = " + ".join(sorted({tok.text for tok, _, _ in landed.dice}))
    kind = types[0] if len(types) == 1 else "+".join(types)
    unarmed = all(tok.text == UNARMED for tok, _, _ in landed.dice)
    take(scribe, target, raw, dr, damage_type=kind, source=source, cause=seq, attacker=a.actor, mortal=not unarmed)


def mixed(by_type: list[Mods], cap: int) -> Mods:
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
        raise RefusedError(f"through={ally}: {ally} is not in the fight", code="rules.target")
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
    hit = stray_hit(score, rolled.total, rolled.dice[0].face)
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
        _damage(scribe, a, ally, landed, ignore_armour=False)


def _into_melee(
    scribe: Scribe, a: Fighter, shots: list[Shot], names: str, declaration: int, *, suppressive: bool
) -> None:
    """Automatic fire into a melee: everyone else within 3 m of the primary target (or in the
    line of fire) dodges at +15 and takes half of the dice that hit them, with the full
    damage modifier. Each secondary rolls the dice of the shots that hit them."""
    opts = a.options
    primary = Fighter(scribe.state, shots[0].target)
    results = [
        e for e in scribe.events
        if isinstance(e, AttackResolved) and e.declaration == declaration and e.target == primary.actor and e.weapon
    ]
    for name in [n for n in names.split(",") if n]:
        if name not in scribe.state.combatants:
            raise RefusedError(f"secondaries: {name} is not in the fight", code="rules.target")
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
        landed = Hits()
        for shot, result in zip(shots, results):
            if stray_hit(result.score, rolled.total, rolled.dice[0].face):
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
            _damage(scribe, a, name, landed, ignore_armour=False, half=True)
        if suppressive:
            _suppress(scribe, a, name, declaration)
