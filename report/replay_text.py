"""A replay as text and as JSON: event lines under their seq, change lines indented under
them (``fightlog replay``, ``fightlog play``, ``Fight.replay``), and one JSON document per step.

``fightlog replay`` streams a log through these a chunk at a time; ``replay_text`` tells a
fight held in memory."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from fightlog.events.model import AnyEvent
from fightlog.reducers.diff import Change
from fightlog.reducers.folder import Folder
from fightlog.report.narration import Line, narrate, one_line


class StepDoc(msgspec.Struct, gc=False):
    """One replayed event as JSON: its seq and kind, the event, the changes it caused."""

    seq: int
    kind: str
    event: AnyEvent
    changes: list[Change]


def render(lines: list[Line]) -> list[str]:
    """Event lines prefixed by their seq (right-aligned), change lines indented under them."""
    width = len(str(max((line.seq for line in lines if line.seq is not None), default=0)))
    return [rendered(line, width) for line in lines]


def rendered(line: Line, width: int) -> str:
    """One line, its seq right-aligned in ``width`` columns, indented by its depth."""
    seq, depth, text = line
    head = " " * (width + 2) if seq is None else f"{seq:>{width}}  "
    if "\n" in text or "\r" in text:
        text = one_line(text)
    return f"{head}{'  ' * depth}{text}".rstrip()


def replay_text(events: Sequence[AnyEvent]) -> str:
    """The replay of a whole log held in memory (``events``, from seq 1), as ``fightlog
    replay`` prints it."""
    lines: list[Line] = []
    for step in Folder(lambda seq: events[seq - 1 :]).steps():
        lines += narrate(step, lambda seq: events[seq - 1] if 0 < seq <= len(events) else None)
    return "\n".join(render(lines))
