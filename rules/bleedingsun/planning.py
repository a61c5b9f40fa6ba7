"""Planning a post's attacks before any die (Attacking; Splitting an Attack Pool; Attacker
Modifier; Fire Type; Burst Mode; Recoil; Gang Up; Shotguns and Flamers; Attacks of
Opportunity; Coup de Gras): each attack's weapon, mode, targets and range bands, and the
dice of its share of the pool. The table plans with these and refuses what they refuse;
the audit recomputes a logged attack's pool with the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.arithmetic import (BURSTS, RANGES, SPREAD_AP, SPREAD_RANGES, band_of,
                                                    burst_recoil)
from fightlog.rules.bleedingsun import grapple
from fightlog.kit.actions import value_written
from fightlog.rules.bleedingsun.post_params import COVER, check_caught, check_params
from fightlog.rules.bleedingsun.card import WeaponCard
from fightlog.rules.bleedingsun.economy import opening_stance, stance_named
from fightlog.rules.bleedingsun.fighters import AIM, FROZEN, Fighter

LIGHT: Final = {"normal": 0, "dark": 2, "heavy": 4, "total": 6}
ATTACKS: Final = frozenset({"attack", "throw", "trip", "aoo", "coup_de_grace"})
_COVER_CHOICES: Final = {"none": 0, **COVER}
MANEUVER_PENALTY: Final = (4, 6)
"""A combat maneuver's penalty: melee, ranged."""


class Plan(NamedTuple):
    """One planned attack (see the module docstring)."""

    number: int
    kind: str
    weapon: WeaponCard
    mode: str
    target: str
    caught: tuple[tuple[str, int], ...]
    bands: tuple[str, ...]
    dice: int
    notes: tuple[str, ...]
    melee: bool
    targeted: str | None
    action: Action


class Planned(NamedTuple):
    plans: tuple[Plan, ...]
    recoil: int
    total: int


def hexes(count: int) -> str:
    return f"{count} hex" if count == 1 else f"{count} hexes"


MOST_HEXES: Final = 1000
"""The most hexes a target may be named away (a sheet's longest range)."""


def _hexes_of(action: Action, written: str, value: object) -> int:
    """``value`` (``written`` so) as hexes away: a whole number from 0 to ``MOST_HEXES``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_HEXES:
        raise RefusedError(f"{action.type}: {written}: hexes away, a whole number from 0 to {MOST_HEXES}",
                           code="rules.incomplete")
    return value


def _choice(action: Action, key: str, table: dict[str, int], default: str) -> str:
    value = value_written(action.params.get(key, default))
    if value not in table:
        raise RefusedError(f"{action.type}: {key}={value}: one of {', '.join(table)}", code="rules.incomplete")
    return value


def mode_of(weapon: WeaponCard, action: Action) -> str:
    """The fire mode of a ranged attack (refused when the weapon lacks it: ``rules.fire-mode``)."""
    if weapon.kind != "ranged":
        return "single"
    fire = weapon.fire
    default = "single" if ("SS" in fire or "SA" in fire) else "2rb" if "2RB" in fire else "3rb" if "3RB" in fire \
        else "auto"
    mode = action.mode or default
    burst = BURSTS.get(mode)
    if burst is None:
        raise RefusedError(f"mode={mode!r}: one of {', '.join(BURSTS)}", code="rules.fire-mode")
    if not any(f in fire for f in burst.fire):
        raise RefusedError(f"the {weapon.name} cannot fire {mode} (fire types {'/'.join(fire)})", code="rules.fire-mode")
    return mode


def _attacks_used(weapon: WeaponCard, mode: str) -> int:
    """Attacks of the rate of fire a shot takes: an SA weapon's burst takes one a bullet."""
    if mode in ("2rb", "3rb") and mode.upper() not in weapon.fire:
        return BURSTS[mode].bullets  # an SA weapon tapped in rapid succession
    return 1


_WITHIN_REACH: Final = frozenset({"coup_de_grace", "trip"})
"""Attacks made at a target within reach (a coup de grace, a trip): at short range, any
weapon, with no distance said."""


