"""``fightlog rulesets``: the installed rulesets, their options and defaults, whether each
plays; exit 0, and 2 for bad usage."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.kit.ruleset import GenericRules
from fightlog.reducers import fold_rules
from fightlog.rules.d20evasion.options import D20Options
from fightlog.rules.roe7.findings import FINDINGS as ROE7_FINDINGS
from fightlog.rules.roe7.options import Roe7Options


class FoldsOnly(GenericRules):
    id = "folds-only"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["rulesets", *args])
    return result.exit_code, result.stdout, result.stderr


def test_human_lists_each_ruleset_with_its_options() -> None:
    code, out, _ = run()
    assert code == 0
    blocks = out.split("\n\n")
    assert [b.split(":")[0] for b in blocks] == ["d20-evasion", "roe7"]
    roe7 = blocks[1].splitlines()
    assert roe7[0] == f"roe7: plays fights (fightlog play, fightlog run); {len(ROE7_FINDINGS)} finding codes of its own"
    assert roe7[1] == "  options (default; accepts):"
    assert len(roe7) == 2 + len(Roe7Options.__struct_fields__)
    assert any(line.split() == ["time_of_day", "=", '"day"', "(one", "of", "'day',", "'night')"] for line in roe7)
    assert any(line.split() == ["flee_attempts", "=", "2", "(an", "integer", ">=", "0)"] for line in roe7)


def test_json_gives_options_defaults_and_findings() -> None:
    code, out, _ = run("--format", "json")
    assert code == 0 and out.count("\n") == 1
    found = {r["id"]: r for r in json.loads(out)["rulesets"]}
    assert set(found) == {"roe7", "d20-evasion"}
    d20 = found["d20-evasion"]
    assert d20["plays"] is True
    assert [o["name"] for o in d20["options"]] == list(D20Options.__struct_fields__)
    assert {o["name"]: o["default"] for o in d20["options"]}["mode"] == "quest"
    assert {f["code"]: f["severity"] for f in found["roe7"]["findings"]}["rules.tie-to-attacker"] == "error"


def test_a_ruleset_without_a_table_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fold_rules._REGISTRY, "folds-only", FoldsOnly())
    code, out, _ = run()
    assert code == 0
    assert "folds-only: folds and audits; cannot play; 0 finding codes of its own" in out.split("\n\n")
    code, out, _ = run("--format", "json")
    assert {"id": "folds-only", "plays": False, "options": [], "findings": []} in json.loads(out)["rulesets"]


def test_bad_usage_exits_2() -> None:
    code, _, err = run("--format", "yaml")
    assert code == 2 and "Invalid value for '--format'" in err
    code, _, err = run("roe7")
    assert code == 2 and "unexpected extra argument" in err.lower()


def test_a_broken_plugin_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry point that does not load a ruleset with its name as id."""
    real = fold_rules.entry_points
    wrong = EntryPoint("wrong", "fightlog.rules.roe7.ruleset:RULES", fold_rules.GROUP)

    def points(*, group: str, name: str | None = None) -> list[EntryPoint]:
        found = [*real(group=group), wrong] if group == fold_rules.GROUP else list(real(group=group))
        return [p for p in found if name is None or p.name == name]

    monkeypatch.setattr(fold_rules, "entry_points", points)
    code, out, err = run()
    assert code == 2 and out == ""
    assert err == ("fightlog: <input>: entry point fightlog.rulesets:wrong (fightlog.rules.roe7.ruleset:RULES) "
                   "is not a ruleset with id 'wrong'\n")  # <input>: how cli/errors words an error of no file
