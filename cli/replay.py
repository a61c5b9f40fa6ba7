"""``fightlog replay``: the fight told event by event, with the state changes each caused.

It streams: each event is narrated and printed as the fold reaches it, so memory stays flat
whatever the log's length (bench/README.md). The last ``seq``, read first from the log's end
(a hint, ``fightlog.events.tail``), sets the width of the seq column and refuses a ``--from``
or ``--to`` past the end before anything is printed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import partial
from typing import TextIO

import click
import msgspec

from fightlog.cli.errors import reports_errors
from fightlog.cli.narrate import Line, Lookup, kind_of, narrate, one_line
from fightlog.cli.options import SEQ, format_option, input_log_argument
from fightlog.errors import InputError
from fightlog.events.model import AnyEvent
from fightlog.events.reader import ChainHead, read_log
from fightlog.events.tail import last_seq
from fightlog.history import events_at, replay as replay_steps
from fightlog.reducers.diff import Change, changes
from fightlog.reducers.fold import Step


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog replay fixtures/roe7/disputed-duel.jsonl
  fightlog replay fixtures/roe7/disputed-duel.jsonl --from 38 --to 60   # round 2 and its rulings
  fightlog replay fixtures/roe7/disputed-duel.jsonl --format json       # for bots: one JSON array
  fightlog replay fixtures/roe7/disputed-duel.jsonl --jsonl             # one JSON document per event and line
  cat fixtures/roe7/disputed-duel.jsonl | fightlog replay - --to 20   # LOG "-": standard input
  fightlog replay fixtures/dice/seeded-rolls.jsonl --markdown           # dropped dice ~~4~~, for Discord

\b
Exit codes: 0 shown; 2 bad input (a missing or damaged log, --from/--to outside it, a
ruling the log cannot honour) or usage. A log damaged part way is shown up to the damage
(a JSON array is closed there), then the error.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=2)
@click.option("--from", "start", type=SEQ, metavar="SEQ", help="First event to show (default: 1).")
@click.option("--to", "upto", type=SEQ, metavar="SEQ", help="Last event to show (default: the last).")
@click.option("--markdown", is_flag=True, help="Rolls in Markdown, for pasting to Discord: dropped dice "
              "struck through (~~4~~) instead of bracketed ([4]).")
@click.option("--jsonl", "lines_json", is_flag=True, help="JSON Lines: one JSON document per event, "
              "one per line, instead of one array (implies --format json).")
@format_option
@reports_errors
def replay(log: str, start: int | None, upto: int | None, markdown: bool, lines_json: bool, fmt: str) -> None:
    """Tell the fight in LOG event by event.

    Each event is one line (posts, rolls with their breakdown, hits and misses, damage,
    effects, statuses, GM rulings), under its round and turn; the state changes it caused
    follow, indented (HP, effects' turns left, statuses, the posting order...). A GM ruling
    changes history from the moment it is made: its line shows what it changed.

    Printed as the log is folded: a fight of any length starts at once, in the same memory.
    """
    if start is not None and upto is not None and start > upto:
        raise InputError(f"--from {start} is after --to {upto}", path=log)
    end = last_seq(log)  # a hint: the fold checks every line as it reaches it
    if end is not None:
        _check_bounds(log, start, upto, end)
    steps = _Shown(replay_steps(log, start or 1, upto))
    out = click.get_text_stream("stdout")
    if fmt == "json" or lines_json:
        _write_json(out, steps, lines=lines_json)
    else:
        shown = end if upto is None or end is None else min(upto, end)
        _write_text(out, steps, partial(_event_at, log), width=len(str(shown or upto or 0)), markdown=markdown)
    out.flush()  # here, so that a closed pipe is reported as one (exit 141)
    _check_range(log, start, upto, steps.last)


_CHUNK = 64
"""Lines written at a time (a ``write`` per line would cost more than narrating it)."""


def _write_text(out: TextIO, steps: Iterable[Step], lookup: Lookup, *, width: int, markdown: bool) -> None:
    """The narration, written a chunk of lines at a time (and up to the damage, when the log
    is damaged part way)."""
    chunk: list[str] = []
    try:
        for step in steps:
            for line in narrate(step, lookup, markdown=markdown):
                chunk.append(_rendered(line, width))
            if len(chunk) >= _CHUNK:
                out.write("\n".join(chunk) + "\n")
                chunk.clear()
    finally:
        if chunk and not isinstance(sys.exc_info()[1], OSError):  # not into a closed pipe
            out.write("\n".join(chunk) + "\n")


class _StepDoc(msgspec.Struct, gc=False):
    """One replayed event as JSON: its seq and kind, the event, the changes it caused."""

    seq: int
    kind: str
    event: AnyEvent
    changes: list[Change]


def _write_json(out: TextIO, steps: Iterable[Step], *, lines: bool) -> None:
    """A JSON array written element by element (closed even when the log is damaged part
    way, before the error is reported), or JSON Lines."""
    encode = msgspec.json.Encoder(order="sorted").encode
    sep = "\n" if lines else ","
    chunk: list[str] = []
    written = False

    def flush() -> None:
        nonlocal written
        if chunk:
            out.write((sep if written else "") + sep.join(chunk))
            chunk.clear()
            written = True

    if not lines:
        out.write("[")
    try:
        for step in steps:
            event = step.event
            chunk.append(encode(_StepDoc(event.seq, kind_of(event), event, changes(step.before, step.after))).decode())
            if len(chunk) >= _CHUNK:
                flush()
    finally:
        if not isinstance(sys.exc_info()[1], OSError):  # not into a closed pipe
            flush()
            out.write(("\n" if written else "") if lines else "]\n")


class _Shown:
    """The replay's steps, remembering the ``seq`` of the last one taken (0: none yet)."""

    def __init__(self, steps: Iterable[Step]) -> None:
        self.steps = steps
        self.last = 0

    def __iter__(self) -> Iterator[Step]:
        for step in self.steps:
            self.last = step.event.seq
            yield step


def render(lines: list[Line]) -> list[str]:
    """Event lines prefixed by their seq (right-aligned), change lines indented under them."""
    width = len(str(max((line.seq for line in lines if line.seq is not None), default=0)))
    return [_rendered(line, width) for line in lines]


def _rendered(line: Line, width: int) -> str:
    return f"{'' if line.seq is None else line.seq:>{width}}  {'  ' * line.depth}{one_line(line.text)}".rstrip()


def _check_bounds(log: str, start: int | None, upto: int | None, end: int) -> None:
    """Refuse a --from or --to past ``end`` (the last seq, as the log's end says) before
    anything is printed."""
    if start is not None and start > end:
        raise InputError(f"--from {start}: the log ends at seq {end}", path=log)
    if upto is not None and upto > end:
        raise InputError(f"--to {upto}: the log ends at seq {end}", path=log)


def _check_range(log: str, start: int | None, upto: int | None, last: int) -> None:
    """Refuse a --from or --to beyond the end of the log (``last``: the last seq shown)."""
    if start is not None and last == 0:
        raise InputError(f"--from {start}: the log ends at seq {_last_seq(log)}", path=log)
    if upto is not None and last < upto:
        raise InputError(f"--to {upto}: the log ends at seq {last}", path=log)


def _last_seq(log: str) -> int:
    head = ChainHead()
    for _ in read_log(log, head=head):
        pass
    return head.seq


def _event_at(log: str, seq: int) -> AnyEvent | None:
    """The event at ``seq``, to say what a ruling is about (the replay has read it already)."""
    return events_at(log, {seq}).get(seq)
