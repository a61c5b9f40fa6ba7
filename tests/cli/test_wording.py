"""Human output reads as words: counts agree with their nouns, no Python repr ever shows
(``True``, ``None``, ``['a']``, ``{'k': 1}``, ``(1 movement points)``), dropped dice are
legible in plain text (Markdown only with ``--markdown``), and the state says which round
it is in."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fightlog.events.model import Action, DeclarationPosted, Moved
from fightlog.report.narration import Scene, describe, namer
from fightlog.report.wording import plural, value_text
from tests.cli import DISPUTED, run
from tests.conftest import FIXTURES

EVERY_LOG = sorted(FIXTURES.rglob("*.jsonl"))

_COUNTED = (
    "event|finding|roll|problem|turn|round|error|warning|point|movement point|stack|die|dice|"
    "action|scenario|item|weapon|rule|ruling|change|line|byte|step|shot|time"
)
REPR = re.compile(rf"\bTrue\b|\bFalse\b|\bNone\b|\['|\{{'|\(1 [a-z ]+s\)|\b1 (?:{_COUNTED})s\b|\b1 dice\b")
"""What Python reprs and unagreeing counts look like in text."""


def _first_roll(log: Path) -> tuple[int, str] | None:
    """The seq of the log's first roll and a ``--set`` that changes its first die."""
    for line in log.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event["kind"] == "dice_rolled" and event["dice"]:
            die = event["dice"][0]
            return event["seq"], f"dice[0].face={die['face'] % die['sides'] + 1}"
    return None


@pytest.mark.parametrize("log", EVERY_LOG, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_no_python_reprs_in_human_output(log: Path) -> None:
    commands = [["state", str(log)], ["replay", str(log)], ["audit", str(log)]]
    roll = _first_roll(log)
    if roll is not None:
        commands.append(["dispute", str(log), "--at", str(roll[0]), "--set", roll[1]])
    for args in commands:
        result = run(*args)
        assert result.exit_code in (0, 1, 2), (args, result.output)
        assert result.output, args
        found = REPR.search(result.output)
        assert found is None, f"{' '.join(args)}: {found.group(0)!r} in {result.output[max(0, found.start() - 80):found.end() + 80]!r}"


def test_the_pattern_catches_what_it_is_for() -> None:
    for bad in ("lateral True", "owner None", "['a', 'b']", "{'k': 1}", "(1 movement points)", "1 events", "1 dice"):
        assert REPR.search(bad), bad
    for good in ("1 vs 89", "1 event", "2 events", "natural 1: the attack fails", "Truesight"):
        assert REPR.search(good) is None, good


@pytest.mark.parametrize(
    ("count", "noun", "many", "text"),
    [(0, "event", None, "0 events"), (1, "event", None, "1 event"), (2, "event", None, "2 events"),
     (1, "die", "dice", "1 die"), (3, "die", "dice", "3 dice")],
)
def test_plural(count: int, noun: str, many: str | None, text: str) -> None:
    assert plural(count, noun, many) == text


def test_values_in_words() -> None:
    assert [value_text(v) for v in (True, False, None, ["a", "b"], {"k": 1}, 3)] == ["yes", "no", "-", "a, b", "k 1", "3"]


def test_flags_and_counts_in_event_lines() -> None:
    scene = Scene(namer())
    post = DeclarationPosted(actor="dov", actions=(Action(type="move", params={"lateral": True, "cover": False, "points": 1}),))
    assert describe(post, scene) == "dov posts [move, not cover, lateral, points 1]"
    assert describe(Moved(actor="dov", metres=2, points=1), scene) == "dov moves 2 m (1 movement point)"
    assert describe(Moved(actor="dov", metres=4, points=2), scene) == "dov moves 4 m (2 movement points)"


def test_one_event_voided_is_counted_in_the_audit_summary() -> None:
    result = run("audit", str(DISPUTED))
    summary = next(line for line in result.stdout.splitlines() if line.startswith("audit:"))
    assert summary.endswith("127 events checked under roe7 (and 1 event voided by ruling, not checked)")
    doc = json.loads(run("audit", str(DISPUTED), "--format", "json").stdout)
    assert doc["summary"]["voided"] == 1 and doc["summary"]["events"] == 127


@pytest.mark.parametrize(
    ("at", "header", "order"),
    [
        (8, "after seq 8 (initiative_set): before round 1; in progress", "posting order (for round 1):"),
        (9, "after seq 9 (round_started): round 1, between turns; in progress", "posting order (round 1):"),
        (10, "after seq 10 (turn_started): round 1, Bob Kade's turn; in progress", "posting order (round 1):"),
        (36, "after seq 36 (round_ended): round 1 over, round 2 next; in progress", "posting order (for round 2):"),
        (58, "after seq 58 (round_ended): round 2 over, round 3 next; in progress", "posting order (for round 3):"),
    ],
)
def test_the_state_says_which_round_it_shows(at: int, header: str, order: str) -> None:
    lines = run("state", str(DISPUTED), "--at", str(at)).stdout.splitlines()
    assert lines[0].endswith(header)
    assert order in lines


def test_the_replay_marks_the_end_of_a_round() -> None:
    lines = run("replay", str(DISPUTED), "--from", "36", "--to", "38").stdout.splitlines()
    assert lines[:2] == ["36  End of round 1", "      round 1 over"]
    assert lines[-3:-1] == ["38  Round 2", "      round 2"]


def test_dropped_dice_are_plain_unless_markdown_is_asked_for() -> None:
    plain = run("roll", "3d20kh1+5", "--seed", "01")
    assert plain.stdout == "3d20kh1 ([2], [4], 19) + 5 = 24\n"
    markdown = run("roll", "3d20kh1+5", "--seed", "01", "--markdown")
    assert markdown.stdout == "3d20kh1 (~~2~~, ~~4~~, 19) + 5 = 24\n"
    data = json.loads(run("roll", "3d20kh1+5", "--seed", "01", "--format", "json", "--markdown").stdout)
    assert data["breakdown"] == "3d20kh1 (~~2~~, ~~4~~, 19) + 5 = 24"
