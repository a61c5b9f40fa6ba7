"""``fightlog audit`` and ``fightlog rule`` through click: exit codes 0/1/2, the report's
lines, JSON for bots, one-line errors, and a ruling recorded, honoured and validated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion

from fightlog.events.codec import DECODER
from tests.cli import DISPUTED, SCENARIO_LOGS, assert_one_line_error, assert_usage_error, damaged_log, run

DUEL = SCENARIO_LOGS / "alley-duel.jsonl"


def copy(src: Path, tmp_path: Path) -> Path:
    dest = tmp_path / src.name
    shutil.copyfile(src, dest)
    return dest


def out_of_turn(tmp_path: Path) -> Path:
    """The alley duel with rook's name on vex's round-2 post (seq 39), re-chained."""
    from fightlog.events.store import MemoryStore

    events = [DECODER.decode(line) for line in DUEL.read_bytes().splitlines()]
    events[38] = msgspec.structs.replace(events[38], actor="rook")
    store = MemoryStore()
    store.append([msgspec.structs.replace(e, seq=0, prev="") for e in events])
    path = tmp_path / "out-of-turn.jsonl"
    path.write_bytes(store.to_bytes())
    return path


def test_a_clean_engine_fight_exits_0(tmp_path: Path) -> None:
    result = run("audit", str(DUEL))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "audit: clean: 0 errors, 0 warnings, 0 info; 88 events checked under roe7",
        "dice: 21 engine rolls recomputed from the seed revealed in scene_ended; no problems",
    ]


def test_findings_exit_1_with_one_line_each(tmp_path: Path) -> None:
    result = run("audit", str(out_of_turn(tmp_path)))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("seq 39    error    order.out-of-turn      rook: rook posted out of turn in round 2")
    assert lines[0].endswith("]")
    assert lines[-2].startswith("audit: findings: 1 error, 0 warnings, 0 info;")


def test_json_for_bots(tmp_path: Path) -> None:
    result = run("audit", str(out_of_turn(tmp_path)), "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(f["seq"], f["code"], f["severity"], f["actor"]) for f in doc["findings"]] == [
        (39, "order.out-of-turn", "error", "rook")
    ]
    assert doc["summary"]["errors"] == 1 and doc["summary"]["ruleset"] == "roe7"
    assert set(doc["findings"][0]) == {"code", "severity", "seq", "line", "message", "rule", "actor"}


def test_the_disputed_duel_report(snapshot: SnapshotAssertion) -> None:
    result = run("audit", str(DISPUTED))
    assert result.exit_code == 0  # its one error is accepted by the GM's ruling
    assert result.stdout == snapshot


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert_one_line_error(run("audit", str(tmp_path / "missing.jsonl")), str(tmp_path / "missing.jsonl"), "no such file")
    damaged = damaged_log(tmp_path / "damaged.jsonl")
    assert_one_line_error(run("audit", str(damaged)), f"{damaged}:17", "")
    assert_usage_error(run("audit", str(DUEL), "--seed", "xyz"), "--seed")


def test_a_seed_that_is_not_the_scenes_is_bad_input_not_a_finding(tmp_path: Path) -> None:
    """A mistyped --seed is the user's error, not tampering in the log: exit 2, one line, for
    audit and verify alike (the log's own forged seed is still a dice.seed finding)."""
    for command in ("audit", "verify"):
        result = run(command, str(DUEL), "--seed", "ab" * 32)
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and "'--seed': it is not the scene's seed" in result.stderr


def test_a_seed_for_a_scene_that_commits_to_none_is_refused(tmp_path: Path) -> None:
    result = run("audit", str(SCENARIO_LOGS.parent / "sample-duel.jsonl"), "--seed", "7")
    assert result.exit_code == 2 and "the scene commits to no dice seed" in result.stderr


# --------------------------------------------------------------------------- rule


def test_accepting_a_finding_makes_the_audit_pass(tmp_path: Path) -> None:
    log = out_of_turn(tmp_path)
    result = run("rule", str(log), "accept", "39", "--finding", "order.out-of-turn", "--by", "Gemma",
                 "--reason", "vex was away; the table let rook go first")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "seq 89: Gemma rules: accept order.out-of-turn at seq 39 (declaration_posted); "
        "vex was away; the table let rook go first\n"
    )
    audit = run("audit", str(log))
    assert audit.exit_code == 0
    assert "accepted order.out-of-turn" in audit.stdout
    assert "accepted by Gemma (ruling at seq 89): vex was away" in audit.stdout
    assert run("verify", str(log)).exit_code == 0


def test_voiding_and_amending(tmp_path: Path) -> None:
    log = out_of_turn(tmp_path)
    assert run("rule", str(log), "amend", "39", "--set", "actor=vex", "--reason", "vex's post", "--by", "G").exit_code == 0
    assert run("audit", str(log)).exit_code == 0
    assert run("rule", str(log), "withdraw", "89", "--reason", "no", "--by", "G").exit_code == 0
    assert run("audit", str(log)).exit_code == 1
    result = run("rule", str(log), "void", "39", "--reason", "posted by mistake", "--by", "G")
    assert result.stdout == "seq 91: G rules: void seq 39 (declaration_posted); posted by mistake\n"
    assert "out-of-turn" not in run("audit", str(log)).stdout


@pytest.mark.parametrize(
    ("args", "line", "message"),
    [
        (["accept", "12", "--by", "G", "--reason", "x"], 12, "no finding at seq 12 to accept (the audit reports there: none)"),
        (["accept", "39", "--finding", "rules.reload", "--by", "G", "--reason", "x"], 39,
         "no rules.reload finding at seq 39 to accept (the audit reports there: order.out-of-turn)"),
        (["void", "999", "--by", "G", "--reason", "x"], None, "SEQ 999: the log ends at seq 88"),
        (["void", "1", "--by", "G", "--reason", "x"], 1, "the scene_started event cannot be voided"),
        (["withdraw", "12", "--by", "G", "--reason", "x"], 12, "seq 12 is a turn_started event, not a ruling"),
        (["amend", "17", "--set", "hit=maybe", "--by", "G", "--reason", "x"], 17,
         "--set: bad VALUE for hit: Expected `bool`, got `str`"),
        (["amend", "17", "--set", "dice[0].face=3", "--by", "G", "--reason", "x"], 17,
         "--set dice[0].face: bad PATH: an attack_resolved event has no field 'dice' (fields: against, at, "),
        (["amend", "17", "--set", "seq=3", "--by", "G", "--reason", "x"], 17,
         "--set seq: bad PATH: the seq of an event cannot be changed"),
    ],
)
def test_bad_rulings_are_refused_and_nothing_is_written(
    tmp_path: Path, args: list[str], line: int | None, message: str
) -> None:
    log = out_of_turn(tmp_path)
    before = log.read_bytes()
    result = run("rule", str(log), *args)
    assert_one_line_error(result, str(log) if line is None else f"{log}:{line}", message)
    assert log.read_bytes() == before


def test_rule_usage_errors(tmp_path: Path) -> None:
    log = copy(DUEL, tmp_path)
    assert_usage_error(run("rule", str(log), "amend", "17", "--by", "G", "--reason", "x"), "amend needs at least one --set")
    assert_usage_error(run("rule", str(log), "void", "17", "--set", "a=1", "--by", "G", "--reason", "x"), "--set is for amend")
    assert_usage_error(run("rule", str(log), "void", "17", "--by", "G"), "--reason")
    assert_usage_error(run("rule", str(log), "ban", "17", "--by", "G", "--reason", "x"), "ACTION")
