"""Distance on a scene's map: whole metres (a ruleset's unit) between two positions, and a
spot a post names (``x=``, ``y=``)."""

from __future__ import annotations

from math import isqrt

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.actions import value_written

Point = tuple[int, int]


def metres_between(a: Point, b: Point) -> int:
    """Straight-line distance from ``a`` to ``b``, rounded up to a whole number."""
    squared = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    root = isqrt(squared)
    return root if root * root == squared else root + 1


def spot_given(action: Action, what: str) -> Point | None:
    """``x=`` and ``y=`` of ``action`` as a spot, ``None`` when neither is given; refused,
    naming the value, when one is not whole metres or the other is missing."""
    given = {key: action.params.get(key) for key in ("x", "y") if key in action.params}
    if not given:
        return None
    for key, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise RefusedError(f"{what}: {key}={value_written(value)}: a position is whole metres (x=12 y=-3)",
                               code="rules.incomplete")
    if len(given) == 1:
        missing = "y" if "x" in given else "x"
        raise RefusedError(f"{what}: a position gives both x= and y= ({missing}= is missing)", code="rules.incomplete")
    return given["x"], given["y"]  # type: ignore[return-value]
