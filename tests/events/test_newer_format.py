"""A log written by a newer fightlog (``scene_started.format`` beyond ``FORMAT_VERSION``) is
refused by every command that reads a log, at line 1, with exit 2 and one line: the reader
refuses it (``check_lines``), so no command can misread it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.events.model import FORMAT_VERSION, CombatantJoined, SceneStarted
from fightlog.events.reader import read_log
from tests.cli import SAMPLE, assert_one_line_error, run, write_log
from tests.conftest import sample_log_bytes

NEWER = FORMAT_VERSION + 1
MESSAGE = f"written by a newer fightlog (format {NEWER}; this fightlog reads up to {FORMAT_VERSION})"


def newer(path: Path) -> Path:
    """The sample duel as a newer fightlog would write it: format N+1, chained as it should be."""
    from fightlog.events.codec import DECODER

    events = [DECODER.decode(line) for line in sample_log_bytes().splitlines()]
    first = events[0]
    assert isinstance(first, SceneStarted)
    from msgspec.structs import replace

    events[0] = replace(first, format=NEWER)
    return write_log(path, [replace(e, seq=0, prev="") for e in events])


COMMANDS = {
    "verify": ("verify", "{log}"),
    "verify --dice": ("verify", "--dice", "{log}"),
    "state": ("state", "{log}"),
    "replay": ("replay", "{log}"),
    "audit": ("audit", "{log}"),
    "rule": ("rule", "{log}", "void", "11", "--by", "Gemma", "--reason", "test"),
    "dispute": ("dispute", "{log}", "--at", "11", "--void"),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_refuses_a_newer_format(tmp_path: Path, name: str) -> None:
    log = newer(tmp_path / "newer.jsonl")
    before = log.read_bytes()
    result = run(*(a.format(log=log) for a in COMMANDS[name]))
    assert_one_line_error(result, f"{log}:1", MESSAGE)
    assert log.read_bytes() == before


def test_the_reader_refuses_it_and_reads_the_current_format(tmp_path: Path) -> None:
    with pytest.raises(InputError) as raised:
        list(read_log(newer(tmp_path / "newer.jsonl")))
    assert (raised.value.line, raised.value.message) == (1, MESSAGE)
    assert len(list(read_log(SAMPLE))) > 1


def test_a_newer_first_line_this_release_cannot_decode(tmp_path: Path) -> None:
    # A newer writer may change line 1 beyond this release's model: its format still speaks.
    line = {"kind": "scene_started", "seq": 1, "prev": "0" * 64, "scene": "s", "ruleset": "roe7",
            "format": NEWER, "options": ["a newer shape"]}
    path = tmp_path / "newer-shape.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert_one_line_error(run("verify", str(path)), f"{path}:1", MESSAGE)


def test_the_current_format_is_read(tmp_path: Path) -> None:
    log = write_log(tmp_path / "ok.jsonl", [
        SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION),
        CombatantJoined(actor="alice", name="Alice"),
    ])
    assert run("verify", str(log)).exit_code == 0
