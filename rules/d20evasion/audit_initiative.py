"""The ``d20-evasion`` audit of initiative (``rules.initiative``; Initiative): a score is
the total of the roll it cites, 1d20 plus its roller's Dex + level bonus, the roller the one
with the best bonus of the party it rolls for; a tie's reroll is its last tie-breaker.
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import DiceRolled, InitiativeRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.fighters import Fighter, options_of


def initiative_rolled(before: SceneState, event: InitiativeRolled, after: SceneState, view: AuditView) -> None:
    """An initiative score is the total of the roll it cites (Initiative: 1d20 plus the bonus);
    a tie's reroll is its last tie-breaker, the score kept."""
    roll = view.event(event.roll) if event.roll is not None else None
    if not isinstance(roll, DiceRolled) or roll.purpose != "initiative":
        return
    if roll.label == "tie reroll":
        if event.tiebreak and event.tiebreak[-1] != roll.total:
            view.report("rules.initiative", event, f"{event.actor}'s tie reroll is recorded as {event.tiebreak[-1]}; the "
                        f"roll at seq {roll.seq} gives {roll.total}", actor=event.actor)
    elif event.score != roll.total:
        view.report("rules.initiative", event, f"{event.actor}'s initiative is recorded as {event.score}; the roll at seq "
                    f"{roll.seq} gives {roll.total}", actor=event.actor)
    else:
        _initiative_bonus(before, event, roll, view)


def _initiative_bonus(before: SceneState, event: InitiativeRolled, roll: DiceRolled, view: AuditView) -> None:
    """The roll's bonus is its roller's Dex + level bonus, the highest of the group it rolls
    for (Initiative: the party rolls on its best)."""
    try:
        opts = options_of(before)
        bonus = {actor: Fighter(before, actor, opts).initiative_bonus for actor in (event.group or [event.actor])
                 if actor in before.combatants}
        own = Fighter(before, event.actor, opts).initiative_bonus
    except FightlogError:
        return  # a sheet that does not read: judged where it is read
    carried = sum(m.value for m in roll.modifiers)
    if carried != own:
        view.report("rules.initiative", event, f"{event.actor}'s initiative roll (seq {roll.seq}) carries {carried:+d}; "
                    f"their Dex + level bonus is {own:+d}", actor=event.actor)
    best = max(bonus.values(), default=own)
    if best > own:
        higher = next(actor for actor, value in bonus.items() if value == best)
        view.report("rules.initiative", event, f"{event.actor} rolls initiative for the party with {own:+d}; "
                    f"{higher}'s bonus of {best:+d} is the party's highest (the party rolls on its best)",
                    actor=event.actor)
