"""Positions, distances and range bands, in whole metres (Movement Range; Close, Medium and
Long Range).

Positions are integer ``(x, y)`` metres on the scene's map. A distance is the straight line
rounded *up* to the metre, so "within 3 m" never admits someone 3.4 m away. Movement toward
or away from someone lands on whole metres rounded toward the mover's start (never further
than allowed).
"""

from __future__ import annotations

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
    """Where a move of at most ``metres`` from ``start`` toward ``goal`` ends (at ``goal`` if
    it is that close), on whole metres, never overshooting."""
    gap = distance(start, goal)
    if gap <= metres:
        return goal
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    point = (start[0] + _toward_zero(dx * metres, gap), start[1] + _toward_zero(dy * metres, gap))
    return point


def step_away(start: Point, threat: Point, metres: int) -> Point:
    """Where a move of at most ``metres`` directly away from ``threat`` ends (along +x when
    they stand on the same spot)."""
    dx, dy = start[0] - threat[0], start[1] - threat[1]
    if dx == 0 and dy == 0:
        return (start[0] + metres, start[1])
    gap = distance(start, threat)
    return (start[0] + _toward_zero(dx * metres, gap), start[1] + _toward_zero(dy * metres, gap))


def _toward_zero(numerator: int, denominator: int) -> int:
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient
