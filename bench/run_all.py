"""Run every bench on both builds and write the figures into ``bench/README.md``.

    python bench/run_all.py                 # the full run (about 10 minutes on 2 cores); writes the README
    python bench/run_all.py --quick         # a smoke run: small logs, few rounds; prints, writes nothing
    python bench/run_all.py --only bench_dice --builds compiled
    python bench/run_all.py --render        # the README again from the last full run's figures

Builds: ``pure`` is the interpreter's own install (the editable one: pure Python);
``compiled`` is the project's wheel (``setup.py`` compiles the hot modules with mypyc), built
once into ``bench/out/wheel`` and installed into ``bench/out/compiled``, and rebuilt only when
the source changes (a hash of what goes into it); a bench runs on it with ``PYTHONPATH``
pointing there, and says which build it measured.

Each bench records its figures (``figures.py``) into ``bench/out/figures-full.jsonl`` (or
``-quick``), replacing its earlier figures on the same build (a run of ``--only`` some
benches keeps the others'); the tables between the README's generated markers are rendered from that file
(``tables.py``), with the date, so the document and the code cannot drift. The 1M-event
logs are made once in ``bench/out/`` and reused.

To add a bench: one ``Bench`` entry in ``BENCHES``; the bench reports through
``figures.figure`` (and ``figures.cost``), and takes its size and rounds as arguments.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tables import BUILDS, put_block, render_costs, render_figures  # noqa: E402

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
README = BENCH / "README.md"
COMPILED = OUT / "compiled"
WHEEL = OUT / "wheel"


@dataclass(frozen=True)
class Bench:
    script: str
    """A file in ``bench/``; its stem names its README block."""
    title: str
    """The README section its table goes under, when the README has no markers for it yet."""
    full: tuple[str, ...] = ()
    quick: tuple[str, ...] = ()
    builds: tuple[str, ...] = BUILDS
    """The builds it runs on (a bench of code mypyc does not compile needs only ``pure``)."""

    @property
    def key(self) -> str:
        return Path(self.script).stem


BENCHES = [
    Bench("bench_log.py", "Log foundation (verify)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_state.py", "State (fold, `fightlog state`)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_checkpoint.py", "Checkpoint safety check (issue 19, item 4)",
          ("--events", "1000000", "--rounds", "15", "--appends", "200"),
          ("--events", "20000", "--rounds", "3", "--appends", "20"), builds=("pure",)),
    Bench("bench_audit.py", "Audit (`fightlog audit`)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_traveller.py", "Traveller fight (fold, audit)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_en51.py", "en5.1 black and white d20 fights (fold and audit, issue 25)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_bleedingsun.py", "Bleeding Sun d6 dice-pool fights (fold and audit, issue 26)",
          ("--events", "1000000", "--rounds", "5"), ("--events", "20000", "--rounds", "2")),
    Bench("bench_rulings.py", "Commands on a log with many GM rulings",
          ("--events", "20000", "--every", "10", "--rounds", "3"), ("--events", "3000", "--every", "10", "--rounds", "2")),
    Bench("bench_dice.py", "Dice", ("--rolls", "50000", "--rounds", "7"), ("--rolls", "10000", "--rounds", "3")),
    Bench("bench_commands.py", "Commands on long fights (replay, verify --dice)",
          ("--sizes", "10000,100000,1000000", "--rounds", "3"), ("--sizes", "5000,20000", "--rounds", "2")),
    Bench("bench_report.py", "The fight as a page (`fightlog report`, issue 27)",
          ("--events", "10000", "--rounds", "5"), ("--events", "2000", "--rounds", "2")),
    Bench("bench_store.py", "Store: concurrent appends and crashes (issue 19)",
          (), ("--appends", "200", "--repeat", "2", "--trials", "5", "--long-appends", "50"), builds=("pure",)),
    Bench("bench_tamper.py", "Tampering (`verify` against mutated logs)", (), ("--count", "100"), builds=("pure",)),
    Bench("bench_replies.py", "Reading bot replies (issue 21)", (), ("--replies", "2000", "--rounds", "3"), builds=("pure",)),
    Bench("bench_import.py", "Importing a Discord export (issue 22)",
          (), ("--messages", "5000", "--memory", "1000", "20000", "--rounds", "2"), builds=("pure",)),
    Bench("bench_scale.py", "Past one machine: batch audit and sim on Dask (issue 28)",
          ("--logs", "10000", "--fights", "8000", "--memory", "10000,1000000", "--per-ruleset", "300", "--rounds", "3"),
          ("--logs", "400", "--fights", "600", "--memory", "200,2000", "--per-ruleset", "60", "--rounds", "2"),
          builds=("pure",)),
]
"""Every bench, in the order run: one entry each. The reply readers and the importer run on
the pure build only (mypyc compiles none of their code); so does the scale bench, whose full
run plays a million fights (about an hour on two cores)."""

COST_KEY = "cost"
COST_TITLE = "Cost per event (`bench_commands.py`)"


def source_hash() -> str:
    """A hash of what goes into the wheel: setup.py, pyproject.toml and every module below the
    top folders (the subpackages' too: a ruleset's compiled audit is in ``rules/<id>/``)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        folders = sorted(set(tomllib.load(f)["tool"]["setuptools"]["package-dir"].values()))
    digest = hashlib.sha256()
    for path in [ROOT / "setup.py", ROOT / "pyproject.toml"] + [p for d in folders for p in sorted((ROOT / d).rglob("*.py"))]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_build() -> Path:
    """``bench/out/compiled``, holding the wheel of the current source (built if it is not)."""
    stamp = COMPILED / ".source-sha256"
    wanted = source_hash()
    if stamp.exists() and stamp.read_text() == wanted:
        print(f"compiled build: reused ({COMPILED})")
        return COMPILED
    print("compiled build: building the wheel (mypyc; about a minute)...", flush=True)
    shutil.rmtree(WHEEL, ignore_errors=True)
    shutil.rmtree(COMPILED, ignore_errors=True)
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(WHEEL), str(ROOT)], check=True)
    (wheel,) = WHEEL.glob("fightlog-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "-q", "--target", str(COMPILED), str(wheel)], check=True)
    if not list((COMPILED / "fightlog" / "reducers").glob("fold*.so")):
        print("compiled build: WARNING: the wheel holds no compiled module (no C compiler?)", file=sys.stderr)
    stamp.write_text(wanted)
    return COMPILED


def run(bench: Bench, build: str, quick: bool, figures: Path) -> bool:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BENCH_FIGURES"] = str(figures)
    if build == "compiled":
        env["PYTHONPATH"] = str(compiled_build())
    argv = [sys.executable, str(BENCH / bench.script), *(bench.quick if quick else bench.full)]
    print(f"\n=== {bench.script} ({build}): {' '.join(argv[2:])}", flush=True)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=ROOT)
    print(f"=== {bench.script} ({build}): exit {done.returncode}, {time.perf_counter() - start:.0f} s", flush=True)
    return done.returncode == 0


