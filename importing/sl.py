"""Second Life local chat logs, as the official viewer and Firestorm write them.

A message is ``[STAMP]  NAME: text``: the stamp ``YYYY/MM/DD HH:MM``, or ``HH:MM``, either
with ``:SS`` (Firestorm) or a 12-hour ``AM``/``PM``; two spaces; the name, ``Display Name
(user.name)`` when display names are shown, a ``:`` inside it written ``%3A``. An emote keeps
the raw ``/me `` after the colon; older viewers write ``NAME text`` with no colon, which is
an emote when NAME is a speaker already seen or named in the cast, and a system line
otherwise. An emote's text is what the viewer shows: the name, then the action. Shouts and whispers are ``NAME shouts: text`` (also ``NAME: shouts: text``).
A line starting with one space continues the message before it. ``Second Life:`` lines are
system lines, and so are the IMs Firestorm shows in nearby chat (``IM%3A NAME: text``, the
sender's name after ``IM: ``): kept under the sender's name, never a post. A viewer set not to stamp its logs writes the same lines without the stamp
(``NAME: text``, read the same way, without a time).

Times are SLT (US Pacific): the reader attaches ``tz``. A time-only stamp takes the date of
the last full stamp, else ``date`` (the cast's, or one in the file's name); a time more than
six hours before the last one is the next day (a log across midnight); any other step back
is kept and warned about, with its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from datetime import date as Date, datetime, timedelta, timezone, tzinfo
from typing import BinaryIO, Final

from msgspec.structs import replace

from fightlog.importing.message import Kind, Message
from fightlog.errors import InputError
from fightlog.importing.source import Warn, text_lines

STAMP: Final = re.compile(
    r"\[(?:(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T])?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp][Mm]))?\]\s{1,2}"
)
_PAREN: Final = re.compile(r"(.*?)\s*\(([^()]+)\)$")
_VERB: Final = re.compile(r"(.*) (shouts|whispers)$")
_FILE_DATE: Final = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_ROLLOVER: Final = timedelta(hours=6)
SYSTEM_NAMES: Final = frozenset({"Second Life", "Firestorm"})


def file_date(name: str) -> Date | None:
    """A ``YYYY-MM-DD`` in a log's file name (``chat-2024-06-12.txt``), as a date."""
    found = _FILE_DATE.search(name.rsplit("/", 1)[-1])
    if found is None:
        return None
    try:
        return Date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None


def read(
    handle: BinaryIO, name: str, warn: Warn, *, tz: tzinfo | None = None, day: Date | None = None,
    names: Collection[str] = (), objects: Callable[[Message], bool] | None = None,
) -> Iterator[Message]:
    """The messages of the SL chat log ``handle`` (shown as ``name``), in file order.
    ``objects`` tells an object's or HUD's speech (the log cannot): its says are ``object``."""
    clock = _Clock(name, warn, tz, day if day is not None else file_date(name))
    seen = set(names)
    pending: Message | None = None
    for number, text in text_lines(handle, name, warn):
        if number == 1 and any(STAMP.match(part) for part in text.split("\r")[1:]):  # old Mac line ends: the
            # whole file reads as its first line (a line of it after each CR; a CR doubled before \n is no line end)
            raise InputError("its lines end in a carriage return alone (\\r), not \\n: convert the line endings "
                             "(tr '\\r' '\\n' < FILE > FIXED)", path=name, line=1)
        if text.startswith(" ") and pending is not None and not STAMP.match(text):
            pending = _continued(pending, text)
            continue
        if not text.strip():  # a blank line (a note's gap, an editor's): no message
            continue
        if pending is not None:
            yield pending
        stamp = STAMP.match(text)
        at = clock.at(stamp, number) if stamp is not None else None
        pending = _message(text, stamp.end() if stamp is not None else 0, f"{name}:{number}", number, at, seen)
        if objects is not None and pending.kind == "say" and objects(pending):
            pending = replace(pending, kind="object")
        if pending.kind != "system":
            seen.add(pending.name)
            seen.add(pending.speaker)
    if pending is not None:
        if pending.kind == "system" and not _line_ended(handle):  # (a speaker's line would name them: "NAME: ")
            warn(f"{pending.ref}: the last line has no line end and reads as no one's ({pending.raw[-40:]!r}): the "
                 "transcript may be cut off there")
        yield pending


