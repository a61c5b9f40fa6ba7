"""The bench harness measures what it says: peak memory of the command alone, baseline and
target interleaved, and the README's generated tables in a fixed shape (no timing here)."""

from __future__ import annotations

import resource
import sys
from pathlib import Path

import pytest

import memory
import tables
from measure import Spread, interleaved

MIB = 1024


@pytest.fixture(params=["time", "python"])
def launcher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both launchers: ``/usr/bin/time`` when present, and the ``python -S`` fallback."""
    if request.param == "time" and not Path(memory.TIME).exists():
        pytest.skip(f"no {memory.TIME}")
    if request.param == "python":
        monkeypatch.setattr(memory, "TIME", "/nonexistent/time")
    return str(request.param)


def test_a_small_command_measures_small_after_the_bench_grew(launcher: str) -> None:
    ballast = b"x" * (200 * 1024 * 1024)  # written, so resident
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >= 200 * 1024 * MIB // 1024
    peak = memory.run_command(["/bin/true"]).peak_kib
    assert peak < 40 * MIB, f"{launcher}: /bin/true read as {peak} KiB"
    del ballast


def test_a_commands_own_memory_and_its_childrens_are_counted(launcher: str) -> None:
    grow = "b = b'x' * (100 * 1024 * 1024)"
    assert memory.run_command([sys.executable, "-c", grow]).peak_kib >= 100 * MIB
    in_child = f"import os\npid = os.fork()\nif pid == 0:\n    {grow}\n    os._exit(0)\nos.waitpid(pid, 0)"
    assert memory.run_command([sys.executable, "-c", in_child]).peak_kib >= 100 * MIB


def test_a_failing_command_stops_the_bench(launcher: str) -> None:
    with pytest.raises(SystemExit, match="exit 3"):
        memory.run_command([sys.executable, "-c", "import sys; sys.exit(3)"])
    assert memory.run_command([sys.executable, "-c", "import sys; sys.exit(1)"], ok=(1,)).peak_kib > 0


def test_rounds_interleave_in_alternating_order() -> None:
    calls: list[str] = []
    rounds = interleaved({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, 4)
    assert calls == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert len(rounds.seconds["a"]) == len(rounds.seconds["b"]) == 4
    rounds.seconds.update(a=[1.0, 2.0, 3.0, 4.0], b=[2.0, 2.0, 2.0, 2.0])
    assert rounds.ratio("b", "a") == Spread(pytest.approx(5 / 6), 0.5, 2.0)  # median of 2, 1, 2/3, 1/2


def _figure(**changes: object) -> dict[str, object]:
    record: dict[str, object] = {
        "bench": "bench_log", "name": "`verify_log` throughput, 1M events", "baseline": "bare decoding, 2.21M lines/s",
        "measured": "1.43M lines/s", "median": 0.647, "low": 0.6, "high": 0.661, "op": ">=", "target": 0.5,
        "loadavg": 0.4, "others": 0.031, "build": "pure", "where": "pure Python, from /x", "rounds": 5,
        "unit": "x", "kind": "figure",
    }
    record.update(changes)
    return record


def test_figures_table_shape() -> None:
    text = tables.render_figures(
        [_figure(), _figure(name="other", op="", median=1.0), _figure(build="compiled", median=0.42)], "CAPTION"
    )
    lines = text.splitlines()
    assert lines[0] == "CAPTION"
    assert lines[2] == (
        "| figure | build | baseline, same rounds | measured | median (range), rounds | target | "
        "load (1-min avg, others' CPU) |"
    )
    assert lines[4] == (
        "| `verify_log` throughput, 1M events | pure | bare decoding, 2.21M lines/s | 1.43M lines/s | "
        "**0.65x** (0.60 - 0.66), 5 | >= 0.5x met | 0.40, others 3% |"
    )
    assert "| >= 0.5x **MISSED** |" in lines[5] and "| compiled |" in lines[5]  # beside its pure row
    assert lines[6].startswith("| other | pure |") and "| - |" in lines[6]


def test_cost_table_shape() -> None:
    costs = [
        {"command": c, "events": n, "median": m, "low": m - 0.1, "high": m + 0.1, "build": b,
         "loadavg": 0.5, "others": 0.02, "kind": "cost"}
        for b in ("pure", "compiled") for c, base in (("verify", 1.0), ("replay", 3.0))
        for n, m in ((10_000, base), (1_000_000, base * 1.1))
    ]
    lines = tables.render_costs(costs, "CAP").splitlines()
    assert lines[2] == (
        "| command | pure, 10k | pure, 1M | pure, 1M / 10k | compiled, 10k | compiled, 1M | compiled, 1M / 10k |"
    )
    assert lines[4] == (
        "| `verify` | 1.00 (0.90 - 1.10) | 1.10 (1.00 - 1.20) | 1.10x | 1.00 (0.90 - 1.10) | 1.10 (1.00 - 1.20) | 1.10x |"
    )
    assert lines[-1] == "Load during the rounds (1-min avg, others' CPU): 0.50, others 2%."


def test_generated_blocks_replace_only_between_their_markers() -> None:
    readme = f"# Benchmarks\n\nprose\n\n{tables.begin('bench_log')}\nold table\n{tables.end('bench_log')}\n\nmore prose\n"
    once = tables.put_block(readme, "bench_log", "new table", "Log")
    assert once == readme.replace("old table", "new table")
    assert tables.put_block(once, "bench_log", "new table", "Log") == once
    added = tables.put_block(once, "cost", "costs", "Cost per event")
    assert added.startswith(once.rstrip()) and added.endswith(
        f"## Cost per event\n\n{tables.begin('cost')}\ncosts\n{tables.end('cost')}\n"
    )
