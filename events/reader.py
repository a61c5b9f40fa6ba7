"""Streaming, checking reader for logs.

Reads one line at a time (never the whole file) and yields ``(line_number, event)`` after
checking, for every line: it is terminated, not over ``MAX_LINE_BYTES``, valid UTF-8 JSON
nested no deeper than ``MAX_DEPTH`` (``fightlog.events.depth``), a known kind with valid fields, ``seq`` is the next number, and ``prev`` is the hash of the line
before. The first problem stops the read with one error that names the file and line.

Line endings: the writer always writes ``\\n``. On read, ``\\r\\n`` is accepted too, and the
chain hashes each line without its terminator, so a log converted by an editor or by git's
``autocrlf`` still verifies. A UTF-8 byte-order mark is refused.

Errors: problems that make the file unusable as a log (missing, a directory, empty, binary,
a first line that is not a ``scene_started`` event, or one whose ``format`` is newer than
``FORMAT_VERSION``: "written by a newer fightlog") raise ``InputError``; problems after a
valid first line raise ``LogDamagedError`` (``TornTailError`` for an unterminated last line,
or a log that ends inside a multi-event append: ``fightlog.events.batches``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

import msgspec

from fightlog.errors import InputError, LogDamagedError, TornTailError
from fightlog.events.batches import CLOSED, BatchState, batch_step, closes, unfinished
from fightlog.events.codec import DECODER
from fightlog.events.depth import NESTED_KINDS, too_deep
from fightlog.events.limits import MAX_DEPTH, MAX_LINE_BYTES
from fightlog.events.model import FORMAT_VERSION, GENESIS, KINDS, AnyEvent, SceneStarted, kind_of
from fightlog.events.piped import registered
from fightlog.events.utf8 import not_utf8

BOM = b"\xef\xbb\xbf"
BROKEN_LINK = "prev does not match"
"""How a line whose ``prev`` is not the hash of the line before is reported: that line, or
this one, was edited (the report shows neither)."""
NOT_A_LOG = "not a fightlog log (line 1 is not a JSON object)"
"""What a first line that is no JSON object is (a chat transcript, a TOML file: the CLI says
which importer reads a transcript)."""


class ChainHead(msgspec.Struct):
    """Filled in by a complete read: the last ``seq`` and its line hash (the next ``prev``),
    and where that line lies in the file (``start`` of the line, ``end`` just past it).
    ``batch`` is the append still open there (``fightlog.events.batches``), for a read that
    continues after it."""

    seq: int = 0
    digest: str = GENESIS
    start: int = 0
    end: int = 0
    batch: BatchState = CLOSED


def open_log(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a log for reading, turning OS errors into one-line ``InputError``. A name a
    command registered (``-``, a pipe: ``fightlog.events.piped.reading``) opens what it read."""
    name = os.fspath(path)
    piped = registered(name)
    if piped is not None:
        return piped
    if os.path.isdir(name):
        raise InputError("is a directory, not a log file", path=name)
    try:
        return open(name, "rb", buffering=1 << 20)
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except PermissionError:
        raise InputError("permission denied", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror or exc}", path=name) from None


def raw_lines(stream: BinaryIO, end: int | None = None) -> Iterator[bytes]:
    """Raw lines with their terminators, each read with a length limit so that a huge line
    is never held whole: a line longer than ``MAX_LINE_BYTES`` comes back cut, unterminated.

    With ``end``, stop at that byte offset (a line boundary) instead of at end of file.
    """
    readline = stream.readline
    limit = MAX_LINE_BYTES + 2  # room for "\r\n"
    if end is None:
        while True:
            raw = readline(limit)
            if not raw:
                return
            yield raw
    pos = stream.tell()
    while pos < end:
        raw = readline(limit)
        if not raw:
            return
        pos += len(raw)
        yield raw


def read_log(
    path: str | os.PathLike[str], *, from_seq: int = 1, head: ChainHead | None = None
) -> Iterator[tuple[int, AnyEvent]]:
    """Yield ``(line, event)`` for every event of the log at ``path`` with ``seq >= from_seq``.

    The whole log is still checked from line 1 (the chain cannot be checked otherwise).
    ``head``, when given, receives the last ``seq`` and digest once the read completes.
    """
    name = os.fspath(path)
    with open_log(name) as stream:
        yield from check_lines(raw_lines(stream), name, from_seq=from_seq, head=head)


