"""The event model: every kind round-trips, the docs' example lines are real, the schema is
complete."""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.events.codec import decode_line, encode_line
from fightlog.events.model import EVENT_TYPES, KINDS, Event
from fightlog.fixtures import sample_duel
from tests.conftest import REPO

DOC = (REPO / "docs" / "events.md").read_text(encoding="utf-8")
DOC_LINES = [line for line in DOC.splitlines() if line.startswith('{"kind"')]


def test_every_kind_is_in_the_union_once() -> None:
    assert len(KINDS) == len(EVENT_TYPES) == 23
    assert all(issubclass(t, Event) for t in EVENT_TYPES)
    assert all(t.__struct_config__.frozen for t in EVENT_TYPES)


@pytest.mark.parametrize("line", DOC_LINES, ids=[json.loads(x)["kind"] + str(json.loads(x)["seq"]) for x in DOC_LINES])
def test_doc_example_lines_round_trip_byte_for_byte(line: str) -> None:
    event = decode_line(line.encode())
    assert encode_line(event) == line.encode()


def test_docs_show_every_kind() -> None:
    shown = {json.loads(line)["kind"] for line in DOC_LINES}
    assert shown == set(KINDS)
    for kind in KINDS:
        assert f"### `{kind}`" in DOC


def test_sample_events_round_trip() -> None:
    for event in sample_duel.events():
        assert decode_line(encode_line(event)) == event


def test_events_are_immutable() -> None:
    event = sample_duel.events()[0]
    with pytest.raises(AttributeError):
        event.seq = 5  # type: ignore[misc]


def test_unknown_fields_are_ignored_for_forward_compatibility() -> None:
    line = b'{"kind":"round_started","seq":2,"prev":"' + b"a" * 64 + b'","round":1,"added_in_v2":true}'
    assert decode_line(line).seq == 2


def test_format_version_is_required_on_scene_started() -> None:
    with pytest.raises(msgspec.ValidationError, match="format"):
        decode_line(b'{"kind":"scene_started","seq":1,"scene":"s","ruleset":"roe7"}')


def test_no_floats_where_integers_are_meant() -> None:
    with pytest.raises(msgspec.ValidationError, match="Expected `int`, got `float`"):
        decode_line(b'{"kind":"damage_applied","seq":3,"target":"bob","raw":10.5,"taken":10}')


def test_schema_command_prints_every_kind_with_seq_and_prev_required() -> None:
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    kinds = set()
    for definition in schema["$defs"].values():
        props = definition.get("properties", {})
        if "kind" in props:
            kinds.add(props["kind"]["enum"][0])
            assert {"seq", "prev"} <= set(definition["required"])
            assert re.fullmatch(props["prev"]["pattern"], "0" * 64)
    assert kinds == set(KINDS)
