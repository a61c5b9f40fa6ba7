"""``fightlog import`` of a DiscordChatExporter JSON export: throughput against msgspec alone,
and peak memory flat in the export's size.

    python bench/bench_import.py                          # 100,000 messages; memory 10k vs 1M
    python bench/bench_import.py --messages 20000 --memory 2000 200000 --rounds 3

The export is synthesised once in ``bench/out/`` (``fixtures/discord_exports.py`` writes it
as the exporter's ``JsonMessageWriter`` does): the dockside duel's messages (posts by a user
and a Tupperbox proxy, Avrae's roll replies and attack embeds, the GM) repeated with fresh
ids and times, every roll with its own faces and every post with its own text (the readers
cache nothing across messages that way), about 0.9 KB a message.

* Throughput: one child process decodes the file with ``msgspec.json.decode`` (read whole,
  untyped: "decoding the same JSON with msgspec alone"), another runs ``fightlog import
  discord-json`` on it; each times its own work (no interpreter start-up). Target: the
  import within 3x of the decode.
* Memory: the import of the small and the large export, each in a child process whose peak
  RSS is read with ``os.wait4`` (that child alone). Target: within 1.2x.

Baseline and target run alternately, round by round; the median ratio and its range print.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure, mib, rate  # noqa: E402
from measure import build_measured, interleaved  # noqa: E402
from memory import Run  # noqa: E402

OUT = Path(__file__).resolve().parent / "out"
CAST = Path(__file__).resolve().parents[1] / "fixtures" / "import" / "discord" / "dockside.cast.toml"

DECODE = """
import sys, time, msgspec
t = time.perf_counter()
with open(sys.argv[1], "rb") as f:
    msgspec.json.decode(f.read())
print(time.perf_counter() - t)
"""

IMPORT = """
import sys, time
from fightlog.cli.main import cli
t = time.perf_counter()
try:
    cli(["import", "discord-json", sys.argv[1], "-o", sys.argv[2], "--ruleset", "d20-evasion",
         "--cast", sys.argv[3], "--force"], standalone_mode=False)
finally:
    print(time.perf_counter() - t)
"""


def synthesise(count: int) -> Path:
    """``bench/out/import-COUNT.json``, written once (streamed: never held whole)."""
    from fightlog.fixtures import discord_exports as dx

    path = OUT / f"import-{count}.json"
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    channel = dx.dockside()
    base = channel.posts

    def posts():  # type: ignore[no-untyped-def]
        for n in range(count):
            post = base[n % len(base)]
            lap = n // len(base)
            face, damage = n * 7919 % 20 + 1, n * 104729 % 8 + 1  # every roll's text distinct: no reader cache helps
            content, embeds = post.content, post.embeds
            if post.author is dx.AVRAE and content:
                user = "2001" if "2001" in content else "2002"
                content = dx._avrae(user, f"1d20 ({face}) + 5", face + 5)
            elif embeds:
                embeds = [dx._attack("Mara", "Longsword", f"1d20 ({face}) + 5 = `{face + 5}`",
                                     f"1d8 ({damage}) + 3 = `{damage + 3}`")]
            elif content:
                content = f"{content} ({lap})"
            yield dx.Post(str(1_300_000_000_000_000_000 + n), post.at + timedelta(minutes=10 * lap), post.author,
                          content, embeds, post.attachments, None, post.edited, post.kind, post.reactions)

    temp = path.with_suffix(".tmp")
    with open(temp, "w", encoding="utf-8") as handle:
        for piece in dx.export_json(channel, dx.USERS, posts(), count):
            handle.write(piece)
    temp.rename(path)
    return path


def child(code: str, *args: str) -> tuple[float, int]:
    """Run ``code`` in a child Python: the seconds it printed (its own work, without the
    interpreter's start-up) and its peak RSS (KiB, ``wait4``: that child alone)."""
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout is not None else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({proc.returncode}): {' '.join(args)}")
    return float(out.strip().splitlines()[-1]), usage.ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--memory", type=int, nargs=2, default=(10_000, 1_000_000), metavar=("SMALL", "LARGE"))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    print(f"build: {build_measured()}")
    export = synthesise(args.messages)
    log = OUT / "import-bench.jsonl"
    print(f"export: {export.name}, {export.stat().st_size / 1e6:.0f} MB, {args.messages:,} messages")
    rounds = interleaved({
        "decode": lambda: Run(*child(DECODE, str(export))),
        "import": lambda: Run(*child(IMPORT, str(export), str(log), str(CAST))),
    }, args.rounds)
    figure(
        f"`fightlog import discord-json`, {args.messages:,} messages, against msgspec decoding the export",
        f"`msgspec.json.decode` of the whole file, {rate(args.messages, rounds.median('decode'), 'messages/s')}",
        rate(args.messages, rounds.median("import"), "messages/s"), rounds.ratio("import", "decode"),
        "<= 3", rounds.load, args.rounds,
    )

    small, large = (synthesise(n) for n in args.memory)
    count = max(1, args.rounds // 2)
    memory = interleaved({
        "small": lambda: Run(*child(IMPORT, str(small), str(log), str(CAST))),
        "large": lambda: Run(*child(IMPORT, str(large), str(log), str(CAST))),
    }, count)
    figure(
        f"peak RSS of that import, {args.memory[1]:,} vs {args.memory[0]:,} messages",
        f"the same import of {args.memory[0]:,} messages, {mib(memory.peak('small'))}", mib(memory.peak("large")),
        memory.peak_ratio("large", "small"), "<= 1.2", memory.load, count,
    )
    log.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    t0 = time.perf_counter()
    code = main()
    print(f"({time.perf_counter() - t0:.0f} s)")
    raise SystemExit(code)
