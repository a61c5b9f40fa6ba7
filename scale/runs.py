"""A simulated run cut into chunks: ``play_chunk`` plays fights ``start``..``stop - 1`` and
tallies them (what one Dask task does: a task per fight would be far too fine), auditing
every ``audit_every``-th fight; ``chunks`` cuts ``0..fights`` into ranges."""

from __future__ import annotations

from fightlog.scale.fights import fight_summary, policy_of
from fightlog.scale.setup import Setup
from fightlog.scale.tally import Tally

CHUNK_MAX = 500
"""At most this many fights per task (a task's result is small; the client merges as they
come, so memory stays flat in the number of fights)."""


def chunks(fights: int, workers: int, largest: int = CHUNK_MAX) -> list[tuple[int, int]]:
    """``0..fights`` cut into ranges, about eight per worker, none over ``largest``."""
    size = max(1, min(largest, -(-fights // max(1, workers * 8))))
    return [(start, min(start + size, fights)) for start in range(0, fights, size)]


def audited(index: int, audit_every: int) -> bool:
    """Whether fight ``index`` is one the run audits (every ``audit_every``-th, from 0; never
    for 0)."""
    return audit_every > 0 and index % audit_every == 0


def play_chunk(setup: Setup, master: str, start: int, stop: int, audit_every: int) -> Tally:
    """Fights ``start``..``stop - 1`` of the run, tallied."""
    policy = policy_of(setup)
    tally = Tally()
    for index in range(start, stop):
        tally.add(fight_summary(setup, master, index, audit=audited(index, audit_every), policy=policy))
    return tally
