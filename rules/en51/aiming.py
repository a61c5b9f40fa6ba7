"""What the shooter's skill is for one attack (Ranged attack; Hiding and Cover; Movement):
Attack or, after moving, turning more than 90 degrees or the turn after readying, Defense;
-2 a step beyond Range; +2 the turn after aiming; the target's best Cover (Cover does not
stack); a moving target; the GM's circumstance modifier (``gm=N``)."""

from __future__ import annotations

from typing import NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.fighters import Mods, sum_mods
from fightlog.rules.en51.card import WeaponCard
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import En51Options
from fightlog.rules.en51.ranges import range_penalty, reaches, step


class Aim(NamedTuple):
    """The skill the dice are rolled under (``base`` plus ``mods``) and what a hitting die
    must be higher than."""

    base: int
    base_name: str
    mods: Mods
    against: int

    @property
    def skill(self) -> int:
        return self.base + sum_mods(self.mods)

    def note(self) -> str:
        parts = [f"{self.base_name} {self.base}", *(f"{s} {v:+d}" for v, s in self.mods)]
        return f"skill {self.skill} ({', '.join(parts)})"


def param(action: Action, name: str) -> int:
    value = action.params.get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def flag(action: Action, name: str) -> bool:
    return action.params.get(name) is True


def distance_step(action: Action, options: En51Options) -> int:
    if action.distance is None:
        raise RefusedError("a ranged attack names the distance to the target in metres (distance=N)",
                           code="rules.incomplete")
    return step(action.distance, options.range_scale)


def check_reach(weapon: WeaponCard, at: int) -> None:
    if not reaches(at, weapon.range):
        raise RefusedError(f"{weapon.name} (Range {weapon.range}) cannot reach step {at}: at most five steps above "
                           "its Range", code="rules.range")


def check_melee_reach(weapon: WeaponCard, action: Action, options: En51Options, closing: int = 0) -> None:
    """A melee attack naming a distance beyond ``melee_reach`` (after ``closing`` metres of a
    move combined with it) is refused."""
    if weapon.kind != "melee" or action.distance is None:
        return
    if action.distance - closing > options.melee_reach:
        moved = f" after moving {closing} m" if closing else ""
        raise RefusedError(f"{weapon.name} cannot reach {action.target or 'the target'} at {action.distance} m{moved}: "
                           f"a melee attack reaches {options.melee_reach} m (option melee_reach)", code="rules.range")


def ranged_aim(shooter: Fighter, target: Fighter, weapon: WeaponCard, action: Action, options: En51Options, *,
               moved: bool) -> Aim:
    """The skill and the step of a ranged attack."""
    at = distance_step(action, options)
    check_reach(weapon, at)
    state = shooter.state
    readied = shooter.weapon_effect("readied", weapon.name)
    readied_before = readied is not None and readied.params.get("round", 0) < state.turn.round
    why = "moved" if moved else "turned" if flag(action, "turn") else "readied" if readied_before else None
    base, name = (weapon.defense, f"Defense ({why})") if why else (weapon.attack, "Attack")
    mods: Mods = []
    if range_penalty(at, weapon.range):
        mods.append((range_penalty(at, weapon.range), "beyond Range"))
    if any(e.params.get("round", 0) < state.turn.round for e in shooter.effects("aim")):
        mods.append((2, "aimed"))
    covers = [e.magnitude or 0 for e in target.effects("cover")] + [param(action, "cover")]
    if max(covers) > 0:
        mods.append((-max(covers), "cover"))
    if options.moving_target_penalty and target.has("moving"):
        mods.append((-options.moving_target_penalty, "moving target"))
    if param(action, "gm"):
        mods.append((param(action, "gm"), "GM circumstance"))
    return Aim(base, name, mods, at)


def melee_aim(attacker: Fighter, weapon: WeaponCard, action: Action, defense: int) -> Aim:
    mods: Mods = [(param(action, "gm"), "GM circumstance")] if param(action, "gm") else []
    return Aim(weapon.attack, "Attack", mods, defense)