def _line_ended(handle: BinaryIO) -> bool:
    """Whether the file ends with a line end (``True`` where that cannot be told)."""
    try:
        handle.seek(-1, 2)
        return handle.read(1) in (b"\n", b"")
    except (OSError, ValueError):
        return True


def _continued(message: Message, text: str) -> Message:
    return replace(message, text=f"{message.text}\n{text[1:]}", raw=f"{message.raw}\n{text}")


def _message(text: str, start: int, ref: str, line: int, at: datetime | None, seen: set[str]) -> Message:
    rest = text[start:]
    head, colon, body = rest.partition(": ")
    if not colon and rest.endswith(":"):
        head, colon, body = rest[:-1], ":", ""
    kind: Kind = "say"
    if colon:
        verb = _VERB.match(head)
        if verb is not None:
            head, kind = verb[1], "shout" if verb[2] == "shouts" else "whisper"
        elif body.startswith(("shouts: ", "whispers: ")):
            word, _, body = body.partition(": ")
            kind = "shout" if word == "shouts" else "whisper"
        if body.startswith("/me ") or body.startswith("/me'"):
            kind, body = "emote", body[3:].lstrip(" ")
        elif kind == "say" and _old_emote(head, rest, seen):  # ``Name fires and yells: "Down!"``
            colon = ""
    if not colon or head.strip() in SYSTEM_NAMES:
        known = _known_prefix(rest, seen)
        if known is None or head.strip() in SYSTEM_NAMES or _PRESENCE.fullmatch(rest[len(known):].strip()):
            return Message(ref=ref, line=line, at=at, text=rest, kind="system", raw=text)
        head, body, kind = known, rest[len(known):].lstrip(" "), "emote"
    if head.replace("%3A", ":").strip() in ("IM", "IM:") and ": " in body:  # ``IM: NAME: text``
        head, _, body = body.partition(": ")
        head = "IM: " + head
    shown, user = _names(head)
    if shown.startswith("IM: "):  # a private message the viewer shows in nearby chat: no one's post
        sender = shown[4:].strip()
        return Message(ref=ref, line=line, at=at, speaker=sender if user == shown else user, name=sender, text=body,
                       kind="system", raw=text)
    if kind == "emote":  # as the viewer shows it: the name, then the action
        body = shown + ("" if body.startswith(("'", ",")) else " ") + body
    return Message(ref=ref, line=line, at=at, speaker=user, name=shown, text=body, kind=kind, raw=text)


_PRESENCE = re.compile(r"(is (online|offline)|(has )?(arrived|entered|left)( (chat range|the region|this region))?)\.?",
                       re.IGNORECASE)
"""What the viewer says of someone coming and going (``Katar Ivercourt is Offline``): a system
line, though the name is a speaker's (an old viewer's emote, ``Name text``, is not one)."""


def _names(head: str) -> tuple[str, str]:
    """``(shown name, user name)`` of ``Display Name (user.name)`` or a plain name."""
    head = head.replace("%3A", ":").strip()
    both = _PAREN.match(head)
    if both is not None and both[1]:
        return both[1], both[2]
    return head, head


def _old_emote(head: str, rest: str, seen: set[str]) -> bool:
    """Whether a line split at its colon is an older viewer's emote (``Name text``, no colon
    after the name) whose text holds one: what comes before the colon is no name seen, no
    ``Display (user.name)``, but a name seen followed by lower-case words (``Kaito Ronin
    fires at Zoe and yells``; ``Kaito Ronin Jr`` or ``Kaito Ronin HUD`` stay speakers)."""
    plain = head.replace("%3A", ":").strip()
    if plain in seen or _PAREN.match(plain) is not None:
        return False
    known = _known_prefix(rest, seen)
    return known is not None and len(known) < len(plain) and rest[len(known)] == " " and \
        plain[len(known):].lstrip(" ")[:1].islower()


