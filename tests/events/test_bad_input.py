"""Every kind of bad input the issue lists: one line naming file and line, a documented exit
code, never a traceback. Checked at the reader (exception type and line) and through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.errors import InputError, LogDamagedError, TornTailError
from fightlog.events.reader import read_log
from tests.conftest import sample_log_bytes

LINES = sample_log_bytes().splitlines(keepends=True)


def with_line(n: int, new: bytes) -> bytes:
    """The sample log with line ``n`` (1-based) replaced."""
    out = list(LINES)
    out[n - 1] = new
    return b"".join(out)


def edit_line(n: int, edit: Callable[[dict[str, object]], None]) -> bytes:
    obj = json.loads(LINES[n - 1])
    edit(obj)
    return with_line(n, json.dumps(obj, separators=(",", ":")).encode() + b"\n")


def drop(obj: dict[str, object], key: str) -> None:
    del obj[key]


@dataclass
class Case:
    name: str
    data: Callable[[], bytes]
    exit_code: int
    line: int | None
    message: str
    error: type[Exception]


CASES = [
    Case("empty file", lambda: b"", 2, None, "empty file", InputError),
    Case("binary garbage", lambda: bytes(range(256)) * 4, 2, 1, "not a fightlog log", InputError),
    Case("binary garbage with newlines", lambda: b"\x00\x01\n\xff\xfe\n", 2, 1, "not a fightlog log", InputError),
    Case("utf-8 BOM", lambda: b"\xef\xbb\xbf" + sample_log_bytes(), 2, 1, "byte-order mark", InputError),
    Case("JSON but not an object", lambda: with_line(5, b"[1, 2, 3]\n"), 1, 5, "a JSON array, not an object", LogDamagedError),
    Case("JSON string", lambda: with_line(5, b'"hello"\n'), 1, 5, "a JSON str, not an object", LogDamagedError),
    Case("first line is an array", lambda: b"[1]\n", 2, 1, "not a fightlog log", InputError),
    Case("unknown kind", lambda: edit_line(5, lambda o: o.update(kind="teleported")), 1, 5, "unknown kind 'teleported'", LogDamagedError),
    Case("kind twice", lambda: with_line(5, LINES[4].replace(b',"seq":', b',"kind":"round_started","seq":', 1)), 1, 5,
         "'kind' given twice, the second time as 'round_started'", LogDamagedError),  # was "unknown kind 'round_started'"
    Case("no kind", lambda: edit_line(5, lambda o: drop(o, "kind")), 1, 5, "no 'kind' field", LogDamagedError),
    Case("wrong field type", lambda: edit_line(5, lambda o: o.update(score="high")), 1, 5, "Expected `int`, got `str` - at `$.score`", LogDamagedError),
    Case("missing field", lambda: edit_line(5, lambda o: drop(o, "actor")), 1, 5, "missing required field `actor`", LogDamagedError),
    Case("missing seq", lambda: edit_line(5, lambda o: drop(o, "seq")), 1, 5, "seq is missing", LogDamagedError),
    Case("seq gap", lambda: b"".join(LINES[:4] + LINES[6:]), 1, 5, "seq 7 follows seq 4: seq 5..6 missing", LogDamagedError),
    Case("duplicate seq", lambda: b"".join(LINES[:5] + LINES[4:]), 1, 6, "seq 5 repeats", LogDamagedError),
    Case("swapped lines", lambda: b"".join(LINES[:4] + [LINES[5], LINES[4]] + LINES[6:]), 1, 5, "seq 6 follows seq 4", LogDamagedError),
    Case("prev mismatch", lambda: edit_line(4, lambda o: o.update(total=99)), 1, 5, "prev does not match line 4 (edited, removed or reordered?)", LogDamagedError),
    Case("a 10 MB line", lambda: with_line(5, b'{"kind":"round_started","x":"' + b"a" * 10_000_000 + b'"}\n'), 1, 5, "longer than 1048576 bytes", LogDamagedError),
    Case("invalid UTF-8", lambda: with_line(5, LINES[4].replace(b"alice", b"al\xffce")), 1, 5, "invalid UTF-8 (byte 0xff)", LogDamagedError),
    Case("empty line", lambda: with_line(5, b"\n"), 1, 5, "empty line", LogDamagedError),
    Case("torn last line", lambda: sample_log_bytes()[:-40], 1, 64, "last line is incomplete", TornTailError),
    Case("missing final newline", lambda: sample_log_bytes()[:-1], 1, 64, "last line has no newline", TornTailError),
    Case("two logs joined", lambda: sample_log_bytes() + LINES[0], 1, 65, "second 'scene_started'", LogDamagedError),
    Case("first event not scene_started", lambda: b"".join(LINES[1:]), 2, 1, "expected 'scene_started'", InputError),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reader_raises_one_clean_error(case: Case, tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    path.write_bytes(case.data())
    with pytest.raises(case.error) as info:
        for _ in read_log(path):
            pass
    assert type(info.value) is case.error
    assert info.value.line == case.line
    assert case.message in str(info.value)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verify_reports_one_line_and_the_documented_exit_code(case: Case, tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    path.write_bytes(case.data())
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == case.exit_code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    out = result.stdout if case.exit_code == 1 else result.stderr
    assert out.count("\n") == 1, out
    where = f"{path}:{case.line}: " if case.line else f"{path}: "
    assert where in out
    assert case.message in out
    assert "Traceback" not in result.output


def test_crlf_line_endings_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(sample_log_bytes().replace(b"\n", b"\r\n"))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "intact: 64 events" in result.stdout


@pytest.mark.parametrize("target", ["missing", "directory"])
def test_unusable_paths_exit_2(target: str, tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl" if target == "missing" else tmp_path
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 2
    expected = "no such file" if target == "missing" else "is a directory, not a log file"
    assert result.stderr == f"fightlog: {path}: {expected}\n"
