"""Benchmark of an en51 fight: folding and auditing it, as same-run ratios (issue 25).

    python bench/bench_en51.py [--events 1000000] [--rounds 5]

The fight is played by the engine through the en51 table (``fightlog.fixtures.en51_fights``:
six fighters whose light weapons never take anyone out, counterattacks, automatic fire,
moves resolved at the end of the turn, Medicine and Recovery), one ``Scribe`` with a
committed seed, written to ``bench/out/en51-fight-N.jsonl`` (reused when it is there and
complete). Then, interleaved round by round with bare msgspec decoding of the same lines:

1. decode + fold into the full ``SceneState`` (target >= 0.33x);
2. ``audit_log`` (two processes, as ``fightlog audit``; target >= 0.2x); the report must have
   no finding (a clean engine fight).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ruleset_fight  # noqa: E402

from fightlog.fixtures.en51_fights import events  # noqa: E402


def main() -> int:
    return ruleset_fight.main(__doc__, "en51", "en51", events)


if __name__ == "__main__":
    raise SystemExit(main())
