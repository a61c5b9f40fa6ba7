"""Reading a ruleset's card (its msgspec ``Struct`` of a sheet) back from the plain snapshot
``combatant_joined.sheet`` records, and writing that snapshot.

The table and the audit read cards often, so ``CardReader`` caches twice: on the snapshot's
bytes, and on the snapshot object itself (the folded state shares one snapshot per combatant,
so a card is read once, not encoded again).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import Struct

from fightlog.errors import InputError

C = TypeVar("C", bound=Struct)


def described(exc: msgspec.ValidationError) -> str:
    """Why a snapshot is no card, naming the field as the rosters' errors do:
    ``sheet.characteristics.DEX: Expected `int` <= 15``."""
    message, _, where = str(exc).rpartition(" - at `$")
    return f"sheet{where.rstrip('`')}: {message}" if message else f"sheet: {exc}"


class CardReader(Generic[C]):
    """``read_card(sheet)``: the ``card`` of a sheet snapshot; ``InputError`` with
    ``message(exc)`` when it does not read (``described``, unless given)."""

    def __init__(self, card: type[C], message: Callable[[msgspec.ValidationError], str] = described) -> None:
        decoder = msgspec.json.Decoder(card)
        self._message = message
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
            raise InputError(self._message(exc)) from None
        if len(self._by_object) >= 256:
            self._by_object.clear()
        self._by_object[id(sheet)] = (sheet, card)
        return card


def as_snapshot(card: Struct) -> dict[str, Any]:
    """The plain snapshot ``combatant_joined.sheet`` records (lists, as the log reads back)."""
    out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(card))
    return out
