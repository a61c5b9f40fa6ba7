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

from fightlog.errors import InputError
from fightlog.importing.message import Embed, Message
from fightlog.importing.source import MAX_MESSAGE_BYTES, Warn, text_lines

RULE: Final = "=" * 62
HEADER: Final = re.compile(r"\[([^\]]{6,40})\] (.+?)( \(pinned\))?$")
_FORMATS: Final = ("%m/%d/%Y %I:%M %p", "%d/%m/%Y %H:%M", "%m/%d/%Y %H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M",
                   "%m/%d/%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M", "%d-%m-%Y %H:%M",
                   "%Y-%m-%d %p %I:%M", "%Y/%m/%d %p %I:%M", "%Y. %m. %d. %p %I:%M")
"""The exporter writes the date in its culture's short pattern (``g``): month first with a
12-hour clock (en-US), day first with a 24-hour one (en-GB, fr-FR, es-ES...), year first
(ja-JP ``2024/08/31 21:00``, zh-CN ``2024/8/31 21:00``, ko-KR ``2024-08-31 오후 9:00``), day
first with dashes (nl-NL ``31-8-2024 21:00``). A slashed date on a 24-hour clock is read day
first, unless the file's first date whose second number cannot be a month (``3/14/2024 21:15``)
says the file is month first (``_month_first``): one file reads one way whatever the day. On a 12-hour clock it is read month first (en-US
never pads the month), day first when the second number is padded or the first cannot be a
month (en-AU ``5/08/2024 9:00 pm``, 5 August)."""
_DAY_FIRST_12H: Final = re.compile(r"(\d{1,2})/(\d{1,2})/\d{4} \d{1,2}:\d{2}(?::\d{2})? [AP]M$", re.IGNORECASE)
_MERIDIEM: Final = {"오전": "AM", "오후": "PM", "上午": "AM", "下午": "PM", "午前": "AM", "午後": "PM"}
"""The AM and PM designators of the cultures whose pattern puts them before the time."""
_BLOCKS: Final = ("{Attachments}", "{Embed}", "{Stickers}", "{Reactions}", "{Forwarded Message}")


_SLASHED_24H: Final = re.compile(r"(\d{1,2})/(\d{1,2})/\d{4} \d{1,2}:\d{2}(:\d{2})?")
"""A slashed date on a 24-hour clock: day first (en-GB...), or month first (.NET's invariant
culture, ``MM/dd/yyyy HH:mm``: an export run with no ``--locale`` on a system with none)."""


def parse_date(text: str, month_first: bool = False) -> datetime | None:
    """A date as the exporter's ``g`` format writes it in the usual locales, else ``None``;
    ``month_first``: a slashed date on a 24-hour clock is month first (``_month_first``)."""
    slashed = _SLASHED_24H.fullmatch(text) if month_first else None
    if slashed is not None:
        try:
            return datetime.strptime(text, "%m/%d/%Y %H:%M:%S" if slashed[3] else "%m/%d/%Y %H:%M")
        except ValueError:
            return None
    for local, designator in _MERIDIEM.items():
        text = text.replace(local, designator)
    twelve = _DAY_FIRST_12H.match(text)
    if twelve is not None and (twelve[2].startswith("0") or int(twelve[1]) > 12):
        try:
            return datetime.strptime(text, "%d/%m/%Y %I:%M:%S %p" if text.count(":") == 2 else "%d/%m/%Y %I:%M %p")
        except ValueError:
            return None
    for form in _FORMATS:
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    return None


def read(handle: BinaryIO, name: str, warn: Warn) -> Iterator[Message]:
    """The messages of the text export ``handle`` (shown as ``name``), in file order.

    A file without the exporter's header block (a ``=`` line, ``Guild:``, ``Channel:``, a
    ``=`` line) is refused at its first line, one without the footer (cut off) at its last,
    text after the footer at that text's line. A line of 62 ``=`` that is not the footer's
    is a message's content."""
    scanned = _month_first_scanned(handle)
    lines = _Lines(text_lines(handle, name, warn))
    _header(lines, name)
    month_first = scanned if scanned is not None else _month_first(lines, name, warn)
    current: tuple[int, datetime, str, list[str]] | None = None
    count = 0
    footer: tuple[int, str] | None = None
    unread: tuple[int, str] | None = None  # the first date that does not read, before any message
    for number, text in lines:
        footer = _footer(lines, name) if text == RULE else None
        if footer is not None:
            break
        head = HEADER.match(text)
        at = parse_date(head[1], month_first) if head is not None else None
        if head is not None and at is not None:
            if current is not None:
                yield _message(current, name)
            current, count = (number, at, head[2], [text]), count + 1
        elif current is not None:
            if head is not None and current[3][-1] == "" and any(c.isdigit() for c in head[1]):
                warn(f"{name}:{number}: '[{head[1]}]' looks like a message's date, which does not read: the line is "
                     f"kept as text of the message at line {current[0]}")
            current[3].append(text)
        elif text:
            if head is not None and any(c.isdigit() for c in head[1]):
                warn(f"{name}:{number}: '[{head[1]}]' looks like a message's date, which does not read: the line is "
                     "kept as a line of text before the first message")
                unread = unread or (number, head[1])
            yield Message(ref=f"{name}:{number}", line=number, text=text, kind="system", raw=text)
    else:
        raise InputError(f"no '{RULE[:3]}...' / 'Exported N message(s)' footer at the end: the export is cut off",
                         path=name, line=lines.last)
    if current is None and unread is not None:  # not one message: the dates are in a form not read
        raise InputError(f"'[{unread[1]}]' looks like a message's date, in a form the importer does not read, and no "
                         "message's date reads: export with --locale en-US (or say which culture wrote it in a bug "
                         "report)", path=name, line=unread[0])
    if current is not None:
        yield _message(current, name)
    said = int(re.sub(r"\D", "", footer[1]) or -1) if footer is not None else count
    if said != count:  # (the exporter counts what it wrote: a header line a message)
        warn(f"{name}:{footer[0]}: the footer says {said} message(s) were exported, the file holds {count}: "
             "messages were removed or added by hand, or a message's header line was edited")


