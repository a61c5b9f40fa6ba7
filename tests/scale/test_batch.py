"""The batch audit without Dask (``jobs.Serial``): a row per log and per finding, a log that
cannot be read is one row with its reason, paths walked and globbed, the Parquet output
readable as it is (DuckDB), and a second run audits only what changed."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest

from fightlog.errors import InputError
from fightlog.scale.batch import audit_one, find_logs, head_of
from fightlog.scale.jobs import Serial, batch_audit
from tests.cli import damaged_log
from tests.conftest import FIXTURES, sample_log_bytes

CLEAN = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"
FLAWED = FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl"
OTHER_RULESET = FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl"


def test_a_clean_log_and_a_flawed_one() -> None:
    row, findings = audit_one(str(CLEAN))
    assert (row.verdict, row.chain, row.ruleset, row.error) == ("clean", "intact", "roe7", "")
    assert row.head.startswith(f"{row.events}:") and findings == []
    row, findings = audit_one(str(FLAWED))
    assert row.verdict == "findings" and row.errors == sum(f.severity == "error" for f in findings) > 0
    assert {f.log for f in findings} == {str(FLAWED)} and all(f.head == row.head for f in findings)
    assert "order.out-of-turn" in {f.code for f in findings}


def test_what_cannot_be_audited_is_one_row_with_its_reason(tmp_path: Path) -> None:
    text = tmp_path / "notes.jsonl"
    text.write_text("hello\n", encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    damaged = damaged_log(tmp_path / "damaged.jsonl")
    newer = tmp_path / "newer.jsonl"  # an archive may mix format versions: a newer one is refused, alone
    newer.write_bytes(sample_log_bytes().replace(b'"format":1,', b'"format":99,', 1))
    cases = {text: ("unusable", "line 1: not a fightlog log"), empty: ("unusable", "empty file"),
             newer: ("unusable", "line 1: written by a newer"),
             damaged: ("damaged", "line 17:"), tmp_path / "gone.jsonl": ("unusable", "no such file")}
    for path, (verdict, reason) in cases.items():
        row, findings = audit_one(str(path))
        assert row.verdict == verdict and reason in row.error and "\n" not in row.error, row
        assert findings == []


def test_the_summary_says_what_its_top_lists_leave_out(tmp_path: Path) -> None:
    """The top ten codes of the bundled flawed fights added up to 10 of 23 errors, and
    nothing said that 13 codes were left out (a new user)."""
    from fightlog.cli.batch import summary_lines

    logs = find_logs([str(FIXTURES / "roe7" / "audit")])
    summary = batch_audit(Serial(), logs, str(tmp_path / "out"))
    findings = duckdb.sql(f"SELECT code FROM '{tmp_path / 'out'}/findings.parquet' WHERE NOT accepted").fetchall()
    codes = {code for (code,) in findings}
    assert summary["more_codes"]["names"] == len(codes) - 10 > 0
    assert summary["more_codes"]["count"] + sum(r["count"] for r in summary["top_codes"]) == len(findings)
    more = summary["more_codes"]
    assert (f"  {more['count']:>8}  more findings of {more['names']} other codes (all in "
            f"{tmp_path / 'out' / 'findings.parquet'})") in summary_lines(str(tmp_path / "out"), summary)
    said = summary_lines(str(tmp_path / "out") + "/", summary)  # `-o out/`: no doubled slash (a new user)
    assert not any("//findings.parquet" in line for line in said)


def test_paths_walked_globbed_and_missing(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/one.jsonl", "a/b/two.jsonl", "a/b/notes.txt", "three.jsonl"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    found = find_logs([str(tmp_path / "a"), str(tmp_path / "*.jsonl"), str(tmp_path / "a" / "b" / "notes.txt")])
    assert found == sorted(str(tmp_path / n) for n in ("a/one.jsonl", "a/b/two.jsonl", "a/b/notes.txt", "three.jsonl"))
    assert find_logs([str(tmp_path / "**" / "two.jsonl")]) == [str(tmp_path / "a" / "b" / "two.jsonl")]
    with pytest.raises(InputError, match="no such file or directory"):
        find_logs([str(tmp_path / "nope")])
    with pytest.raises(InputError, match="no file matches"):
        find_logs([str(tmp_path / "*.nothing")])


def test_the_output_is_queryable_and_a_second_run_is_incremental(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    for source in (CLEAN, FLAWED, OTHER_RULESET):
        shutil.copy(source, archive / source.name)
    (archive / "broken.jsonl").write_text("{}\n", encoding="utf-8")
    out = tmp_path / "findings"
    logs = find_logs([str(archive)])
    summary = batch_audit(Serial(), logs, str(out))
    assert summary["logs"] == 4 and summary["audited"] == 4 and summary["unchanged"] == 0
    assert summary["verdicts"] == {"clean": 2, "findings": 1, "unusable": 1}
    assert [u["log"] for u in summary["unreadable"]] == [str(archive / "broken.jsonl")]
    table = pq.read_table(out / "logs.parquet")
    assert sorted(table.column("log").to_pylist()) == logs
    assert set(table.column("ruleset").to_pylist()) == {"roe7", "en51", ""}
    by_code = duckdb.sql(
        f"SELECT code, count(*) AS n FROM '{out}/findings.parquet' GROUP BY code ORDER BY n DESC, code"
    ).fetchall()
    assert sum(n for _, n in by_code) == sum(r["count"] for r in summary["top_codes"])  # none accepted here
    assert summary["more_codes"] == {"names": 0, "count": 0}
    by_severity = dict(duckdb.sql(
        f"SELECT severity, count(*) FROM '{out}/findings.parquet' WHERE NOT accepted GROUP BY severity").fetchall())
    assert {k: v for k, v in summary["findings"].items() if v} == by_severity and by_severity["error"] > 0
    before = pq.read_table(out / "findings.parquet")

    again = batch_audit(Serial(), logs, str(out))
    assert again["audited"] == 0 and again["unchanged"] == 4
    assert again["top_codes"] == summary["top_codes"] and again["verdicts"] == summary["verdicts"]
    assert pq.read_table(out / "findings.parquet").equals(before) and before.num_rows > 0

    shutil.copy(FLAWED, archive / "grown.jsonl")
    with (archive / "alley-duel.jsonl").open("ab") as handle:
        handle.write(b"{}\n")  # an edit at the end: the last line changed, so audited again
    grown = batch_audit(Serial(), find_logs([str(archive)]), str(out))
    assert grown["audited"] == 2 and grown["unchanged"] == 3 and grown["logs"] == 5
    assert grown["verdicts"] == {"clean": 1, "damaged": 1, "findings": 2, "unusable": 1}
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["logs"][str(archive / "grown.jsonl")] == head_of(str(archive / "grown.jsonl"))
    assert not [p for p in out.iterdir() if p.name.startswith(".batch-")]


class _Finishing(Serial):
    """Tasks finishing in the reverse of their order, as a cluster's may."""

    def map(self, function: Any, arguments: Any, done: Any = None, shared: tuple[Any, ...] = ()) -> Iterator[Any]:
        yield from reversed([function(*shared, *args) for args in arguments])


