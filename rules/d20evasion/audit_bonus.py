"""The ``d20-evasion`` audit of a roll's bonus (``rules.bonus``; Bonuses; Attacking; Dodge;
Disarming): an attack or counterattack roll carries 1d20 plus the stat, class, skill and gear
bonuses of the weapon or spell, less the penalties in force, as ``Fighter.to_hit_mods`` gives
them; a disarm roll its STR/LVL bonus (``Fighter.disarm_mods``); a dodge its DEX/LVL bonus with
the dodge skill (``Fighter.dex_level_mods``). A hand-edited ``+9 gear`` on a roll that turned a
miss into a hit audited clean, and so did ``+15 skill dodge``. A parry's is not judged (the
weapon parried with is not recorded on the roll).

Judged at the outcome that cites the roll, on the state just before it. A fumbled parry's
penalty is spent by the roll itself (``attack.attack_roll``), so that state no longer holds it:
the audit remembers each ``parry_fumble`` placed (``owed``), and the next attack or counter
roll of its bearer must carry it, as its value; a ``fumbled parry`` modifier is otherwise judged
as any other.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.attack import gear_of
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options

CODE: Final = "rules.bonus"
SPENT: Final = "fumbled parry"
"""The source of a fumbled parry's penalty on the roll that spends it."""


def check_bonus(before: SceneState, event: AttackResolved, roll: DiceRolled, opts: D20Options,
                view: AuditView, owed: int = 0) -> None:
    """``roll`` (the attack's, counterattack's or disarm's) carries the bonus the attacker's
    sheet gives with its weapon; ``owed`` the penalty of a fumbled parry it must carry."""
    purpose, weapon = roll.purpose, event.weapon
    if purpose == "disarm":
        what = "disarm roll"
    elif purpose in ("attack", "counter") and weapon is not None:
        what = f"{'counterattack' if purpose == 'counter' else 'attack'} roll with {weapon}"
    else:
        return
    try:
        who = Fighter(_as_rolled(before, roll), event.attacker, opts)
        given = who.disarm_mods() if weapon is None or purpose == "disarm" else who.to_hit_mods(gear_of(who, weapon))
    except FightlogError:
        return  # a sheet that does not read, or a weapon it lacks: judged where it is read
    mods = [(value, source) for value, source in given if source != SPENT]
    if owed:
        mods.append((-owed, SPENT))
    want = sum(value for value, _ in mods)
    got = sum(m.value for m in roll.modifiers)
    if got != want:
        shown = ", ".join(f"{source} {value:+d}" for value, source in mods) or "none"
        view.report(CODE, roll, f"{event.attacker}'s {what} carries {got:+d}; the sheet gives {want:+d} ({shown})",
                    actor=event.attacker)


def _as_rolled(before: SceneState, roll: DiceRolled) -> SceneState:
    """``before`` without the effects placed after ``roll`` was made: a counterattack is rolled
    before the attack it answers lands, and an injury that attack left (a muscle tear's -3)
    was no penalty on it."""
    later = [key for key, effect in before.effects.items() if effect.applied > roll.seq]
    if not later:
        return before
    return replace(before, effects={k: e for k, e in before.effects.items() if k not in later})


def check_dodge(before: SceneState, dodge: DiceRolled, opts: D20Options, view: AuditView) -> None:
    """A dodge roll carries its roller's DEX/LVL bonus and dodge skill, less the penalties."""
    roller = dodge.roller
    if dodge.purpose != "dodge" or roller is None or roller not in before.combatants:
        return
    try:
        mods = Fighter(before, roller, opts).dex_level_mods("dodge")
    except FightlogError:
        return
    want = sum(value for value, _ in mods)
    got = sum(m.value for m in dodge.modifiers)
    if got != want:
        shown = ", ".join(f"{source} {value:+d}" for value, source in mods) or "none"
        view.report(CODE, dodge, f"{roller}'s dodge roll carries {got:+d}; the sheet gives {want:+d} ({shown})",
                    actor=roller)
