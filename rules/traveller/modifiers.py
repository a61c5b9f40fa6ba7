"""The DMs of an attack roll (Combat; Minor Action: Aiming; Reaction; Weapon Range; Hiding),
as one pure function of the state before the roll: the table rolls with them and the audit
recomputes them.

Melee: 2D + Melee + STR or DEX DM; ranged: 2D + weapon skill + DEX DM; thrown: 2D +
Athletics + DEX DM. Then the range band (ranged and thrown), aim, shooting into cover, a
prone attacker (melee) or target, the target's reaction to this attack, and the attacker's
own earlier reactions and encouragement (``Fighter.check_mods``).
"""

from __future__ import annotations

from typing import NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.geometry import metres_between
from fightlog.kit.fighters import Mods
from fightlog.rules.traveller.card import WeaponCard
from fightlog.rules.traveller.checks import BANDS, band
from fightlog.rules.traveller.fighters import Fighter



class Reaction(NamedTuple):
    """The target's reaction to the attack: ``dodge``, ``parry``, ``dive`` (``into_cover``:
    the cover's kind, or empty)."""

    kind: str
    cover: str = ""

    @property
    def into_cover(self) -> bool:
        return bool(self.cover)


def distance(attacker: Fighter, target: Fighter, action: Action) -> int:
    """Metres between them: from their positions when both are kept, else the action's
    ``distance``; refused (incomplete) with neither."""
    a, b = attacker.position, target.position
    if a is not None and b is not None:
        return metres_between(a, b)
    if action.distance is not None:
        return action.distance
    raise RefusedError(f"how far is {target.actor}? (give distance=METRES, or positions)", code="rules.incomplete")


def reach(attacker: Fighter, weapon: WeaponCard, metres: int) -> str | None:
    """The range band of the attack (``None`` for melee); refused out of reach."""
    options = attacker.options
    if weapon.kind == "melee":
        if metres > options.melee_reach_m:
            raise RefusedError(f"{weapon.name} reaches {options.melee_reach_m} m; the target is {metres} m away",
                               code="rules.range")
        return None
    found = band(metres, weapon.range_m, weapon.scoped, options)
    if found is None:
        raise RefusedError(f"{weapon.name} (range {weapon.range_m} m) reaches at most four times its range; "
                           f"the target is {metres} m away", code="rules.range")
    return found


def attack_mods(attacker: Fighter, target: Fighter, weapon: WeaponCard, metres: int,
                reaction: Reaction | None) -> Mods:
    """Every DM of the attack roll, with its source."""
    options = attacker.options
    mods: Mods = []
    if weapon.kind == "melee":
        mods.append(attacker.skill("melee"))
        if options.melee_characteristic == "better":
            mods.append(_named(attacker.best("STR", "DEX")))
        else:
            mods.append((attacker.dm(options.melee_characteristic), f"{options.melee_characteristic} DM"))
    else:
        mods.append(attacker.skill("athletics" if weapon.kind == "thrown" else weapon.skill))
        mods.append((attacker.dm("DEX"), "DEX DM"))
        bands = reach(attacker, weapon, metres)
        if bands is not None and BANDS[bands]:
            mods.append((BANDS[bands], f"{bands} range"))
    aim = attacker.aim()
    if aim:
        mods.append((aim, "aim"))
    mods.extend(_stances(attacker, target, weapon, reaction))
    mods.extend(_reaction(target, weapon, reaction))
    mods.extend(attacker.check_mods())
    return [m for m in mods if m[0] != 0 or m[1].startswith("unskilled")]


def _named(best: tuple[int, str]) -> tuple[int, str]:
    return best[0], f"{best[1]} DM"


def _stances(attacker: Fighter, target: Fighter, weapon: WeaponCard, reaction: Reaction | None) -> Mods:
    options = attacker.options
    mods: Mods = []
    if weapon.kind == "melee":
        if attacker.stance == "prone":
            mods.append((options.prone_melee_dm, "attacking from prone"))
        if target.stance == "prone":
            mods.append((options.prone_target_melee_dm, "target prone"))
        return mods
    if reaction is not None and reaction.kind == "dive":
        return mods  # the dive's own DM stands for the cover and the ground it reaches
    covered = target.cover() is not None
    if covered:
        mods.append((options.cover_dm, "shooting into cover"))
    if target.stance == "prone" and (not covered or options.prone_in_cover_stacks):
        mods.append((options.prone_target_ranged_dm, "target prone"))
    return mods


def _reaction(target: Fighter, weapon: WeaponCard, reaction: Reaction | None) -> Mods:
    if reaction is None:
        return []
    options = target.options
    if reaction.kind == "dodge":
        athletics = target.card.skills.get("athletics", 0)
        return [(-max(0, target.dm("DEX"), athletics), "dodge")]
    if reaction.kind == "parry":
        return [(-target.card.skills.get("melee", 0), "parry")]
    if reaction.kind == "dive":  # for the cover it names, or stays in (cover is kept on a dive), else prone
        covered = reaction.into_cover or target.cover() is not None
        dm = options.dive_cover_dm if covered else options.prone_target_ranged_dm
        return [(dm, "dived for cover" if covered else "dived prone")]
    return []
