"""Field paths into an event: ``dice[0].face=55``, ``actions[0].target=carol``.

How a GM ruling (``fightlog rule ... amend``) and a dispute (``fightlog dispute --set``) name
one field of a recorded event. ``parse_assignment`` reads ``PATH=VALUE`` (the value is JSON
when it parses as JSON, else a plain string); ``assign`` returns the event's top-level fields
that change, with the nested value replaced (a ruling's ``changes`` are top-level fields).
Errors are ``InputError`` messages naming the path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from fightlog.errors import InputError
from fightlog.events.depth import value_depth
from fightlog.events.limits import MAX_DEPTH
from fightlog.events.model import AnyEvent

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NEXT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
_PROTECTED = frozenset({"kind", "seq", "prev", "batch"})

Path = tuple[str | int, ...]


def parse_path(text: str) -> Path:
    """``dice[0].face`` -> ``("dice", 0, "face")``: a field name, then ``[index]`` or
    ``.name`` steps."""
    bad = InputError(f"{_clip(text)!r} is not a field path (like dice[0].face or actions[0].target)")
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
        raise InputError(f"{_clip(text)!r}: expected PATH=VALUE (like dice[0].face=55)")
    path = parse_path(name.strip())
    room = MAX_DEPTH - 1 - len(path)  # the line's object, and a ruling's ``changes``
    try:
        value: Any = msgspec.json.decode(raw.encode("utf-8", "surrogateescape"))
    except msgspec.DecodeError:
        value = raw
    except RecursionError:
        value = None
        room = -1
    if room < 0 or value_depth(value, room) > room:
        raise InputError(
            f"{_clip(name.strip())}: VALUE nests deeper than {max(room, 0)} levels "
            f"(a log line nests at most {MAX_DEPTH})"
        )
    return path, value


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else f"{text[:size]}... ({len(text)} characters)"


def assign(event: AnyEvent, assignments: Iterable[tuple[Path, Any]]) -> dict[str, Any]:
    """The top-level fields of ``event`` that ``assignments`` change, with their new values.
    ``seq``, ``prev`` and ``kind`` cannot be changed; a path must exist in the event."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    changed: dict[str, Any] = {}
    for path, value in assignments:
        top = path[0]
        assert isinstance(top, str)
        if top in _PROTECTED:
            raise InputError(f"{_show(path)}: the {top} of an event cannot be changed")
        if top not in data and top not in _fields(event):
            kind = _kind(event)
            article = "an" if kind[0] in "aeiou" else "a"
            raise InputError(f"{_show(path)}: {article} {kind} event has no field {top!r}")
        current = changed.get(top, data.get(top))
        changed[top] = _set(current, path[1:], value, path)
    return changed


def _set(node: Any, rest: Path, value: Any, path: Path) -> Any:
    if not rest:
        return value
    step, more = rest[0], rest[1:]
    if isinstance(step, int):
        if not isinstance(node, list) or step >= len(node):
            size = len(node) if isinstance(node, list) else 0
            raise InputError(f"{_show(path)}: there is no item [{step}] ({size} recorded)")
        copy = list(node)
        copy[step] = _set(copy[step], more, value, path)
        return copy
    if not isinstance(node, Mapping):
        raise InputError(f"{_show(path)}: {step!r} is not a field here")
    copy_map = dict(node)
    copy_map[step] = _set(copy_map.get(step), more, value, path)
    return copy_map


def _fields(event: AnyEvent) -> tuple[str, ...]:
    return type(event).__struct_fields__


def _kind(event: AnyEvent) -> str:
    return str(type(event).__struct_config__.tag)


def _show(path: Path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out
