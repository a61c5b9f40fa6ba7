"""``fightlog import`` without the command line: a transcript read, turned into events and
written as a new log, in one streaming pass.

The transcript is hashed first (its SHA-256 goes in ``scene_started``), then read message by
message; each message's events are sealed (``seq``, the hash chain, the writer's checks) and
written to a temporary file beside the log, renamed over it at the end, so a failure at any
point leaves no partial log. Nothing depends on the clock or the machine: the same
transcript, cast and options give the same bytes (refs name the transcript by its file
name, not its path).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO

import msgspec
from msgspec.structs import replace

from fightlog.errors import InputError, StoreError
from fightlog.events.codec import line_digest
from fightlog.events.model import (
    FORMAT_VERSION,
    GENESIS,
    AnyEvent,
    CombatantJoined,
    InitiativeSet,
    SceneStarted,
    Transcript,
)
from fightlog.events.writable import encode_checked
from fightlog.importing import IMPORTER_VERSION, discord_csv, discord_json, discord_txt, sl
from fightlog.importing.build import Builder
from fightlog.importing.cast import Cast, timezone_of
from fightlog.importing.message import Message
from fightlog.importing.sniff import FORMATS, looks_like
from fightlog.importing.source import (MAX_MESSAGE_BYTES, UTF8_BOM, UTF16_BOMS, Warn, empty_file, open_transcript,
                                       sha256_of, too_long, utf16_file)
from fightlog.events.replacing import replacing

MEDIUM = {"sl": "sl-chat", "discord-json": "discord", "discord-csv": "discord", "discord-txt": "discord"}
SL_TIME_ZONE = "America/Los_Angeles"
"""SLT: what Second Life viewers stamp their logs in."""


@dataclass(frozen=True)
class Imported:
    """What an import wrote: events, messages read, the scene id."""

    events: int
    messages: int
    scene: str


def check_format(path: str, fmt: str) -> None:
    """Refuse a transcript that looks like another format than ``fmt`` (saying which)."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    with open_transcript(path) as handle:
        head = handle.read(8192)
    if len(head) < 8192 and not head.removeprefix(UTF8_BOM).strip():
        raise empty_file(path, bool(head))  # every format alike (the readers refuse it too, at its end)
    if head.startswith(UTF16_BOMS):
        raise utf16_file(path)
    nul = head.find(b"\0")
    if nul >= 0:  # as the readers say it (``source.text_lines``), before any guess at the format
        start = head.rfind(b"\n", 0, nul) + 1
        raise InputError(f"a NUL byte (0x00) at byte {nul - start + 1} of the line: a binary file (or UTF-16 text), "
                         "not a chat transcript", path=path, line=head.count(b"\n", 0, nul) + 1)
    seems = looks_like(head)
    if seems == "fightlog-log":
        raise InputError("this is a fightlog log already, not a chat transcript", path=path, line=1)
    if seems is not None and seems != fmt:
        raise InputError(f"not a {fmt} transcript: it looks like {seems} (fightlog import {seems} ...)", path=path,
                         line=1)
    if seems is None and fmt == "sl" and head.strip():
        raise InputError("not a Second Life chat log: no '[YYYY/MM/DD HH:MM]  Name: text' line in its first lines",
                         path=path, line=1)


def located(path: str, warn: Warn, *, bare: bool = False) -> Warn:
    """``warn``, told a warning at a ref (``name:line``, the file's base name) as at the path
    the transcript was given by; with ``bare``, one at no line (a Discord message's id) as
    in the file."""
    name = os.path.basename(path)

    def said(message: str) -> None:
        warn(path + message[len(name):] if message.startswith(name + ":") else
             f"{path}: {message}" if bare else message)

    return said


def messages(path: str, fmt: str, cast: Cast, warn: Warn) -> Iterator[Message]:
    """The transcript's messages, in order (refs name the file by its base name)."""
    name = os.path.basename(path)
    handle = open_transcript(path)
    said = located(path, warn, bare=True)  # at a line (name:line) or at a Discord message's id

    try:
        yield from _read(handle, name, fmt, cast, said)
    except InputError as exc:
        if exc.path == name:
            exc.path = path
        raise
    finally:
        handle.close()


def _read(handle: BinaryIO, name: str, fmt: str, cast: Cast, warn: Warn) -> Iterator[Message]:
    """The messages of the transcript, each at most ``MAX_MESSAGE_BYTES`` as the log writes
    it (a message of many lines too: an SL post's continuation lines, a text export's
    content; a control character is six bytes there, ``\\u0001``)."""
    for message in _messages(handle, name, fmt, cast, warn):
        size = len(msgspec.json.encode(message.raw)) - 2  # its quotes apart
        if size > MAX_MESSAGE_BYTES:
            raise too_long(name, message.line, size)
        yield message


