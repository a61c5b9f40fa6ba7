"""Range bands and what moving between them costs (Range; Movement).

Five bands from the rulebook's chart and a sixth beyond Far, whose row has no name there
(``extreme``: sniper rifles, artillery). Moving one band farther or closer costs the movement
points the chart gives for the band one leaves; moving within a band (laterally) costs one
point, at the GM's discretion (``lateral_move_cost``).

The scene keeps positions in whole metres (``moved`` events), so bands are derived from the
distance between two combatants with the band limits of the options (the rulebook ballparks
them). A move to a band relative to someone walks straight towards or away from them and
stops just inside that band. Pure functions: no state, no dice.
"""

from __future__ import annotations

import math
from typing import Final, Literal

from fightlog.kit.geometry import metres_between
from fightlog.rules.d20evasion.options import D20Options, band_limits

Band = Literal["touch", "close", "medium-close", "medium", "far", "extreme"]

BANDS: Final[tuple[Band, ...]] = ("touch", "close", "medium-close", "medium", "far", "extreme")
"""Nearest first."""

FARTHER_COST: Final[dict[Band, int]] = {"touch": 0, "close": 1, "medium-close": 2, "medium": 4, "far": 8}
"""Movement points to leave a band outwards (the chart's "Movement Cost (Farther)")."""

CLOSER_COST: Final[dict[Band, int]] = {"close": 0, "medium-close": 1, "medium": 2, "far": 4, "extreme": 8}
"""Movement points to leave a band inwards (the chart's "Movement Cost (Closer)")."""

Point = tuple[int, int]


def band_index(band: str) -> int:
    """The band's place, nearest first (``ValueError`` for a name that is no band)."""
    return BANDS.index(band)


def is_band(text: str) -> bool:
    return text in BANDS


def move_cost(start: Band, end: Band) -> int:
    """Movement points to go from ``start`` to ``end``, band by band (0 when they are the
    same band: a lateral move is ``lateral_move_cost``)."""
    i, j = band_index(start), band_index(end)
    if j > i:
        return sum(FARTHER_COST[BANDS[k]] for k in range(i, j))
    return sum(CLOSER_COST[BANDS[k]] for k in range(i, j, -1))


def within(band: Band, reach: Band) -> bool:
    """Whether ``band`` is ``reach`` or nearer."""
    return band_index(band) <= band_index(reach)


distance = metres_between
"""Metres between two points, rounded up (``kit.geometry``)."""


def band_of(metres: int, options: D20Options) -> Band:
    """The band a distance falls in (each limit is the band's outer edge)."""
    for band, limit in zip(BANDS, band_limits(options)):
        if metres <= limit:
            return band
    return "extreme"


def band_between(a: Point, b: Point, options: D20Options) -> Band:
    return band_of(distance(a, b), options)


def stop_distance(start: Band, end: Band, options: D20Options) -> int:
    """How far from the other one stops when moving from ``start`` into ``end``: just inside
    ``end`` (its outer edge when closing in, one metre past the band before it when backing
    away)."""
    limits = band_limits(options)
    i, j = band_index(start), band_index(end)
    if j < i:
        return limits[j]
    return 0 if j == 0 else limits[j - 1] + 1


def approach(me: Point, other: Point, end: Band, options: D20Options) -> Point:
    """Where ``me`` stops moving straight towards or away from ``other`` until in band
    ``end`` relative to them (straight along +x when standing on the same spot)."""
    start = band_between(me, other, options)
    if start == end:
        return me
    wanted = stop_distance(start, end, options)
    dx, dy = me[0] - other[0], me[1] - other[1]
    if dx == 0 and dy == 0:
        dx = 1
    length_sq = dx * dx + dy * dy
    for d in (wanted, wanted - 1, wanted + 1, wanted - 2, wanted + 2):
        if d < 0:
            continue
        spot = (other[0] + _scaled(dx, d, length_sq), other[1] + _scaled(dy, d, length_sq))
        if band_between(spot, other, options) == end:
            return spot
    return (other[0] + _scaled(dx, wanted, length_sq), other[1] + _scaled(dy, wanted, length_sq))


def _scaled(component: int, d: int, length_sq: int) -> int:
    """``component * d / sqrt(length_sq)`` rounded to the nearest metre, in integers."""
    scale = 10**6
    root = math.isqrt(length_sq * scale * scale)  # sqrt(length_sq) * 10**6, floored
    numerator = component * d * scale
    quotient, remainder = divmod(abs(numerator), root)
    if 2 * remainder >= root:
        quotient += 1
    return quotient if numerator >= 0 else -quotient
