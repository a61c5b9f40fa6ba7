"""The elements of a JSON document's top-level ``messages`` array, one at a time, read in
chunks: a DiscordChatExporter export of a million messages is never loaded whole.

The exporter writes indented JSON (two spaces a level), so every message opens with a line
``    {`` and closes with a line ``    }``; a JSON string cannot hold a raw newline, so the
bytes ``\\n    }`` end a message and nothing else. That is the fast path. A file not written
that way (re-saved compact) is split by a small scanner that tracks strings, escapes and
depth over the chunks. Each element is handed on as bytes for a typed decoder; what the
splitter cannot split (a file cut off, too long a message) is an ``InputError`` naming the
file, the message's index and its byte offset.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final

from fightlog.errors import InputError
from fightlog.importing.source import MAX_MESSAGE_BYTES, too_long

CHUNK: Final = 1 << 20
_KEY: Final = re.compile(rb'"messages"\s*:\s*\[')
_SPECIAL: Final = re.compile(rb'[\[\]{}"]')
_IN_STRING: Final = re.compile(rb'["\\]')
_CLOSE: Final = b"\n    }"
_NOT_SPACE: Final = re.compile(rb"[^ \t\r\n]")


class Splitter:
    """Iterate ``(index, offset, bytes)`` over the ``messages`` array of ``handle``."""

    def __init__(self, handle: BinaryIO, name: str) -> None:
        self.handle = handle
        self.name = name
        self.buf = b""
        self.base = 0  # file offset of buf[0]
        self.eof = False
        self.start = 0  # buf[:start] is consumed

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
                head = self.buf[: found.start()]
                self._drop(found.end())
                return head
            start = len(self.buf)
            if start > 4 * CHUNK or not self._more():
                raise InputError("no \"messages\" array: not a DiscordChatExporter JSON export", path=self.name)

    def __iter__(self) -> Iterator[tuple[int, int, bytes]]:
        index = 0
        while True:
            pos = self._skip_space(self.start)
            if pos is None:
                raise self._cut(index, "the messages array never ends")
            char = self.buf[pos:pos + 1]
            if char == b"]":
                return
            if index and char == b",":
                pos = self._skip_space(pos + 1)
                if pos is None:
                    raise self._cut(index, "the messages array never ends")
                char = self.buf[pos:pos + 1]
            if char != b"{":
                raise InputError(
                    f"message {index}: expected an object at byte {self.base + pos}, got {char.decode('latin-1')!r}",
                    path=self.name,
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
        """The offset just past the object opening at ``start``."""
        if self.buf[max(0, start - 5):start] == b"\n    ":
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
                f"message {index} (byte {self.base + start}): {too_long(self.name, 0).message}", path=self.name,
            )

    def _cut(self, index: int, why: str, start: int | None = None) -> InputError:
        at = f" (byte {self.base + start})" if start is not None else ""
        return InputError(f"truncated JSON: message {index}{at}: {why}", path=self.name)