def band(state: SceneState, who: Fighter, weapon: WeaponCard, action: Action, distance: int | None, *,
         aimed: bool = True) -> str:
    """The range band of an attack at ``distance`` hexes (or ``range=``; for the ``aimed``
    target, both given, they must agree: a spread's other targets take theirs from their own
    hexes); a melee attack is at short range within its reach, and names no band."""
    if action.range is not None and action.range not in RANGES:
        raise RefusedError(f"range={action.range!r}: one of {', '.join(RANGES)}", code="rules.range")
    if weapon.kind == "melee":
        if action.range not in (None, "short"):
            raise RefusedError(f"range={action.range}: the {weapon.name} is a melee weapon, it reaches "
                               f"{hexes(weapon.reach)} (give distance=N, or nothing)", code="rules.range")
        if distance is not None and distance > weapon.reach:
            raise RefusedError(f"the {weapon.name} reaches {hexes(weapon.reach)}: {distance} is beyond",
                               code="rules.range")
        return "short"
    limits = SPREAD_RANGES[weapon.spread] if weapon.spread else weapon.ranges
    if distance is None and action.range is None and limits and action.type not in _WITHIN_REACH:  # no map
        raise RefusedError(f"how far is {action.target or 'the target'}? the {weapon.name} reaches "
                           f"{'/'.join(map(str, limits))} hexes (short/medium/long/extreme): give distance=N (hexes) "
                           "or range=BAND", code="rules.range")
    if distance is None or not limits:
        return action.range or "short"
    found = band_of(distance, limits)
    if found is None:
        raise RefusedError(f"{distance} hexes is beyond the {weapon.name}'s extreme range", code="rules.range")
    if aimed and action.range is not None and action.range != found:
        raise RefusedError(f"range={action.range}, but {hexes(distance)} is {found} range for the {weapon.name} "
                           f"({'/'.join(map(str, limits))}): give one of them", code="rules.range")
    return found


def caught_of(action: Action, target: str) -> tuple[tuple[str, int], ...]:
    """A spread's or a blast's targets with their hexes (``d_ID=N`` for a spread, ``caught=ID:N``
    for a blast; the aimed target at ``distance`` or 0)."""
    out = [(target, action.distance or 0)] if target else []
    if action.type == "throw":
        out = [(target, 0)] if target and action.params.get("lob") is not True else []
        for part in str(action.params.get("caught", "")).split(","):
            if part:
                name, _, hexes = part.partition(":")
                if not hexes.isdigit() or not name:
                    raise RefusedError(f"caught={part!r}: write ID:HEXES", code="rules.incomplete")
                count = int(hexes) if len(hexes) <= 6 else MOST_HEXES + 1  # (longer: too far anyway)
                out.append((name, _hexes_of(action, f"caught={part}", count)))
        return tuple(out)
    for name in action.targets:
        if name != target:
            value = action.params.get(f"d_{name}", action.distance or 0)
            out.append((name, _hexes_of(action, f"d_{name}={value_written(value)}", value)))
    return tuple(out)


def _kind(action: Action, weapon: WeaponCard) -> str:
    if action.type == "throw":
        return "blast"
    if action.type in ("trip", "aoo", "coup_de_grace"):
        return action.type
    return "spread" if weapon.spread else "attack"


def stance_at(who: Fighter, actions: Sequence[Action]) -> str | None:
    """The attacker's stance at a post's attacks: the stance the post starts from (the
    ``from`` the table writes into its first stance change, else the folded stance), changed
    by each stance change posted before its first attack (a post's actions happen in the
    order given: crouch, then fire, fires crouched; fire, then crouch, fires standing). The
    table's check (before the post's changes are folded), its resolution and the audit
    (after) read the same stance."""
    stance = opening_stance(actions, who.stance)
    for action in actions:
        if action.type in ATTACKS:
            break
        if action.type == "stance":
            stance = stance_named(action.params.get("to"))
    return stance


