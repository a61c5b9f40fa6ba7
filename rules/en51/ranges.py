"""Distances on the range scale (Ranged attack): the step a distance is at, the penalty for
shooting beyond a weapon's Range, and how far a weapon reaches."""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

from fightlog.rules.en51.options import scale_marks

MAX_OVER: Final = 5
"""A weapon reaches at most five steps above its Range."""

PER_STEP: Final = 2
"""-2 per step above Range, up to -10."""


def step(metres: int, scale: str) -> int:
    """The step of a distance: how many marks of the scale it reaches (0 under the first: all
    successes hit)."""
    return bisect_right(scale_marks(scale), metres)


def over_range(at: int, weapon_range: int) -> int:
    """Steps above the weapon's Range (0 within it)."""
    return max(0, at - weapon_range)


def range_penalty(at: int, weapon_range: int) -> int:
    """The penalty for steps above Range: -2 each, at most -10."""
    return -min(PER_STEP * over_range(at, weapon_range), PER_STEP * MAX_OVER)


def reaches(at: int, weapon_range: int) -> bool:
    return over_range(at, weapon_range) <= MAX_OVER
