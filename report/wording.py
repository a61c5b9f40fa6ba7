"""Small words of human output: counts with their nouns, and values as a player reads them
(never a Python repr: no ``True``, ``None``, ``['a']`` or ``{'k': 1}``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``, ``0 events``; ``many`` for a plural not made with ``s``
    (``plural(n, "die", "dice")``)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def value_text(value: object) -> str:
    """A plain value in words: ``yes``/``no`` for booleans, ``-`` for nothing, lists joined
    by commas, tables as ``k v`` pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items())
    if isinstance(value, Sequence):
        return ", ".join(value_text(v) for v in value)
    return str(value)


def spoken(name: str) -> str:
    """An id-like name as a player reads it: ``mortally_wounded`` -> ``mortally wounded``
    (statuses, effects and resources are recorded as ids; the log keeps them so)."""
    return name.replace("_", " ")