def test_the_tables_are_the_same_whatever_order_the_tasks_finish_in(tmp_path: Path) -> None:
    """docs/scale.md: the same results bit for bit on one worker or a cluster. The rows went
    in as tasks finished: every run's files differed (a tester)."""
    logs = [str(CLEAN), str(FLAWED), str(OTHER_RULESET), str(FIXTURES / "roe7" / "disputed-duel.jsonl")]
    batch_audit(Serial(), logs, str(tmp_path / "a"), full=True)
    batch_audit(_Finishing(), logs, str(tmp_path / "b"), full=True)
    for name in ("logs.parquet", "findings.parquet", "manifest.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert pq.read_table(tmp_path / "b" / "logs.parquet").column("log").to_pylist() == logs


def test_an_interrupted_run_leaves_the_previous_output(tmp_path: Path) -> None:
    out = tmp_path / "findings"
    batch_audit(Serial(), [str(CLEAN)], str(out))
    first = {p.name: p.read_bytes() for p in out.iterdir()}

    class Failing(Serial):
        def map(self, function, arguments, done=None):  # type: ignore[no-untyped-def]
            raise KeyboardInterrupt
            yield

    with pytest.raises(KeyboardInterrupt):
        batch_audit(Failing(), [str(CLEAN), str(FLAWED)], str(out), full=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first


def test_a_fifo_under_an_archive_is_a_row_not_a_wait(tmp_path: Path) -> None:
    """A FIFO named `*.jsonl` under an archive hung the whole batch (its key read its tail)."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert head_of(str(fifo)) == ""
    row, findings = audit_one(str(fifo))
    assert (row.verdict, row.error, findings) == ("unusable", "not a regular file (a FIFO, a device or a socket): "
                                                  "not read", [])


def test_one_file_spelled_several_ways_is_found_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`archive/x`, `archive//x` and `../here/archive/x` audited one log three times."""
    (tmp_path / "archive").mkdir()
    (tmp_path / "archive" / "one.jsonl").write_text("x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = find_logs(["archive", "archive//", f"../{tmp_path.name}/archive", "./archive/one.jsonl",
                       str(tmp_path / "archive" / "*.jsonl")])
    assert found == ["archive/one.jsonl"]


def test_a_ruleset_not_installed_is_named_by_its_id_in_both_tables(tmp_path: Path) -> None:
    """The `ruleset` column held the audit's sentence ("no ruleset ('homebrew' is not
    installed: ...)"), which a GROUP BY ruleset showed as a ruleset."""
    from fightlog.events.model import FORMAT_VERSION, RoundStarted, SceneStarted
    from fightlog.events.store import FileStore

    log = tmp_path / "home.jsonl"
    FileStore(str(log), fsync=False).append([SceneStarted(scene="h", ruleset="homebrew", format=FORMAT_VERSION),
                                            RoundStarted(round=1)])
    row, findings = audit_one(str(log))
    assert row.ruleset == "homebrew" and findings and {f.ruleset for f in findings} == {"homebrew"}
