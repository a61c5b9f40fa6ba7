"""Hand-kept RoE sheets: the sheet a GM types into a hand-run log, read as a ``Sheet``.

A hand-run log (rolls from a HUD, outcomes typed in) records each combatant's sheet the way
the table keeps it, not as ``Sheet.to_snapshot`` writes it::

    {"race": "Human", "racial": "Violent Upbringing", "size": "medium",
     "weapons": ["M_a_Rifle_Class_(Permanent)"], "dr": {"ballistic": 10},
     "modifiers": {"accuracy": [{"value": 10, "source": "scope"}, {"value": 5, "source": "racial"}]}}

``sheet_data`` turns it into ``Sheet`` data so the rules can play such a fight (a dispute
re-derives one): ``size`` is the size class; modifiers are listed by roll type, each with
its own source; the ``racial`` ones are left out, since the sheet derives them from the racial
itself (what the rules grant, not what the GM typed: where the two differ, the re-derived
fight shows it); every other source becomes an item modifier named after it. The sheet has
no HP of its own: the combatant's ``hp`` pool is the one the rules read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HAND_KEPT_HP = 1
"""``Sheet.hp`` of a hand-kept sheet (it has none; the rules read the ``hp`` pool)."""


def is_hand_kept(snapshot: Mapping[str, Any]) -> bool:
    """Whether ``snapshot`` is a hand-kept sheet (``size``, no ``size_class``)."""
    return "size" in snapshot and "size_class" not in snapshot


def sheet_data(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """``Sheet`` data from a hand-kept sheet (validated by the caller)."""
    data = {k: v for k, v in snapshot.items() if k not in ("size", "modifiers")}
    data["size_class"] = snapshot["size"]
    data.setdefault("hp", HAND_KEPT_HP)
    modifiers = snapshot.get("modifiers") or {}
    if isinstance(modifiers, Mapping):
        data["modifiers"] = [
            {"value": m.get("value"), "source": "items", "applies_to": roll, "origin": m.get("source")}
            for roll, listed in modifiers.items()
            for m in (listed if isinstance(listed, list) else [])
            if isinstance(m, Mapping) and m.get("source") != "racial"
        ]
    else:
        data["modifiers"] = modifiers
    return data