def attacker_mods(who: Fighter, weapon: WeaponCard, action: Action, earlier: Sequence[Action],
                  stance: str | None = None) -> list[tuple[int, str]]:
    """Modifiers of the attacker's own situation (stance, aim, sprinting, light, higher ground,
    a melee attacker in reach, stagger, perks); ``stance``: at the attack (``stance_at``)."""
    melee = weapon.kind == "melee"
    mods: list[tuple[int, str]] = []
    if not melee and stance == "crouched":
        mods.append((1, "crouching"))
    if not melee and stance == "prone":
        mods.append((2, "prone"))
    if melee and stance == "prone":
        mods.append((-4, "prone melee attack"))
    if any(e.params.get("weapon") in (weapon.name, None, "") for e in who.effects(AIM)) and not melee:
        mods.append((1, "aiming"))
    if not melee and any(a.type == "sprint" for a in earlier):
        mods.append((-2, "sprinting"))
    light = _choice(action, "light", LIGHT, "normal")
    if LIGHT[light]:
        mods.append((-LIGHT[light], f"{light} darkness"))
    if action.params.get("high") is True:
        mods.append((2, "better positioning"))
    if not melee and action.params.get("threatened") is True:
        mods.append((-3, "a melee attacker in reach"))
    grappled = grapple.penalty(who.state, who.actor)
    if grappled:
        mods.append((-grappled, "in a grapple"))
    stagger = who.stagger()
    if stagger:
        mods.append((-stagger, "staggered"))
    card = who.card
    perks = card.perk_sum("attack") + card.perk_sum("melee" if melee else "ranged")
    if perks:
        mods.append((perks, "perks"))
    return mods


def target_mods(state: SceneState, who: Fighter, weapon: WeaponCard, action: Action, kind: str,
                gang_max: int) -> list[tuple[int, str]]:
    """Modifiers of one attack's target (cover, firing into melee, gang up, a maneuver)."""
    melee = weapon.kind == "melee"
    mods: list[tuple[int, str]] = []
    cover = _choice(action, "cover", _COVER_CHOICES, "none")
    if COVER.get(cover) and kind not in ("spread", "blast"):
        mods.append((-COVER[cover], f"{cover} cover"))
    if not melee and action.params.get("into_melee") is True:
        mods.append((-2, "firing into melee"))
    named = action.params.get("gang", "")
    gang = [a for a in str(named).split(",") if a] if named != "" else []
    if gang:
        if not melee:
            raise RefusedError("gang up is for melee attacks", code="rules.gang-up")
        twice = sorted({a for a in gang if gang.count(a) > 1})
        if twice:  # each other ally threatening the foe counts once (Gang Up)
            raise RefusedError(f"gang={named}: {', '.join(twice)} named twice (each ally counts once)",
                               code="rules.gang-up")
        for ally in gang:
            friend = Fighter(state, ally)
            if friend.out or state.combatants[ally].side != who.who.side or ally == who.actor:
                raise RefusedError(f"gang={ally}: an ally standing, not the attacker", code="rules.gang-up")
        mods.append((min(len(gang), gang_max), f"gang up ({len(gang)} {'ally' if len(gang) == 1 else 'allies'})"))
    if kind == "trip":
        mods.append((-MANEUVER_PENALTY[0 if melee else 1], "maneuver"))
    return mods


def _shares(chosen: Sequence[Action], total: int, recoil: int) -> list[int]:
    """A split pool's shares: those given (``dice=N``), the rest split evenly over the other
    attacks, the first ones taking a die more."""
    given = [a.params.get("dice") for a in chosen]
    for d in given:  # a share is some of the pool: a whole number of dice, at least 1
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
            raise RefusedError(f"dice={d!r}: a share of the pool is a whole number of dice, at least 1",
                               code="rules.split")
    fixed = sum(int(d) for d in given if isinstance(d, int))
    free = [i for i, d in enumerate(given) if not isinstance(d, int)]
    if fixed > total:
        raise RefusedError(f"the shares ({fixed} dice) exceed the pool of {total}"
                           + (f" after recoil {recoil}" if recoil else ""),
                           code="rules.recoil" if recoil and fixed <= total + recoil else "rules.split")
    left = total - fixed
    shares = [int(d) if isinstance(d, int) else 0 for d in given]
    for n, i in enumerate(free):
        shares[i] = left // len(free) + (1 if n < left % len(free) else 0)
    return shares


