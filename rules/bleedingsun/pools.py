"""Rolling a d6 pool: the notation counts hits (``Nd6>=5``: the option ``hit_face``), and a
pool below 1 has nothing to roll (no roll: 0 hits, or refused for an attack)."""

from __future__ import annotations

from typing import NamedTuple

from fightlog.kit.table import Scribe
from fightlog.rules.bleedingsun.options import BleedingSunOptions


class Pool(NamedTuple):
    """A rolled pool: dice, hits, 6s, 1s, the ``seq`` of its roll (``None``: no dice)."""

    dice: int
    hits: int
    sixes: int
    ones: int
    seq: int | None


def notation(dice: int, options: BleedingSunOptions) -> str:
    return f"{dice}d6>={options.hit_face}"


def roll_pool(scribe: Scribe, dice: int, options: BleedingSunOptions, *, roller: str, purpose: str, label: str,
              for_seq: int | None = None) -> Pool:
    """Roll ``dice`` d6 counting hits; no roll (0 hits) for a pool below 1."""
    if dice < 1:
        return Pool(0, 0, 0, 0, None)
    result, seq = scribe.roll(notation(dice, options), roller=roller, purpose=purpose, label=label, for_seq=for_seq)
    return Pool(dice, result.total, result.max_faces, result.ones, seq)
