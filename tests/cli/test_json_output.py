"""One JSON style across commands (docs/cli.md): every ``--format json`` prints one document on
one line, compact, keys sorted, snake_case keys (names of things aside), then a newline."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.cli.output import json_text
from tests.cli import DISPUTED, SAMPLE, SCENARIO_LOGS, SEEDED
from tests.conftest import FIXTURES

ALLEY = SCENARIO_LOGS / "alley-duel.jsonl"
ASHFALL = FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.jsonl"

COMMANDS = {
    "verify": ["verify", "--dice", str(SEEDED)],
    "verify damaged": ["verify", str(FIXTURES / "dice" / "seeded-rolls-tampered.jsonl")],
    "state roe7": ["state", str(DISPUTED)],
    "state d20-evasion": ["state", str(ASHFALL)],
    "replay": ["replay", str(SAMPLE)],
    "roll": ["roll", "3d20kh1+5", "--seed", "00", "--mod", "cover=-2"],
    "audit": ["audit", str(DISPUTED)],
    "dispute": ["dispute", str(ALLEY), "--at", "41", "--set", "dice[0].face=10"],
    "error": ["state", str(SAMPLE), "--at", "999"],
}
"""Every command that has ``--format json``, and an error."""

NAMED_BY_DATA = frozenset({"weapons", "spent", "effects", "combatants", "pools", "sheet", "options"})
"""Objects whose keys are names of things (a weapon, a combatant), not field names."""

SNAKE = re.compile(r"[a-z][a-z0-9_]*")


def field_names(value: Any, parent: str | None = None) -> set[str]:
    if isinstance(value, dict):
        own = set() if parent in NAMED_BY_DATA else set(value)
        return own.union(*(field_names(v, k) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(field_names(v, parent) for v in value))
    return set()


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_json_output_has_one_style(args: list[str]) -> None:
    result = CliRunner().invoke(cli, [*args, "--format", "json"], catch_exceptions=False)
    assert result.exit_code in (0, 1, 2), result.output
    out = result.stdout
    assert out.endswith("\n") and out.count("\n") == 1, out[:200]
    doc = json.loads(out)
    assert out == json_text(doc) + "\n"  # compact, keys sorted
    assert not [k for k in field_names(doc) if not SNAKE.fullmatch(k)]


def test_the_style_is_compact_and_sorted() -> None:
    assert json_text({"b": 1, "a": [1, {"d": None, "c": "é"}]}) == '{"a":[1,{"c":"é","d":null}],"b":1}'