FOOTER: Final = re.compile(r"Exported \S.* message\(s\)$")
"""The footer's line (its count formatted in the exporter's locale: ``1,234``)."""
_NOT_EXPORT: Final = "not a DiscordChatExporter text export"


class _Lines:
    """The lines, with a look ahead: the lines read past a ``=`` line that turns out not to
    open the footer are given again."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self.lines = lines
        self.back: list[tuple[int, str]] = []
        self.last = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        if self.back:
            return self.back.pop()
        number, text = next(self.lines)
        self.last = number
        return number, text

    def again(self, *lines: tuple[int, str]) -> None:
        self.back.extend(reversed(lines))


def _month_first_scanned(handle: BinaryIO) -> bool | None:
    """``_month_first`` of a file that can be read twice: its message dates scanned once
    (nothing kept but the answer), then read again from where it was; ``None`` for a stream
    (standard input), which ``_month_first`` reads ahead of instead."""
    try:
        if not handle.seekable():
            return None
        start = handle.tell()
    except (OSError, ValueError):
        return None
    month: bool | None = None
    try:
        for raw in iter(lambda: handle.readline(MAX_MESSAGE_BYTES + 1), b""):
            month = _decides(raw.decode("utf-8", "replace").rstrip("\r\n"))
            if month is not None:
                break
    finally:
        handle.seek(start)
    return bool(month)


def _decides(text: str) -> bool | None:
    """What the line ``text`` says of the file's date order: ``True`` month first (a message
    date whose second number cannot be a month), ``False`` day first (whose first cannot be,
    or a date in another form: nothing to decide), ``None`` nothing."""
    head = HEADER.match(text)
    if head is None:
        return None
    found = _SLASHED_24H.fullmatch(head[1])
    if found is None:
        return False if parse_date(head[1]) is not None else None
    if int(found[1]) > 12 or int(found[2]) > 12:
        return int(found[2]) > 12
    return None


def _month_first(lines: _Lines, name: str, warn: Warn) -> bool:
    """Whether the file's slashed 24-hour dates are month first: the first message date whose
    first or second number cannot be a month decides for the whole file (``3/13/2024 00:01``:
    month first; ``13/3/2024``: day first), so one file reads one way (read each on its own,
    ``03/12/2024 23:58`` was 3 December and the next message's ``03/13/2024 00:01`` 13 March).
    The lines up to it are read ahead and given again, at most ``LOOK_AHEAD`` of them (then,
    or where none decides, day first); a message date in another form (en-US, ISO) ends the
    look at once: the file is not one of these."""
    seen: list[tuple[int, str]] = []
    month: bool | None = None
    for number, text in lines:
        seen.append((number, text))
        month = _decides(text)
        if month is not None or len(seen) >= LOOK_AHEAD:
            break
    lines.again(*seen)
    if month is None and len(seen) >= LOOK_AHEAD:
        warn(f"{name}: no message date in the first {LOOK_AHEAD:,} lines says whether the dates are day or month "
             "first: read day first (save the export to a file to have it read whole)")
    return bool(month)


LOOK_AHEAD: Final = 20_000
"""Lines read ahead at most for ``_month_first`` (a stream; a file is scanned whole instead,
``_month_first_scanned``): a bound on the memory of one whose first dates do not decide."""


def _header(lines: _Lines, name: str) -> None:
    """Read the header block (leading blank lines, a ``=`` line, ``Guild:``, ``Channel:``,
    maybe ``Topic:``..., a ``=`` line), refusing a file that does not open with one."""
    for number, text in lines:
        if not text:
            continue
        if text != RULE:
            raise InputError(f"{_NOT_EXPORT}: it does not open with its header ({len(RULE)} '=', then Guild:, "
                             "Channel:)", path=name, line=number)
        break
    seen: list[str] = []
    for number, text in lines:
        if text == RULE:
            if "Channel" not in seen:
                raise InputError(f"{_NOT_EXPORT}: its header has no 'Channel:' line", path=name, line=number)
            return
        if not seen and not text.startswith("Guild: "):
            raise InputError(f"{_NOT_EXPORT}: its header's first line is not 'Guild: ...'", path=name, line=number)
        seen.append(text.partition(": ")[0])
    raise InputError(f"{_NOT_EXPORT}: its header never ends (no second line of {len(RULE)} '='): cut off?",
                     path=name, line=lines.last or 1)


def _footer(lines: _Lines, name: str) -> tuple[int, str] | None:
    """The footer's ``Exported N message(s)`` line and its number, when the ``=`` line just
    read opens the footer (that line, a ``=`` line, the end of the file); when it does not,
    ``None``, and the lines looked at are given again."""
    ahead: list[tuple[int, str]] = []
    for number, text in lines:
        ahead.append((number, text))
        if len(ahead) == 1 and FOOTER.match(text):
            continue
        if len(ahead) == 2 and text == RULE:
            break
        lines.again(*ahead)
        return None
    else:
        lines.again(*ahead)
        return None
    for number, text in lines:
        if text.strip():
            raise InputError(f"text after the export's footer ('{ahead[0][1]}' at line {ahead[0][0]}): "
                             f"{_NOT_EXPORT} as the exporter writes it", path=name, line=number)
    return ahead[0]


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
