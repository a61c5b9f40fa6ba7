"""``fightlog replay``: the fight told event by event, with the state changes each caused.

It streams: each event is narrated and printed as the fold reaches it, so memory stays flat
whatever the log's length (bench/README.md). The last ``seq``, read first from the log's end
(a hint, ``fightlog.events.tail``), sets the width of the seq column and refuses a ``--from``
or ``--to`` past the end before anything is printed.
"""

from __future__ import annotations

import codecs
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import BinaryIO, NamedTuple, TextIO, cast

import click
import msgspec

from fightlog.cli.errors import reports_errors
from fightlog.cli.options import SEQ, format_option, input_log_argument
from fightlog.cli.terminal import Revealing, raw
from fightlog.errors import FightlogError, InputError
from fightlog.events.forked import Forked, idle_cores, worth_forking
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent
from fightlog.events.piped import is_stream
from fightlog.events.reader import ChainHead, open_log, read_log
from fightlog.events.tail import last_seq
from fightlog.history.states import events_at, replay as replay_steps
from fightlog.reducers.diff import changes
from fightlog.reducers.folder import RECENT_STEPS, Step
from fightlog.report.narration import Lookup, kind_of, narrate
from fightlog.report.replay_text import StepDoc, rendered


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
    if lines_json and fmt == "human" and \
            click.get_current_context().get_parameter_source("fmt") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--jsonl writes JSON Lines: it goes with no --format, or --format json")
    if markdown and (lines_json or fmt == "json"):
        raise click.UsageError("--markdown is for the human format (JSON holds the dice, not their text)")
    if start is not None and upto is not None and start > upto:
        raise InputError(f"--from {start} is after --to {upto}", path=log)
    end = last_seq(log)  # a hint: the fold checks every line as it reaches it
    if end is not None:
        _check_bounds(log, start, upto, end)
    shown = end if upto is None or end is None else min(upto, end)
    style = _Style("jsonl" if lines_json else fmt, len(str(shown or upto or 0)), markdown)
    out = sys.stdout if style.fmt == "human" else raw(sys.stdout)  # JSON is data: as it is
    first = start or 1
    split = None if shown is None else _split_at(log, first, shown, SHARE[style.fmt])
    if style.fmt == "json":
        if not is_stream(log):  # a file that never opens, or is no log, is the error alone: no "[]" before it
            opened = read_log(log)  # a generator: closed at once, its file with it
            next(opened, None)
            close = getattr(opened, "close", None)
            if close is not None:
                close()
            out.write("[")
        else:  # a stream is read once: the array opens with its first element, so an error before is alone
            out = cast(TextIO, _Opening(out))
    try:
        if split is None:
            steps = _Shown(replay_steps(log, first, upto))
            _tell(out, steps, style, log)
            last = steps.last
        else:
            last = _tell_in_two(out, log, first, split, upto, style)
    finally:
        failed = sys.exc_info()[1]
        unopened = isinstance(out, _Opening) and not out.opened and failed is not None
        if not isinstance(failed, OSError) and not unopened:  # not into a closed pipe; an error alone stays alone
            out.write("]\n" if style.fmt == "json" else "")
    out.flush()  # here, so that a closed pipe is reported as one (exit 141)
    _check_range(log, start, upto, last)


