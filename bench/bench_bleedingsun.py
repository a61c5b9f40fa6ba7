"""Benchmark of a bleeding-sun fight: folding and auditing it, as same-run ratios (issue 26).

    python bench/bench_bleedingsun.py [--events 1000000] [--rounds 5]

The fight is played by the engine through the bleeding-sun table
(``fightlog.fixtures.bleedingsun_fights``: six fighters too tough to fall, split bursts and
automatic fire, spreads, grenades, melee with gang up and trips, dodges and blocks dropping
their makers in the sequence, attacks of opportunity, stances, moves, total defense, status
saves), one ``Scribe`` with a committed seed, written to
``bench/out/bleedingsun-fight-N.jsonl`` (reused when it is there and complete). Then,
interleaved round by round with bare msgspec decoding of the same lines:

1. decode + fold into the full ``SceneState`` (target >= 0.33x);
2. ``audit_log`` (two processes, as ``fightlog audit``; target >= 0.2x); the report must have
   no finding (a clean engine fight).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from baselines import bare_decode, decode_and_fold  # noqa: E402
from figures import events_label, figure, rate  # noqa: E402
from measure import build_measured, interleaved  # noqa: E402

from fightlog.audit.auditor import audit_log  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402
from fightlog.fixtures.bleedingsun_fights import events  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def fight_path(count: int) -> str:
    return os.path.join(OUT, f"bleedingsun-fight-{count}.jsonl")


def write_fight(path: str, count: int) -> str:
    """Play and write a bleeding-sun fight of about ``count`` events (reused when complete)."""
    if os.path.exists(path):
        if FileStore(path, fsync=False).head()[0] >= count:
            return path
        os.remove(path)
    start = time.perf_counter()
    store = FileStore(path, fsync=False)
    for batch in events(count):
        store.append(batch)
    print(f"{path}: {store.head()[0]} events played ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    path = write_fight(fight_path(args.events), args.events)
    n = FileStore(path, fsync=False).head()[0]
    size = events_label(n)
    report = audit_log(path)
    if report.findings:
        for finding in report.findings[:10]:
            print(f"  {finding.seq}: {finding.code}: {finding.message}", file=sys.stderr)
        raise SystemExit(f"the bleeding-sun fight did not audit clean: {len(report.findings)} findings")
    print(f"audit of {n} events: no findings ({report.summary.dice})")
    rounds = interleaved({"decode": lambda: bare_decode(path), "fold": lambda: decode_and_fold(path),
                          "audit": lambda: audit_log(path)}, args.rounds)
    baseline = f"bare decoding, {rate(n, rounds.median('decode'))}"
    figure(f"bleeding-sun: decode + fold into `SceneState`, {size}-event engine fight", baseline,
           rate(n, rounds.median("fold")), rounds.ratio("decode", "fold"), ">= 0.33", rounds.load, args.rounds)
    figure(f"bleeding-sun: `audit_log` throughput, {size}-event engine fight", baseline,
           rate(n, rounds.median("audit")), rounds.ratio("decode", "audit"), ">= 0.2", rounds.load, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
