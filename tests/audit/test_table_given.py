"""The audit finds no ruleset's table itself: the dispute and a ruling's amendment are given
the lookup by their caller (the CLI passes ``fightlog.kit.table.table_for``), so the audit
stays below the rulesets (issue 23)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fightlog.audit.dispute import Change, dispute
from fightlog.errors import InputError, RefusedError
from fightlog.events.reader import read_log
from fightlog.kit.table import Table, table_for
from tests.conftest import FIXTURES

AUDIT = Path(__file__).resolve().parents[2] / "audit"
ALLEY = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"
TYPES = frozenset({"Table", "Scribe", "Entrant", "Post"})
"""What the audit may take from ``fightlog.kit.table``: the types, not the lookup."""


def test_no_audit_module_imports_the_table_lookup() -> None:
    found = {}
    for module in sorted(AUDIT.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(), str(module))):
            if isinstance(node, ast.ImportFrom) and node.module == "fightlog.kit.table":
                found[module.name] = {alias.name for alias in node.names}
            if isinstance(node, ast.Import):  # the module whole: its lookup in reach
                assert "fightlog.kit.table" not in {alias.name for alias in node.names}, module.name
    assert found, "the audit's replay uses the kit's Scribe and Table"
    assert {name: names - TYPES for name, names in found.items() if names - TYPES} == {}


def test_the_dispute_uses_the_lookup_it_is_given() -> None:
    events = [event for _, event in read_log(ALLEY)]
    asked: list[str] = []

    def lookup(ruleset: str) -> Table:
        asked.append(ruleset)
        if ruleset == "roe7":
            return table_for(ruleset)
        raise RefusedError(f"no installed ruleset {ruleset!r}")

    change = Change(seq=41, sets=(("dice[0].face", 10),))
    assert dispute(events, change, table_for=lookup).fork
    assert asked == ["roe7"]

    def nothing(ruleset: str) -> Table:
        raise RefusedError(f"no installed ruleset {ruleset!r}")

    with pytest.raises(InputError, match="cannot re-derive this fight: no installed ruleset 'roe7'") as raised:
        dispute(events, change, table_for=nothing, name="alley.jsonl")
    assert raised.value.line == 1
