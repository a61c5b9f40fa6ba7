"""Pools as a fight is shown: HP first, then by name, and a wound track as one row.

A track is ``TRACK_MIN`` or more pools named with one stem and a number (en5.1's twenty
wound circles, ``w1``..``w20``): shown one by one they bury what matters, so the state, the
replay and the page show a track as one row, its total and the members below their maximum
(``w1..w20 18/20 (w7 0, w12 0)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from fightlog.reducers.state import numbered, pool_order

TRACK_MIN = 3
"""Pools named with a common stem and a number, this many or more, are one track."""


class PoolRow(NamedTuple):
    """One pool, or one track: its name (``hp``, ``w1..w20``), value, maximum if known, and
    the track's members below their maximum (``w7 0, w12 0``; empty for a pool)."""

    name: str
    value: int
    maximum: int | None
    below: str


def track_members(pools: Iterable[str]) -> dict[str, list[str]]:
    """Each track among ``pools``: its first member -> its members in order."""
    stems: dict[str, list[tuple[int, str]]] = {}
    for pool in pools:
        found = numbered(pool)
        if found is not None:
            stems.setdefault(found[0], []).append((found[1], pool))
    tracks = {}
    for members in stems.values():
        if len(members) >= TRACK_MIN:
            ordered = [pool for _, pool in sorted(members)]
            tracks[ordered[0]] = ordered
    return tracks


def pool_rows(pools: Mapping[str, int], maxima: Mapping[str, int]) -> list[PoolRow]:
    """``pools`` as rows, in ``pool_order``, each track as one (see the module docstring)."""
    grouped = track_members(pools)
    inside = {pool for members in grouped.values() for pool in members}
    rows = []
    for name in sorted(pools, key=pool_order):
        track = grouped.get(name)
        if track is None:
            if name not in inside:
                rows.append(PoolRow(name, pools[name], maxima.get(name), ""))
            continue
        total_max = sum(maxima[p] for p in track) if all(p in maxima for p in track) else None
        below = [f"{p} {pools[p]}" for p in track if p in maxima and pools[p] < maxima[p]]
        rows.append(PoolRow(f"{track[0]}..{track[-1]}", sum(pools[p] for p in track), total_max, ", ".join(below)))
    return rows
