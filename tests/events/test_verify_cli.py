"""``fightlog verify``: output, --head, --repair, --format json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.events.model import RoundStarted
from fightlog.events.store import FileStore


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def head_of(path: Path) -> str:
    last = path.read_bytes().splitlines()[-1]
    return hashlib.sha256(last).hexdigest()


def test_intact_log_prints_its_head(sample_log: Path) -> None:
    code, out, err = run("verify", str(sample_log))
    assert code == 0
    assert out == f"{sample_log}: intact: 64 events; head 64:{head_of(sample_log)}\n"
    assert err == ""


def test_json_format(sample_log: Path) -> None:
    code, out, _ = run("verify", "--format", "json", str(sample_log))
    assert code == 0
    assert json.loads(out) == {
        "path": str(sample_log),
        "ok": True,
        "intact": True,
        "events": 64,
        "head": {"seq": 64, "sha256": head_of(sample_log)},
    }


def test_json_format_names_the_problem(sample_log: Path) -> None:
    lines = sample_log.read_bytes().splitlines(keepends=True)
    sample_log.write_bytes(b"".join(lines[:10] + lines[11:]))
    code, out, _ = run("verify", "--format", "json", str(sample_log))
    assert code == 1
    doc = json.loads(out)
    assert doc["ok"] is False and doc["events"] == 10
    assert doc["problem"] == {"line": 11, "message": "seq 12 follows seq 10: seq 11 missing here (removed or reordered lines?)", "torn": False}


def test_published_head_catches_a_removed_last_line(sample_log: Path) -> None:
    published = f"64:{head_of(sample_log)}"
    assert run("verify", "--head", published, str(sample_log))[0] == 0
    sample_log.write_bytes(b"".join(sample_log.read_bytes().splitlines(keepends=True)[:-1]))
    code, out, _ = run("verify", "--head", published, str(sample_log))
    assert code == 1
    assert out == f"{sample_log}:63: the log ends at seq 63 but seq 64 was published (lines removed from the end?)\n"


def test_published_head_catches_an_edited_last_line(sample_log: Path) -> None:
    published = f"64:{head_of(sample_log)}"
    data = sample_log.read_bytes()
    sample_log.write_bytes(data.replace(b'"reason":"paused', b'"reason":"won by Bob; paused'))
    code, out, _ = run("verify", "--head", published, str(sample_log))
    assert code == 1
    assert out == f"{sample_log}:64: line 64 does not match the published hash (edited since?)\n"


def test_published_head_still_holds_after_more_appends(sample_log: Path) -> None:
    published = f"64:{head_of(sample_log)}"
    FileStore(sample_log).append([RoundStarted(round=4)])
    assert run("verify", "--head", published, str(sample_log))[0] == 0


@pytest.mark.parametrize("bad", ["64", "x:abc", "64:" + "g" * 64, "64:" + "a" * 63])
def test_malformed_head_option_is_a_usage_error(sample_log: Path, bad: str) -> None:
    code, _, err = run("verify", "--head", bad, str(sample_log))
    assert code == 2
    assert "expected SEQ:SHA256" in err


def test_repair_moves_a_torn_line_aside_without_losing_a_byte(sample_log: Path) -> None:
    original = sample_log.read_bytes()
    torn = b'{"kind":"round_started","seq":65,"pr'
    sample_log.write_bytes(original + torn)
    code, out, _ = run("verify", str(sample_log))
    assert code == 1 and "65: the last line is incomplete" in out
    code, out, _ = run("verify", "--repair", str(sample_log))
    side = Path(f"{sample_log}.torn-{len(original)}")
    assert code == 0, out
    assert out.splitlines() == [
        f"{sample_log}:65: repaired: moved {len(torn)} torn bytes to {side}",
        f"{sample_log}: intact: 64 events; head 64:{head_of(sample_log)}",
    ]
    assert sample_log.read_bytes() + side.read_bytes() == original + torn
    FileStore(sample_log).append([RoundStarted(round=4)])  # appends work again
    assert run("verify", str(sample_log))[0] == 0


def test_repair_adds_a_missing_final_newline(sample_log: Path) -> None:
    original = sample_log.read_bytes()
    sample_log.write_bytes(original[:-1])
    code, out, _ = run("verify", "--repair", str(sample_log))
    assert code == 0
    assert out.splitlines()[0] == f"{sample_log}:64: repaired: added the missing newline"
    assert sample_log.read_bytes() == original


def test_repair_adds_the_missing_newline_of_a_one_line_log(sample_log: Path) -> None:
    """A log of its scene_started alone, without its newline (the review: refused as "the
    torn part is the whole log" once a cut first line was no longer moved aside)."""
    first = sample_log.read_bytes().split(b"\n")[0]
    sample_log.write_bytes(first)
    code, out, _ = run("verify", "--repair", str(sample_log))
    assert code == 0 and out.splitlines()[0] == f"{sample_log}:1: repaired: added the missing newline"
    assert sample_log.read_bytes() == first + b"\n"


def test_repair_does_not_touch_other_damage(sample_log: Path) -> None:
    lines = sample_log.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:3] + lines[4:])
    sample_log.write_bytes(damaged)
    code, out, _ = run("verify", "--repair", str(sample_log))
    assert code == 1 and "seq 5 follows seq 3" in out
    assert sample_log.read_bytes() == damaged


