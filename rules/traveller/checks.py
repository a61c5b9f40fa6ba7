"""Traveller's arithmetic: the characteristic DM table, skill DMs, Effect, range bands and
cover (Terms; Weapon Range; Hiding). Pure functions of integers; the table and the audit
both ask them.
"""

from __future__ import annotations

from operator import le, lt
from typing import Final

from fightlog.rules.traveller.options import TravellerOptions

COVER: Final = {
    "vegetation": 2,
    "tree_trunk": 6,
    "stone_wall": 8,
    "civilian_vehicle": 10,
    "armoured_vehicle": 15,
    "fortifications": 20,
}
"""Hiding: the armour each kind of cover adds."""

BANDS: Final = {"short": 1, "normal": 0, "long": -2, "extreme": -4}
"""Weapon Range: the attack DM of each band."""


def characteristic_dm(value: int) -> int:
    """The characteristic DM: 0: -3, 1-2: -2, 3-5: -1, 6-8: 0, 9-11: +1, 12-14: +2, 15+: +3."""
    if value <= 0:
        return -3
    if value <= 2:
        return -2
    return min((value - 6) // 3, 3)


def effect(total: int, options: TravellerOptions) -> int:
    """A check's Effect: the total less the target number (8)."""
    return total - options.target


def band(distance: int, range_m: int, scoped: bool, options: TravellerOptions) -> str | None:
    """The range band of a target ``distance`` metres away for a weapon of ``range_m``;
    ``None`` beyond four times the range. Edges follow the sheet ("<") unless
    ``band_edges_inclusive``. An unscoped weapon is at extreme range beyond
    ``unscoped_extreme_m`` (In combat, >100m)."""
    within = le if options.band_edges_inclusive else lt  # edges inclusive, or not
    if not within(distance, range_m * 4):
        return None
    if not scoped and distance > options.unscoped_extreme_m:
        return "extreme"
    if within(distance * 4, range_m):
        return "short"
    if within(distance, range_m):
        return "normal"
    if within(distance, range_m * 2):
        return "long"
    return "extreme"
