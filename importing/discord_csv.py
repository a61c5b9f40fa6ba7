"""DiscordChatExporter CSV exports (``CsvMessageWriter``): a header
``AuthorID,Author,Date,Content,Attachments,Reactions``, then one row a message, every field
quoted (``"`` doubled inside), a message's newlines kept inside its quoted field. ``Author``
is the user name (``name#1234`` for old-style users), not the nickname; the date is ISO 8601
with the exporter's offset; embeds, replies and edits are not in this format. ``ref`` is
``FILE:LINE`` of the row's first line."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import datetime
from typing import BinaryIO, Final

from fightlog.errors import InputError
from fightlog.importing.message import Message
from fightlog.importing.source import MAX_MESSAGE_BYTES, Warn, text_lines, too_long

_CSV_CR: Final = "new-line character seen in unquoted field - do you need to open the file in universal-newline mode?"
"""What ``csv`` says of a lone CR (the exporter quotes every field: binary, or a file edited by hand)."""
HEADER: Final = ["AuthorID", "Author", "Date", "Content", "Attachments", "Reactions"]


def read(handle: BinaryIO, name: str, warn: Warn) -> Iterator[Message]:
    """The messages of the CSV export ``handle`` (shown as ``name``), in file order."""
    csv.field_size_limit(MAX_MESSAGE_BYTES)
    rows = csv.reader((text + "\n" for _, text in text_lines(handle, name, warn)), strict=True)
    done = 0  # lines read before this row
    try:
        for row in rows:
            line, done = done + 1, rows.line_num
            if line == 1:
                if row != HEADER:
                    raise InputError(f"not a DiscordChatExporter CSV header (expected {','.join(HEADER)})",
                                     path=name, line=1)
                continue
            if not row:
                continue
            if len(row) != len(HEADER):
                raise InputError(f"expected {len(HEADER)} fields, got {len(row)}", path=name, line=line)
            yield _message(row, name, line)
    except csv.Error as exc:
        if str(exc).startswith("field larger than field limit"):  # a valid export with a message too long for us
            raise too_long(name, done + 1) from None
        exc = csv.Error(str(exc).replace(_CSV_CR, "a carriage return (CR) outside a quoted field"))
        if done == 0:  # the first row is not even CSV: binary, or another kind of file
            raise InputError(f"not a DiscordChatExporter CSV export: its first line is not the header "
                             f"{','.join(HEADER)} ({exc})", path=name, line=1) from None
        raise InputError(f"not CSV as the exporter writes it: {exc}", path=name, line=done + 1) from None


def _message(row: list[str], name: str, line: int) -> Message:
    author_id, author, date, content, attachments, _ = row
    try:
        at: datetime | None = datetime.fromisoformat(date)
    except ValueError:
        raise InputError(f"not a date: {date!r}", path=name, line=line) from None
    raw = content
    return Message(
        ref=f"{name}:{line}",
        line=line,
        at=at,
        speaker=author_id,
        name=author,
        speaker_id=author_id,
        text=content,
        attachments=tuple(a for a in attachments.split(",") if a),
        raw=raw,
    )
