"""Words for a fight: each event, and the state changes it caused, as a player reads them.

``narrate(step, lookup)`` turns one replay step into lines: the event (one line) and, one
level deeper, the changes ``fightlog.reducers.diff.changes`` found between the states before
and after it. Combatants are named by their display name, effects by their name and target.
One module per event family says what its events record (``course``: the scene, joins,
order, rounds, turns and posts; ``rolls``; ``combat``; ``effects``; ``rulings``), ``kinds``
gathers them into one table, ``changes`` words the state changes, ``phrases`` holds what
several share; the phrases for effects, actions and rulings are shared with the state tables
(``fightlog.report.state_text``). Nothing here reads files: ``lookup`` (``seq -> event``) is
how a ruling's target is described, and is given by the caller.
"""

from fightlog.report.narration.changes import change_text
from fightlog.report.narration.effects import effect_text
from fightlog.report.narration.kinds import describe
from fightlog.report.narration.lines import Line, Lookup, Namer, Scene, kind_of, namer, one_line
from fightlog.report.narration.phrases import actions_text, pool_name, pools_text, unit_of
from fightlog.report.narration.rolls import roll_text
from fightlog.report.narration.rulings import by_the_gm, ruling_text
from fightlog.report.narration.steps import narrate

__all__ = [
    "Line",
    "Lookup",
    "Namer",
    "Scene",
    "actions_text",
    "change_text",
    "describe",
    "effect_text",
    "kind_of",
    "namer",
    "narrate",
    "one_line",
    "pool_name",
    "pools_text",
    "roll_text",
    "by_the_gm",
    "ruling_text",
    "unit_of",
]