def _messages(handle: BinaryIO, name: str, fmt: str, cast: Cast, warn: Warn) -> Iterator[Message]:
    if fmt == "sl":
        zone = timezone_of(cast, SL_TIME_ZONE)
        yield from sl.read(handle, name, warn, tz=zone, day=cast.file.date, names=cast.names(), objects=cast.is_object)
        return
    reader = {"discord-json": discord_json.read, "discord-csv": discord_csv.read, "discord-txt": discord_txt.read}[fmt]
    last: datetime | None = None
    for message in reader(handle, name, warn):
        at = message.at
        if at is not None and last is not None and _comparable(at, last) and at < last:
            where = message.ref if ":" in message.ref else f"message {message.ref}"
            warn(f"{where}: the time goes back from {last.isoformat()} to {at.isoformat()}")
        if at is not None:
            last = at
        yield message


def _comparable(a: datetime, b: datetime) -> bool:
    return (a.tzinfo is None) == (b.tzinfo is None)


def in_window(stream: Iterator[Message], start: datetime | None, end: datetime | None,
              name: str = "<transcript>") -> Iterator[Message]:
    """The messages from ``start`` to ``end`` (inclusive); a message without a time is kept
    (but a transcript none of whose messages has one is refused: the bounds could keep nothing out).
    A bound without an offset is compared with the transcript's wall-clock time; one with
    an offset, with a time that has one too (a transcript whose times have none, its
    writer's local time, refuses it at its first message: ``name``'s)."""
    bounds = [(option, bound) for option, bound in (("--from", start), ("--to", end)) if bound is not None]
    timed = False
    for message in stream:
        at = message.at
        if at is not None and bounds:
            timed = True
            for option, bound in bounds:
                if bound.tzinfo is None:
                    here = at.replace(tzinfo=None)
                elif at.tzinfo is None:
                    where = "" if message.line else f" ({message.ref})"  # a message a line does not locate: its id
                    raise InputError(f"{option} {bound.isoformat()}: has an offset, and the transcript's time{where} has "
                                     "none (its writer's local time): give it without one", path=name,
                                     line=message.line or None)
                else:
                    here = at
                if here < bound if option == "--from" else here > bound:
                    break
            else:
                yield message
            continue
        yield message
    if bounds and not timed:
        options = " and ".join(option for option, _ in bounds)
        raise InputError(f"{options}: no message has a date and time to compare with (give the cast a date for a "
                         "log stamped with times alone)", path=name)


def opening(
    path: str, fmt: str, ruleset: str, cast: Cast, joined: list[AnyEvent], options: dict[str, object]
) -> list[AnyEvent]:
    """``scene_started`` (with the transcript's SHA-256), the combatants in the fight from
    the start, the posting order (arrivals apart: ``fightlog.importing.arrivals``)."""
    name = os.path.basename(path)
    scene = cast.file.scene or os.path.splitext(name)[0] or "imported"
    gm = cast.file.gm.name if cast.file.gm is not None else None
    events: list[AnyEvent] = [
        SceneStarted(
            scene=scene[:200], ruleset=ruleset, format=FORMAT_VERSION, options=options, title=cast.file.title, gm=gm,
            transcript=Transcript(format=fmt, file=name, sha256=sha256_of(path), importer=IMPORTER_VERSION),
        )
    ]
    events.extend(joined)
    order = cast.starting_order
    if order:
        events.append(InitiativeSet(order=order, reason="cast", by=gm))
    return events


def bare_joined(cast: Cast) -> list[AnyEvent]:
    """The cast's combatants as joined when no roster gives their sheets."""
    return [
        CombatantJoined(actor=c.id, name=c.name or c.id, side=c.side, controller=c.speakers[0])
        for c in cast.file.combatants
    ]


def write_log(out: str, first: list[AnyEvent], stream: Iterator[Message], builder: Builder) -> Imported:
    """Seal ``first`` and the events of every message of ``stream`` into ``out`` (a
    temporary file renamed over it at the end: ``fightlog.events.replacing``)."""
    with replacing(out) as handle:
        sealer = _Sealer(handle, out)
        sealer.add(first)
        count = 0
        for message in stream:
            sealer.add(builder.feed(message))
            count += 1
        sealer.flush()
    scene = first[0].scene if isinstance(first[0], SceneStarted) else ""
    return Imported(events=sealer.seq, messages=count, scene=scene)


class _Sealer:
    """The store's sealing (``events.store.seal``), streamed: ``seq``, ``prev`` and the
    writer's checks for each event, the lines buffered and written in blocks."""

    def __init__(self, handle: BinaryIO, name: str) -> None:
        self.handle = handle
        self.name = name
        self.seq = 0
        self.digest = GENESIS
        self.lines: list[bytes] = []
        self.size = 0

    def add(self, events: list[AnyEvent]) -> None:
        for event in events:
            self.seq += 1
            event = replace(event, seq=self.seq, prev=self.digest)
            try:
                line = encode_checked(event, self.name, self.seq, 0)
            except StoreError as exc:
                ref = event.origin.ref if event.origin is not None else None
                raise InputError(f"{ref or 'the transcript'}: cannot be imported: {exc}", path=self.name) from None
            self.digest = line_digest(line)
            self.lines.append(line)
            self.lines.append(b"\n")
            self.size += len(line) + 1
        if self.size >= 1 << 20:
            self.flush()

    def flush(self) -> None:
        self.handle.write(b"".join(self.lines))
        self.lines.clear()
        self.size = 0
