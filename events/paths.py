"""Field paths into an event: ``dice[0].face=55``, ``actions[0].target=carol``.

How a GM ruling (``fightlog rule ... amend``) and a dispute (``fightlog dispute --set``) name
one field of a recorded event. ``parse_assignment`` reads ``PATH=VALUE`` (the value is JSON
when it parses as JSON, else a plain string); ``fightlog.audit.amendment`` applies it to an
event and checks the result. Errors are ``InputError`` messages naming the path.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from fightlog.errors import InputError
from fightlog.events.depth import value_depth
from fightlog.events.limits import INT_LIMIT, MAX_DEPTH

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NEXT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")

Path = tuple[str | int, ...]


def parse_path(text: str) -> Path:
    """``dice[0].face`` -> ``("dice", 0, "face")``: a field name, then ``[index]`` or
    ``.name`` steps."""
    bad = InputError(f"{clipped(text)!r} is not a field path (like dice[0].face or actions[0].target)")
    found = _NAME.match(text)
    if found is None:
        raise bad
    steps: list[str | int] = [found.group(0)]
    pos = found.end()
    while pos < len(text):
        step = _NEXT.match(text, pos)
        if step is None:
            raise bad
        name, index = step.groups()
        steps.append(name if name is not None else int(index))
        pos = step.end()
    return tuple(steps)


def parse_assignment(text: str) -> tuple[Path, Any]:
    """``PATH=VALUE``: the path and the value (JSON if it parses, else the text). The value
    may nest only as deep as leaves the event's line within ``MAX_DEPTH``."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise InputError(f"{clipped(text)!r}: expected PATH=VALUE (like dice[0].face=55)")
    path = parse_path(name.strip())
    try:
        raw.encode("utf-8")  # what the shell passed for bytes that are not UTF-8 (surrogates) cannot be logged
    except UnicodeEncodeError:
        raise InputError(f"{clipped(name.strip())}: VALUE is not UTF-8 text") from None
    room = MAX_DEPTH - 1 - len(path)  # the line's object, and a ruling's ``changes``
    if room < 0:
        raise InputError(f"{clipped(name.strip())}: PATH is {len(path)} steps deep (a log line nests at most "
                         f"{MAX_DEPTH}, so a PATH at most {MAX_DEPTH - 1} steps)")
    deep = False
    try:
        value: Any = msgspec.json.decode(raw.encode("utf-8", "surrogateescape"))
    except msgspec.DecodeError:
        value = raw
    except RecursionError:
        value, deep = None, True
    if deep or value_depth(value, room) > room:
        raise InputError(
            f"{clipped(name.strip())}: VALUE nests deeper than {room} levels "
            f"(a log line nests at most {MAX_DEPTH})"
        )
    big = _too_big(value)
    if big is not None:
        shown = str(big) if big.bit_length() < 200 else f"a {big.bit_length()}-bit number"  # str() of a huge int fails
        raise InputError(f"{clipped(name.strip())}: VALUE {shown} is too large for a 64-bit integer")
    return path, value


def _too_big(value: Any) -> int | None:
    """The first integer in ``value`` (a decoded JSON value, its depth checked) outside 64
    bits, or ``None``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if not -INT_LIMIT <= value < 2 * INT_LIMIT else None
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in inner:
        found = _too_big(item)
        if found is not None:
            return found
    return None


def clipped(text: str, size: int = 60) -> str:
    """``text`` for a one-line message: whole up to ``size`` characters, else its start and length."""
    return text if len(text) <= size else f"{text[:size]}... ({len(text)} characters)"
