"""The elements of a JSON document's top-level ``messages`` array, one at a time, read in
chunks: a DiscordChatExporter export of a million messages is never loaded whole.

The exporter writes indented JSON (two spaces a level), so every message opens with a line
``    {`` and closes with a line ``    }``; a JSON string cannot hold a raw newline, so the
bytes ``\\n    }`` end a message and nothing else. That is the fast path. A file not written
that way (re-saved compact) is split by a small scanner that tracks strings, escapes and
depth over the chunks. Each element is handed on as bytes for a typed decoder; what the
splitter cannot split (a file cut off, too long a message) is an ``InputError`` naming the
file, the line, the message's index and its byte offset.

Once the array has closed, the rest of the file (``"messageCount"`` and the closing brace:
a few bytes) is read, and the document without its messages (what came before the array,
``[]``, what came after) must be one JSON object: an export cut off after the array, or with
anything after its closing brace or around the array that is not JSON, is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final

import msgspec

from fightlog.errors import InputError
from fightlog.events.utf8 import not_utf8
from fightlog.importing.source import MAX_MESSAGE_BYTES, UTF8_BOM, empty_file, too_long

CHUNK: Final = 1 << 20
_KEY: Final = re.compile(rb'"messages"\s*:\s*\[')
_SPECIAL: Final = re.compile(rb'[\[\]{}"]')
_IN_STRING: Final = re.compile(rb'["\\]')
_CLOSE: Final = b"\n    }"
_NOT_SPACE: Final = re.compile(rb"[^ \t\r\n]")
_AT_BYTE: Final = re.compile(r" \(byte (\d+)\)$")
_TOKEN: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_DEEP: Final = 100
"""How deep ``_deep_at`` calls nesting too deep (an export's own nests a few levels)."""
_OUTSIDE: Final = 4 * CHUNK
"""The most read before the ``messages`` array, and after it."""


class Splitter:
    """Iterate ``(index, offset, bytes)`` over the ``messages`` array of ``handle``."""

    def __init__(self, handle: BinaryIO, name: str) -> None:
        self.handle = handle
        self.name = name
        self.buf = b""
        self.base = 0  # file offset of buf[0]
        self.eof = False
        self.start = 0  # buf[:start] is consumed
        self.newlines = 0  # in the bytes dropped before buf[0]
        self.head = b""  # the bytes before the messages array's key
        self.document: dict[str, object] = {}  # the export without its messages, once read to the end
        self.count_line = 0  # the line of its messageCount (else where the array closes)

    def _more(self) -> bool:
        if self.eof:
            return False
        data = self.handle.read(CHUNK)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def _drop(self, upto: int) -> None:
        """Consume ``buf[:upto]``; the buffer is compacted once a chunk's worth is consumed
        (not at every message: that would copy the buffer each time)."""
        if upto >= CHUNK:
            self.newlines += self.buf.count(b"\n", 0, upto)
            self.buf = self.buf[upto:]
            self.base += upto
            upto = 0
        self.start = upto

    def header(self) -> bytes:
        """The bytes before the ``messages`` array (the guild, the channel...); positions
        the splitter at the array's first element."""
        start = 0
        while True:
            found = _KEY.search(self.buf, max(0, start - 32))
            if found is not None:
                self.head = self.buf[: found.start()]
                self._drop(found.end())
                return self.head
            start = len(self.buf)
            if start > _OUTSIDE or not self._more():
                if self.eof and not self.buf.removeprefix(UTF8_BOM).strip():
                    raise empty_file(self.name, bool(self.buf))
                raise InputError("no \"messages\" array: not a DiscordChatExporter JSON export", path=self.name,
                                 line=1)

    def line_at(self, offset: int) -> int:
        """The 1-based line of the file's byte ``offset`` (one still in the buffer)."""
        return self.newlines + self.buf.count(b"\n", 0, max(0, offset - self.base)) + 1

    def _line(self, pos: int) -> int:
        return self.line_at(self.base + pos)

    def __iter__(self) -> Iterator[tuple[int, int, bytes]]:
        index = 0
        while True:
            pos = self._skip_space(self.start)
            if pos is None:
                raise self._cut(index, "the messages array never ends")
            char = self.buf[pos:pos + 1]
            if char == b"]":
                self._rest(pos + 1)
                return
            if index and char == b",":
                pos = self._skip_space(pos + 1)
                if pos is None:
                    raise self._cut(index, "the messages array never ends")
                char = self.buf[pos:pos + 1]
            if char != b"{":
                raise InputError(
                    f"messages[{index}]: expected an object at byte {self.base + pos}, got {char.decode('latin-1')!r}",
                    path=self.name, line=self._line(pos),
                )
            end = self._object_end(pos, index)
            yield index, self.base + pos, self.buf[pos:end]
            self._drop(end)
            index += 1

    def _skip_space(self, pos: int) -> int | None:
        while True:
            found = _NOT_SPACE.search(self.buf, pos)
            if found is not None:
                return found.start()
            pos = len(self.buf)
            if not self._more():
                return None

    def _object_end(self, start: int, index: int) -> int:
        """The offset just past the object opening at ``start``: the fast path where the
        object opens the exporter's way, ``{`` alone on a line indented four spaces (a file
        laid out otherwise, ``    { "id": ... },`` on one line, was cut at a ``\n    }`` that
        is not its end, or said to end inside it)."""
        if self.buf[max(0, start - 5):start] == b"\n    ":
            while len(self.buf) < start + 3 and self._more():
                pass
            if self.buf[start + 1:start + 2] == b"\n" or self.buf[start + 1:start + 3] == b"\r\n":
                return self._indented_end(start, index)
        return self._scanned_end(start, index)

    def _indented_end(self, start: int, index: int) -> int:
        search = start
        while True:
            found = self.buf.find(_CLOSE, search)
            if found >= 0:
                end = found + len(_CLOSE)
                self._limit(end - start, index, start)
                return end
            search = max(start, len(self.buf) - len(_CLOSE))
            self._limit(len(self.buf) - start, index, start)
            if not self._more():
                raise self._cut(index, "the file ends inside it", start)

    def _scanned_end(self, start: int, index: int) -> int:
        depth = 0
        pos = start
        while True:
            found = _SPECIAL.search(self.buf, pos)
            if found is None:
                self._limit(len(self.buf) - start, index, start)
                pos = len(self.buf)
                if not self._more():
                    raise self._cut(index, "the file ends inside it", start)
                continue
            char = found[0]
            pos = found.end()
            if char == b'"':
                pos = self._string_end(pos, index, start)
            elif char in b"[{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    self._limit(pos - start, index, start)
                    return pos

    def _string_end(self, pos: int, index: int, start: int) -> int:
        while True:
            found = _IN_STRING.search(self.buf, pos)
            if found is None or (found[0] == b"\\" and found.end() >= len(self.buf)):
                self._limit(len(self.buf) - start, index, start)
                if not self._more():
                    raise self._cut(index, "the file ends inside a string", start)
                continue
            if found[0] == b'"':
                return found.end()
            pos = found.end() + 1

    def _limit(self, size: int, index: int, start: int) -> None:
        if size > MAX_MESSAGE_BYTES:
            raise InputError(
                f"messages[{index}] (byte {self.base + start}): {too_long(self.name, 0).message}", path=self.name,
                line=self._line(start),
            )

    def _cut(self, index: int, why: str, start: int | None = None) -> InputError:
        at = f" (byte {self.base + start})" if start is not None else ""
        return InputError(f"truncated JSON: messages[{index}]{at}: {why}", path=self.name,
                          line=self._line(start) if start is not None else self._last_line())

    def _in_file(self, at: int, head: bytes, middle: bytes, pos: int) -> tuple[int, int]:
        """The file's byte and line of byte ``at`` of ``head + middle + buf[pos:]`` (what
        ``_rest`` decodes: the head without its BOM, the array left out)."""
        if at < len(head):  # before the array: its byte in the file
            offset = at + len(self.head) - len(head)
            return offset, self.head.count(b"\n", 0, offset) + 1
        offset = self.base + pos + at - len(head) - len(middle)
        return offset, self.line_at(offset)

    def _last_line(self) -> int:
        """The line of the file's last byte (the file has been read to its end)."""
        return self._line(max(0, len(self.buf) - 1))

    def _rest(self, pos: int) -> None:
        """Read what follows the array (``buf[pos:]`` on) to the end of the file, and refuse
        a document that, its messages left out, is not one JSON object."""
        while len(self.buf) - pos <= _OUTSIDE and self._more():
            pass
        tail = self.buf[pos:]
        if len(tail) > _OUTSIDE:
            raise InputError(f"more than {_OUTSIDE >> 20} MiB after the messages array: not a DiscordChatExporter "
                             "JSON export", path=self.name, line=self._line(pos))
        head = self.head.removeprefix(UTF8_BOM)
        middle = b'"messages":[]'
        doc = head + middle + tail
        try:
            self.document = msgspec.json.decode(doc, type=dict)
            self.count_line = self._line(pos + max(0, tail.find(b'"messageCount"')))
        except msgspec.ValidationError:  # a head that is not an object's: not the export's
            raise InputError("not a DiscordChatExporter JSON export: the messages array is not in a JSON object",
                             path=self.name, line=1) from None
        except RecursionError:
            offset, line = self._in_file(_deep_at(doc), head, middle, pos)
            where = "before" if offset < len(self.head) else "after"
            raise InputError(f"not a DiscordChatExporter JSON export: nested too deeply {where} the messages array "
                             f"(more than {_DEEP} levels, from byte {offset})", path=self.name, line=line) from None
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            if isinstance(exc, msgspec.DecodeError) and "truncated" in str(exc):
                raise InputError("truncated JSON: the file ends after the messages array, before the export's "
                                 "closing '}'", path=self.name, line=self._last_line()) from None
            bad = exc if isinstance(exc, UnicodeDecodeError) else not_utf8(doc)  # msgspec 0.23: a DecodeError
            if bad is not None:
                what, at = f"not UTF-8 (byte 0x{bad.object[bad.start]:02x})", bad.start
            else:
                found = _AT_BYTE.search(str(exc))
                what = str(exc)[: found.start()] if found is not None else str(exc)
                at = int(found[1]) if found is not None else len(head) + len(middle)
                if "trailing characters" in what and at > 0 and not doc[at - 1:at].isspace():
                    at -= 1  # msgspec counts this one from 1: the byte before is the first trailing one
            offset, line = self._in_file(at, head, middle, pos)
            where = "before" if at < len(head) else "after"
            raise InputError(f"not JSON {where} the messages array (byte {offset}): {what}: the export is damaged",
                             path=self.name, line=line) from None
        if self.document.get("messages") != []:  # a later "messages" key: JSON keeps its value, the split read the first
            again = tail.find(b'"messages"')
            raise InputError('a second "messages" key after the messages array: an export holds one (joined or '
                             "edited by hand?)", path=self.name, line=self._line(pos + max(0, again)))


def _deep_at(doc: bytes) -> int:
    """The byte of ``doc`` (JSON nested too deeply to decode) where the nesting first goes
    deeper than ``_DEEP`` levels (0 if it never does: the decoder gave up sooner)."""
    depth = 0
    for found in _TOKEN.finditer(doc):
        char = doc[found.start()]
        if char in b"[{":
            depth += 1
            if depth > _DEEP:
                return found.start()
        elif char in b"]}":
            depth -= 1
    return 0

