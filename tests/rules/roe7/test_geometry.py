"""Moves toward or away from someone (``rules/roe7/geometry.py``): the whole-metre point
nearest the goal (farthest from the threat) that a move of ``m`` metres reaches, measured as
a move is (straight, rounded up). A tester's `move toward=alice m=8` from (10, 1) went 7 m,
to (3, 1), and left Bob out of reach of his knuckles: each coordinate was cut on its own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.rules.roe7.geometry import distance, step_away, step_toward

coordinate = st.integers(-40, 40)
point = st.tuples(coordinate, coordinate)


def reachable(start: tuple[int, int], metres: int) -> list[tuple[int, int]]:
    return [(x, y) for x in range(start[0] - metres, start[0] + metres + 1)
            for y in range(start[1] - metres, start[1] + metres + 1) if distance(start, (x, y)) <= metres]


def gap_sq(a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


@settings(max_examples=300, deadline=None)
@given(point, point, st.integers(0, 12))
def test_a_move_toward_someone_ends_as_near_them_as_its_metres_reach(start: tuple[int, int], goal: tuple[int, int],
                                                                     metres: int) -> None:
    end = step_toward(start, goal, metres)
    assert distance(start, end) <= metres or end == goal
    best = min(gap_sq(p, goal) for p in [*reachable(start, metres), *([goal] if distance(start, goal) <= metres else [])])
    assert gap_sq(end, goal) == best


@settings(max_examples=300, deadline=None)
@given(point, point, st.integers(0, 12))
def test_a_move_away_from_someone_ends_as_far_from_them_as_its_metres_reach(start: tuple[int, int],
                                                                          threat: tuple[int, int], metres: int) -> None:
    end = step_away(start, threat, metres)
    assert distance(start, end) <= metres
    if start != threat:
        assert gap_sq(end, threat) == max(gap_sq(p, threat) for p in reachable(start, metres))


def test_the_testers_moves() -> None:
    assert step_toward((10, 1), (0, 0), 8) == (2, 1)  # 8 m, not 7 m to (3, 1)
    assert step_toward((0, 0), (23, 2), 4) == (4, 0)  # 4 m, not 3 m to (3, 0)
    assert step_toward((0, 0), (8, 0), 7) == (7, 0)
