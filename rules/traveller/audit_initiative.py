"""The ``traveller`` audit of initiative (Pre-combat: Ambush; Initiative; Tactics).

Each ``initiative_rolled``: its roll's DM is the better of DEX and INT DM (or the one the
options fix), and its score the roll's Effect plus the side's Tactics Effect (a side being
ambushed has none). Each ``initiative_set`` the table makes: the order by initiative (with
the ambush DM in the first round), then DEX, then as joined.
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import DiceRolled, InitiativeRolled, InitiativeSet
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import Fighter, options_of
from fightlog.rules.traveller.initiative import order, side_of


def rolled(before: SceneState, event: InitiativeRolled, after: SceneState, view: AuditView) -> None:
    roll = view.event(event.roll or 0)
    if not isinstance(roll, DiceRolled) or roll.purpose != "initiative" or event.actor not in before.combatants:
        return
    try:
        who = Fighter(before, event.actor)
        options = who.options
        side = side_of(before, event.actor)
        tactics = _tactics(before, view, roll.seq, side)
    except FightlogError:
        return
    try:  # the DEX and INT DMs read the card: a sheet that does not read leaves the DM unjudged
        dm: int | None = who.best("DEX", "INT")[0] if options.initiative_characteristic == "better" else \
            who.dm(options.initiative_characteristic)
    except FightlogError:
        dm = None
    problems = []
    if dm is not None and sum(m.value for m in roll.modifiers) != dm:
        problems.append(f"the roll's DM is {sum(m.value for m in roll.modifiers):+d}, the rules give {dm:+d} "
                        f"({options.initiative_characteristic} of DEX and INT)")
    if tactics is not None and options.ambush and side != options.ambush:
        problems.append(f"side {side} rolled Tactics while ambushed")
    want = effect(roll.total, options) + (tactics or 0)
    if event.score != want:
        problems.append(f"initiative {event.score}, the roll's Effect and the side's Tactics give {want}")
    if problems:
        view.report("rules.initiative", event, f"{event.actor}: " + "; ".join(problems), actor=event.actor)


def _tactics(state: SceneState, view: AuditView, seq: int, side: str) -> int | None:
    """The Effect of the side's Tactics roll before ``seq`` in the same pre-combat, if any."""
    for earlier in range(seq - 1, 0, -1):
        found = view.event(earlier)
        if found is None or isinstance(found, InitiativeSet):
            return None
        if isinstance(found, DiceRolled) and found.purpose == "tactics" and found.roller in state.combatants \
                and side_of(state, found.roller) == side:
            return effect(found.total, Fighter(state, found.roller).options)
    return None


def ordered(before: SceneState, event: InitiativeSet, after: SceneState, view: AuditView) -> None:
    """The posting order by initiative, then DEX, then as joined (the ambush in round 1)."""
    if not event.reason.startswith("initiative") or event.by is not None:
        return
    actors = [a for a in event.order if a in before.combatants]
    if len(actors) != len(event.order) or any(a not in before.turn.initiative for a in actors):
        return
    ambush = options_of(before).ambush
    sides = sorted({c.side or c.actor for c in before.combatants.values()})
    if before.turn.round == 0 and ambush and ambush not in sides:
        view.report("rules.initiative", event, f"option ambush = {ambush!r}: nobody in the fight is on that side "
                    f"(sides: {', '.join(sides)}); the table refuses to begin")
    try:  # ties go by DEX, on the cards: a sheet that does not read leaves the order unjudged
        want = order(before, actors, first_round=before.turn.round == 0)
    except FightlogError:
        return
    if want != actors:
        view.report("rules.initiative", event, f"the posting order {', '.join(actors)}; initiative, then DEX, then "
                    f"the order joined give {', '.join(want)}")
