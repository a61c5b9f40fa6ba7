"""A log's history as states: the state at any ``seq``, and the steps of a replay.

The I/O side of folding: it reads the log (checking the chain as it goes), uses the checkpoint
cache, and feeds the pure fold in ``fightlog.reducers``. Rulings are honoured as of the point
asked for.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from fightlog.events.sidecar import cache_key
from fightlog.history.checkpoints import WRITE_AFTER, CheckpointSource, Loaded, load, log_witness, save
from fightlog.errors import FoldError, InputError
import msgspec

from fightlog.events.codec import decode_line
from fightlog.events.model import AnyEvent
from fightlog.events.reader import open_log, raw_lines, read_log
from fightlog.reducers.folder import Folder, Source, Step
from fightlog.reducers.state import SceneState


def file_source(path: str, trusted_until: int | None = None) -> Source:
    """``seq -> events from seq on`` for the log at ``path`` (chain checked from line 1, or
    from byte ``trusted_until`` when another process checks the lines before it)."""
    return FileSource(path, trusted_until)


class FileSource:
    """``file_source``'s reader, which also knows how many lines it has read with their chain
    checked, so a replay's refold reads those again only decoded (``read_again``), as
    ``events_at`` finds the events a replay names."""

    def __init__(self, path: str, trusted_until: int | None = None) -> None:
        self.path = path
        self.trusted_until = trusted_until
        self.checked = 0
        """The lines read so far with the chain checked (or trusted: ``trusted_until``)."""

    def __call__(self, seq: int) -> Iterator[AnyEvent]:
        if self.trusted_until is None:
            lines = read_log(self.path, from_seq=seq)
        else:
            from fightlog.events.ranges import read_trusting

            lines = read_trusting(self.path, self.trusted_until, from_seq=seq)
        for line, event in lines:
            if line > self.checked:
                self.checked = line
            yield event

    def read_again(self, seq: int) -> Iterator[AnyEvent]:
        """The events from ``seq`` on: the lines read before only decoded, the rest read as
        ``__call__`` reads them."""
        checked = self.checked
        with open_log(self.path) as stream:
            for line, raw in enumerate(raw_lines(stream), 1):
                if line > checked:
                    break
                if line >= seq:
                    yield decode_line(raw.rstrip(b"\r\n"))
            else:
                return
        yield from self(checked + 1)


class Seen:
    """The state of a log after an event, and that event (``None`` before the first);
    ``warning`` says why the checkpoint sidecar was not read, when it deserves saying (a
    FIFO, a link, a damaged file: ``fightlog.history.checkpoints.load``)."""

    def __init__(self, state: SceneState, event: AnyEvent | None, warning: str | None = None) -> None:
        self.state = state
        self.event = event
        self.warning = warning


def state_at(path: str | os.PathLike[str], at: int | None = None, *, cache: bool = True) -> SceneState:
    """The state after event ``at`` (default: the last event), rulings made by then applied.

    With ``cache``, the fold starts from the latest usable checkpoint at or before ``at``
    (``fightlog.history.checkpoints``), and a fold to the end of the log that read many events leaves
    a new checkpoint behind.
    """
    return seen_at(path, at, cache=cache).state


def seen_at(path: str | os.PathLike[str], at: int | None = None, *, cache: bool = True) -> Seen:
    """``state_at``, together with the event the state is after (found without reading the
    log again: it is the last event folded, or the line a checkpoint records)."""
    name = os.fspath(path)
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or at < 0):
        raise InputError(f"at={at!r}: a seq is a whole number, 0 or more", path=name)
    key = cache_key() if cache else None
    before = log_witness(name) if key is not None else None  # a save needs the log unchanged since
    loaded = load(name, key) if key is not None else Loaded([])
    entries = loaded.entries
    usable = [(entry, state) for entry, state in entries if at is None or entry.seq <= at]
    source = CheckpointSource(name, [entry for entry, _ in usable])
    recent: dict[int, AnyEvent] = {}

    def remembering(seq: int) -> Iterator[AnyEvent]:
        for event in source(seq):
            recent[event.seq % 2] = event  # the last two: the fold may look one past the end
            yield event

    try:
        state = Folder(remembering, snapshots=[state for _, state in usable], read_again=file_source(name)).run(upto=at)
    except FoldError as exc:
        exc.path = name
        raise
    if at is not None and state.seq < at:
        raise InputError(f"asked for the state after seq {at}, but the log ends at seq {state.seq}", path=name)
    head = source.head
    if key is not None and at is None and head is not None and head.seq == state.seq and source.read >= WRITE_AFTER:
        save(name, key, head, state, [entry for entry, _ in entries], before)
    event = recent.get(state.seq % 2)
    if event is None or event.seq != state.seq:
        event = source.recorded(state.seq)
    return Seen(state, event, loaded.warning)


def replay(
    path: str | os.PathLike[str], start: int = 1, upto: int | None = None, *, trusted_until: int | None = None
) -> Iterator[Step]:
    """Each event from ``start`` to ``upto`` with the state before and after it
    (``trusted_until``: see ``file_source``)."""
    name = os.fspath(path)
    try:
        source = FileSource(name, trusted_until)
        yield from Folder(source, read_again=source.read_again).steps(start=start, upto=upto)
    except FoldError as exc:
        exc.path = name
        raise


def events_at(log: str, wanted: set[int]) -> dict[int, AnyEvent]:
    """The events at the ``wanted`` seqs (to name what a ruling is about). The caller has
    just read the log up to them with its chain checked (``state_at``, ``replay``), so line N
    holds seq N: their lines are only found and decoded, without a second check of the whole
    log (which would undo the checkpoint cache). A line that no longer decodes is left out.
    """
    found: dict[int, AnyEvent] = {}
    if not wanted:
        return found
    last = max(wanted)
    with open_log(log) as stream:
        for line, raw in enumerate(raw_lines(stream), 1):
            if line > last:
                break
            if line in wanted:
                try:
                    found[line] = decode_line(raw.rstrip(b"\r\n"))
                except msgspec.DecodeError:
                    pass
    return found