class _Opening:
    """``out`` with a JSON array's ``[`` written before the first text (``opened`` once it is)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.opened = False

    def write(self, text: str) -> int:
        if not self.opened:
            self.opened = True
            self.out.write("[")
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


class _Style(NamedTuple):
    """How the steps are told: ``fmt`` (``human``, ``json``: one array, ``jsonl``), the
    width of the seq column, and rolls in Markdown."""

    fmt: str
    width: int
    markdown: bool


_CHUNK = 64
"""Lines written at a time (a ``write`` per line would cost more than narrating it)."""


def _tell(out: TextIO, steps: Iterable[Step], style: _Style, log: str, *, after: bool = False) -> None:
    """Write ``steps`` a chunk at a time (up to the damage, when the log is damaged part way);
    the elements of a JSON array are separated from those written before when ``after``."""
    if style.fmt == "human":
        recent = _Recent(log)
        lookup: Lookup = recent.get
        width, markdown = style.width, style.markdown

        def told(step: Step) -> list[str]:
            recent.add(step.event)
            return [rendered(line, width) for line in narrate(step, lookup, markdown=markdown)]

    else:
        encode = msgspec.json.Encoder(order="sorted").encode

        def told(step: Step) -> list[str]:
            event = step.event
            return [encode(StepDoc(event.seq, kind_of(event), event, changes(step.before, step.after))).decode()]

    chunk: list[str] = []
    wrote = after

    def flush() -> None:
        nonlocal wrote
        if chunk:
            if style.fmt == "json":
                out.write(("," if wrote else "") + ",".join(chunk))
            else:  # text and JSON Lines: a line each
                out.write("\n".join(chunk) + "\n")
            chunk.clear()
            wrote = True

    try:
        for step in steps:
            chunk += told(step)
            if len(chunk) >= _CHUNK:
                flush()
    finally:
        if not isinstance(sys.exc_info()[1], OSError):  # not into a closed pipe
            flush()


# ----------------------------------------------------------------- two processes

SPLIT_MIN_BYTES = 16 << 20
"""A log this large (and a range of ``SPLIT_MIN_EVENTS``) is told by two processes."""
SPLIT_MIN_EVENTS = 20_000
SHARE = {"human": 0.55, "json": 0.6, "jsonl": 0.6}
"""The part of the range this process tells, by format. The other process first folds its
way to the rest, decoding only (this process checks those lines), then tells its part: with
``r`` the cost of telling an event over that of folding one, both finish together when this
process tells ``r / (2r - 1)`` of the range. Measured on the bench fight: text about 14 us
an event against 2.5 (r 5.7: 0.55), JSON about 7.5 (r 3: 0.6)."""


def _split_at(log: str, first: int, last: int, share: float) -> tuple[int, int] | None:
    """Where a forked child takes over telling: the seq of its first event and that line's
    byte offset (the start of an append), or ``None`` to tell it all here."""
    if last - first + 1 < SPLIT_MIN_EVENTS or not worth_forking(log, SPLIT_MIN_BYTES):
        return None
    if SPLIT_MIN_BYTES and idle_cores() < 1.5:  # this process takes one; the child needs another
        return None
    from fightlog.events.ranges import boundary_after

    with open_log(log) as stream:  # the event ``share`` of the way from ``first`` to ``last``
        size = os.fstat(stream.fileno()).st_size
        offset = boundary_after(stream, _offset_of(first, last, size, share), size)
        if offset is None:
            return None
        stream.seek(offset)
        try:
            mid = DECODER.decode(stream.readline()).seq
        except Exception:
            return None  # the reader names it as it gets there
    return (mid, offset) if first < mid <= last else None


def _offset_of(first: int, last: int, size: int, share: float) -> int:
    """Roughly where the event ``share`` of the way from ``first`` to ``last`` lies (lines
    are about the same length)."""
    return int(size * (first + (last - first + 1) * share) / (last + 1))


def _tell_in_two(out: TextIO, log: str, first: int, split: tuple[int, int], upto: int | None, style: _Style) -> int:
    """Tell ``first..mid-1`` here while a forked child tells ``mid..upto`` into a spool
    file, then copy the spool: the same bytes as one process telling it all. A problem in
    the child's part is raised after its part up to the problem is copied."""
    mid = split[0]
    with tempfile.TemporaryFile() as spool:
        child: Forked[tuple[int, FightlogError | None]] = Forked(_tell_rest, log, split, upto, spool.fileno(), style)
        try:
            steps = _Shown(replay_steps(log, first, mid - 1))
            _tell(out, steps, style, log)
            last, problem = child.result()
        finally:
            child.kill()
        _copy_out(spool, out)
        if problem is not None:
            raise problem
        return max(last, steps.last)


def _tell_rest(log: str, split: tuple[int, int], upto: int | None, fd: int, style: _Style) -> tuple[int, FightlogError | None]:
    """In the child: tell ``mid..upto`` into ``fd``; the last seq told and the problem met.
    The parent checks the lines before ``mid`` as it tells them: here they are only decoded."""
    steps = _Shown(replay_steps(log, split[0], upto, trusted_until=split[1]))
    with os.fdopen(fd, "w", encoding="utf-8", closefd=False) as spool:
        # the spool is copied out as bytes, under the parent's Revealing: marked here
        told: TextIO = Revealing(spool) if style.fmt == "human" else spool  # type: ignore[assignment]
        try:
            _tell(told, steps, style, log, after=True)
        except FightlogError as exc:
            return steps.last, exc
    return steps.last, None


_COPY_BLOCK = 64 << 10
"""Bytes of the child's spool copied at a time: a small block, so the copy adds nothing to
the peak memory (1 MiB blocks, read, decoded and encoded again, added 3-4 MiB)."""


def _copy_out(spool: BinaryIO, out: TextIO) -> None:
    """Copy the child's spool (UTF-8 text) to ``out``: as bytes under the text layer when
    ``out`` has one, else decoded a block at a time."""
    spool.seek(0)
    raw = getattr(out, "buffer", None)
    if raw is not None:
        out.flush()
        while block := spool.read(_COPY_BLOCK):
            raw.write(block)
        raw.flush()
        return
    decoder = codecs.getincrementaldecoder("utf-8")()
    while block := spool.read(_COPY_BLOCK):
        out.write(decoder.decode(block))


class _Shown:
    """The replay's steps, remembering the ``seq`` of the last one taken (0: none yet)."""

    def __init__(self, steps: Iterable[Step]) -> None:
        self.steps = steps
        self.last = 0

    def __iter__(self) -> Iterator[Step]:
        for step in self.steps:
            self.last = step.event.seq
            yield step


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


class _Recent:
    """The events the replay told last (``RECENT_STEPS`` of them) and ``get``, the event at a
    ``seq``, to say what a ruling is about: one of them, or read from the log (which the
    replay has read up to it already)."""

    def __init__(self, log: str) -> None:
        self._log = log
        self._events: dict[int, AnyEvent] = {}

    def add(self, event: AnyEvent) -> None:
        events = self._events
        events[event.seq] = event
        if len(events) > RECENT_STEPS:
            del events[next(iter(events))]  # the oldest: added in log order

    def get(self, seq: int) -> AnyEvent | None:
        event = self._events.get(seq)
        return event if event is not None else events_at(self._log, {seq}).get(seq)
