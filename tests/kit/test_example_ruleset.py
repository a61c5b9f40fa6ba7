"""docs/rulesets/HOWTO.md, proved: a ruleset written outside fightlog from the kit alone
(``tests/kit/example_ruleset/fightlog_example``: one attack action, HP) plays, replays and
audits (and disputes) a fight, registered in this process (``fightlog.kit.ruleset.register``) and installed
as a plugin (an entry point in the ``fightlog.rulesets`` group, run in a subprocess), with no
edit to any fightlog file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.cli.main import cli
from fightlog.events.model import AttackResolved
from fightlog.kit.ruleset import register, ruleset_for
from fightlog.kit.scenario import run_scenario
from fightlog.kit.table import playable, table_for
from fightlog.reducers import fold_rules

EXAMPLE = Path(__file__).resolve().parent / "example_ruleset"
SCENARIO = EXAMPLE / "duel.toml"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The example ruleset registered in this process, for one test."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from fightlog_example.ruleset import RULES

    register(RULES)
    yield RULES
    del fold_rules._REGISTRY[RULES.id]


def test_registered_it_plays_replays_and_audits(registered: object, tmp_path: Path) -> None:
    assert ruleset_for("example") is registered and "example" in playable()
    assert table_for("example").id == "example"
    log = tmp_path / "duel.jsonl"
    runner = CliRunner()
    played = runner.invoke(cli, ["run", str(SCENARIO), "-o", str(log)])
    assert played.exit_code == 0, played.output
    assert played.stdout.splitlines()[-1] == "winner: red"
    replayed = runner.invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0 and "Ann hits Bo: 16 vs 8" in replayed.stdout
    audited = runner.invoke(cli, ["audit", str(log)])
    assert audited.exit_code == 0, audited.output
    assert "31 events checked under example" in audited.stdout


def test_its_findings_are_its_own(registered: object) -> None:
    """A flawed log: an attack recorded as a miss that the roll makes a hit. The code, its
    severity and section come from the example ruleset; a code nobody declares is an error."""
    events = [e for _, e in run_scenario(SCENARIO).read()]
    at = next(i for i, e in enumerate(events) if isinstance(e, AttackResolved) and e.hit)
    attack = events[at]
    assert isinstance(attack, AttackResolved)
    events[at] = replace(attack, hit=False)
    end = events[-1]
    report = audit_events(events, seed=getattr(end, "seed"))
    flagged = [f for f in report.findings if f.code == "rules.outcome"]
    assert [(f.seq, f.severity, f.rule) for f in flagged] == [(attack.seq, "error", "Attacking (1d20, a hit on 10+)")]
    rules = ruleset_for("example")
    assert rules.rule_section("order.out-of-turn") == "Turns (as joined)"
    assert rules.rule_section("rules.unheard-of") == "The example rules"
    assert rules.rule_section("dice.seed") == "fightlog dice (docs/dice.md)"


def _plugin(root: Path) -> dict[str, str]:
    """The example installed as a plugin in ``root``: the package, its scenario and roster,
    and a ``*.dist-info`` folder whose entry point names it; the environment to run in."""
    shutil.copytree(EXAMPLE / "fightlog_example", root / "fightlog_example")
    for name in ("duel.toml", "roster.toml"):
        shutil.copy(EXAMPLE / name, root / name)
    info = root / "fightlog_example-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fightlog-example\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[fightlog.rulesets]\nexample = fightlog_example.ruleset:RULES\n")
    return {**os.environ, "PYTHONPATH": str(root)}


DRIVER = """
import json, sys
from click.testing import CliRunner
from fightlog.cli.main import cli
runs = [CliRunner().invoke(cli, args) for args in json.loads(sys.argv[1])]
print(json.dumps([[run.exit_code, run.output] for run in runs]))
"""
"""Runs fightlog commands in one fresh process (one start-up, not four): what that process
knows of the example, it found through the entry point."""


def test_installed_as_a_plugin(tmp_path: Path) -> None:
    env = _plugin(tmp_path)
    commands = [["rulesets", "--format", "json"], ["run", "duel.toml", "-o", "duel.jsonl"], ["replay", "duel.jsonl"],
                ["audit", "duel.jsonl"], ["dispute", "duel.jsonl", "--at", "15", "--set", "dice[0].face=20"]]
    ran = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    (listed, rulesets), (played, run), (replayed, replay), (audited, audit), (disputed, dispute) = json.loads(ran.stdout)
    assert listed == 0, rulesets
    found = {r["id"]: r for r in json.loads(rulesets)["rulesets"]}
    assert set(found) == {"bleeding-sun", "d20-evasion", "en51", "example", "roe7", "traveller"}
    assert found["example"]["plays"] and found["example"]["options"] == [
        {"name": "hit_on", "default": 10, "accepts": "an integer"}]
    assert [f["code"] for f in found["example"]["findings"]] == ["rules.outcome"]
    assert played == 0 and run.splitlines()[-1] == "winner: red", run
    assert (tmp_path / "duel.jsonl").is_file()
    assert replayed == 0 and "Bo gains status defeated" in replay, replay
    assert audited == 0 and "checked under example" in audit, audit
    assert disputed == 0 and "winner: red -> blue" in dispute, dispute  # Bo's 6 made a 20: the table again
