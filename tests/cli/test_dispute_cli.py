"""``fightlog dispute``: the human and JSON output of a fork of a bundled fight, the fork
written with -o (a valid log: verify, state and replay read it), and one-line errors with
exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from fightlog.events.model import AnyEvent, SceneEnded
from fightlog.events.reader import read_log
from tests.cli import DISPUTED, SAMPLE, SCENARIO_LOGS, assert_one_line_error, assert_usage_error, run, write_log

ALLEY = SCENARIO_LOGS / "alley-duel.jsonl"
CRITICAL = ("--at", "41", "--set", "dice[0].face=10")
"""Vex's natural 100 in round 2 of the alley duel, made a 10."""


def dispute(*args: str) -> str:
    result = run("dispute", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


def test_the_human_output_of_a_dispute(snapshot: SnapshotAssertion) -> None:
    assert dispute(str(ALLEY), *CRITICAL) == snapshot


def test_a_void_in_a_crowd(snapshot: SnapshotAssertion) -> None:
    log = SCENARIO_LOGS / "com-call.jsonl"
    assert dispute(str(log), "--at", "19", "--void") == snapshot


def test_the_json_output_says_the_same() -> None:
    doc: dict[str, Any] = json.loads(dispute(str(ALLEY), *CRITICAL, "--format", "json"))
    assert doc["change"] == {
        "seq": 41,
        "kind": "dice_rolled",
        "mode": "set",
        "set": [{"path": "dice[0].face", "value": 10}],
        "fields": [
            {"path": "dice[0].face", "original": 100, "fork": 10},
            {"path": "total", "original": 130, "fork": 40},
        ],
    }
    assert doc["restart"] == 39 and doc["events"] == {"original": 88, "fork": 83}
    assert doc["difference"]["seq"] == 41 and doc["consequence"]["seq"] == 42
    assert doc["consequence"]["fields"][0] == {"path": "score", "original": 130, "fork": 40}
    rook = next(s for s in doc["ending"]["standings"] if s["actor"] == "rook")
    assert rook["pools"] == {"hp": [-6, 22]} and rook["lost"] == ["defeated", "wounded"]
    assert doc["ending"]["winner"] == ["dockhands", None]
    assert [(f["code"], f["seq"], f["on_change"]) for f in doc["findings"]["appeared"]] == [
        ("dice.seed", 41, True),
    ]
    assert doc["findings"]["disappeared"] == [] and doc["dropped"] == [] and doc["written"] is None


def test_a_change_that_changes_nothing_says_so() -> None:
    out = dispute(str(ALLEY), "--at", "41", "--set", "dice[0].face=100")
    assert "dice[0].face=100 leaves it as recorded" in out
    assert "first difference: none: the fork is the same fight, event for event" in out
    assert "audit findings: the same in both" in out


def test_a_change_without_consequence_says_so() -> None:
    # Finch's flee roll (seq 68): nobody interrupts, so it cannot fail, however low.
    out = dispute(str(SCENARIO_LOGS / "flee-the-market.jsonl"), "--at", "68", "--set", "dice[0].face=2")
    assert "first consequence: none: nothing after the changed event differs" in out.splitlines()
    assert "  winner: none (same)" in out.splitlines()


# --------------------------------------------------------------------------- the fork on disk


def test_the_fork_written_with_o_is_a_valid_log(tmp_path: Path) -> None:
    fork = tmp_path / "fork.jsonl"
    out = dispute(str(ALLEY), *CRITICAL, "-o", str(fork))
    assert out.splitlines()[-1] == f"wrote {fork}: 83 events (verify --dice names the changed roll, if any)"
    verified = run("verify", str(fork))
    assert verified.exit_code == 0, verified.output
    # The dice check names the one hypothetical fact and nothing else.
    dice = run("verify", "--dice", str(fork))
    assert dice.exit_code == 1
    problems = [line for line in dice.stdout.splitlines() if line.startswith(f"{fork}:") and "intact" not in line]
    assert f"{fork}:41: roll #9 by vex (1d100): face 10 recorded, seed gives 100" in problems
    assert all(line.startswith(f"{fork}:41: ") for line in problems)
    state = json.loads(run("state", str(fork), "--format", "json").stdout)
    assert state["combatants"]["rook"]["pools"] == {"hp": 22}
    assert state["scene"]["ended"] is True and state["scene"]["winner"] is None
    assert run("replay", str(fork)).exit_code == 0


def test_an_existing_fork_is_not_replaced_without_force(tmp_path: Path) -> None:
    fork = tmp_path / "fork.jsonl"
    fork.write_text("keep me\n")
    assert_one_line_error(run("dispute", str(ALLEY), *CRITICAL, "-o", str(fork)), str(fork),
                          "exists and is not empty (--force replaces it)")
    assert fork.read_text() == "keep me\n"
    assert_one_line_error(run("dispute", str(ALLEY), *CRITICAL, "-o", str(fork), "--force"), str(fork),
                          "is not a fightlog log (its first line is no scene_started): --force replaces only a log")
    shutil.copy(ALLEY, fork)
    dispute(str(ALLEY), *CRITICAL, "-o", str(fork), "--force")
    assert run("verify", str(fork)).exit_code == 0 and fork.read_bytes() != ALLEY.read_bytes()


def test_the_fork_never_replaces_the_log_under_dispute(tmp_path: Path) -> None:
    """``dispute LOG -o LOG --force`` replaced the fight's record with the fork."""
    log = Path(shutil.copy(ALLEY, tmp_path / "a.jsonl"))
    result = run("dispute", str(log), *CRITICAL, "-o", str(log), "--force")
    assert_one_line_error(result, str(log), "is the log under dispute, which this command reads: write the new log to "
                                            "another file")
    assert log.read_bytes() == ALLEY.read_bytes()


def test_nothing_is_written_when_the_dispute_fails(tmp_path: Path) -> None:
    fork = tmp_path / "fork.jsonl"
    result = run("dispute", str(ALLEY), "--at", "42", "--void", "-o", str(fork))
    assert result.exit_code == 2
    assert not fork.exists()


# --------------------------------------------------------------------------- errors


def unfinished(tmp_path: Path) -> Path:
    """The alley duel before scene_ended: its seed not revealed yet."""
    events: list[AnyEvent] = [event for _, event in read_log(ALLEY)][:-1]
    return write_log(tmp_path / "live.jsonl", events)


def revealed_seed() -> str:
    end = [event for _, event in read_log(ALLEY)][-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    return end.seed


@pytest.mark.parametrize(
    ("args", "line", "message"),
    [
        (("--at", "99", "--void"), None, "--at 99: the log has seq 1 to 88"),
        (("--at", "41", "--set", "dice[0].facee=3"), 41, "--set dice[0].facee: bad PATH: dice[0] has no facee"),
        (("--at", "41", "--set", "dice[0].face=high"), 41,
         "--set: bad VALUE for dice[0].face: Expected `int`, got `str`"),
        (("--at", "41", "--set", "dice[0].face=0"), 41, "--set: bad VALUE: dice[0] shows 0 on a d100"),
        (("--at", "42", "--void"), 42, "seq 42 is attack_resolved, which the rules derive: change the roll or the "
                                       "declaration that produced it"),
        (("--at", "39", "--set", "actions[0].target=vex"), 39, "the fork is refused at its first request"),
        (("--at", "41", "--set", "dice[0].face=10", "--seed", "ab" * 32), None,
         "--seed does not match the dice commitment in scene_started"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], line: int | None, message: str) -> None:
    where = str(ALLEY) if line is None else f"{ALLEY}:{line}"
    assert_one_line_error(run("dispute", str(ALLEY), *args), where, message)


def test_no_seed_is_one_line_and_exit_2(tmp_path: Path) -> None:
    live = unfinished(tmp_path)
    assert_one_line_error(run("dispute", str(live), *CRITICAL), str(live),
                          "no dice seed: the scene has not revealed it yet; give it with --seed HEX")
    assert "change: seq 41" in dispute(str(live), *CRITICAL, "--seed", revealed_seed())


# --------------------------------------------------------------------------- hand-run fights

HAND_RUN_DAMAGE = ("--at", "32", "--set", "dice[0].face=20", "--set", "dice[1].face=20")
"""The README's example: Alice's HUD damage roll in round 1 of the hand-run duel, two 20s."""


def test_a_hand_run_fight_is_disputed(snapshot: SnapshotAssertion) -> None:
    out = dispute(str(DISPUTED), *HAND_RUN_DAMAGE)
    assert "with the recorded rolls (the log has no seed)" in out
    assert "Bob Kade     HP 60 -> 41" in out
    assert out == snapshot


def test_a_hand_run_dispute_shows_where_the_recorded_history_stops_fitting(snapshot: SnapshotAssertion) -> None:
    out = dispute(str(DISPUTED), "--at", "30", "--set", "dice[0].face=10")
    assert "the recorded history stops fitting the fork:" in out
    assert "seq 32 (roll): alice's 2d20 damage roll is recorded, but the fork makes no such roll" in out
    assert out == snapshot


def test_a_hand_run_dispute_in_json_lists_every_divergence() -> None:
    doc: dict[str, Any] = json.loads(dispute(str(DISPUTED), *HAND_RUN_DAMAGE, "--format", "json"))
    assert (doc["baseline"], doc["seeded"], doc["restart"]) == ("re-derived", False, 25)
    assert doc["departures"][0]["seq"] == 4
    assert all(d["unchanged"] for d in doc["divergences"] + doc["dropped"] + doc["passed"])
    assert {d["kind"] for d in doc["divergences"]} >= {"kept", "opening"}


def test_a_hand_run_fork_written_with_o_verifies_and_audits(tmp_path: Path) -> None:
    fork = tmp_path / "fork.jsonl"
    dispute(str(DISPUTED), "--at", "30", "--set", "dice[0].face=10", "-o", str(fork))
    assert run("verify", str(fork), "--dice").exit_code == 0
    audited = run("audit", str(fork))
    # one finding: the field dressing's post is no roe7 action, so the fork keeps what it
    # recorded, a bleed's countdown to 2 that no longer counts (the fork's bleed is at 2 by then)
    assert audited.exit_code == 1 and [line.split()[3] for line in audited.stdout.splitlines()
                                       if line.startswith("seq ") and " error " in line] == ["rules.tick-wrong"]


def test_a_change_the_rules_cannot_play_even_as_recorded_is_one_line_and_exit_2() -> None:
    # seq 72 is the heal roll of Alice's field dressing: use_item is no roe7 action.
    assert_one_line_error(run("dispute", str(DISPUTED), "--at", "72", "--set", "dice[0].face=1"), f"{DISPUTED}:72",
                          "the rules cannot play the post by alice at seq 71, which holds the change, even as recorded")


def test_a_fight_imported_without_a_roster_says_it_has_no_sheets_to_play_by(tmp_path: Path) -> None:
    from tests.conftest import FIXTURES

    sl = FIXTURES / "import" / "sl"
    log = tmp_path / "brawl.jsonl"
    assert run("import", "sl", str(sl / "midnight-brawl.txt"), "-o", str(log), "--ruleset", "roe7",
               "--cast", str(sl / "midnight-brawl.cast.toml")).exit_code == 0
    result = run("dispute", str(log), "--at", "12", "--set", "dice[0].face=10")  # bob's attack roll
    assert_one_line_error(result, f"{log}:2", "alice, bob, cara joined with no sheet: a fight imported without --roster "
                                              "holds no sheets to play by; import it again with --roster R.toml")
    assert "<input>" not in result.stderr
    d20 = tmp_path / "dockside.jsonl"  # d20-evasion's reader said "(sheet: Object missing required field `race`)"
    discord = FIXTURES / "import" / "discord"
    assert run("import", "discord-json", str(discord / "dockside.json"), "-o", str(d20), "--ruleset", "d20-evasion",
               "--cast", str(discord / "dockside.cast.toml")).exit_code == 0
    assert "joined with no sheet: a fight imported without --roster" in run("dispute", str(d20), "--at", "8",
                                                                            "--void").stderr


def test_a_seed_for_a_log_with_none_is_one_line_and_exit_2() -> None:
    assert_one_line_error(run("dispute", str(DISPUTED), *HAND_RUN_DAMAGE, "--seed", "ab" * 32), str(DISPUTED),
                          "--seed: the scene commits to no dice seed")


def test_a_missing_log_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert_one_line_error(run("dispute", str(missing), *CRITICAL), str(missing), "no such file")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", "41"), "give exactly one change"),
        (("--at", "41", "--void", "--withdraw"), "give exactly one change"),
        (("--at", "41", "--set", "dice[0]..face=3"), "is not a field path"),
        (("--at", "41", "--set", "face"), "expected PATH=VALUE"),
        (("--at", "0", "--void"), "0 is not in the range 1<=x<2**63"),
        (("--void",), "Missing option '--at'"),
        (("--at", "41", "--void", "--force"), "--force goes with -o FORK"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...], message: str) -> None:
    assert_usage_error(run("dispute", str(ALLEY), *args), message)


@pytest.mark.parametrize("log", [DISPUTED, SAMPLE], ids=lambda p: p.name)
def test_every_roll_of_a_hand_run_duel_can_be_disputed_unless_the_rules_never_make_it(log: Path) -> None:
    """Fork at each recorded roll: the rules re-derive the fight from there, or the refusal is
    one of the documented ones (a roll the rules do not make, or a post whose action the
    ruleset does not have)."""
    rolls = [n for n, line in enumerate(log.read_text().splitlines(), 1) if '"kind":"dice_rolled"' in line]
    refused = {}
    for seq in rolls:
        result = run("dispute", str(log), "--at", str(seq), "--set", "dice[0].face=1")
        assert result.exit_code in (0, 2), result.output
        if result.exit_code == 2:
            assert result.stderr.count("\n") == 1
            refused[seq] = result.stderr
    allowed = ("the rules make no such roll", "unknown action")
    assert all(any(why in message for why in allowed) for message in refused.values()), refused
    assert len(refused) <= len(rolls) // 4, sorted(refused)  # most of a hand-run fight can be disputed


def test_withdrawing_an_accept_shows_the_finding_counting_again() -> None:
    """A tester: withdrawing the GM's accept of Bob's skipped turn said "audit findings: the
    same in both", though the fork's audit counts it as an error again; and a finding naming
    a seq that moved in the fork (``first at seq 63``) came out as a spurious +/- pair."""
    out = dispute(str(DISPUTED), "--at", "60", "--withdraw")
    findings = out[out.index("audit findings"):].splitlines()
    assert findings == [
        "audit findings (+ only in the fork, - only in the original):",
        "  + order.skipped at seq 39 (Bob Kade): bob was skipped: alice's turn was opened in round 2 before bob "
        "had posted",
        "  - order.skipped at seq 39 (Bob Kade): bob was skipped: alice's turn was opened in round 2 before bob "
        "had posted [accepted by the ruling at seq 60]",
    ]


def test_a_withdrawn_rulings_first_difference_is_itself() -> None:
    """Withdrawing the ruling at seq 59 said "first difference: seq 59 (ruling_made): action
    void -> accept, target 42 -> 39": the next ruling moved up a seq, compared with it."""
    out = dispute(str(DISPUTED), "--at", "59", "--withdraw")
    assert ("first difference: seq 59 itself, withdrawn: the fork goes on without it (what follows sits a seq "
            "earlier, so it is not compared event for event; see the end and the findings)") in out.splitlines()