def load_records(figures: Path) -> list[dict[str, Any]]:
    if not figures.exists():
        return []
    return [json.loads(line) for line in figures.read_text().splitlines() if line.strip()]


def caption(records: list[dict[str, Any]], quick: bool, when: str) -> str:
    builds = sorted({r["build"] for r in records}, key=lambda b: BUILDS.index(b) if b in BUILDS else 9)
    times = sorted({str(r.get("when") or when) for r in records})
    span = f"{times[0]} - {times[-1]} UTC" if times[0] != times[-1] else f"{times[0]} UTC"
    return (
        f"Generated by `python bench/run_all.py{' --quick' if quick else ''}`, measured {span}: Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, builds {', '.join(builds)}; "
        "every ratio the median of interleaved rounds, with its range; load: the 1-minute load "
        "average before the rounds and the share of the CPUs other processes used during them."
    )


def blocks(records: list[dict[str, Any]], quick: bool, when: str) -> list[tuple[str, str, str]]:
    """Every generated block as (key, title, Markdown): one per bench, and the cost table."""
    out: list[tuple[str, str, str]] = []
    for bench in BENCHES:
        mine = [r for r in records if r["bench"] == bench.key and r["kind"] == "figure"]
        if mine:
            out.append((bench.key, bench.title, render_figures(mine, caption(mine, quick, when))))
    costs = [r for r in records if r["kind"] == "cost"]
    if costs:
        cap = caption(costs, quick, when) + " Microseconds an event past the fixed cost, median (range) of the rounds."
        out.append((COST_KEY, COST_TITLE, render_costs(costs, cap)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small logs, few rounds; the README is not written")
    parser.add_argument("--builds", default=",".join(BUILDS), help="pure, compiled or both (default)")
    parser.add_argument("--only", default="", help="bench names (stems), comma-separated")
    parser.add_argument("--render", action="store_true", help="write the README from the last run's figures, measure nothing")
    parser.add_argument("--no-write", action="store_true", help="do not write the README")
    args = parser.parse_args()
    figures = OUT / f"figures-{'quick' if args.quick else 'full'}.jsonl"
    failed: list[str] = []
    if not args.render:
        OUT.mkdir(exist_ok=True)
        builds = [b for b in args.builds.split(",") if b]
        only = {name.removesuffix(".py") for name in args.only.split(",") if name}
        chosen = [(build, bench) for build in builds for bench in BENCHES
                  if build in bench.builds and (not only or bench.key in only)]
        rerun = {(bench.key, build) for build, bench in chosen}
        kept = [r for r in load_records(figures) if (r["bench"], r["build"]) not in rerun]
        figures.write_text("".join(json.dumps(r) + "\n" for r in kept))  # the other benches' figures stay
        start = time.perf_counter()
        for build, bench in chosen:
            if not run(bench, build, args.quick, figures):
                failed.append(f"{bench.script} ({build})")
        print(f"\nall benches: {time.perf_counter() - start:.0f} s; failed: {', '.join(failed) or 'none'}")
    records = load_records(figures)
    when = datetime.datetime.fromtimestamp(figures.stat().st_mtime if figures.exists() else time.time(),
                                           datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    generated = blocks(records, args.quick, when)
    if args.quick or args.no_write:
        print(f"\n(not written to {README.relative_to(ROOT)}: {'--quick' if args.quick else '--no-write'})")
        for key, title, block in generated:
            print(f"\n[{key}: {title}]\n{block}")
    else:
        text = README.read_text()
        for key, title, block in generated:
            text = put_block(text, key, block, title)
        README.write_text(text)
        print(f"wrote {len(records)} figures into {README.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
