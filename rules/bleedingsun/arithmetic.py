"""The pure arithmetic of the chapter, shared by the table and the audit: the threshold
chart, burst modes and recoil, critical hits, soak (armour piercing; the spread ratios),
explosive fall-off, movement point costs, the sequence's sort key. No state, no dice.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final, NamedTuple

from fightlog.kit.fighters import Mods
from fightlog.rules.bleedingsun.card import SIZES

RANGES: Final = {"short": 1, "medium": 2, "long": 3, "extreme": 4}
"""Range band -> the base threshold (Defenders Threshold)."""

STANCE_RANGED: Final = {"crouched": 1, "prone": 2}
"""Stance -> threshold added against a ranged attack (a melee attacker: the opposite)."""

TARGETED: Final = {"medium": 2, "small": 3, "tiny": 4}
"""Targeted shot -> threshold added (and the target's size ignored)."""


class Burst(NamedTuple):
    """A fire mode: bullets, recoil, DV and AP it adds, the fire types that allow it."""

    bullets: int
    recoil: int
    dv: int
    ap: int
    fire: tuple[str, ...]


BURSTS: Final = {
    "single": Burst(1, 0, 0, 0, ("SS", "SA")),
    "2rb": Burst(2, 1, 1, 0, ("SA", "2RB")),
    "3rb": Burst(3, 2, 2, -1, ("SA", "3RB")),
    "auto": Burst(5, 4, 4, -2, ("FA",)),
    "full": Burst(10, 9, 9, -3, ("FA",)),
}
"""Burst Mode Base table (recoil as a penalty: 3RB's -2 is 2)."""

RECOIL_STANCE: Final = {"crouched": 1, "prone": 2}
"""Crouching and prone add to recoil (reduce its penalty)."""

CAUTIOUS: Final = 2
"""Moving without provoking an attack of opportunity: +2 MP a hex."""

TERRAIN: Final = {"open": 0, "difficult": 1}
SWIM_CLIMB: Final = {"swim": 3, "climb": 4}
MOVE_STANCE: Final = {"crouched": 1, "prone": 3}

SPREAD_RANGES: Final = {"narrow": (4, 8, 12, 16), "medium": (3, 6, 9, 12), "wide": (2, 4, 6, 8)}
"""Spread setting -> where short, medium, long and extreme range end, in hexes."""

SPREAD_AP: Final = {"short": -3, "medium": 0, "long": 3, "extreme": 6}
SPREAD_KICKER: Final = {"short": 0, "medium": 0, "long": -1, "extreme": -2}


def as_notes(parts: Mods) -> list[str]:
    """What a threshold or a DV pool is made of, ``(value, source)`` pairs, as notes: ``+2
    source``. Written out only where they are read (the table's notes, a finding), not at
    every check."""
    return [f"{v:+d} {s}" for v, s in parts]


_RANGE_PARTS: Final = {band: f"{band} range" for band in RANGES}


def threshold(band: str, *, melee: bool, stance: str | None, aim_held: bool, size: str, targeted: str | None,
              defense: int, grappled: bool = False, perk: int = 0) -> tuple[int, Mods]:
    """The threshold to hit (at least 1) and its parts."""
    parts: Mods = [(RANGES[band], _RANGE_PARTS[band])]
    if stance in STANCE_RANGED:
        value = STANCE_RANGED[stance]
        parts.append((-value if melee else value, stance))
    if aim_held:
        parts.append((-1, "holding an aim"))
    if targeted is not None:
        parts.append((TARGETED[targeted], f"targeted shot ({targeted})"))
    elif SIZES.get(size, 0):
        parts.append((SIZES[size], f"size {size}"))
    if grappled:
        parts.append((-1, "grappled"))
    if perk:
        parts.append((perk, "perks"))
    if defense:
        parts.append((defense, "defense hits"))
    total = 0  # ``kit.fighters.sum_mods``, written out: compiled here, interpreted there (+2% compiled)
    for value, _ in parts:
        total += value
    return max(1, total), parts


def net_base(threshold_: int, parts: Mods, net_hits_from: str) -> int:
    """What net hits are counted from (Defenders Threshold): the threshold to hit, or, where
    the chart gives less than 1 and ``net_hits_from`` is ``"chart"``, the chart's value (a hit
    still takes 1 hit; every hit over the chart's value is a net hit)."""
    if threshold_ > 1 or net_hits_from != "chart":
        return threshold_
    total = 0
    for value, _ in parts:
        total += value
    return min(total, threshold_)


def burst_recoil(modes: Sequence[str], *, stance: str | None, comp: int, thrown: Sequence[bool] = ()) -> int:
    """The recoil penalty of a round's ranged attacks (Recoil): each burst's own recoil, plus
    1 for every non-throwing ranged attack after the first, less the stance's and the
    weapon's reduction, never below 0."""
    raw = sum(BURSTS[m].recoil for m in modes)
    shots = [m for i, m in enumerate(modes) if not (thrown[i] if i < len(thrown) else False)]
    raw += max(0, len(shots) - 1)
    reduce = RECOIL_STANCE.get(stance or "", 0) + comp
    return max(0, raw - reduce) if raw else 0


def critical(hits: int, sixes: int, dice: int, threshold_: int, *, margin: int, min_sixes: int,
             threshold_crit: bool = True) -> bool:
    """Critical Hits: half or more of the dice 6s (at least ``min_sixes``), or the threshold
    beaten by ``margin`` (not for spreads and blasts)."""
    if sixes >= min_sixes and 2 * sixes >= dice:
        return True
    return threshold_crit and hits - threshold_ >= margin


def pierce(ap: int, armour: int) -> int:
    """The dice armour piercing takes off a fortitude pool: up to the armour bonus."""
    return min(max(0, -ap), armour)


def soak_pool(fortitude: int, armour: int, ap: int, *, positive_ap_soaks: bool = False, cover: int = 0,
              ignore_armour: bool = False) -> int:
    """The soak pool: fortitude with the armour bonus, less the piercing (up to the armour),
    plus cover where it adds (spreads, blasts)."""
    if ignore_armour:
        return fortitude + cover
    extra = max(0, ap) if positive_ap_soaks else 0
    return fortitude + armour - pierce(ap, armour) + extra + cover


def spread_ratio(hits: int, threshold_: int) -> int:
    """Damage each soak hit takes off a spread: 3 when the threshold was missed, 2 when met,
    1 when exceeded."""
    if hits < threshold_:
        return 3
    return 2 if hits == threshold_ else 1


def soaked(damage: int, soak_hits: int, ratio: int = 1, dodge_hits: int = 0) -> int:
    """What soak takes off ``damage``: each soak hit ``ratio``, each dodge hit against a blast 2."""
    return min(damage, soak_hits * ratio + 2 * dodge_hits)


def falloff(damage: int, hexes: int) -> int:
    """Explosive damage ``hexes`` from the blast's centre: full in it and next to it, 1 less a
    hex beyond."""
    return max(0, damage - max(0, hexes - 1))


def band_of(distance: int, limits: Sequence[int]) -> str | None:
    """The range band ``distance`` hexes falls in, given where each band ends; ``None`` beyond."""
    for band, limit in zip(RANGES, limits):
        if distance <= limit:
            return band
    return None


def move_cost(hexes: int, *, stance: str | None, terrain: str, cautious: bool, extra: int = 0) -> int:
    """Movement points for ``hexes`` (Combat Actions & Cost): 1 a hex, +1 crouching, +3 prone,
    +1 difficult terrain, +2 cautious; swimming 3 and climbing 4 a hex; ``extra`` a hex more
    (frozen: +1)."""
    base = SWIM_CLIMB.get(terrain, 1)
    per = base + MOVE_STANCE.get(stance or "", 0) + TERRAIN.get(terrain, 0) + (CAUTIOUS if cautious else 0) + extra
    return hexes * per


def drop(order: Sequence[str], actor: str, places: int, down: Collection[str] = ()) -> list[str]:
    """The order after ``actor`` drops ``places`` places (Drop in Initiative: they now act
    after whoever acted right after them; at the bottom they stay). A place is someone who
    still acts: those ``down`` (out of the fight, still listed) are passed over without
    counting, else a drop behind them would change nothing."""
    out = list(order)
    if actor not in out:
        return out
    at = out.index(actor)
    out.pop(at)
    new = at
    passed = 0
    for index in range(at, len(out)):
        if passed == places:
            break
        if out[index] not in down:
            passed += 1
            new = index + 1
    out.insert(new, actor)
    return out
