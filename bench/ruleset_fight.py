"""A ruleset's engine fight bench: the fight written once, then decode + fold and ``audit_log``
measured against bare msgspec decoding of the same lines, interleaved round by round.

Used by ``bench_en51.py`` and ``bench_bleedingsun.py``; each gives its name (as the figures
show it), its file stem under ``bench/out/`` and its fixture's ``events(count)``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from baselines import bare_decode, decode_and_fold
from figures import events_label, figure, rate
from measure import build_measured, interleaved

from fightlog.audit.auditor import audit_log
from fightlog.events.store import FileStore

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")

Play = Callable[[int], Iterable[Sequence[Any]]]


def fight_path(stem: str, count: int) -> str:
    return os.path.join(OUT, f"{stem}-fight-{count}.jsonl")


def write_fight(path: str, count: int, play: Play) -> str:
    """Play and write a fight of about ``count`` events (reused when complete)."""
    if os.path.exists(path):
        if FileStore(path, fsync=False).head()[0] >= count:
            return path
        os.remove(path)
    start = time.perf_counter()
    store = FileStore(path, fsync=False)
    for batch in play(count):
        store.append(batch)
    print(f"{path}: {store.head()[0]} events played ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return path


def main(doc: str | None, name: str, stem: str, play: Play) -> int:
    """Parse ``--events``/``--rounds``, write the fight, check it audits clean, print the figures."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    path = write_fight(fight_path(stem, args.events), args.events, play)
    n = FileStore(path, fsync=False).head()[0]
    size = events_label(n)
    report = audit_log(path)
    if report.findings:
        for finding in report.findings[:10]:
            print(f"  {finding.seq}: {finding.code}: {finding.message}", file=sys.stderr)
        raise SystemExit(f"the {name} fight did not audit clean: {len(report.findings)} findings")
    print(f"audit of {n} events: no findings ({report.summary.dice})")
    rounds = interleaved({"decode": lambda: bare_decode(path), "fold": lambda: decode_and_fold(path),
                          "audit": lambda: audit_log(path)}, args.rounds)
    baseline = f"bare decoding, {rate(n, rounds.median('decode'))}"
    figure(f"{name}: decode + fold into `SceneState`, {size}-event engine fight", baseline,
           rate(n, rounds.median("fold")), rounds.ratio("decode", "fold"), ">= 0.33", rounds.load, args.rounds)
    figure(f"{name}: `audit_log` throughput, {size}-event engine fight", baseline,
           rate(n, rounds.median("audit")), rounds.ratio("decode", "audit"), ">= 0.2", rounds.load, args.rounds)
    return 0
