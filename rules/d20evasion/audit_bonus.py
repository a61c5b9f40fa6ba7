"""The ``d20-evasion`` audit of an attack roll's bonus (``rules.bonus``; Bonuses; Attacking;
Dodge): 1d20 plus the stat, class, skill and gear bonuses of the weapon or spell, less the
penalties in force, as ``Fighter.to_hit_mods`` gives them, and a dodge's DEX/LVL bonus with
the dodge skill (``Fighter.dex_level_mods``); a hand-edited ``+9 gear`` on a roll that turned
a miss into a hit audited clean, and so did ``+15 skill dodge``. A parry's is not judged (the
weapon parried with is not recorded on the roll).

Judged at the outcome that cites the roll, on the state just before it: a fumbled parry's
penalty is spent by the roll itself (``attack.attack_roll``), so it is left out of both sides.
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.attack import gear_of
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options

CODE: Final = "rules.bonus"
_SPENT: Final = "fumbled parry"


def check_bonus(before: SceneState, event: AttackResolved, roll: DiceRolled, opts: D20Options,
                view: AuditView) -> None:
    """``roll`` (the attack's) carries the bonus the attacker's sheet gives with its weapon."""
    if roll.purpose != "attack" or event.weapon is None:
        return
    try:
        who = Fighter(before, event.attacker, opts)
        mods = who.to_hit_mods(gear_of(who, event.weapon))
    except FightlogError:
        return  # a sheet that does not read, or a weapon it lacks: judged where it is read
    want = sum(value for value, source in mods if source != _SPENT)
    got = sum(m.value for m in roll.modifiers if m.source != _SPENT)
    if got != want:
        shown = ", ".join(f"{source} {value:+d}" for value, source in mods if source != _SPENT) or "none"
        view.report(CODE, roll, f"{event.attacker}'s attack roll with {event.weapon} carries {got:+d}; the sheet "
                    f"gives {want:+d} ({shown})", actor=event.attacker)


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
