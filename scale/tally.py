"""What a simulated run counts, streamed: ``Tally`` adds one fight at a time and merges with
another (the merge is associative and commutative, so the totals never depend on which worker
played which chunk or in what order chunks finished), in integers; ``report`` turns it into
rates with 95% Wilson intervals, and ``compare`` sets two runs over the same seeds side by
side, each difference with its interval and whether it is significant."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from fightlog.scale.fights import DRAW, FightSummary, FindingRow

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

KEPT_FINDINGS = 100
"""Findings of audited fights kept with their fight index (the first by index); all are
counted by code."""


class Tally(Struct, kw_only=True):
    """Sums over fights: wins by side (``""``: draws), fights by length in rounds, damage
    dealt and taken and effects applied by name, each with its sum of squares (for the
    interval of a mean), and what the sampled audits found."""

    fights: int = 0
    wins: dict[str, int] = {}
    rounds: dict[int, int] = {}
    sums: dict[str, int] = {}
    squares: dict[str, int] = {}
    audited: int = 0
    codes: dict[str, int] = {}
    findings: list[FindingRow] = []

    def add(self, fight: FightSummary) -> None:
        """Count one fight in."""
        self.fights += 1
        self.wins[fight.winner] = self.wins.get(fight.winner, 0) + 1
        self.rounds[fight.rounds] = self.rounds.get(fight.rounds, 0) + 1
        for prefix, values in (("dealt", fight.dealt), ("taken", fight.taken), ("effect", fight.effects)):
            for name, value in values.items():
                key = f"{prefix}:{name}"
                self.sums[key] = self.sums.get(key, 0) + value
                self.squares[key] = self.squares.get(key, 0) + value * value
        if fight.audited:
            self.audited += 1
            for row in fight.findings:
                self.codes[row.code] = self.codes.get(row.code, 0) + 1
            self.findings = _kept([*self.findings, *fight.findings])

    def merge(self, other: Tally) -> Tally:
        """Both tallies as one (neither is changed)."""
        return Tally(
            fights=self.fights + other.fights,
            wins=_summed(self.wins, other.wins),
            rounds=_summed(self.rounds, other.rounds),
            sums=_summed(self.sums, other.sums),
            squares=_summed(self.squares, other.squares),
            audited=self.audited + other.audited,
            codes=_summed(self.codes, other.codes),
            findings=_kept([*self.findings, *other.findings]),
        )


def _summed(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return out


def _kept(rows: list[FindingRow]) -> list[FindingRow]:
    return sorted(rows, key=lambda r: (r.fight, r.seq, r.code, r.message))[:KEPT_FINDINGS]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` for no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(a: tuple[int, int], b: tuple[int, int], z: float = Z95) -> tuple[float, float, float]:
    """The difference of two proportions (``b - a``, each ``(successes, trials)``) and its
    interval from the two Wilson intervals (Newcombe's hybrid score method)."""
    pa, pb = a[0] / max(a[1], 1), b[0] / max(b[1], 1)
    la, ua = wilson(*a, z=z)
    lb, ub = wilson(*b, z=z)
    diff = pb - pa
    return diff, diff - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), diff + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)


def _mean(total: int, squares: int, n: int, z: float = Z95) -> tuple[float, float]:
    """A mean over ``n`` fights and the half-width of its 95% interval (normal)."""
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    variance = max(0.0, squares / n - mean * mean) * (n / (n - 1) if n > 1 else 0.0)
    return mean, z * math.sqrt(variance / n)


def _round(value: float) -> float:
    return round(value, 4)


def report(tally: Tally, sides: tuple[str, ...]) -> dict[str, Any]:
    """The run as plain data (sorted keys; rates with their 95% Wilson interval, means with
    their 95% interval), as ``fightlog sim`` prints it."""
    n = tally.fights
    wins = {}
    for side in [*sides, DRAW]:
        k = tally.wins.get(side, 0)
        low, high = wilson(k, n)
        wins[side or "(draw)"] = {"wins": k, "rate": _round(k / n if n else 0.0), "low": _round(low),
                                  "high": _round(high)}
    total = sum(r * c for r, c in tally.rounds.items())
    squares = sum(r * r * c for r, c in tally.rounds.items())
    mean, half = _mean(total, squares, n)
    means: dict[str, dict[str, dict[str, float]]] = {"dealt": {}, "taken": {}, "effect": {}}
    for key in sorted(tally.sums):
        prefix, _, name = key.partition(":")
        m, h = _mean(tally.sums[key], tally.squares.get(key, 0), n)
        means[prefix][name] = {"mean": _round(m), "half_width": _round(h)}
    return {
        "fights": n,
        "wins": wins,
        "rounds": {"mean": _round(mean), "half_width": _round(half),
                   "min": min(tally.rounds, default=0), "max": max(tally.rounds, default=0),
                   "histogram": {str(r): c for r, c in sorted(tally.rounds.items())}},
        "damage_dealt": means["dealt"],
        "damage_taken": means["taken"],
        "effects": means["effect"],
        "audit": {"audited": tally.audited, "codes": dict(sorted(tally.codes.items())),
                  "findings": [{"fight": r.fight, "seq": r.seq, "code": r.code, "message": r.message}
                               for r in tally.findings]},
    }


def compare(a: Tally, b: Tally, sides: tuple[str, ...]) -> list[dict[str, Any]]:
    """What changes from run ``a`` to run ``b`` (the same seeds under other options): each
    side's win rate and the mean fight length, damage and effects, as ``b - a`` with its 95%
    interval and ``significant`` when the interval leaves out 0."""
    rows: list[dict[str, Any]] = []
    for side in [*sides, DRAW]:
        diff, low, high = newcombe((a.wins.get(side, 0), a.fights), (b.wins.get(side, 0), b.fights))
        rows.append(_row(f"win rate {side or '(draw)'}", a.wins.get(side, 0) / max(a.fights, 1),
                         b.wins.get(side, 0) / max(b.fights, 1), diff, low, high))
    pairs = [("rounds", _rounds_moments(a), _rounds_moments(b))]
    for key in sorted(set(a.sums) | set(b.sums)):
        pairs.append((key.replace(":", " "), (a.sums.get(key, 0), a.squares.get(key, 0)),
                      (b.sums.get(key, 0), b.squares.get(key, 0))))
    for name, (sa, qa), (sb, qb) in pairs:
        ma, ha = _mean(sa, qa, a.fights)
        mb, hb = _mean(sb, qb, b.fights)
        half = math.sqrt(ha * ha + hb * hb)
        rows.append(_row(f"mean {name}", ma, mb, mb - ma, mb - ma - half, mb - ma + half))
    return rows


def _rounds_moments(t: Tally) -> tuple[int, int]:
    return sum(r * c for r, c in t.rounds.items()), sum(r * r * c for r, c in t.rounds.items())


def _row(what: str, a: float, b: float, diff: float, low: float, high: float) -> dict[str, Any]:
    return {"what": what, "a": _round(a), "b": _round(b), "difference": _round(diff), "low": _round(low),
            "high": _round(high), "significant": low > 0 or high < 0}