def check_lines(
    lines: Iterable[bytes],
    path: str,
    *,
    from_seq: int = 1,
    head: ChainHead | None = None,
    after: ChainHead | None = None,
    offset: int = 0,
    final: bool = True,
) -> Iterator[tuple[int, AnyEvent]]:
    """Check raw lines (with terminators) as a log and yield ``(line, event)``.

    Shared by the file reader, the in-memory store and range checking, so all enforce the
    same rules. ``after`` continues a chain checked elsewhere (the lines are the ones after
    line ``after.seq``, which hashed to ``after.digest``); ``offset`` is the byte offset of
    the first line in the file. ``final``: the lines end where the file does, so an append
    still open there is a torn tail (a range of a larger file passes ``False``).
    """
    # Long on purpose: the per-line loop of every read; a helper per line would cost a call per line.
    decode = DECODER.decode
    sha256 = hashlib.sha256
    expected_prev = GENESIS if after is None else after.digest
    lineno = 0 if after is None else after.seq
    line_start = offset
    want, size, opened, opened_at = CLOSED if after is None else after.batch  # an open append
    for raw in lines:
        lineno += 1
        if raw[-1:] != b"\n":
            _unterminated(raw, path, lineno, offset, expected_prev, (want, size, opened, opened_at))
        body = raw[:-2] if raw[-2:] == b"\r\n" else raw[:-1]
        try:
            event = decode(body)
            if not body.isascii():  # msgspec skips an unknown field's bytes unread: the whole line is UTF-8
                body.decode("utf-8")
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            raise _undecodable(body, exc, path, lineno) from None
        except RecursionError:
            raise _deep(path, lineno) from None
        if type(event) in NESTED_KINDS and too_deep(body):
            raise _deep(path, lineno)
        if lineno == 1:
            if type(event) is not SceneStarted:
                raise InputError(
                    f"not a fightlog log: the first event is {_kind(event)!r}, "
                    "expected 'scene_started'",
                    path=path,
                    line=1,
                )
            if event.format > FORMAT_VERSION:
                raise InputError(newer_format(event.format), path=path, line=1)
        elif type(event) is SceneStarted:
            raise LogDamagedError(
                "a second 'scene_started' event (two logs joined together?)", path=path, line=lineno
            )
        seq = event.seq
        if seq != lineno or event.prev != expected_prev:
            raise _out_of_chain(event, path, lineno)
        mark = event.batch
        if mark is not None or want:
            if want and mark is not None and mark[0] == want and mark[1] == size:  # the usual next
                want = 0 if want == size else want + 1
            else:
                want, size, opened, opened_at = batch_step(mark, (want, size, opened, opened_at), lineno, offset, path)
        expected_prev = sha256(body).hexdigest()
        line_start = offset
        offset += len(raw)
        if seq >= from_seq:
            yield lineno, event
    if lineno == 0 and after is None:
        raise InputError("empty file: a log has at least a 'scene_started' line", path=path)
    batch = (want, size, opened, opened_at) if want else CLOSED
    if want and final:
        raise unfinished(batch, lineno, path, torn=False)
    if head is not None:
        head.batch = batch
        head.seq = lineno
        head.digest = expected_prev
        head.end = offset
        head.start = line_start


def newer_format(version: int) -> str:
    """Why a log of format ``version`` (beyond ``FORMAT_VERSION``) is refused: every reader
    refuses it at line 1 rather than misread what a newer writer meant."""
    return f"written by a newer fightlog (format {version}; this fightlog reads up to {FORMAT_VERSION})"


class _Format(msgspec.Struct):
    """What line 1 says of its format, read when it does not decode as this release's
    ``scene_started`` (a newer writer's may not)."""

    kind: str = ""
    format: int = 0


def _deep(path: str, lineno: int) -> InputError | LogDamagedError:
    cls = InputError if lineno == 1 else LogDamagedError
    return cls(f"nested deeper than {MAX_DEPTH} levels: not a fightlog event", path=path, line=lineno)


_kind = kind_of


def _unterminated(
    raw: bytes, path: str, lineno: int, offset: int, expected_prev: str, batch: BatchState
) -> None:
    """Raise the right error for a line without a terminator (always the file's last line,
    unless it was cut at the length limit). Inside an open append (``batch``), the torn tail
    starts at that append's first line; the line is complete only if it also closes it."""
    if len(raw) > MAX_LINE_BYTES:
        cls = InputError if lineno == 1 else LogDamagedError
        raise cls(
            f"line is longer than {MAX_LINE_BYTES} bytes: not a fightlog event "
            "(a log line is one event)",
            path=path,
            line=lineno,
        )
    if lineno == 1 and (b"\0" in raw or not raw.lstrip().startswith(b"{")):
        raise InputError("not a fightlog log (does not start with a JSON object)", path=path, line=1)
    complete = False
    try:
        event = DECODER.decode(raw)
        complete = event.seq == lineno and event.prev == expected_prev
        if complete and not closes(event.batch, batch):
            if not batch[0]:  # it opens an append it cannot finish
                batch = (2, event.batch[1] if event.batch else 2, lineno, offset)
            raise unfinished(batch, lineno, path, torn=True)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        pass
    if lineno == 1 and not complete:  # a log's first append is written whole: no crash cuts line 1
        if b"\r" in raw:
            raise InputError("its lines end in a carriage return alone (\\r), not \\n: not a log as it is; "
                             "convert the line endings (tr '\\r' '\\n' < LOG > FIXED)", path=path, line=1)
        try:
            DECODER.decode(raw)
        except msgspec.ValidationError as exc:  # whole JSON, no event: what the line says with its newline
            raise _undecodable(raw, exc, path, 1) from None
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            pass
        else:  # a whole event, not a first one: what the reader says of it with its newline
            for _ in check_lines(iter((raw + b"\n",)), path):
                pass
        raise LogDamagedError("the first line is cut off: a log's first line is written whole, so no crash "
                              "did this (not repairable: nothing before it is whole)", path=path, line=1)
    if batch[0] and not complete:
        raise unfinished(batch, lineno, path, torn=True)
    what = (
        "the last line has no newline (the event is complete; `fightlog verify --repair` adds it)"
        if complete
        else "the last line is incomplete (torn write: a crash during an append?); "
        "`fightlog verify --repair` moves it to a side file"
    )
    raise TornTailError(what, path=path, line=lineno, offset=offset, complete=complete)


