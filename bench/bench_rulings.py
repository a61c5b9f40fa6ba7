"""Benchmarks of commands on a log that holds many GM rulings, as same-run ratios.

    python bench/bench_rulings.py [--events 20000] [--every 10] [--rounds 3]

A log of ``--events`` synthesized events with an amend ruling after every ``--every``-th
(one ruling per ten events: a GM correcting each turn's post), against the same synthesized
fight without rulings, the same number of lines, interleaved round by round:

1. `fightlog state --no-cache` (target <= 2x): a fold restarts once, however many rulings;
2. `fightlog replay` (target <= 2x): each ruling refolded from the last 1,024 states;
3. `fightlog dispute` of the last post (target <= 2x): its split and fork refold from
   recent states, not from the start.

Before the twenty-first session each ruling refolded from the start: on 22,221 events with
2,221 rulings `state` took 5 min 18 s, `replay` 2 min 32 s and `dispute` 9 min (under load).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import events_label, figure  # noqa: E402
from measure import build_measured, command, fightlog_script, interleaved  # noqa: E402
from synth import events as synth_events, write_log  # noqa: E402

from fightlog.events.model import AnyEvent, DeclarationPosted, RulingMade  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def write_ruled(path: str, count: int, every: int) -> tuple[str, int]:
    """A log of ``count`` lines: the synthesized fight with an amend ruling of the latest post
    after every ``every``-th event (made once, reused); the ``seq`` of its last post."""
    store = FileStore(path, fsync=False)
    if os.path.exists(path) and store.head()[0] == count:
        last = max(i for i, line in enumerate(open(path, "rb"), 1) if b'"declaration_posted"' in line)
        return path, last
    if os.path.exists(path):
        os.remove(path)
    store = FileStore(path, fsync=False)
    pending: list[AnyEvent] = []
    last_post = 0
    written = 0
    for event in synth_events(count):
        if written == count:
            break
        pending.append(event)
        written += 1
        if isinstance(event, DeclarationPosted):
            last_post = written
        if written % every == 0 and last_post and written < count:
            written += 1
            pending.append(RulingMade(by="GM", action="amend", target=last_post, reason="typo",
                                      changes={"text": f"amended at {written}"}))
    store.append(pending)
    return path, last_post


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n, size = args.events, events_label(args.events)
    ruled, post = write_ruled(os.path.join(OUT, f"ruled-{n}-{args.every}.jsonl"), n, args.every)
    plain = write_log(os.path.join(OUT, f"log-{n}.jsonl"), n)
    plain_post = max(i for i, line in enumerate(open(plain, "rb"), 1) if b'"declaration_posted"' in line)
    rulings = sum(b'"ruling_made"' in line for line in open(ruled, "rb"))
    fightlog = fightlog_script()
    runs = {
        "`fightlog state --no-cache`": ([fightlog, "state", "--no-cache", ruled], [fightlog, "state", "--no-cache", plain]),
        "`fightlog replay`": ([fightlog, "replay", ruled], [fightlog, "replay", plain]),
        "`fightlog dispute` of the last post": (
            [fightlog, "dispute", ruled, "--at", str(post), "--set", "text=changed"],
            [fightlog, "dispute", plain, "--at", str(plain_post), "--set", "text=changed"]),
    }
    for name, (with_rulings, without) in runs.items():
        measured, baseline = command(with_rulings), command(without)
        measured(), baseline()  # bytecode cached, logs in the page cache
        rounds = interleaved({"with": measured, "without": baseline}, args.rounds)
        figure(
            f"{name}, {size} events with {rulings:,} rulings", f"the same without rulings, "
            f"{rounds.median('without'):.2f} s", f"{rounds.median('with'):.2f} s",
            rounds.ratio("with", "without"), "<= 2", rounds.load, args.rounds,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