def plan(state: SceneState, actor: str, actions: Sequence[Action], earlier: Sequence[Action] = (), *,
         strict: bool = False) -> Planned:
    """Every attack of a post, planned (see the module docstring): refused with the rule at
    fault (weapon, fire mode, rate of fire, range, split, a pool below 1 under ``no_roll``);
    ``strict`` (a post asked for now): a param no attack reads too."""
    who = Fighter(state, actor)
    options = who.options
    chosen = [a for a in actions if a.type in ATTACKS]
    if not chosen:
        return Planned((), 0, 0)
    weapons = [who.weapon(a.weapon) for a in chosen]
    if len(chosen) > 1 and len({w.name for w, a in zip(weapons, chosen) if a.type == "attack"}) > 1:
        raise RefusedError("a split pool attacks with one weapon (two weapon fighting is not played)",
                           code="rules.split")
    modes = [mode_of(w, a) if a.type == "attack" else "single" for w, a in zip(weapons, chosen)]
    for weapon, action in zip(weapons, chosen):
        if action.type == "throw" and weapon.kind != "explosive":
            raise RefusedError(f"the {weapon.name} is not an explosive to throw", code="rules.not-carried")
        if action.type in ("attack", "aoo") and weapon.kind == "explosive":
            raise RefusedError(f"the {weapon.name} is thrown (throw weapon={weapon.name})", code="rules.not-carried")
        if action.type == "aoo" and weapon.kind != "melee":
            raise RefusedError("an attack of opportunity is made with a melee weapon", code="rules.aoo")
    shots = [(w, m) for w, m, a in zip(weapons, modes, chosen) if a.type == "attack"]
    if shots:
        weapon = shots[0][0]
        used = sum(_attacks_used(w, m) for w, m in shots)
        fewer = [why for why, applies in (("frozen", bool(who.effects(FROZEN))), ("a grenade lobbed this round", any(
            a.type == "throw" and a.params.get("lob") is True for a in (*earlier, *actions)))) if applies]
        rof = max(1, weapon.rof - len(fewer))
        if used > rof:
            less = f" ({', '.join(fewer)}: {weapon.rof - rof} fewer)" if rof != weapon.rof else ""
            raise RefusedError(f"the {weapon.name} makes {rof} {'attack' if rof == 1 else 'attacks'} a round{less}"
                               f": this post takes {used}", code="rules.rof")
    # a grenade thrown (its own move action: Combat Actions & Cost) beside an attack is a pool
    # of its own; only a lob shares the round's accuracy (Lobbing a Grenade)
    apart = [i for i, a in enumerate(chosen) if a.type == "throw" and a.params.get("lob") is not True]
    rest = [i for i in range(len(chosen)) if i not in apart]
    if not apart or not rest:
        return _pool(state, who, actions, chosen, weapons, modes, earlier, strict)
    plans: list[Plan] = []
    pooled = Planned((), 0, 0)
    for group in [*([i] for i in apart), rest]:
        pooled = _pool(state, who, actions, [chosen[i] for i in group], [weapons[i] for i in group],
                       [modes[i] for i in group], earlier, strict)
        plans += [one._replace(number=i) for one, i in zip(pooled.plans, group)]
    return Planned(tuple(sorted(plans, key=lambda one: one.number)), pooled.recoil, pooled.total)


