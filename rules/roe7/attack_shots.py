"""Declaring an attack (ranges; Weapon Special Rules; Multiple/Automatic Shots; Dual
Wielding; Aimed Shots; Firing into Melee; Unarmed): the weapons used and at whom, how far,
reach and readiness, and every attack roll the action makes, refusing what the rules forbid
before any die is rolled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.rules.roe7.attack_rolls import attack_die
from fightlog.rules.roe7.fighters import UNARMED, Fighter
from fightlog.rules.roe7.geometry import CLOSE_MAX_M, LONG_MIN_M, Band, Point, band, distance
from fightlog.rules.roe7.sheet import Weapon
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.tokens import MELEE_REACH_M, WeaponToken
from fightlog.kit.declared import placed
from fightlog.kit.table import Post, Scribe

MODES: Final = frozenset({"single", "auto", "suppressive", "multi", "aimed", "sneak"})
AUTO_SHOTS: Final = 3
SHOTGUN_SPRAY_M: Final = 10
"""Firing into Melee: beyond 10 m a shotgun counts as automatic fire."""


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


def metres_of(mine: Point | None, theirs: Point | None, action: Action) -> tuple[int, int | None] | None:
    """Metres between attacker and target, and how near the target may be (``nearest_m``):
    from positions, else the action's ``distance`` (exact: no nearest), else the band named
    in ``range``; ``None`` when nothing says. Pure: the audit measures with it too."""
    if mine is not None and theirs is not None:
        return distance(mine, theirs), None
    if action.distance is not None:
        return action.distance, None
    named = NAMED_M.get(action.range or "")
    return None if named is None else (named, NEAREST_M.get(action.range or ""))


def within_reach(metres: int, nearest: int | None, token: WeaponToken) -> int:
    """The metres a shot is judged at: a named band the weapon can reach is taken at the
    weapon's reach (the attacker is within it), else ``metres``."""
    if nearest is not None and token.max_range_m is not None and nearest <= token.max_range_m < metres:
        return token.max_range_m
    return metres


def measure(scribe: Scribe, a: Fighter, t: Fighter, action: Action) -> int:
    """Metres between attacker and target (``metres_of``); refused when nothing says."""
    found = metres_of(a.position, t.position, action)
    if found is None:
        raise RefusedError(f"how far is {t.actor} from {a.actor}? give positions, distance=METRES or range=close|medium|long",
                           code="rules.incomplete")
    return found[0]


def band_off_the_map(state: SceneState, post: Post, caller: str | None) -> None:
    """Close, Medium and Long Range: refuse a ``range=`` the map contradicts, as the kit's
    ``off_the_map`` refuses a ``distance=`` (the table's check of a post asked for now, not of
    one re-derived from a log: ``Post.recorded``). With both positions kept the rules measure
    on the map and ``measure`` reads no band, so a band the post names must be the one the
    map gives: an attack's at its target (and ``offhand_target``), an interrupt's at
    ``caller``, from where the post's moves to ``x=`` ``y=`` before it left the actor;
    ``range=melee`` is within reach (3 m, or the weapon's longer reach). Without positions, a
    ``distance=`` given with a band must fall in it."""
    for action, here in placed(state, post):
        if action.range is None or action.type not in ("attack", "interrupt"):
            continue
        other = action.params.get("offhand_target")
        names = [caller] if action.type == "interrupt" else [action.target, other if isinstance(other, str) else None]
        for name in names:
            theirs = state.combatants.get(name or "")
            there = None if theirs is None else theirs.position
            if here is not None and there is not None:
                metres = distance(here, there)
                _in_band(state, post.actor, action, metres, f"{name} is {metres} m away on the map,",
                         "the rules measure it there: leave range= out")
            elif action.distance is not None:
                _in_band(state, post.actor, action, action.distance, f"distance={action.distance} is",
                         "give one or the other")


