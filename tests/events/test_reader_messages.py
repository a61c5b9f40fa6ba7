"""The reader's one-line messages for lines that are not events (found by the no-traceback
property, tests/cli/test_no_traceback.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.events.reader import read_log


def first_line_error(tmp_path: Path, line: object) -> str:
    log = tmp_path / "one.jsonl"
    log.write_text(json.dumps(line) + "\n")
    with pytest.raises(InputError) as caught:
        list(read_log(str(log)))
    return caught.value.message


def test_a_line_that_is_not_an_object(tmp_path: Path) -> None:
    assert first_line_error(tmp_path, 5) == "not a fightlog log (line 1 is not a JSON object)"


def test_a_nested_field_that_is_not_an_object_names_its_path(tmp_path: Path) -> None:
    line = {"kind": "dice_rolled", "seq": 1, "prev": "0" * 64, "roller": "a", "purpose": "x",
            "notation": "1d6", "dice": [3], "total": 3}
    message = first_line_error(tmp_path, line)
    assert message == "invalid event: Expected `object`, got `int` - at `$.dice[0]`", message


@pytest.mark.parametrize("document", ['{\n  "guild": {"id": "1"},\n  "messages": []\n}\n', '[\n  {"kind": "x"}\n]\n'])
def test_a_json_document_over_many_lines_is_named_as_one(tmp_path: Path, document: str) -> None:
    """A DiscordChatExporter export audited by mistake was "not valid JSON (Input data was
    truncated)", of a file that is valid JSON."""
    log = tmp_path / "export.json"
    log.write_text(document)
    with pytest.raises(InputError) as caught:
        list(read_log(str(log)))
    assert (caught.value.line, caught.value.message) == (1, (
        "not a fightlog log (line 1 opens a JSON document spread over many lines; a log holds one event a line; "
        "a DiscordChatExporter export is read by `fightlog import discord-json`)"))


def test_an_engine_roll_index_past_what_a_fight_can_go_on_from(tmp_path: Path) -> None:
    """A tester's index of 2**64 - 1 was read, and `dispute` or `play post` then rolled the
    next index, past the generator's eight bytes: an internal error."""
    line = {"kind": "dice_rolled", "seq": 1, "prev": "0" * 64, "roller": "a", "notation": "1d6",
            "dice": [{"sides": 6, "face": 3}], "total": 3, "index": (1 << 64) - 1}
    assert first_line_error(tmp_path, line) == "invalid event: an engine roll's index (its roll number) is at most 9223372036854775806 - at `$.index`"


@pytest.mark.parametrize("extra", [b',"zz":"\xff"', b',"\xff":1', b',"zz":{"a":["\xc0\x80"]}'])
def test_bytes_that_are_not_utf8_in_a_field_no_event_has(tmp_path: Path, extra: bytes) -> None:
    """A tester's unknown field holding a byte that is not UTF-8 passed every reader ("a line is
    UTF-8", says the README): msgspec skips such a field's bytes unread."""
    from click.testing import CliRunner

    from fightlog.cli.main import cli

    line = {"kind": "scene_started", "seq": 1, "prev": "0" * 64, "scene": "s", "ruleset": "roe7", "format": 1}
    log = tmp_path / "one.jsonl"
    log.write_bytes(json.dumps(line, separators=(",", ":")).encode()[:-1] + extra + b"}\n")
    with pytest.raises(InputError) as caught:
        list(read_log(str(log)))
    assert caught.value.message.startswith("invalid UTF-8 (byte 0x") and caught.value.line == 1
    for command in ("verify", "state", "audit", "replay"):
        result = CliRunner().invoke(cli, [command, str(log)])
        assert result.exit_code in (1, 2) and "invalid UTF-8 (byte 0x" in result.output, (command, result.output)


def test_half_a_surrogate_pair_is_named_not_truncation(tmp_path: Path) -> None:
    """A tester's `"zz":"\\ud800"` was "not valid JSON (Input data was truncated)" of a whole line."""
    log = tmp_path / "one.jsonl"
    log.write_bytes(b'{"kind":"scene_started","seq":1,"prev":"' + b"0" * 64 + b'","zz":"\\ud800"}\n')
    with pytest.raises(InputError) as caught:
        list(read_log(str(log)))
    assert caught.value.message == ("not valid JSON (a \\ud800-\\udbff escape with no \\udc00-\\udfff after it: half "
                                    "a character)")
