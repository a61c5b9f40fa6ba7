"""Dice engine throughput against avrae's d20, as same-run ratios (run by hand).

    python bench/bench_dice.py [--rolls N] [--rounds R]

For each expression it times N rolls of ours (the verifiable generator: HMAC-SHA256 per roll,
rejection sampling, full result) and N ``d20.roll()`` calls, interleaved over R rounds (every
expression, both sides, once a round), and reports the median of the rounds' ratios and
their range. Targets: ours >= 5x d20 on
``1d100+15``, ``3d20kh1+5`` and ``2d6+2``; ``5d6>=5`` within 2x of our ``2d6+2``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from collections.abc import Callable

import d20

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure, rate  # noqa: E402
from measure import build_measured, interleaved  # noqa: E402

from fightlog.dice import FairGenerator, roll  # noqa: E402

VERSUS_D20 = ("1d100+15", "3d20kh1+5", "2d6+2")
OWN_PAIR = ("5d6>=5", "2d6+2")
TARGET_VS_D20 = 5.0
TARGET_OWN = 2.0


def time_ours(expr: str, rolls: int, start: int) -> float:
    gen = FairGenerator(bytes(range(32)), "bench")
    t0 = time.perf_counter()
    for i in range(start, start + rolls):
        roll(expr, gen, i)
    return time.perf_counter() - t0


def time_d20(expr: str, rolls: int, start: int) -> float:
    d20_roll = d20.roll
    t0 = time.perf_counter()
    for _ in range(rolls):
        d20_roll(expr)
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rolls", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rolls = args.rolls
    print(f"python {platform.python_version()} on {platform.machine()}, {rolls} rolls a run, "
          f"{args.rounds} interleaved rounds; build: {build_measured()}")
    exprs = list(dict.fromkeys(VERSUS_D20 + OWN_PAIR))
    for e in exprs:  # warm caches
        time_ours(e, 1000, 0)
        if e in VERSUS_D20:
            time_d20(e, 1000, 0)
    fresh = itertools.count(1)  # fresh roll indexes for every run

    def ours(e: str) -> Callable[[], object]:
        return lambda: time_ours(e, rolls, next(fresh) * rolls)

    def theirs(e: str) -> Callable[[], object]:
        return lambda: time_d20(e, rolls, 0)

    runs: dict[str, Callable[[], object]] = {}
    for e in exprs:
        runs[f"ours {e}"] = ours(e)
        if e in VERSUS_D20:
            runs[f"d20 {e}"] = theirs(e)
    rounds = interleaved(runs, args.rounds)
    ok = True
    for e in VERSUS_D20:
        fig = figure(
            f"dice `{e}`: ours (`fightlog.dice.roll`) vs d20", f"`d20.roll`, {rate(rolls, rounds.median(f'd20 {e}'), 'rolls/s')}",
            rate(rolls, rounds.median(f"ours {e}"), "rolls/s"), rounds.ratio(f"d20 {e}", f"ours {e}"),
            f">= {TARGET_VS_D20:g}", rounds.load, args.rounds,
        )
        ok &= bool(fig.met)
    slow, fast = OWN_PAIR
    fig = figure(
        f"dice: time of our `{slow}` vs our `{fast}`", f"our `{fast}`, {rate(rolls, rounds.median(f'ours {fast}'), 'rolls/s')}",
        rate(rolls, rounds.median(f"ours {slow}"), "rolls/s"), rounds.ratio(f"ours {slow}", f"ours {fast}"),
        f"<= {TARGET_OWN:g}", rounds.load, args.rounds,
    )
    ok &= bool(fig.met)
    print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
