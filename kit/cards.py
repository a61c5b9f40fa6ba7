"""Reading a ruleset's card (its msgspec ``Struct`` of a sheet) back from the plain snapshot
``combatant_joined.sheet`` records, and writing that snapshot.

The table and the audit read cards often, so ``CardReader`` caches twice: on the snapshot's
bytes, and on the snapshot object itself (the folded state shares one snapshot per combatant,
so a card is read once, not encoded again).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, Generic, TypeVar

import msgspec
from msgspec import Struct

from fightlog.errors import InputError
from fightlog.events.paths import clipped

C = TypeVar("C", bound=Struct)


def described(exc: msgspec.ValidationError, snapshot: Any = None, card: type[Struct] | None = None) -> str:
    """Why ``snapshot`` is no ``card``, naming the field as the rosters' errors do:
    ``sheet.characteristics.DEX: Expected `int` <= 15``. msgspec names a table's entry
    ``[...]``; given the snapshot and the card, the entry is found and named
    (``sheet.attributes.agility``)."""
    message, _, where = str(exc).rpartition(" - at `$")
    if not message:
        return f"sheet: {exc}"
    path = where.rstrip("`")
    if "[...]" in path and card is not None:
        path = _entry_named(path, snapshot, card)
    return f"sheet{path}: {message}"


_STEP: Final = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


NAMED_ENTRIES_MAX: Final = 64
"""A table's entry is looked for (each read alone) in tables of at most this many entries."""


def _entry_named(path: str, snapshot: Any, card: type[Struct]) -> str:
    """``path`` with its first ``[...]`` replaced by the key of the entry that fails alone
    (the snapshot read again with that table cut to one entry at a time, in tables of up to
    ``NAMED_ENTRIES_MAX`` entries); as it was when none does, or the path does not lead to
    such a table."""
    head, _, tail = path.partition("[...]")
    steps: list[str | int] = [key if key else int(index) for key, index in _STEP.findall(head)]
    table = snapshot
    try:
        for step in steps:
            table = table[step]
    except (KeyError, IndexError, TypeError):
        return path
    if not steps or not isinstance(table, dict) or len(table) > NAMED_ENTRIES_MAX:
        return path
    for key, value in table.items():
        try:
            msgspec.convert(_cut(snapshot, steps, {key: value}), card)
        except msgspec.ValidationError as exc:
            if f"`${head}[...]" in str(exc):
                return f"{head}.{clipped(key)}{tail}"  # as the rosters name a table's entry (``kit.inputs``)
    return path


def _cut(node: Any, steps: list[str | int], table: dict[str, Any]) -> Any:
    """``node`` with the value at ``steps`` replaced by ``table``: the containers on the way
    copied (shallow), the rest shared."""
    if not steps:
        return table
    copy: Any = list(node) if isinstance(node, list) else dict(node)
    copy[steps[0]] = _cut(node[steps[0]], steps[1:], table)
    return copy


class CardReader(Generic[C]):
    """``read_card(sheet)``: the ``card`` of a sheet snapshot; ``InputError`` naming the field
    (``described``) when it does not read."""

    def __init__(self, card: type[C]) -> None:
        decoder = msgspec.json.Decoder(card)
        self._card = card
        self._by_object: dict[int, tuple[Mapping[str, Any], C]] = {}
        """Cards by the snapshot object they were read from (kept, so its id is not reused)."""

        @lru_cache(maxsize=256)
        def decoded(encoded: bytes) -> C:
            return decoder.decode(encoded)

        self._decoded = decoded

    def __call__(self, sheet: Mapping[str, Any]) -> C:
        known = self._by_object.get(id(sheet))
        if known is not None and known[0] is sheet:
            return known[1]
        try:
            card = self._decoded(msgspec.json.encode(sheet))
        except msgspec.ValidationError as exc:
            raise InputError(described(exc, sheet, self._card)) from None
        if len(self._by_object) >= 256:
            self._by_object.clear()
        self._by_object[id(sheet)] = (sheet, card)
        return card


def as_snapshot(card: Struct) -> dict[str, Any]:
    """The plain snapshot ``combatant_joined.sheet`` records (lists, as the log reads back)."""
    out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(card))
    return out
