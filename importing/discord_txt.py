"""DiscordChatExporter plain-text exports (``PlainTextMessageWriter``).

A header block between two lines of 62 ``=`` (``Guild:``, ``Channel:``, ``Topic:``...); then
each message: ``[DATE] AUTHOR`` (`` (pinned)`` after it when pinned), its content lines, a
blank line, then ``{Attachments}`` (one URL a line), ``{Embed}`` (author, url, title,
description, each field's name and value, thumbnail, images, footer: one a line, the empty
ones left out), ``{Stickers}`` and ``{Reactions}`` blocks, each closed by a blank line; a
footer ``Exported N message(s)`` between two ``=`` lines. DATE is .NET's ``g`` format in the
exporter's locale (en-US ``3/14/2024 8:02 PM`` by default; ``14/03/2024 20:02`` and ISO dates
are read too); AUTHOR is the user name (``name#1234`` for old-style users), the text has no
ids, so the cast names speakers by that name. ``ref`` is ``FILE:LINE`` of the header line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import BinaryIO, Final

from fightlog.importing.message import Embed, Message
from fightlog.importing.source import Warn, text_lines

RULE: Final = "=" * 62
HEADER: Final = re.compile(r"\[([^\]]{6,40})\] (.+?)( \(pinned\))?$")
_FORMATS: Final = ("%m/%d/%Y %I:%M %p", "%m/%d/%Y %H:%M", "%d/%m/%Y %H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M",
                   "%m/%d/%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S")
_BLOCKS: Final = ("{Attachments}", "{Embed}", "{Stickers}", "{Reactions}", "{Forwarded Message}")


def parse_date(text: str) -> datetime | None:
    """A date as the exporter's ``g`` format writes it in the usual locales, else ``None``."""
    for form in _FORMATS:
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    return None


def read(handle: BinaryIO, name: str, warn: Warn) -> Iterator[Message]:
    """The messages of the text export ``handle`` (shown as ``name``), in file order."""
    rules = 0
    current: tuple[int, datetime, str, list[str]] | None = None
    for number, text in text_lines(handle, name, warn):
        if text == RULE:
            rules += 1
            if rules > 2 and current is not None:
                yield _message(current, name)
                current = None
            continue
        if rules < 2 or rules > 2:
            continue  # the header block, the footer
        head = HEADER.match(text)
        at = parse_date(head[1]) if head is not None else None
        if head is not None and at is not None:
            if current is not None:
                yield _message(current, name)
            current = (number, at, head[2], [text])
        elif current is not None:
            current[3].append(text)
        elif text:
            yield Message(ref=f"{name}:{number}", line=number, text=text, kind="system", raw=text)
    if current is not None:
        yield _message(current, name)


def _message(current: tuple[int, datetime, str, list[str]], name: str) -> Message:
    line, at, author, lines = current
    body = lines[1:]
    content: list[str] = []
    blocks: list[tuple[str, list[str]]] = []
    for text in body:
        if text in _BLOCKS and (not content or content[-1] == "" or blocks):
            blocks.append((text, []))
        elif blocks:
            blocks[-1][1].append(text)
        else:
            content.append(text)
    while content and content[-1] == "":
        content.pop()
    attachments: list[str] = []
    embeds: list[Embed] = []
    for block, items in blocks:
        items = [i for i in items if i]
        if block == "{Attachments}":
            attachments.extend(items)
        elif block == "{Embed}":
            embeds.append(Embed(description="\n".join(items)))
    while lines and lines[-1] == "":
        lines.pop()
    return Message(
        ref=f"{name}:{line}",
        line=line,
        at=at,
        speaker=author,
        name=author,
        text="\n".join(content),
        embeds=tuple(embeds),
        attachments=tuple(attachments),
        raw="\n".join(lines),
    )
