"""Tests of the ``state`` and ``replay`` commands, and the logs both are checked against.

The helpers here build logs that a command must refuse with exit 2 and one line on stderr:
a damaged chain, and GM rulings the fold cannot honour.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from fightlog.cli.main import cli
from fightlog.events.model import FORMAT_VERSION, AnyEvent, CombatantJoined, RoundStarted, RulingMade, SceneStarted
from fightlog.events.store import MemoryStore
from tests.conftest import FIXTURES, sample_log_bytes

SAMPLE = FIXTURES / "roe7" / "sample-duel.jsonl"
DISPUTED = FIXTURES / "roe7" / "disputed-duel.jsonl"
SEEDED = FIXTURES / "dice" / "seeded-rolls.jsonl"
SCENARIO_LOGS = FIXTURES / "roe7" / "scenarios"
AUDIT_LOGS = FIXTURES / "roe7" / "audit"
_SNAPSHOTTED_ELSEWHERE = tuple(FIXTURES / ruleset / kind for ruleset in ("roe7", "d20-evasion", "traveller", "en51",
                                                                                  "bleeding-sun")
                                for kind in ("scenarios", "audit"))
ALL_LOGS = sorted(
    p for p in FIXTURES.rglob("*.jsonl") if not any(folder in p.parents for folder in _SNAPSHOTTED_ELSEWHERE)
)
"""Every bundled log but the scenario fights (``tests/test_scenarios.py`` and, for traveller,
``tests/rules/traveller/test_scenarios.py`` snapshot those)
and the flawed fights (``tests/audit/test_audit_fixtures.py``)."""


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def write_log(path: Path, events: list[AnyEvent]) -> Path:
    store = MemoryStore()
    store.append(events)
    path.write_bytes(store.to_bytes())
    return path


def ruled_log(path: Path, ruling: RulingMade) -> Path:
    """A four-event log whose last event (seq 4) is ``ruling``."""
    return write_log(
        path,
        [
            SceneStarted(scene="bad-ruling", ruleset="roe7", format=FORMAT_VERSION, gm="Gemma"),
            CombatantJoined(actor="alice", name="Alice Vance", pools={"hp": 100}),
            RoundStarted(round=1),
            ruling,
        ],
    )


def damaged_log(path: Path) -> Path:
    """The sample duel with line 16 edited (Bob takes 1 damage, not 19) and not re-chained:
    line 17 no longer follows."""
    lines = sample_log_bytes().splitlines(keepends=True)
    edited = json.loads(lines[15])
    edited["taken"] = 1
    lines[15] = json.dumps(edited, separators=(",", ":")).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    return path


BAD_RULINGS = {
    "amends seq": (RulingMade(by="Gemma", action="amend", target=2, changes={"seq": 9}), "a ruling cannot amend seq of seq 2"),
    "amends kind": (RulingMade(by="Gemma", action="amend", target=3, changes={"kind": "round_ended"}), "a ruling cannot amend kind of seq 3"),
    "targets a later event": (RulingMade(by="Gemma", action="void", target=7), "ruling targets seq 7, which is not earlier than the ruling"),
    "targets itself": (RulingMade(by="Gemma", action="void", target=4), "ruling targets seq 4, which is not earlier than the ruling"),
    "amends into an invalid event": (RulingMade(by="Gemma", action="amend", target=3, changes={"round": 0}), "amendment of seq 3 is not a valid event"),
}
"""Ruling (seq 4 of ``ruled_log``) -> what the one-line error says."""


def assert_one_line_error(result: Result, where: str, message: str) -> None:
    """Exit 2, and ``fightlog: WHERE: ...MESSAGE...`` as the only line; nothing on stdout but,
    under ``--format json``, the same error as one JSON document."""
    assert result.exit_code == 2, result.output
    if result.stdout:
        assert json.loads(result.stdout)["error"]["code"] == 2 and result.stdout.count("\n") == 1
        assert message in json.loads(result.stdout)["error"]["message"]
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"fightlog: {where}: "), result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output


def assert_usage_error(result: Result, message: str) -> None:
    """Exit 2 from click's option checks: one line, ``fightlog: ...``, with the reason."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("fightlog: ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output
