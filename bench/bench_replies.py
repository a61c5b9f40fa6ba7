"""Reading bot replies and re-evaluating them, against msgspec decoding (run by hand).

    python bench/bench_replies.py [--replies N] [--rounds R]

A mixed corpus of N distinct replies (engine rolls printed the way Avrae's ``!r``, its
one-liner and its attack embed, Dice Maiden, RPG Sage and SL HUDs print them) is read
(``read_replies``) and every roll re-evaluated under its dialect (``check_event`` of its
event), one core. The baseline is ``msgspec.json.decode`` of the same reply as a JSON string,
timed in the same round: rounds alternate ours and the baseline, and the figure is the median
ratio with its range. Times are CPU time of this process (``time.process_time``): the
machine is shared, and a core taken by another process is not this code's cost. Target: >= 50,000 replies/s parsed and re-evaluated.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

import msgspec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure, rate  # noqa: E402
from load import LoadWatch  # noqa: E402
from measure import Spread, build_measured  # noqa: E402

from fightlog.events.model import Die
from fightlog.dice import FairGenerator, roll
from fightlog.dice.dialects import DIALECTS
from fightlog.dice.external import check_event
from fightlog.dice.replies import BOTS, read_replies

TARGET = 50_000

Render = Callable[[str, list[Die], int], str]


def _shown(d: Die, bold: bool) -> str:
    text = f"**{d.face}**" if bold and d.face in (1, d.sides) else str(d.face)
    return text if d.kept else f"~~{text}~~"


def _avrae(notation: str, dice: list[Die], total: int) -> str:
    faces = ", ".join(_shown(d, True) for d in dice)
    return f"<@259797497813827584>  :game_die:\n**Result**: {notation} ({faces}) + 5\n**Total**: {total + 5}"


def _avrae_line(notation: str, dice: list[Die], total: int) -> str:
    return f"{notation} ({', '.join(_shown(d, True) for d in dice)}) + 3 = `{total + 3}`"


def _attack(notation: str, dice: list[Die], total: int) -> str:
    faces = ", ".join(_shown(d, True) for d in dice)
    return (f"Alice attacks with a Longsword!\n**To Hit (AC 15)**: {notation} ({faces}) + 5 = `{total + 5}`\n"
            f"**Damage**: 1d8 ({dice[0].face % 8 + 1}) + 3 [slashing] = `{dice[0].face % 8 + 4}`")


def _maiden(notation: str, dice: list[Die], total: int) -> str:
    tally = ", ".join(str(d.face) for d in sorted(dice, key=lambda d: -d.face))
    plain = notation.split("k")[0]
    return f"Alice Request: `[{plain}]` Roll: `[{tally}]` Result: `{sum(d.face for d in dice)}`"


def _sage(notation: str, dice: list[Die], total: int) -> str:
    faces = ", ".join(str(d.face) for d in sorted(dice, key=lambda d: d.face))
    plain = notation.split("k")[0]
    return f":game_die: ***{sum(d.face for d in dice) + 2}*** `Attack` \u27f5 [{faces}]{plain} + 2"


def _sl(notation: str, dice: list[Die], total: int) -> str:
    return f"[14:22]  Combat HUD: Alice Vance rolled 1d100 ({dice[0].face % 100 + 1}) + [10 scope] = {dice[0].face % 100 + 11}"


FORMATS: dict[str, tuple[str, Render]] = {
    "avrae !r": ("Avrae", _avrae),
    "avrae one-liner": ("Avrae", _avrae_line),
    "avrae attack": ("Avrae", _attack),
    "dice maiden": ("Dice Maiden", _maiden),
    "rpg sage": ("RPG Sage", _sage),
    "sl hud": ("SL HUD", _sl),
}
EXPRESSIONS = ("1d20", "2d20kh1", "4d6kh3", "1d100", "2d6", "3d8", "1d20")


def corpus(n: int) -> list[str]:
    """``n`` distinct replies, formats and expressions in turn (only bots whose dialect is
    built, so every reply is re-evaluated, not refused)."""
    gen = FairGenerator(bytes(range(32)), "bench-replies")
    formats = [f for f in FORMATS.values() if BOTS[f[0]].dialect in DIALECTS]
    out: list[str] = []
    for i in range(n):
        notation = EXPRESSIONS[i % len(EXPRESSIONS)]
        rolled = roll(notation, gen, i)
        _, render = formats[i % len(formats)]
        out.append(render(notation, rolled.dice, rolled.total))
    return out


def ours(texts: list[str]) -> float:
    t0 = time.process_time()
    for text in texts:
        for read in read_replies(text):
            check_event(read.event(), read.bot)
    return time.process_time() - t0


def baseline(blobs: list[bytes]) -> float:
    decode = msgspec.json.decode
    t0 = time.process_time()
    for blob in blobs:
        decode(blob)
    return time.process_time() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--replies", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    texts = corpus(args.replies)
    blobs = [msgspec.json.encode(t) for t in texts]
    used = sorted({name for name, (bot, _) in FORMATS.items() if BOTS[bot].dialect in DIALECTS})
    print(f"build: {build_measured()}")
    print(f"python {platform.python_version()} on {platform.machine()}, {len(texts)} replies "
          f"({', '.join(used)}) x {args.rounds} rounds")
    bad = sum(1 for t in texts for r in read_replies(t) if r.problems)
    ours(texts[:1000])  # warm the compile caches
    mine: list[float] = []
    theirs: list[float] = []
    watch = LoadWatch()
    for n in range(args.rounds):  # the order alternates round by round
        if n % 2 == 0:
            mine.append(ours(texts))
            theirs.append(baseline(blobs))
        else:
            theirs.append(baseline(blobs))
            mine.append(ours(texts))
    load = watch.load()
    count = len(texts)
    slower = statistics.median(a / b for a, b in zip(mine, theirs))
    thousands = Spread.of([round(count / t / 1000, 1) for t in mine])
    figure(
        f"bot replies read and re-evaluated, {count:,} distinct replies, one core (CPU time)",
        f"msgspec.json.decode of the same replies, {rate(count, statistics.median(theirs), 'replies/s')} "
        f"({slower:.0f} times as fast)", rate(count, statistics.median(mine), "replies/s"),
        thousands, f">= {TARGET // 1000}", load, args.rounds, unit="k replies/s",
    )
    if bad:
        print(f"note: {bad} replies read with problems")
    return 0 if thousands.median * 1000 >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
