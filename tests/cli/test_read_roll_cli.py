"""``fightlog read-roll``: a pasted reply read, checked, and the exit code saying how it went."""

from __future__ import annotations

import json

from click.testing import CliRunner

from fightlog.cli.main import cli

AVRAE = "<@42>  :game_die:\n**Result**: 4d6kh3 (6, 5, ~~2~~, 3) + 1\n**Total**: 15"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["read-roll", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_reply_that_adds_up_exits_0() -> None:
    code, out, _ = run(AVRAE)
    assert code == 0
    assert out == "Avrae by 42: 4d6kh3 (6, 5, [2], 3) + 1 = 15 [dialect avrae]\n"


def test_standard_input_and_the_event_as_json() -> None:
    code, out, _ = run("--format", "json", "--roller", "alice", "-", stdin=AVRAE)
    assert code == 0
    doc = json.loads(out)
    assert doc["clean"] is True
    (roll,) = doc["rolls"]
    event = roll["event"]
    assert (event["kind"], event["generator"], event["tool"], event["dialect"]) == (
        "dice_rolled", "external", "Avrae", "avrae")
    assert (event["roller"], event["notation"], event["total"]) == ("alice", "4d6kh3 + 1", 15)
    assert [d.get("kept", True) for d in event["dice"]] == [True, True, False, True]
    assert event["origin"] == {"medium": "discord", "author": "Avrae", "raw": AVRAE}
    assert roll["discrepancies"] == [] and roll["problems"] == []


def test_a_discrepancy_exits_1_and_is_named() -> None:
    code, out, _ = run("**Result**: 1d20 (14) + 5\n**Total**: 25")
    assert code == 1
    assert out.splitlines()[1] == (
        "  roll-total: Avrae reply: total 25 recorded, dice and modifiers give 19 (1d20 (14) + 5 = 19)")


def test_a_cut_reply_exits_1_with_what_is_missing() -> None:
    code, out, _ = run("--bot", "avrae", "**Result**: 3d6 (4, 2...\n**Total**: 12")
    assert code == 1
    assert "  unread: the roll is cut short" in out


def test_no_reply_and_bad_usage_exit_2() -> None:
    code, _, err = run("Alice swings at Bob.")
    assert code == 2
    assert err == "fightlog: TEXT: not a roll reply of any bot read (Avrae, Dice Maiden, RPG Sage, SL HUD)\n"
    code, _, err = run("--bot", "dice-maiden", AVRAE)
    assert code == 2 and "not a roll reply of dice-maiden" in err
    code, _, err = run("--bot", "nobody", "x")
    assert code == 2 and "Invalid value for '--bot'" in err
    code, _, err = run("--roller", " ", AVRAE)  # was silently the reply's own
    assert code == 2 and "Invalid value for '--roller': give a name" in err


def test_standard_input_keeps_no_trailing_newline_in_the_raw_reply() -> None:
    code, out, _ = run("--format", "json", "-", stdin=AVRAE + "\n")
    assert code == 0 and json.loads(out)["rolls"][0]["event"]["origin"]["raw"] == AVRAE


def test_each_claim_a_reply_contradicts_exits_1() -> None:
    code, out, _ = run("**Result**: 4d6mi2 (1 -> 3, 5, 3, **6**)\n**Total**: 17")
    assert code == 1 and "  roll-forced: Avrae reply: die 1 is forced from 1 to 3, but mi2 makes a 1 2" in out
    code, out, _ = run("**Result**: 1d% (45)\n**Total**: 45")
    assert code == 1 and "  roll-range: " in out
    code, out, _ = run("[failure] <i><b>19</b></i> `Attack` \u27f5 [14]1d20 + 5 >= 15")
    assert code == 1
    assert out.splitlines() == [
        "RPG Sage: 1d20 (14) + 5 = 19 (failure) # Attack [dialect rpg-sage]",
        "  roll-outcome: RPG Sage reply: total 19 passes >= 15 but the reply says failure",
    ]
