"""Positions, distances and range bands, in whole metres (Movement Range; Close, Medium and
Long Range).

Positions are integer ``(x, y)`` metres on the scene's map. A distance is the straight line
rounded *up* to the metre, so "within 3 m" never admits someone 3.4 m away. Movement toward
or away from someone lands on the whole-metre point nearest the goal (farthest from the
threat) that is no further from the start than allowed, measured as a move is.
"""

from __future__ import annotations

import math
from typing import Final, Literal

from fightlog.kit.geometry import metres_between

Band = Literal["close", "medium", "long"]

CLOSE_MAX_M: Final = 20
"""Close range: at and below 20 m."""
LONG_MIN_M: Final = 50
"""Long range: 50 m and above; medium is between."""

Point = tuple[int, int]


distance = metres_between
"""Straight-line metres from ``a`` to ``b``, rounded up (``kit.geometry``)."""


def within(a: Point, b: Point, metres_x2: int) -> bool:
    """Whether ``b`` is within ``metres_x2 / 2`` metres of ``a`` (exact, for half metres such
    as a 5 m diameter's 2.5 m radius)."""
    return 4 * ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) <= metres_x2 * metres_x2


def band(metres: int) -> Band:
    """The range band of a distance."""
    if metres <= CLOSE_MAX_M:
        return "close"
    return "medium" if metres < LONG_MIN_M else "long"


def step_toward(start: Point, goal: Point, metres: int) -> Point:
    """Where a move of at most ``metres`` from ``start`` toward ``goal`` ends: at ``goal`` if
    it is that close, else at the whole-metre point nearest it within ``metres`` of
    ``start`` (so measured rounded up, as a move is, it covers ``metres`` at most)."""
    if distance(start, goal) <= metres:
        return goal
    return _best(start, metres, goal, nearest=True)


def step_away(start: Point, threat: Point, metres: int) -> Point:
    """Where a move of at most ``metres`` directly away from ``threat`` ends: the whole-metre
    point farthest from it within ``metres`` of ``start`` (along +x when they stand on the
    same spot)."""
    if start == threat:
        return (start[0] + metres, start[1])
    return _best(start, metres, threat, nearest=False)


def _best(start: Point, metres: int, other: Point, *, nearest: bool) -> Point:
    """The whole-metre point within ``metres`` of ``start`` (exactly: squared) nearest to
    ``other`` (or farthest from it): a column of points at each ``x``, its best ``y`` the
    one nearest ``other``'s (or an end of the column); ties to the nearer the start, then
    the lower ``x`` and ``y``. All in integers."""
    best: tuple[int, int, Point] | None = None
    for x in range(start[0] - metres, start[0] + metres + 1):
        reach = math.isqrt(metres * metres - (x - start[0]) ** 2)
        low, high = start[1] - reach, start[1] + reach
        for y in ((min(max(other[1], low), high),) if nearest else (low, high)):
            gap = (x - other[0]) ** 2 + (y - other[1]) ** 2
            key = (gap if nearest else -gap, (x - start[0]) ** 2 + (y - start[1]) ** 2, (x, y))
            if best is None or key < best:
                best = key
    assert best is not None  # x = start's is always in range
    return best[2]
