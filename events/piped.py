"""Logs that are not regular files: ``-`` (standard input), pipes, FIFOs, ``/dev/stdin``,
a shell's ``<(cat fight.jsonl)``.

Such a log can be read once. A command names its log through ``reading(arg, passes=...)``
for as long as it runs, and reads it by the name that gives back, with the usual readers
(``open_log`` asks ``registered`` first):

* a regular file (``/dev/stdin`` redirected from one included) is read as it is, as often as
  the command likes; the name is the path given;
* ``-`` is named ``<stdin>`` in every message;
* with ``passes=1`` (the command reads its log once, from the start: ``verify``,
  ``dispute``) the input is streamed, never copied;
* with ``passes=2`` (it reads its log more than once: ``state``, ``replay``, ``audit``) the
  input is first copied to a temporary file (mode 0600, removed when the command ends), and
  every read reads the copy.

Nothing is ever written beside such a log (``fightlog.history.checkpoints.cacheable``), and a
command that appends refuses ``-``.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import BinaryIO, Final, cast

from fightlog.errors import InputError
from fightlog.events.limits import MAX_LINE_BYTES

STDIN: Final = "-"
"""The log argument that means standard input."""

STDIN_NAME: Final = "<stdin>"
"""How messages name standard input."""

_BUFFER: Final = 1 << 20

_OPENERS: dict[str, Callable[[], BinaryIO]] = {}
"""Names registered by ``reading``, for the length of a command: how to open each."""


def name_of(arg: str) -> str:
    """How messages name the log ``arg``: ``<stdin>`` for ``-``, else the path as given."""
    return STDIN_NAME if arg == STDIN else arg


def is_regular(path: str) -> bool:
    """True when ``path`` is a regular file (after symlinks), which can be read again."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_registered(name: str) -> bool:
    """True while ``name`` is a log a running command reads through ``reading``."""
    return name in _OPENERS


def is_stream(name: str) -> bool:
    """True when the log ``name`` is read from standard input, a pipe or a FIFO (it exists,
    and is neither a regular file nor a directory)."""
    return is_registered(name) or (_exists(name) and not is_regular(name) and not os.path.isdir(name))


def registered(name: str) -> BinaryIO | None:
    """A new stream on the log a command registered as ``name``, else ``None``."""
    opener = _OPENERS.get(name)
    return opener() if opener is not None else None


@contextmanager
def reading(arg: str, *, passes: int) -> Iterator[str]:
    """The name to read the log ``arg`` by, while the block runs (see the module's doc)."""
    name = name_of(arg)
    if arg != STDIN and (is_regular(arg) or not _exists(arg) or os.path.isdir(arg)):
        yield arg  # a file, or what the reader will refuse with its own message
        return
    if passes == 1 and arg != STDIN:
        yield arg  # a pipe or FIFO: open() streams it, once
        return
    if passes == 1:
        with _registered(name, _once(name)):
            yield name
        return
    with _terminated_as_exit():  # a command killed (SIGTERM) removes its copy too
        spool = _spool(arg, name)
        try:
            with _registered(name, lambda: open(spool, "rb", buffering=_BUFFER)):
                yield name
        finally:
            os.unlink(spool)


@contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """While the block runs, SIGTERM ends the command as an exit would (``SystemExit``, exit
    status 143), so what the block holds is cleaned up (a ``timeout`` or ``kill`` left the
    copy of a piped log behind)."""
    try:
        previous = signal.signal(signal.SIGTERM, _exit)
    except ValueError:  # not the main thread: signals are not ours to take
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def _registered(name: str, opener: Callable[[], BinaryIO]) -> Iterator[None]:
    _OPENERS[name] = opener
    try:
        yield
    finally:
        del _OPENERS[name]


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def _once(name: str) -> Callable[[], BinaryIO]:
    """Standard input, handed out once (a second read would see it empty, and say the log
    is empty: an error of fightlog's, not the user's)."""
    given = [False]

    def opener() -> BinaryIO:
        if given[0]:
            raise RuntimeError(f"{name} was opened twice by a command that reads it once")
        given[0] = True
        return cast(BinaryIO, _Borrowed(_stdin(name)))

    return opener


def _spool(arg: str, name: str) -> str:
    """Copy the input to a new temporary file (mode 0600) and return its path: up to and
    with the first line the reader is sure to refuse (``copied``), so an endless or
    damaged input does not fill the disk, and the reader says what it says of the whole."""
    fd, spool = tempfile.mkstemp(prefix="fightlog-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "wb", buffering=_BUFFER) as out:
            if arg == STDIN:
                copied(_stdin(name), out)
            else:
                with open(arg, "rb", buffering=_BUFFER) as source:
                    copied(source, out)
    except OSError as exc:
        os.unlink(spool)
        raise InputError(f"cannot copy to a temporary file to read it: {exc.strerror or exc}", path=name) from None
    except BaseException:
        os.unlink(spool)
        raise
    return spool


def copied(source: BinaryIO, out: BinaryIO) -> int:
    """Copy ``source``'s lines to ``out`` while the reader takes them (``reader.check_lines``,
    as it checks every log): the first line it refuses is copied and the copy ends there (the
    reader stops at its first error, so it says of the copy what it says of the whole); lines
    copied are returned."""
    from fightlog.events.reader import check_lines  # (the reader asks this module for piped logs)

    count = 0

    def lines() -> Iterator[bytes]:
        nonlocal count
        while True:
            raw = source.readline(MAX_LINE_BYTES + 2)  # as the reader reads: room for "\r\n"
            if not raw:
                return
            out.write(raw)
            count += 1
            yield raw

    try:
        for _ in check_lines(lines(), "<copy>"):
            pass
    except InputError:  # (a damaged log's ``LogDamagedError`` too): the copy ends at the line refused
        pass
    return count


def _stdin(name: str) -> BinaryIO:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError("standard input is closed", path=name)
    return cast(BinaryIO, stream)


class _Borrowed:
    """Standard input as a stream whose ``close`` leaves standard input open."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def readline(self, size: int = -1) -> bytes:
        return self._stream.readline(size)

    def read(self, size: int = -1) -> bytes:
        return self._stream.read(size)

    def close(self) -> None:
        pass

    def __enter__(self) -> _Borrowed:
        return self

    def __exit__(self, *exc: object) -> None:
        pass
