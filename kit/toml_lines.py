"""Where a value is written in a TOML text: the line of a key path such as
``("combatants", 1, "sheet", "hp")``, for error messages (``tomllib`` keeps no positions).

``KeyLines(text).line(path)`` is the line of the longest prefix of ``path`` that the text
writes: a key (``hp = 5``, ``sheet.hp = 5``), a table header (``[combatants.sheet]``), an
array-of-tables header (``[[combatants]]``, the N-th one for index N) or the line where the
N-th element of a multi-line array starts (``weapons = [`` then ``{ name = "x" },`` or
``"Rifle",``). A path the
text does not write at all (a missing field) gets the line of the table it belongs in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

Path = tuple[str | int, ...]

_KEY: Final = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_HEADER: Final = re.compile(r"""\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$""")


class KeyLines:
    """The lines of the key paths a TOML text writes (1-based)."""

    def __init__(self, text: str) -> None:
        self._lines: dict[Path, int] = {}
        self._scan(text.splitlines())

    def line(self, path: Sequence[str | int]) -> int | None:
        """The line of ``path``, or of its longest prefix the text writes; ``None`` when
        not even its first key is written."""
        for end in range(len(path), 0, -1):
            found = self._lines.get(tuple(path[:end]))
            if found is not None:
                return found
        return None

    def _scan(self, lines: list[str]) -> None:
        arrays: dict[Path, int] = {}
        table: Path = ()
        value: Path | None = None  # the key of a multi-line array being read
        depth = 0
        items = 0
        expect = False  # a multi-line array's next element is still to come (after ``[`` or ``,``)
        quoted: str | None = None
        for number, text in enumerate(lines, 1):
            if quoted is not None:  # inside a multi-line string
                if text.count(quoted) % 2:
                    quoted = None
                continue
            if depth > 0:
                if value is None:
                    depth += _depth(text)
                    continue
                starts, depth, expect = _elements(text, depth, expect)
                for _ in range(starts):
                    self._lines.setdefault((*value, items), number)
                    items += 1
                continue
            header = _HEADER.match(text)
            if header is not None and not _KEY.match(text):
                names = _names(header.group(2))
                table = _resolve(names, arrays, append=header.group(1) == "[[")
                self._lines.setdefault(table, number)
                if header.group(1) == "[[":
                    self._lines.setdefault(table[:-1], number)
                continue
            key = _KEY.match(text)
            if key is None:
                continue
            path = (*table, *_names(key.group(1)))
            for end in range(len(table) + 1, len(path) + 1):  # a dotted key's tables too
                self._lines.setdefault(path[:end], number)
            rest = text[key.end():]
            for mark in ('"""', "'''"):
                if rest.count(mark) % 2:
                    quoted = mark
            depth = _depth(rest) if quoted is None else 0
            value, items = (path, 0) if depth > 0 and rest.lstrip().startswith("[") else (None, 0)
            if value is not None:  # the elements written on the key's own line
                items, _, expect = _elements(rest, 0, False)
                for index in range(items):
                    self._lines.setdefault((*value, index), number)


def _names(dotted: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", dotted)]


def _resolve(names: list[str], arrays: dict[Path, int], *, append: bool) -> Path:
    """The concrete path of a header: each array of tables on the way at its last element,
    a new element for ``[[...]]``."""
    path: Path = ()
    for i, name in enumerate(names):
        path = (*path, name)
        last = i == len(names) - 1
        if last and append:
            arrays[path] = arrays.get(path, 0) + 1
        if path in arrays:
            path = (*path, arrays[path] - 1)
    return path


def _depth(text: str) -> int:
    """How many brackets and braces ``text`` opens minus closes, outside strings and
    comments."""
    return _elements(text, 0, False)[1]


def _elements(text: str, depth: int, expect: bool) -> tuple[int, int, bool]:
    """How many elements of an array start in ``text`` (at ``depth`` 1, the array's own
    level), with the depth and whether an element is expected after it; ``depth`` and
    ``expect`` as the text before left them."""
    starts = 0
    quote: str | None = None
    escaped = False
    for char in text:
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = None
            continue
        if char == "#":
            break
        if char.isspace():
            continue
        if depth == 1 and expect and char not in ",]":
            starts += 1
            expect = False
        if char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            expect = depth == 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 1:
            expect = True
    return starts, depth, expect