def _pool(state: SceneState, who: Fighter, actions: Sequence[Action], chosen: Sequence[Action],
          weapons: Sequence[WeaponCard], modes: Sequence[str], earlier: Sequence[Action], strict: bool) -> Planned:
    """The attacks of one pool (``chosen``, of the post's ``actions``), split when more than
    one: the attacker's modifiers, the recoil, each share and each target's modifiers."""
    actor, options = who.actor, who.options
    ranged = [m for w, m, a in zip(weapons, modes, chosen) if a.type == "attack" and w.kind == "ranged"]
    stance = stance_at(who, actions)
    recoil = burst_recoil(ranged, stance=stance, comp=weapons[0].recoil_comp) if ranged else 0
    first = chosen[0]
    weapon = weapons[0]
    lob = first.type == "throw" and first.params.get("lob") is True
    before = (*earlier, *actions[:next(i for i, a in enumerate(actions) if a is first)])  # a sprint this post too
    own = attacker_mods(who, weapon, first, before, stance) if first.type != "aoo" and not lob else []
    attribute = "agility" if lob else options.melee_attribute if weapon.kind == "melee" else "perception"
    base = (who.attr("agility") if lob else weapon.accuracy + (who.attr(attribute) if first.type != "aoo" else 0))
    each = options.split_modifiers == "each"
    total = base + (0 if each else sum(v for v, _ in own)) - recoil
    shares = [total] if len(chosen) == 1 else _shares(chosen, total, recoil)
    plans = []
    for index, (action, weapon_, mode, share) in enumerate(zip(chosen, weapons, modes, shares)):
        kind = _kind(action, weapon_)
        check_params(action, weapon_, kind, single=len(chosen) == 1, names=strict)
        target = action.target or ""
        if kind != "blast" and not target:
            raise RefusedError(f"{action.type}: name a target (target=ID)", code="rules.incomplete")
        caught = caught_of(action, target) if kind in ("spread", "blast") else ((target, action.distance or 0),)
        check_caught(action, actor, kind, caught)
        for name, _ in caught:
            if name not in state.combatants:
                from fightlog.kit.fighters import absent

                raise absent(state, name)
        bands = tuple(band(state, who, weapon_, action, action.distance if kind != "spread" or name == target else
                           d if f"d_{name}" in action.params or action.distance is not None else None,
                           aimed=kind != "spread" or name == target) for name, d in caught)
        mods = target_mods(state, who, weapon_, action, kind, options.gang_up_max)
        if each:
            mods = own + mods
        dice = share + sum(v for v, _ in mods)
        split = len(chosen) > 1
        notes = ["lobbed: agility only, at a hex"] if lob else [f"accuracy {weapon_.accuracy}"]
        if action.type != "aoo":
            notes.append(f"{attribute} {who.attr(attribute)}")
        notes += [f"{v:+d} {s}" + (" (whole pool)" if split and not each else "") for v, s in own]
        if recoil:
            notes.append(f"-{recoil} recoil" + (" (whole pool)" if split else ""))
        if split:
            notes.append(f"share {share} of {total}")
        notes += [f"{v:+d} {s}" for v, s in mods[len(own) if each else 0:]]
        if weapon_.kind == "ranged":
            notes.append(f"mode {mode}")
        notes.insert(0, f"pool {dice}")
        if dice < 1:
            if options.low_pool == "no_roll" and kind != "coup_de_grace":
                raise RefusedError(f"{action.type} on {target or 'the blast'}: a pool of {dice} after penalties: "
                                   "nothing to roll (option low_pool = no_roll)", code="rules.pool")
            dice = max(dice, options.pool_minimum)
            notes.append(f"at least {options.pool_minimum} (low_pool)")
        targeted = action.params.get("targeted")
        if targeted is not None and targeted not in ("medium", "small", "tiny"):
            raise RefusedError(f"targeted={value_written(targeted)}: one of medium, small, tiny", code="rules.incomplete")
        if targeted is not None and kind == "spread" and bands[0] != "short":
            raise RefusedError("a spread makes targeted shots at short range only", code="rules.range")
        plans.append(Plan(index, kind, weapon_, mode, target, caught, bands, dice, tuple(notes),
                          weapon_.kind == "melee", None if targeted is None else str(targeted), action))
    return Planned(tuple(plans), recoil, total)


def spread_ap(plan_: Plan, at: int) -> int:
    """A spread's AP at the band of its ``at``-th target (short -3 ... extreme +6)."""
    return SPREAD_AP[plan_.bands[at]] if plan_.kind == "spread" else 0