def _undecodable(
    body: bytes, exc: Exception, path: str, lineno: int
) -> InputError | LogDamagedError:
    if lineno == 1:
        try:
            first = msgspec.json.decode(body, type=_Format)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            first = _Format()
        if first.kind == "scene_started" and first.format > FORMAT_VERSION:
            return InputError(newer_format(first.format), path=path, line=1)
        if body.startswith(BOM):
            return InputError(
                "starts with a UTF-8 byte-order mark; logs are UTF-8 without BOM "
                "(re-saved by an editor?)",
                path=path,
                line=1,
            )
        if body.strip() in (b"{", b"["):  # a JSON document written over many lines, not JSON Lines
            return InputError(
                "not a fightlog log (line 1 opens a JSON document spread over many lines; a log holds one "
                "event a line; a DiscordChatExporter export is read by `fightlog import discord-json`)",
                path=path, line=1,
            )
        if b"\0" in body or not body.lstrip().startswith(b"{"):
            return InputError(
                NOT_A_LOG, path=path, line=1
            )
    bad = exc if isinstance(exc, UnicodeDecodeError) else not_utf8(body) if isinstance(exc, msgspec.DecodeError) \
        else None  # msgspec 0.23 says "Invalid UTF-8 encoded string" where older ones raised UnicodeDecodeError
    if not body.strip():
        what = "empty line"
    elif bad is not None:
        what = f"invalid UTF-8 (byte 0x{bad.object[bad.start]:02x})"
    elif not isinstance(exc, msgspec.ValidationError) and str(exc) == "Input data was truncated" \
            and _LONE_SURROGATE.search(body):  # msgspec's word for a high surrogate with no low one after it
        what = "not valid JSON (a \\ud800-\\udbff escape with no \\udc00-\\udfff after it: half a character)"
    elif not isinstance(exc, msgspec.ValidationError):
        what = f"not valid JSON ({exc})"
    else:
        what = _describe_validation(str(exc))
    cls = InputError if lineno == 1 else LogDamagedError
    return cls(_one_line(what), path=path, line=lineno)


_LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])")
"""A high surrogate escape not followed by a low one."""


def _one_line(text: str) -> str:
    """``text`` with control characters escaped (``\\n``), so that a value quoted from the
    line (an unknown kind holding a line break) cannot break the one-line error."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _describe_validation(detail: str) -> str:
    """Turn msgspec's validation message into a sentence about the event."""
    if detail.startswith("Expected `int` <=") and detail.endswith("`$.index`"):
        return f"invalid event: an engine roll's index (its roll number) is at most {(1 << 63) - 2} - at `$.index`"
    if detail.startswith("Invalid value") and "`$.kind`" in detail:
        value = detail.split(' ', 2)[2].split(' - ')[0]
        if value.strip("'") in KINDS:  # a known kind refused: the line gives a second "kind"
            return f"'kind' given twice, the second time as {value}: a line is one event of one kind"
        return f"unknown kind {value}"
    if detail == "Object missing required field `kind`":
        return "not a fightlog event: no 'kind' field"
    if detail.startswith("Expected `object`, got") and " - at `$" not in detail:  # the line itself
        return f"not a fightlog event: a JSON {detail.split('got `', 1)[1].rstrip('`')}, not an object"
    return f"invalid event: {detail}"


def _out_of_chain(event: AnyEvent, path: str, lineno: int) -> InputError | LogDamagedError:
    seq = event.seq
    expected = lineno
    if lineno == 1:
        if seq != 1:
            return InputError(f"the first event has seq {seq}, expected 1", path=path, line=1)
        return InputError(
            f"the first event's prev must be {GENESIS[:8]}... (64 zeros)", path=path, line=1
        )
    if seq == 0:
        what = f"seq is missing (expected {expected})"
    elif seq == expected - 1:
        what = f"seq {seq} repeats (a duplicated line?)"
    elif seq > expected:
        gap = f"{expected}" if seq == expected + 1 else f"{expected}..{seq - 1}"
        what = f"seq {seq} follows seq {expected - 1}: seq {gap} missing here (removed or reordered lines?)"
    elif seq < expected:
        what = f"seq {seq} out of order, expected {expected} (reordered lines?)"
    elif not event.prev:
        what = "prev is missing"
    else:
        what = f"{BROKEN_LINK} line {lineno - 1} (edited, removed or reordered?)"
    return LogDamagedError(what, path=path, line=lineno)
