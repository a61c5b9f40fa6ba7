"""One replay step in words: the event's line and, one level deeper, the changes it caused."""

from __future__ import annotations

from fightlog.events.model import RoundEnded, TurnEnded
from fightlog.reducers.diff import changes
from fightlog.reducers.folder import Step
from fightlog.reducers.state import SceneState
from fightlog.report.narration.changes import change_text
from fightlog.report.narration.kinds import describe
from fightlog.report.narration.lines import Line, Lookup, Scene, namer


def narrate(step: Step, lookup: Lookup | None = None, *, markdown: bool = False,
            parts: frozenset[str] | None = None) -> list[Line]:
    """The event line of ``step`` and its change lines (``markdown``: rolls for Discord;
    ``parts``: only the changes to those parts of the state, ``Change.part``)."""
    event, before, after = step
    scene = Scene(namer(after, before), before, after, lookup, markdown)
    depth = _depth(after if type(event) in _ENDS else before)
    lines = [Line(event.seq, depth, describe(event, scene))]
    found = changes(before, after)
    if found:
        lines += [Line(None, depth + 1, change_text(change, scene)) for change in found
                  if parts is None or change.part in parts]
    if before.turn.in_round and not after.turn.in_round and (parts is None or "turn" in parts):
        lines.append(Line(None, depth + 1, f"round {after.turn.round} over"))
    return lines


_ENDS = frozenset((RoundEnded, TurnEnded))
"""Events told as deep as the state after them (what they close), not the state before."""


def _depth(state: SceneState) -> int:
    """Rounds and turns open in ``state``: a start is as deep as the state before it, an
    end as deep as the state after it, so both sit level with what they enclose."""
    turn = state.turn
    if not turn.in_round:
        return 0
    return 1 if turn.current is None else 2