def _known_prefix(rest: str, seen: set[str]) -> str | None:
    """The longest name seen so far that ``rest`` starts with (followed by a space or ``'``)."""
    best: str | None = None
    for name in seen:
        if name and rest.startswith(name) and rest[len(name):len(name) + 1] in (" ", "'"):
            if best is None or len(name) > len(best):
                best = name
    return best


class _Clock:
    def __init__(self, name: str, warn: Warn, tz: tzinfo | None, day: Date | None) -> None:
        self.name = name
        self.warn = warn
        self.tz = tz
        self.day = day
        self.last: datetime | None = None
        self.undated = False

    def at(self, stamp: re.Match[str], line: int) -> datetime | None:
        hour, minute, second = int(stamp[4]), int(stamp[5]), int(stamp[6] or 0)
        half = stamp[7]
        if half is not None:
            hour = hour % 12 + (12 if half.lower() == "pm" else 0)
        if hour > 23 or minute > 59 or second > 59:
            self.warn(f"{self.name}:{line}: no such time {stamp[0].strip()}: kept without a time")
            return None
        full = stamp[1] is not None
        if full:
            try:
                self.day = Date(int(stamp[1]), int(stamp[2]), int(stamp[3]))
            except ValueError:
                self.warn(f"{self.name}:{line}: no such date {stamp[0].strip()}: kept without a time")
                return None
        if self.day is None:
            if not self.undated:
                self.undated = True
                self.warn(f"{self.name}:{line}: a time with no date (none in an earlier stamp, the cast's date or "
                          "a YYYY-MM-DD in the file name): the messages are kept without times")
            return None
        local = datetime(self.day.year, self.day.month, self.day.day, hour, minute, second)
        try:
            return self._placed(local, full, line)
        except OverflowError:  # a day after 9999-12-31, or an instant out of the range in UTC
            self.warn(f"{self.name}:{line}: {stamp[0].strip()}: a date out of the range a time can hold (years 1 to "
                      "9999): kept without a time")
            return None

    def _placed(self, local: datetime, full: bool, line: int) -> datetime:
        """``local`` as an instant: the next day for a time-only stamp well before the last, the
        second time round in a repeated hour; warned of where it goes back or does not exist."""
        when = self._instant(local)
        last = self.last
        if last is not None and when < last:
            again = self._instant(local, fold=1)  # the hour a fall's change repeats, the second time round
            if again >= last:
                when = again
            elif not full and last - when > _ROLLOVER:
                local += timedelta(days=1)
                when = self._instant(local)
                self.day = local.date()
            else:
                shown = ("%H:%M:%S" if last.utcoffset() == when.utcoffset() else "%Y-%m-%dT%H:%M:%S%z")  # a change
                self.warn(f"{self.name}:{line}: the time goes back from {last.strftime(shown)} to {when.strftime(shown)}")
        if self.tz is not None and when.astimezone(self.tz).replace(tzinfo=None) != local:  # the day as read
            self.warn(f"{self.name}:{line}: no such time {local:%Y-%m-%d %H:%M:%S} in {self.tz}: the clocks skip "
                      f"that hour; read as {when.isoformat()}")
        self.last = when
        return when

    def _instant(self, local: datetime, fold: int = 0) -> datetime:
        """``local`` (the log's wall clock) in the cast's zone, as a fixed offset: a time in
        the hour a spring change skips keeps the offset before it; one in the hour a fall
        change repeats is the first of the two (``fold=1``: the second). A zone's own
        ``tzinfo`` would not do: Python holds such a time unequal to every other reading of
        the same instant, so the event would not read back as written."""
        if self.tz is None:
            return local
        offset = local.replace(tzinfo=self.tz, fold=fold).utcoffset()
        if offset is None:
            return local
        when = local.replace(tzinfo=timezone(offset))
        # a local mean time's offset in seconds (a year before the zone's standard time) reads back
        # as no offset a log can hold: the instant is kept in UTC
        return when.astimezone(timezone.utc) if offset.seconds % 60 else when
