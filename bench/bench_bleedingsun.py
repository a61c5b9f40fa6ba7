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

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ruleset_fight  # noqa: E402

from fightlog.fixtures.bleedingsun_fights import events  # noqa: E402


def main() -> int:
    return ruleset_fight.main(__doc__, "bleeding-sun", "bleedingsun", events)


if __name__ == "__main__":
    raise SystemExit(main())