def _in_band(state: SceneState, actor: str, action: Action, metres: int, shown: str, fix: str) -> None:
    """Refuse ``action.range`` unless ``metres`` is in the band it names."""
    named = action.range
    if named not in NEAREST_M:
        raise RefusedError(f"range={named}: not a range band (close, medium, long or melee)", code="rules.incomplete")
    if named != "melee":
        if band(metres) != named:
            raise RefusedError(f"range={named}: {shown} at {band(metres)} range ({fix})", code="rules.range")
        return
    reach = MELEE_REACH_M
    if metres > reach:  # the weapons' own reach (a shafted weapon's or a whip's is longer)
        offhand = action.params.get("offhand")
        a = Fighter(state, actor)
        tokens = [a.weapon(action.weapon)[0]] + ([a.weapon(offhand)[0]] if isinstance(offhand, str) else [])
        reach = max([reach] + [t.max_range_m or 0 for t in tokens if t.family == "melee"])
    if metres > reach:
        raise RefusedError(f"range=melee: {shown} beyond melee reach of {reach} m ({fix})", code="rules.range")


NAMED_M: Final = {"close": 10, "medium": 30, "long": 60, "melee": 1}
"""The metres a named band (``range=``) stands for when neither positions nor ``distance`` give them."""
NEAREST_M: Final = {"melee": 0, "close": 0, "medium": CLOSE_MAX_M + 1, "long": LONG_MIN_M}
"""The nearest a named band can be, in metres."""


def nearest_m(a: Fighter, t: Fighter, action: Action) -> int | None:
    """How near the target may be when ``measure`` took the distance from a named band
    (``range=close`` is 10 m to it, but anything within the band); ``None`` when positions
    or ``distance`` give it exactly."""
    found = metres_of(a.position, t.position, action)
    return None if found is None else found[1]


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
    if token.family != "firearm":
        _check_mode(token, mode)
        if token.family == "magika":
            return 1, token.damage_sides
        return _swings(token, mode, requested), token.damage_sides
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


FIRE_MODES: Final = frozenset({"auto", "suppressive", "multi"})
"""Modes that are a weapon's way of firing (Multiple/Automatic Shots; Suppressive Fire), not
a kind of attack (``aimed``, ``sneak``): each weapon of the action must have it."""


def _check_mode(token: WeaponToken, mode: str) -> None:
    """A melee or magika weapon has no automatic or suppressive fire (automatic weapons
    only); ``multi`` only for melee that swings more than once (medium and small, unarmed:
    they use the multiple shot rules, Weapon Special Rules)."""
    if mode not in FIRE_MODES or (mode == "multi" and token.swings > 1):
        return
    kind = "a melee weapon" if token.family == "melee" else "magika"
    if mode == "multi":
        raise RefusedError(f"{token.text} attacks once per action ({kind}): no multi attack")
    raise RefusedError(f"{token.text} is {kind}, not automatic: no {mode} fire")


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


def volley_of(a: Fighter, t: Fighter, mode: str, action: Action) -> tuple[list[tuple[WeaponToken, Weapon | None, str]], int]:
    """The weapons used and at whom, and the dual-wielding penalty (0 with one weapon)."""
    token, weapon = a.weapon(action.weapon)
    volley: list[tuple[WeaponToken, Weapon | None, str]] = [(token, weapon, t.actor)]
    offhand_ref = action.params.get("offhand")
    if not isinstance(offhand_ref, str):
        if "offhand_target" in action.params:  # changes nothing without a second weapon: refused, not ignored
            raise RefusedError("offhand_target names the second weapon's target: declare the weapon with offhand=")
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


def aim_shots(
    scribe: Scribe, a: Fighter, volley: list[tuple[WeaponToken, Weapon | None, str]], mode: str, action: Action
) -> list[Shot]:
    """Every attack roll of the action, checked: reach, readiness, shots per weapon, and
    that aimed and sneak attacks are single basic attacks."""
    shots: list[Shot] = []
    for tok, wpn, who in volley:
        target = Fighter(scribe.state, who)
        if target.out or target.has("fled") or target.has("reserve") or who == a.actor:
            raise RefusedError(f"{who} cannot be attacked now", code="rules.target")
        nearest = nearest_m(a, target, action)
        metres = within_reach(measure(scribe, a, target, action), nearest, tok)
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


def check_secondaries(shots: list[Shot], mode: str, action: Action) -> None:
    """``secondaries=A,B`` only for fire that sprays (``into_melee.bystanders``)."""
    if "secondaries" in action.params and not _spraying(shots[0], mode):
        raise RefusedError("secondaries are for automatic fire (or a shotgun beyond 10 m) into a melee")

