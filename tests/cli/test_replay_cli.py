"""``fightlog replay``: snapshots of the bundled fights told event by event, the shape of the
text and of the JSON, rolls the dice engine cannot read, and one-line errors with exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.events.model import (
    FORMAT_VERSION,
    CombatantJoined,
    DiceRolled,
    Die,
    Modifier,
    SceneStarted,
    StatusChanged,
)
from tests.cli import (
    ALL_LOGS,
    BAD_RULINGS,
    DISPUTED,
    SAMPLE,
    SCENARIO_LOGS,
    assert_one_line_error,
    assert_usage_error,
    damaged_log,
    ruled_log,
    run,
    write_log,
)

HONEST = [log for log in ALL_LOGS if "tampered" not in log.name]
EVENT_LINE = re.compile(r"^ *(\d+)  ")


def replay(*args: str) -> str:
    result = run("replay", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


def replay_json(*args: str) -> list[dict[str, Any]]:
    doc: list[dict[str, Any]] = json.loads(replay(*args, "--format", "json"))
    return doc


def event_seqs(text: str) -> list[int]:
    return [int(m.group(1)) for m in map(EVENT_LINE.match, text.splitlines()) if m]


@pytest.mark.parametrize("log", HONEST, ids=lambda p: p.stem)
def test_replay_human(log: Path, snapshot: SnapshotAssertion) -> None:
    assert replay(str(log)) == snapshot


def test_replay_json(snapshot: SnapshotAssertion) -> None:
    assert replay_json(str(DISPUTED)) == snapshot.use_extension(JSONSnapshotExtension)


def test_replay_a_range_with_its_rulings(snapshot: SnapshotAssertion) -> None:
    text = replay(str(DISPUTED), "--from", "38", "--to", "60")
    assert event_seqs(text) == list(range(38, 61))
    assert text == snapshot


@pytest.mark.parametrize("log", HONEST, ids=lambda p: p.stem)
def test_one_line_per_event_and_no_trailing_spaces(log: Path) -> None:
    text = replay(str(log))
    lines = text.splitlines()
    assert all(line == line.rstrip() and line for line in lines)
    count = len(log.read_bytes().splitlines())
    assert event_seqs(text) == list(range(1, count + 1))


def test_the_fight_reads_right() -> None:
    text = replay(str(DISPUTED))
    assert " 9  Round 1\n" in text
    assert " 10    Bob Kade's turn\n" in text
    assert (' 11      Bob Kade: "Bob vaults the fence by the pump and charges Alice, blade low." '
            "[move 8 m; attack Alice Vance with S_s_Blade_Class_(Permanent), single, close]\n") in text
    assert "Alice Vance rolls attack [external: RoE combat HUD]: 1d100 (61) + 15 [scope +10, racial +5] = 76 # shot 1\n" in text
    assert "Bob Kade hits Alice Vance with S_s_Blade_Class_(Permanent): 86 vs 50; slash:" in text
    assert "           Bob Kade HP 100 -> 74\n" in text
    assert "           bleed on Alice Vance: 4 turns left\n" in text
    assert "           Bob Kade: stunned\n" in text
    assert ("59  GM Gemma voids seq 42 (Alice Vance takes 5 bleed damage from Bob Kade): "
            "the bleed tick was entered twice, by the HUD and by hand\n       Alice Vance HP 78 -> 83\n") in text
    assert "GM Gemma amends seq 30 (dice_rolled): modifiers racial +5 -> racial +5, cover +5; total 49 -> 54:" in text
    assert "86  GM Gemma withdraws the ruling at seq 37 (amend of seq 30):" in text
    assert "20    Cara Moss (ooc): " in text  # named by the transcript before she joins


def test_json_steps_carry_the_event_and_its_changes() -> None:
    steps = replay_json(str(SAMPLE), "--from", "16", "--to", "17")
    assert [s["seq"] for s in steps] == [16, 17]
    assert steps[0]["kind"] == steps[0]["event"]["kind"] == "damage_applied"
    assert steps[0]["changes"] == [{"subject": "bob", "field": "hp", "before": 100, "after": 81, "part": "combatant"}]
    assert steps[1]["changes"] == []


def test_json_is_encoded_with_sorted_keys() -> None:
    out = replay(str(SAMPLE), "--to", "12", "--format", "json")
    assert out.strip() == json.dumps(json.loads(out), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_a_ruling_replayed_from_after_its_target_still_rewrites_it() -> None:
    (step,) = replay_json(str(DISPUTED), "--from", "59", "--to", "59")
    assert step["changes"] == [
        {"subject": "alice", "field": "hp", "before": 78, "after": 83, "part": "combatant"},
        {"subject": "rulings", "field": "in force", "before": None, "after": 59, "part": "rulings"},
    ]


def test_rolls_the_engine_cannot_read_are_shown_from_their_faces(tmp_path: Path) -> None:
    def bot(notation: str, dice: list[Die], total: int, **more: Any) -> DiceRolled:
        return DiceRolled(roller="bob", notation=notation, dice=dice, total=total, purpose="attack",
                          generator="external", tool="Dice Maiden", **more)

    log = write_log(tmp_path / "odd.jsonl", [
        SceneStarted(scene="odd", ruleset="roe7", format=FORMAT_VERSION),
        CombatantJoined(actor="bob", name="Bob Kade"),
        bot("1d100 vs dodge", [Die(sides=100, face=40)], 45, modifiers=[Modifier(value=5, source="racial")]),
        bot("4d6kh3", [Die(sides=6, face=f, kept=f != 1) for f in (6, 1, 4, 3)], 13, label="stats"),
        bot("1d20", [Die(sides=20, face=12)], 99),
        StatusChanged(actor="bob", status="prone", note="line one\nline two"),
        bot("2d12 + 3", [Die(sides=12, face=5), Die(sides=12, face=6)], 11, unread="no total printed"),
    ])
    lines = [line for line in replay(str(log)).splitlines() if EVENT_LINE.match(line)]
    assert lines[2] == "3  Bob Kade rolls attack [external: Dice Maiden]: 1d100 vs dodge (40) + 5 [racial +5] = 45"
    assert lines[3] == "4  Bob Kade rolls attack [external: Dice Maiden]: 4d6kh3 (6, [1], 4, 3) = 13 # stats"
    assert lines[4] == "5  Bob Kade rolls attack [external: Dice Maiden]: 1d20 (12) = 12 (recorded total 99)"
    # an Avrae reply cut off before its total: no total of the bot's to set against, but what was not read
    assert lines[6] == ("7  Bob Kade rolls attack [external: Dice Maiden]: 2d12 (5, 6) + 3 = 14 "
                        "(read in part from the reply: no total printed)")
    assert lines[5] == "6  Bob Kade gains status prone (line one / line two)"
    markdown = [line for line in replay(str(log), "--markdown").splitlines() if EVENT_LINE.match(line)]
    assert markdown[3] == "4  Bob Kade rolls attack [external: Dice Maiden]: 4d6kh3 (6, ~~1~~, 4, 3) = 13 # stats"


def test_help_ends_with_examples() -> None:
    result = run("replay", "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert "replay" in run("--help").stdout


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "0"], "0 is not in the range 1<=x<2**63"),
        (["--to", "-1"], "-1 is not in the range 1<=x<2**63"),
        (["--from", "x"], "'x' is not a whole number"),
    ],
)
def test_a_bad_bound_is_a_usage_error(args: list[str], message: str) -> None:
    assert_usage_error(run("replay", str(SAMPLE), *args), message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "9", "--to", "3"], "--from 9 is after --to 3"),
        (["--from", "65"], "--from 65: the log ends at seq 64"),
        (["--from", "65", "--to", "70"], "--from 65: the log ends at seq 64"),
        (["--to", "65"], "--to 65: the log ends at seq 64"),
        (["--from", "60", "--to", "99"], "--to 99: the log ends at seq 64"),
    ],
)
@pytest.mark.parametrize("fmt", ["human", "json"])
def test_bounds_outside_the_log(args: list[str], message: str, fmt: str) -> None:
    assert_one_line_error(run("replay", str(SAMPLE), *args, "--format", fmt), str(SAMPLE), message)


def test_the_whole_log_is_a_valid_range() -> None:
    assert event_seqs(replay(str(SAMPLE), "--from", "1", "--to", "64")) == list(range(1, 65))
    assert event_seqs(replay(str(SAMPLE), "--from", "64")) == [64]


def test_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert_one_line_error(run("replay", str(missing)), str(missing), "no such file")


def assert_told_up_to(result: Result, fmt: str, last: int, where: str, message: str) -> None:
    """Exit 2 and one error line naming WHERE, after the events before the problem were
    told (replay streams): as text, or as a closed JSON array (then the error document), or
    as JSON Lines ending with the error document."""
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"fightlog: {where}: "), result.stderr
    assert message in result.stderr and "Traceback" not in result.output
    if fmt == "human":
        assert event_seqs(result.stdout) == list(range(1, last + 1))
        return
    docs = result.stdout.splitlines()
    steps = json.loads(docs[0]) if fmt == "json" else [json.loads(doc) for doc in docs[:-1]]
    assert [step["seq"] for step in steps] == list(range(1, last + 1))
    error = json.loads(docs[-1])["error"]
    assert error["code"] == 2 and message in error["message"]
    assert len(docs) == (2 if fmt == "json" else last + 1)


def _formatted(fmt: str) -> list[str]:
    return {"human": [], "json": ["--format", "json"], "jsonl": ["--jsonl"]}[fmt]


@pytest.mark.parametrize("fmt", ["human", "json", "jsonl"])
def test_a_damaged_log_is_told_up_to_the_damage(fmt: str, tmp_path: Path) -> None:
    log = damaged_log(tmp_path / "damaged.jsonl")
    result = run("replay", str(log), *_formatted(fmt))
    assert_told_up_to(result, fmt, 16, f"{log}:17", "prev does not match line 16")


@pytest.mark.parametrize("name", sorted(BAD_RULINGS))
@pytest.mark.parametrize("fmt", ["human", "json", "jsonl"])
def test_a_ruling_the_fold_cannot_honour(name: str, fmt: str, tmp_path: Path) -> None:
    ruling, message = BAD_RULINGS[name]
    log = ruled_log(tmp_path / "ruled.jsonl", ruling)
    assert_told_up_to(run("replay", str(log), *_formatted(fmt)), fmt, 3, f"{log}:4", message)
    assert event_seqs(replay(str(log), "--to", "3")) == [1, 2, 3]


@pytest.mark.parametrize("log", HONEST, ids=lambda p: p.stem)
def test_jsonl_is_the_array_one_step_a_line(log: Path) -> None:
    lines = replay(str(log), "--jsonl").splitlines()
    assert [json.loads(line) for line in lines] == replay_json(str(log))


def test_a_range_past_the_end_is_refused_before_anything_is_told(tmp_path: Path) -> None:
    last = len(DISPUTED.read_bytes().splitlines())
    for args, message in [(["--from", str(last + 1)], f"--from {last + 1}: the log ends at seq {last}"),
                          (["--to", str(last + 5)], f"--to {last + 5}: the log ends at seq {last}")]:
        result = run("replay", str(DISPUTED), *args)
        assert result.exit_code == 2 and result.stdout == "" and message in result.stderr


@pytest.mark.parametrize("fmt", ["human", "json", "jsonl"])
@pytest.mark.parametrize("share", [0.01, 0.3, 0.58, 0.99])
def test_two_processes_tell_the_same_bytes(fmt: str, share: float, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A large log is told by this process and a forked child (cli/replay.py); forced here on
    small logs: the same output, and a damaged log told up to the damage either side of the
    split, with the same error."""
    import fightlog.cli.replay as module

    logs = [DISPUTED, *HONEST[:3]]
    damaged = damaged_log(tmp_path / "damaged.jsonl")
    expected = {log: run("replay", str(log), *_formatted(fmt)) for log in [*logs, damaged]}
    monkeypatch.setattr(module, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(module, "SPLIT_MIN_EVENTS", 2)
    monkeypatch.setattr(module, "SHARE", dict.fromkeys(module.SHARE, share))
    for log in [*logs, damaged]:
        got = run("replay", str(log), *_formatted(fmt))
        assert (got.exit_code, got.stdout, got.stderr) == (expected[log].exit_code, expected[log].stdout, expected[log].stderr)
    split = run("replay", str(DISPUTED), "--from", "30", "--to", "90", *_formatted(fmt))
    monkeypatch.setattr(module, "SPLIT_MIN_EVENTS", 10**9)
    assert split.stdout == run("replay", str(DISPUTED), "--from", "30", "--to", "90", *_formatted(fmt)).stdout


@pytest.mark.parametrize("has_buffer", [True, False], ids=["bytes under the text layer", "text only"])
def test_the_childs_spool_is_copied_whole_in_small_blocks(has_buffer: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child's part is copied a small block at a time (1 MiB blocks read, decoded and
    encoded again added 3-4 MiB to the peak): every byte once, in order, after what this
    process wrote, and a character cut by a block's edge whole."""
    import io

    import fightlog.cli.replay as module

    monkeypatch.setattr(module, "_COPY_BLOCK", 7)
    told = "".join(f"{seq:>3}  Ünna rolls 1d100 — ✓ {seq}\n" for seq in range(1, 40))
    spool = io.BytesIO(told.encode("utf-8"))
    spool.seek(0, io.SEEK_END)  # where the child left it
    raw = io.BytesIO()
    out: Any = io.TextIOWrapper(raw, encoding="utf-8", newline="\n") if has_buffer else io.StringIO()
    out.write("mine\n")
    module._copy_out(spool, out)
    out.flush()
    got = raw.getvalue().decode("utf-8") if has_buffer else out.getvalue()
    assert got == "mine\n" + told


def test_a_log_that_never_opens_is_the_json_error_alone(tmp_path: Path) -> None:
    """``replay --format json`` of a missing file printed "[]" and then the error: two
    documents where docs/cli.md promises one."""
    result = run("replay", str(tmp_path / "missing.jsonl"), "--format", "json")
    assert result.exit_code == 2 and result.stdout.count("\n") == 1
    assert json.loads(result.stdout)["error"]["message"] == "no such file"


def test_jsonl_with_format_human_is_a_usage_error_and_a_word_for_a_seq_says_so() -> None:
    """``--jsonl --format human`` printed JSON Lines silently; ``--at abc`` was "not a valid
    integer range"."""
    conflict = run("replay", str(SAMPLE), "--jsonl", "--format", "human")  # --jsonl asks errors as JSON too
    assert conflict.exit_code == 2 and conflict.stderr == (
        "fightlog: replay: --jsonl writes JSON Lines: it goes with no --format, or --format json\n")
    assert_usage_error(run("state", str(SAMPLE), "--at", "abc"), "'abc' is not a whole number (1<=x<2**63)")
    for asked in (["--jsonl"], ["--format", "json"]):  # --markdown was accepted and did nothing
        conflict = run("replay", str(SAMPLE), "--markdown", *asked)
        assert conflict.exit_code == 2 and conflict.stderr == (
            "fightlog: replay: --markdown is for the human format (JSON holds the dice, not their text)\n")


def test_a_pools_maximum_changed_by_a_ruling_is_a_change(tmp_path: Path) -> None:
    """A join amended to another sheet (Rook's HP 60 -> 80): ``state`` showed 14/80, the
    replay's changes only the HP, not the maximum."""
    import shutil

    log = tmp_path / "alley.jsonl"
    shutil.copy(SCENARIO_LOGS / "alley-duel.jsonl", log)
    assert run("rule", str(log), "amend", "4", "--set", "pools.hp=80", "--by", "G", "--reason", "sheet").exit_code == 0
    last = json.loads(run("replay", str(log), "--jsonl").stdout.splitlines()[-1])
    assert {"subject": "rook", "field": "hp max", "before": 60, "after": 80, "part": "combatant"} in last["changes"]
    assert "Rook Tanaka HP max 60 -> 80" in run("replay", str(log)).stdout


def test_a_ruling_is_told_the_same_whether_its_target_is_recent_or_read_again() -> None:
    """What a ruling is about is found among the events told last, or read from the log when
    it is older than they reach: told alike either way."""
    from unittest import mock

    from fightlog.cli import replay as replay_command

    told = replay(str(DISPUTED))
    assert "amends seq" in told or "voids seq" in told
    with mock.patch.object(replay_command, "RECENT_STEPS", 1):
        assert replay(str(DISPUTED)) == told
