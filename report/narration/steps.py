"""One replay step in words: the event's line and, one level deeper, the changes it caused."""

from __future__ import annotations

from fightlog.events.model import RoundEnded, TurnEnded
from fightlog.reducers.diff import changes
from fightlog.reducers.fold import Step
from fightlog.report.narration.changes import change_text
from fightlog.report.narration.kinds import describe
from fightlog.report.narration.lines import Line, Lookup, Scene, namer


def narrate(step: Step, lookup: Lookup | None = None, *, markdown: bool = False) -> list[Line]:
    """The event line of ``step`` and its change lines (``markdown``: rolls for Discord)."""
    scene = Scene(namer(step.after, step.before), step.before, step.after, lookup, markdown)
    depth = _depth(step)
    lines = [Line(step.event.seq, depth, describe(step.event, scene))]
    for change in changes(step.before, step.after):
        lines.append(Line(None, depth + 1, change_text(change, scene)))
    if step.before.turn.in_round and not step.after.turn.in_round:
        lines.append(Line(None, depth + 1, f"round {step.after.turn.round} over"))
    return lines


def _depth(step: Step) -> int:
    """Rounds and turns open at the event: a start is as deep as the state before it, an
    end as deep as the state after it, so both sit level with what they enclose."""
    state = step.after if isinstance(step.event, (RoundEnded, TurnEnded)) else step.before
    turn = state.turn
    if not turn.in_round:
        return 0
    return 1 if turn.current is None else 2