@pytest.mark.parametrize(("damage", "exit_code", "says"), [
    (lambda data: data.replace(b"\n", b"\r"), 2, ":1: its lines end in a carriage return alone"),  # no log as it is
    (lambda data: data[: data.index(b"\n") // 2], 1, ":1: the first line is cut off"),  # a damaged log
    (lambda data: b'{"a": 1}', 2, ":1: not a fightlog event: no 'kind' field"),  # as with its newline
    (lambda data: data.split(b"\n")[1], 2, ":1: not a fightlog log: the first event is"),  # a whole event, not first
], ids=["CR line endings", "first line cut", "whole JSON no event", "whole event not first"])
def test_repair_never_moves_the_whole_log_aside(sample_log: Path, damage: Any, exit_code: int, says: str) -> None:
    """A log whose lines end in a bare CR reads as one torn line: `--repair` moved all of it
    to a side file and left an empty log. A first line cannot be torn by a crash (the first
    append is written whole): refused, nothing moved."""
    damaged = damage(sample_log.read_bytes())
    sample_log.write_bytes(damaged)
    for args in (["verify"], ["verify", "--repair"]):
        code, out, err = run(*args, str(sample_log))
        assert code == exit_code and f"{sample_log}{says}" in (err if code == 2 else out)
    assert sample_log.read_bytes() == damaged and not list(sample_log.parent.glob("*.torn-*"))


def test_repair_refuses_to_overwrite_an_existing_side_file(sample_log: Path) -> None:
    original = sample_log.read_bytes()
    sample_log.write_bytes(original + b'{"kind"')
    Path(f"{sample_log}.torn-{len(original)}").write_bytes(b"earlier")
    code, _, err = run("verify", "--repair", str(sample_log))
    assert code == 2 and "exists already" in err
    assert sample_log.read_bytes() == original + b'{"kind"'


@pytest.mark.parametrize("command", [[], ["verify"], ["schema"]])
def test_help_shows_an_example(command: list[str]) -> None:
    code, out, _ = run(*command, "--help")
    assert code == 0
    assert "Example" in out and "fightlog " in out.split("Example", 1)[1]


def test_a_published_head_is_said_checked_and_seq_0_is_no_head(sample_log: Path) -> None:
    """``--head 0:...`` passed ("intact") or accused the log of an edit at line 0; a head
    pasted with spaces around it was refused; a checked head was not said to be."""
    head = f"64:{head_of(sample_log)}"
    code, out, _ = run("verify", str(sample_log), "--head", f" {head} ")
    assert code == 0 and out.endswith(f"; head {head}; line 64 matches the published head\n")
    code, out, _ = run("verify", "--format", "json", str(sample_log), "--head", head)
    assert code == 0 and json.loads(out)["published"] == {"seq": 64, "sha256": head_of(sample_log), "matches": True}
    code, out, err = run("verify", str(sample_log), "--head", "0:" + "0" * 64)
    assert code == 2 and out == "" and "SEQ is a line's seq, 1 or more: got 0" in err


def test_two_lines_swapped_are_not_said_removed(sample_log: Path) -> None:
    """Lines 30 and 31 swapped was "seq 30 missing (removed lines?)", though seq 30 is one line on."""
    lines = sample_log.read_bytes().splitlines(keepends=True)
    lines[29], lines[30] = lines[30], lines[29]
    sample_log.write_bytes(b"".join(lines))
    code, out, _ = run("verify", str(sample_log))
    assert code == 1 and out == f"{sample_log}:30: seq 31 follows seq 29: seq 30 missing here (removed or reordered lines?)\n"
