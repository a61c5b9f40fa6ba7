"""Where two logs part: the first event that differs, and how.

Used to check a scripted fight against its stored log (``fightlog run --check``): the same
scenario and seed must give the same events, so the first difference is where a rule change
(or a house rule) changed the fight. ``prev`` is ignored (it only repeats that an earlier
line differed); every other field is compared as plain data.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import zip_longest
from typing import Any

import msgspec
from msgspec import Struct

from fightlog.events.model import AnyEvent, kind_of


class Difference(Struct, frozen=True):
    """The first difference: at ``seq``, ``expected`` (``None``: the expected log had ended)
    against ``actual`` (``None``: the new fight had ended); ``fields`` are ``(name, expected,
    actual)`` for each top-level field that differs, in field order."""

    seq: int
    expected: AnyEvent | None
    actual: AnyEvent | None
    fields: tuple[tuple[str, Any, Any], ...] = ()
    expected_count: int = 0
    actual_count: int = 0


def _data(event: AnyEvent, ignore: frozenset[str]) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    data.pop("prev", None)
    data.pop("batch", None)  # where the store put it, not what happened
    for name in ignore:
        data.pop(name, None)
    return data


def field_changes(before: dict[str, Any], after: dict[str, Any], prefix: str = "") -> list[tuple[str, Any, Any]]:
    """``(dotted name, before, after)`` for every field that differs; tables (dicts) are
    compared key by key (``options.bleed_damage``), arrays of one length item by item
    (``modifiers[2].value``), others by the part between what they share at either end
    (``modifiers[1:2]``: an item taken out there)."""
    out: list[tuple[str, Any, Any]] = []
    for name in [*before, *(k for k in after if k not in before)]:
        out.extend(_changes(before.get(name), after.get(name), f"{prefix}{name}"))
    return out


def _changes(a: Any, b: Any, where: str) -> list[tuple[str, Any, Any]]:
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return field_changes(a, b, f"{where}.")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b):
            return [c for i, (x, y) in enumerate(zip(a, b)) for c in _changes(x, y, f"{where}[{i}]")]
        start = 0  # items of a longer or shorter list: only the part between what both share
        while start < min(len(a), len(b)) and a[start] == b[start]:
            start += 1
        end = 0
        while end < min(len(a), len(b)) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
            end += 1
        part = f"[{start}:]" if not end else f"[{start}:{len(a) - end}]"  # in the first list's places
        return [(f"{where}{part}", a[start:len(a) - end], b[start:len(b) - end])]
    return [(where, a, b)]


def first_difference(
    expected: Iterable[AnyEvent], actual: Iterable[AnyEvent], *, ignore: frozenset[str] = frozenset()
) -> Difference | None:
    """The first event where ``actual`` departs from ``expected``; ``None`` if they agree.
    Fields named in ``ignore`` are not compared (``options``, when house rules were changed
    on purpose)."""
    old, new = list(expected), list(actual)
    for seq, (a, b) in enumerate(zip_longest(old, new), 1):
        if a is None or b is None:
            return Difference(seq=seq, expected=a, actual=b, expected_count=len(old), actual_count=len(new))
        before, after = _data(a, ignore), _data(b, ignore)
        if before == after:
            continue
        fields = tuple(field_changes(before, after))
        return Difference(
            seq=seq, expected=a, actual=b, fields=fields, expected_count=len(old), actual_count=len(new)
        )
    return None


def describe(diff: Difference) -> str:
    """One line: where the fights part and how (``seq 57 (damage_applied): taken 12 -> 15``)."""
    events = "event" if diff.expected_count == 1 else "events"
    counts = f"{diff.expected_count} {events} expected, {diff.actual_count} now"
    if diff.actual is None:
        return f"seq {diff.seq}: the fight now ends before it ({_kind(diff.expected)} expected); {counts}"
    if diff.expected is None:
        return f"seq {diff.seq}: a new {_kind(diff.actual)} after the expected end; {counts}"
    if type(diff.expected) is not type(diff.actual):
        return f"seq {diff.seq}: {_kind(diff.actual)} where {_kind(diff.expected)} was; {counts}"
    changes = ", ".join(f"{name} {_show(a)} -> {_show(b)}" for name, a, b in diff.fields)
    return f"seq {diff.seq} ({_kind(diff.actual)}): {changes}; {counts}"


def _kind(event: AnyEvent | None) -> str:
    return "nothing" if event is None else kind_of(event)


def _show(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."
