"""Hostile structure: lines nested 100,000 deep, values nested past ``MAX_DEPTH``, integers
past every bound. Each is a one-line error naming the file and line, never a crash, and the
depth limit is the same whichever reader reads the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from fightlog.audit.reading import checked
from fightlog.cli.main import cli
from fightlog.errors import InputError, LogDamagedError
from fightlog.events.depth import NESTED_KINDS, too_deep, value_depth
from fightlog.events.integrity import verify_log
from fightlog.events.limits import MAX_DEPTH
from fightlog.events.model import EVENT_TYPES
from fightlog.events.paths import parse_assignment
from fightlog.events.reader import read_log
from tests.conftest import FIXTURES
from tests.reliability.mutations import rechained

GOOD = (FIXTURES / "roe7" / "sample-duel.jsonl").read_bytes()
LINES = GOOD.splitlines()


def nested(depth: int) -> bytes:
    """A JSON value nested ``depth`` levels deep (``[]`` is 1)."""
    return b"[" * depth + b"]" * depth


def with_sheet_value(value: bytes) -> bytes:
    """The sample duel with ``value`` in alice's sheet, every later line re-chained."""
    return rechained([LINES[0], LINES[1].replace(b'"sheet":{', b'"sheet":{"v":' + value + b",", 1), *LINES[2:]])


def test_nested_kinds_are_the_kinds_with_free_form_values() -> None:
    """A kind whose fields hold any JSON value can decode a deep line: it must be measured."""
    free = set()
    for kind in EVENT_TYPES:
        for f in msgspec.inspect.type_info(kind).fields:  # type: ignore[attr-defined]
            shown = repr(f.type)
            if "AnyType" in shown:
                free.add(kind)
    assert free == set(NESTED_KINDS)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 3, MAX_DEPTH - 2])
def test_a_sheet_at_the_limit_is_read(depth: int, tmp_path: Path) -> None:
    # the line object (1), the sheet (2), then ``depth`` levels: at most MAX_DEPTH in all
    log = tmp_path / "ok.jsonl"
    log.write_bytes(with_sheet_value(nested(depth)))
    assert len(list(read_log(log))) == len(LINES)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, 500, 100_000])
def test_a_sheet_past_the_limit_is_refused_by_every_reader(depth: int, tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_bytes(with_sheet_value(nested(depth)))
    with pytest.raises(LogDamagedError, match=f"nested deeper than {MAX_DEPTH} levels") as raised:
        list(read_log(log))
    assert raised.value.line == 2
    with pytest.raises(LogDamagedError) as by_audit, log.open("rb") as stream:
        list(checked(stream, str(log), None))
    assert str(by_audit.value) == str(raised.value)
    for workers in (1, 2):
        result = verify_log(log, workers=workers, parallel_min_bytes=1)
        assert result.problem is not None and str(result.problem) == str(raised.value)


@pytest.mark.parametrize("line", [1, 5, 64])
def test_a_line_of_100000_brackets_is_a_bad_line_not_a_crash(line: int, tmp_path: Path) -> None:
    lines = list(LINES)
    lines[line - 1] = b'{"kind":"dice_rolled","seq":%d,"x":' % line + nested(100_000) + b"}"
    log = tmp_path / "deep.jsonl"
    log.write_bytes(b"".join(x + b"\n" for x in lines))
    expected = InputError if line == 1 else LogDamagedError
    with pytest.raises(expected, match="nested deeper") as raised:
        list(read_log(log))
    assert raised.value.line == line
    if line > 1:  # verify: a finding, exit 1; the others: exit 2
        assert CliRunner().invoke(cli, ["verify", str(log)]).exit_code == 1
    for command in ("state", "replay", "audit"):
        result = CliRunner().invoke(cli, [command, str(log)])
        assert result.exit_code == 2, result.output
        assert result.stderr == f"fightlog: {log}:{line}: nested deeper than {MAX_DEPTH} levels: not a fightlog event\n"


def test_a_torn_deep_last_line_is_torn(tmp_path: Path) -> None:
    log = tmp_path / "torn.jsonl"
    log.write_bytes(GOOD + b'{"kind":"x","a":' + b"[" * 100_000)
    result = verify_log(log)
    assert result.problem is not None and "incomplete" in result.problem.message


@given(st.recursive(st.none() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=30))
def test_too_deep_agrees_with_the_depth_of_the_value(value: Any) -> None:
    line = msgspec.json.encode({"kind": "x", "v": value})
    depth = 1 + value_depth(value)
    for limit in (depth - 1, depth):
        assert too_deep(line, limit) is (depth > limit), (line, limit)


def test_brackets_in_strings_do_not_count() -> None:
    assert not too_deep(b'{"a":"' + b"[" * 1000 + b'"}')
    assert not too_deep(b'{"a":"\\"' + b"[" * 1000 + b'"}')


@pytest.mark.parametrize(("text", "says"), [
    ("total=" + "[" * 100_000 + "]" * 100_000, "total: VALUE nests deeper than 62 levels (a log line nests at most 64)"),
    ("total=" + "[" * 63 + "]" * 63, "total: VALUE nests deeper than 62 levels (a log line nests at most 64)"),
    ("a" + ".b" * 70 + "=1", "PATH is 71 steps deep (a log line nests at most 64, so a PATH at most 63 steps)"),
])
def test_set_values_past_the_limit_are_refused(text: str, says: str) -> None:
    """The limit left for the VALUE, whatever its depth (a decoder's recursion limit hit
    said 0); a PATH too deep named as the PATH, not the VALUE."""
    with pytest.raises(InputError) as raised:
        parse_assignment(text)
    assert str(raised.value).endswith(says)


def test_set_values_within_the_limit_are_read() -> None:
    assert parse_assignment("total=" + "[" * 62 + "]" * 62)[0] == ("total",)


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "1d20", "--index", "18446744073709551616"],
        ["roll", "1d20", "--index", "-1"],
        ["state", "LOG", "--at", "18446744073709551616"],
        ["replay", "LOG", "--from", "9223372036854775808"],
        ["dispute", "LOG", "--at", "9223372036854775808", "--void"],
        ["rule", "LOG", "void", "9223372036854775808", "--reason", "r"],
    ],
)
def test_integer_options_are_bounded(argv: list[str], tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(GOOD)
    result = CliRunner().invoke(cli, [str(log) if a == "LOG" else a for a in argv])
    assert result.exit_code == 2
    assert "is not in the range" in result.stderr and result.stderr.count("\n") == 1
    assert log.read_bytes() == GOOD


def test_the_largest_roll_index_rolls() -> None:
    result = CliRunner().invoke(cli, ["roll", "1d20", "--seed", "1", "--index", str(2**64 - 1)])
    assert result.exit_code == 0, result.output


def test_a_deep_unknown_field_is_skipped_in_a_plain_kind(tmp_path: Path) -> None:
    """The documented limit: fields a newer writer added are skipped, not measured (unless
    too deep for the decoder, above)."""
    lines = list(LINES)
    lines[3] = lines[3][:-1] + b',"future":' + nested(100) + b"}"
    log = tmp_path / "future.jsonl"
    log.write_bytes(rechained(lines))
    assert len(list(read_log(log))) == len(LINES)
