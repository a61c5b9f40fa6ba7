"""``fightlog state``: snapshots of every bundled log at its end and at chosen events, the
rulings applied from the moment they are made, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.events.model import RulingMade
from tests.cli import (
    ALL_LOGS,
    BAD_RULINGS,
    DISPUTED,
    SAMPLE,
    assert_one_line_error,
    assert_usage_error,
    damaged_log,
    ruled_log,
    run,
)
from tests.conftest import FIXTURES

POINTS: list[tuple[Path, int | None]] = [(log, None) for log in ALL_LOGS] + [
    (SAMPLE, 31),  # the bleed's first tick, at the start of Alice's round-2 turn
    (SAMPLE, 33),  # Alice's post pending, her action spent
    (SAMPLE, 44),  # Bob's natural 1 costs him his next action
    (DISPUTED, 21),  # Cara waits to take her slot after Alice from round 2
    (DISPUTED, 26),  # Alice's rifle fired
    (DISPUTED, 37),  # the GM amends Bob's dodge (cover)
    (DISPUTED, 58),  # just before the GM voids the bleed damage entered twice
    (DISPUTED, 59),  # just after: Alice's 5 HP back
    (DISPUTED, 83),  # Bob stunned
    (DISPUTED, 86),  # the amend withdrawn
    (DISPUTED, 113),  # Bob fled
]


def point_id(point: tuple[Path, int | None]) -> str:
    log, at = point
    return log.stem + ("-end" if at is None else f"-at-{at}")


def state(log: Path, at: int | None, fmt: str) -> str:
    args = ["state", str(log), "--format", fmt] + ([] if at is None else ["--at", str(at)])
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


def state_json(log: Path, at: int | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(state(log, at, "json"))
    return doc


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


@pytest.mark.parametrize("point", POINTS, ids=point_id)
def test_state_human(point: tuple[Path, int | None], snapshot: SnapshotAssertion) -> None:
    text = state(*point, "human")
    assert all(line == line.rstrip() for line in text.splitlines())
    assert text == snapshot


@pytest.mark.parametrize("point", POINTS, ids=point_id)
def test_state_json(point: tuple[Path, int | None], snapshot_json: SnapshotAssertion) -> None:
    doc = state_json(*point)
    assert set(doc["derived"]) == {"next", "order"}
    assert doc == snapshot_json


def test_json_is_encoded_with_sorted_keys() -> None:
    out = state(DISPUTED, 26, "json")
    doc = json.loads(out)
    assert out.strip() == json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_the_state_after_the_last_event_is_the_default() -> None:
    assert state(SAMPLE, None, "human") == state(SAMPLE, 64, "human")


def test_a_ruling_rewrites_history_only_once_it_is_made() -> None:
    before, after = state_json(DISPUTED, 58), state_json(DISPUTED, 59)
    assert before["combatants"]["alice"]["pools"] == {"hp": 78}  # the tick's damage counted twice
    assert after["combatants"]["alice"]["pools"] == {"hp": 83}  # seq 42 void, as if never there
    assert [r["seq"] for r in before["rulings"]] == [37]
    assert [(r["seq"], r["action"], r["target"]) for r in after["rulings"]] == [(37, "amend", 30), (59, "void", 42)]
    assert state_json(DISPUTED)["combatants"]["alice"]["pools"] == {"hp": 76}


def test_a_withdrawn_ruling_is_no_longer_in_force() -> None:
    rulings = state_json(DISPUTED, 86)["rulings"]
    assert [(r["seq"], r["action"]) for r in rulings] == [(59, "void"), (60, "accept"), (86, "withdraw")]


def test_the_human_state_reads_right() -> None:
    text = state(DISPUTED, 26, "human")
    assert text.startswith('disputed-duel "Trouble at the pump house" (roe7) after seq 26 (resource_spent): '
                           "round 1, Alice Vance's turn; in progress\n")
    assert "  bleed on Alice Vance from Bob Kade: 5 turns left, 5/turn\n" in text
    assert "    name         initiative  standing\n" in text  # the posting order's columns named
    assert "-   Cara Moss    -           arriving: after Alice Vance, from round 2" in text
    assert "next: Alice Vance\n" in text
    end = state(DISPUTED, None, "human")
    assert "ended: winner gate, Bob fled" in end
    assert "1.  Bob Kade     71          out: fled" in end


def test_arrivals_enter_the_posting_order_from_the_next_round() -> None:
    assert state_json(DISPUTED, 21)["turn"]["order"] == ["bob", "alice"]
    assert state_json(DISPUTED, 38)["turn"]["order"] == ["bob", "alice", "cara"]


def test_help_ends_with_examples() -> None:
    result = run("state", "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert "state" in run("--help").stdout


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("at", "message"), [("0", "0 is not in the range 1<=x<2**63"), ("-1", "-1 is not in the range 1<=x<2**63"),
                                             ("x", "'x' is not a whole number")])
def test_a_bad_at_is_a_usage_error(at: str, message: str) -> None:
    assert_usage_error(run("state", str(SAMPLE), "--at", at), message)


def test_at_beyond_the_end_of_the_log() -> None:
    assert_one_line_error(run("state", str(SAMPLE), "--at", "65"), str(SAMPLE), "asked for the state after seq 65, but the log ends at seq 64")


def test_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert_one_line_error(run("state", str(missing)), str(missing), "no such file")


@pytest.mark.parametrize("fmt", ["human", "json"])
def test_a_damaged_log_is_bad_input(fmt: str, tmp_path: Path) -> None:
    log = damaged_log(tmp_path / "damaged.jsonl")
    result = run("state", str(log), "--format", fmt)
    assert_one_line_error(result, f"{log}:17", "prev does not match line 16")


def test_a_log_is_read_only_as_far_as_asked(tmp_path: Path) -> None:
    log = damaged_log(tmp_path / "damaged.jsonl")
    assert run("state", str(log), "--at", "10").exit_code == 0  # lines 1-10 are intact
    assert_one_line_error(run("state", str(log), "--at", "17"), f"{log}:17", "prev does not match")


@pytest.mark.parametrize("name", sorted(BAD_RULINGS))
def test_a_ruling_the_fold_cannot_honour(name: str, tmp_path: Path) -> None:
    ruling, message = BAD_RULINGS[name]
    log = ruled_log(tmp_path / "ruled.jsonl", ruling)
    assert_one_line_error(run("state", str(log)), f"{log}:4", message)
    assert run("state", str(log), "--at", "3").exit_code == 0  # not made yet at seq 3


def test_a_sound_ruling_in_the_same_log_is_fine(tmp_path: Path) -> None:
    log = ruled_log(tmp_path / "ruled.jsonl", RulingMade(by="Gemma", action="amend", target=2, changes={"pools": {"hp": 90}}))
    assert state_json(log)["combatants"]["alice"]["pools"] == {"hp": 90}


# --------------------------------------------------------------------------- the fixture


def test_the_disputed_duel_matches_its_script(tmp_path: Path) -> None:
    out = tmp_path / "disputed-duel.jsonl"
    subprocess.run([sys.executable, "-m", "fightlog.fixtures.disputed_duel", str(out)], check=True)
    assert out.read_bytes() == (FIXTURES / "roe7" / "disputed-duel.jsonl").read_bytes()


def test_the_disputed_duel_passes_the_dice_check() -> None:
    result = run("verify", "--dice", str(DISPUTED))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].endswith("; no problems")
