"""``batch audit`` and ``sim`` at the edge: bad input is one line and exit 2 (nothing
written), the extra missing is one line naming it, a scheduler that does not answer is one
line within 10 s, standard input lists paths, and the progress line shows on a terminal
only."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fightlog.cli.main import cli
from fightlog.cli.progress import Progress
from tests.cli import assert_one_line_error, assert_usage_error
from tests.conftest import FIXTURES
from tests.scale.conftest import DUEL

ROSTER = FIXTURES / "en51" / "rosters" / "tavern.toml"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_fights_below_one_and_misplaced_options_are_usage_errors() -> None:
    assert_usage_error(run("sim", str(ROSTER), "--fights", "0"), "0 is not in the range 1<=x<=1,000,000,000")
    assert_usage_error(run("sim", str(ROSTER), "--fights", "-3"), "1<=x<=1,000,000,000")
    # past the bound: one line (a count past an index-sized int crashed in the job's split)
    assert_usage_error(run("sim", str(ROSTER), "--fights", "9" * 23), "is not in the range 1<=x<=1,000,000,000")
    assert_usage_error(run("sim", str(ROSTER), "--fights", "3", "--audit-every", "9" * 23), "0<=x<=1,000,000,000")
    assert_usage_error(run("sim", str(ROSTER), "--fights", "3", "--workers", "99999"), "1<=x<=1,024")
    assert_usage_error(run("batch", "audit", str(ROSTER), "-o", "out", "--workers", "0"), "1<=x<=1,024")
    assert_usage_error(run("sim", str(ROSTER)), "give --fights N")
    assert_usage_error(run("sim", str(ROSTER), "--replay", "2", "-o", "x.jsonl"), "needs the run's --seed")
    assert_usage_error(run("sim", str(ROSTER), "--fights", "3", "--scheduler", "tcp://h:1", "--workers", "2"),
                       "not with --scheduler")
    assert_usage_error(run("sim", str(ROSTER), "--fights", "3", "--chart", "x.gif"), "FILE.svg or FILE.png (the chart) or FILE.html")


def test_bad_rosters_and_options_files_are_one_line(tmp_path: Path, example: None) -> None:
    assert_one_line_error(run("sim", str(DUEL), "--fights", "3"), str(DUEL), "has no policy to simulate fights")
    one_side = tmp_path / "one-side.toml"
    one_side.write_text(ROSTER.read_text(encoding="utf-8").replace('side = "smugglers"', 'side = "guards"'),
                        encoding="utf-8")
    assert_one_line_error(run("sim", str(one_side), "--fights", "3"), str(one_side), "a fight needs two sides")
    house = tmp_path / "house.toml"
    house.write_text("no_such_option = 3\n", encoding="utf-8")
    result = run("sim", str(ROSTER), "--fights", "3", "--options", str(house))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "no_such_option" in result.stderr
    out = tmp_path / "f.jsonl"
    assert run("sim", str(tmp_path / "nope.toml"), "--fights", "3").exit_code == 2
    assert not out.exists()


def test_batch_bad_paths_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "findings"
    assert_one_line_error(run("batch", "audit", str(tmp_path / "gone"), "-o", str(out)), str(tmp_path / "gone"),
                          "no such file or directory")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("batch", "audit", str(empty), "-o", str(out))
    assert result.exit_code == 2 and "no logs under these paths" in result.stderr
    assert not out.exists()


def test_without_the_extra_one_line_names_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    for command, args in (("fightlog sim", ["sim", str(ROSTER), "--fights", "3"]),
                          ("fightlog batch audit", ["batch", "audit", str(FIXTURES / "roe7" / "sample-duel.jsonl"),
                                                    "-o", str(tmp_path / "o")])):
        result = run(*args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
        assert result.stderr == (f"fightlog: {command} runs on Dask, which needs fightlog's scale extra (distributed "
                                 "is not installed): python -m pip install '.[scale]' in its checkout\n")
    assert not (tmp_path / "o").exists()


def test_a_scheduler_that_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import fightlog.scale.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    result = run("sim", str(ROSTER), "--fights", "3", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - started < 10
    assert_one_line_error(result, f"tcp://127.0.0.1:{port}", "the scheduler does not answer")


def test_paths_on_standard_input(tmp_path: Path) -> None:
    from fightlog.scale.jobs import Serial

    class Here:  # this process stands in for the cluster: what is read from stdin is the point
        def __init__(self, scheduler: object, workers: object) -> None: ...
        def __enter__(self) -> Serial: return Serial()
        def __exit__(self, *exc: object) -> None: ...

    import fightlog.scale.cluster as cluster

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cluster, "client", Here)
        listed = "\n".join(str(FIXTURES / "roe7" / n) for n in ("sample-duel.jsonl", "disputed-duel.jsonl")) + "\n"
        result = run("batch", "audit", "-", "-o", str(tmp_path / "o"), stdin=listed)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("2 logs: 2 clean; audited 2") and result.stderr == ""
    # the disputed duel's two findings a GM ruling accepted are counted apart, as audit counts
    # them, and left out of the top codes
    assert lines[1] == "findings: 0 errors, 0 warnings, 5 info, 2 accepted by ruling"
    assert lines[2:] == ["top finding codes (those a ruling accepted left out):", "         5  dice.unverifiable"]


def test_progress_shows_on_a_terminal_only() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown, piped = Tty(), io.StringIO()
    for stream in (shown, piped):
        progress = Progress("fights", stream)
        for done in range(1, 5):
            progress(done, 4)
        progress.close()
    assert piped.getvalue() == ""
    assert "4/4 tasks" in shown.getvalue() and "s left" in shown.getvalue() and shown.getvalue().endswith("\n")


def test_a_chart_replaces_nothing_unasked_and_no_device(tmp_path: Path) -> None:
    """``--chart index.html`` wrote over a page of the user's, exit 0; ``-o`` onto a device
    or a pipe (empty to read) replaced it with a file (as root, /dev/null)."""
    import os

    from tests.cli import assert_one_line_error, assert_usage_error, run

    mine = tmp_path / "index.html"
    mine.write_text("<html>my sim homepage</html>")
    source = str(FIXTURES / "roe7" / "scenarios" / "alley-duel.toml")
    args = ("sim", source, "--fights", "2", "--seed", "7", "--workers", "1")
    assert_one_line_error(run(*args, "--chart", str(mine)), str(mine), "exists and is not empty (--force replaces it)")
    assert_one_line_error(run(*args, "--chart", str(mine), "--force"), str(mine),
                          "is not a chart of that kind: --force replaces only such a chart")
    assert mine.read_text() == "<html>my sim homepage</html>"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_one_line_error(run("run", source, "-o", str(fifo)), str(fifo), "is not a regular file (a device or a pipe)")
    assert_one_line_error(run(*args[:2], "--seed", "7", "--replay", "1", "-o", str(fifo)), str(fifo),
                          "is not a regular file")
    assert fifo.is_fifo()
    assert_usage_error(run(*args, "--replay", "1", "-o", str(tmp_path / "r.jsonl"), "--chart", str(tmp_path / "c.svg")),
                       "--chart: for a run of fights")


def test_a_chart_written_is_said(tmp_path: Path) -> None:
    """Every command that writes a file says so; `sim --chart` said nothing (a new user)."""
    from tests.cli import run

    chart = tmp_path / "runs.svg"
    source = str(FIXTURES / "roe7" / "scenarios" / "alley-duel.toml")
    result = run("sim", source, "--fights", "2", "--seed", "7", "--workers", "1", "--chart", str(chart))
    assert result.exit_code in (0, 1), result.output
    assert result.stdout.splitlines()[-1] == f"wrote {chart}: the chart" and chart.read_text().startswith("<svg")


@pytest.mark.parametrize(("policy", "said"), [
    ("tests.scale.failing_policy", "policy 'tests.scale.failing_policy' failed: RuntimeError: policy exploded"),
    ("tests.scale.failing_policy:GARBAGE", "policy 'tests.scale.failing_policy:GARBAGE' gave str 'not a post', not a "
                                           "fightlog.kit.table.Post"),
])
def test_a_users_policy_that_fails_is_one_line_naming_it_and_the_fight(tmp_path: Path, policy: str, said: str) -> None:
    """docs/scale.md invites one's own policy: one that raised, or answered with what is not
    a post, was ``internal error`` and exit 3, blaming fightlog (a tester)."""
    scenario = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"
    replayed = run("sim", str(scenario), "--seed", "1", "--replay", "3", "-o", str(tmp_path / "f.jsonl"),
                   "--policy", policy)
    assert replayed.exit_code == 2 and replayed.stderr == f"fightlog: fight 3: {said}\n", replayed.output
    assert not (tmp_path / "f.jsonl").exists()
