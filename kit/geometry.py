"""Distance on a scene's map: whole metres (a ruleset's unit) between two positions."""

from __future__ import annotations

from math import isqrt

Point = tuple[int, int]


def metres_between(a: Point, b: Point) -> int:
    """Straight-line distance from ``a`` to ``b``, rounded up to a whole number."""
    squared = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    root = isqrt(squared)
    return root if root * root == squared else root + 1
