"""Batch marks: an append of several events is all or nothing.

The store marks each event of a multi-event append to a log that has events already with
``batch: [i, n]`` (the batch that starts a log is created whole, by rename, and needs none).
The reader keeps one small state across lines, ``(want, size, line, offset)``: ``want`` is the
index the next line must carry (0 when no batch is open), ``size`` the batch's ``n``, ``line``
and ``offset`` where the open batch starts. Lines without a mark cost one comparison.

- A batch whose last event is missing at the end of the file is an append that never
  finished: a torn tail (``TornTailError`` at the batch's first line, its offset), which
  ``verify --repair`` moves to a side file whole.
- A batch interrupted by another line, or a mark that does not continue the open batch, is
  damage (``LogDamagedError``): only a writer that ignored the unfinished batch, or an edit,
  makes one.
"""

from __future__ import annotations

from fightlog.errors import LogDamagedError, TornTailError

BatchState = tuple[int, int, int, int]
"""``(want, size, line, offset)``; ``CLOSED`` when no batch is open."""

CLOSED: BatchState = (0, 0, 0, 0)


def batch_step(
    mark: tuple[int, int] | None, state: BatchState, lineno: int, offset: int, path: str
) -> BatchState:
    """The state after line ``lineno`` (at byte ``offset``) carrying ``mark``; raises
    ``LogDamagedError`` if the line breaks the open batch or continues none. Called only for
    a marked line or while a batch is open."""
    want, size, line, start = state
    if want:
        if mark is None or mark[0] != want or mark[1] != size:
            got = "no batch mark" if mark is None else f"batch mark {mark[0]} of {mark[1]}"
            raise LogDamagedError(
                f"the append of {size} events that starts at line {line} stops after "
                f"{want - 1} of them: this line has {got}, not {want} of {size} "
                "(lines removed, or appended after an unfinished append?)",
                path=path,
                line=lineno,
            )
        return CLOSED if want == size else (want + 1, size, line, start)
    assert mark is not None
    if mark[0] != 1 or mark[1] < 2:
        raise LogDamagedError(
            f"batch mark {mark[0]} of {mark[1]} without the append's first event before it "
            "(lines removed or reordered?)",
            path=path,
            line=lineno,
        )
    return (2, mark[1], lineno, offset)


def closes(mark: tuple[int, int] | None, state: BatchState) -> bool:
    """Whether a line carrying ``mark`` leaves no batch open after it."""
    want, size = state[0], state[1]
    if not want:
        return mark is None
    return mark is not None and mark[0] == mark[1] == size and want == size


def unfinished(state: BatchState, last: int, path: str, torn: bool) -> TornTailError:
    """The torn tail of a log that ends inside the open batch ``state`` (``last`` is the last
    line number, ``torn`` whether that line is also cut)."""
    want, size, line, offset = state
    return TornTailError(
        f"the log ends inside an append that never finished: lines {line}..{last} are "
        f"{'part' if torn else want - 1} of the {size} events of one append (a crash during the "
        "append?); `fightlog verify --repair` moves them to a side file",
        path=path,
        line=line,
        offset=offset,
        complete=False,
    )
