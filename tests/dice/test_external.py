"""The audit's re-evaluation of external rolls under their dialect: each discrepancy named."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from fightlog.audit.dice_checks import DiceAudit
from fightlog.dice.dialects import DIALECTS
from fightlog.events.model import DiceRolled, Die
from fightlog.dice.external import check_event, check_reply, reevaluated
from fightlog.dice.replies import read_replies, read_reply
from fightlog.dice.verify import RollVerifier


def avrae(roll: str, total: int) -> str:
    return f"<@42>  :game_die:\n**Result**: {roll}\n**Total**: {total}"


@pytest.mark.parametrize(
    ("roll", "total", "code", "message"),
    [
        ("1d20 (21) + 5", 26, "roll-range", "die 1 shows 21, outside 1..20 of a d20"),
        ("4d6kh3 (6, 5, ~~3~~, 2)", 13, "roll-kept", "4d6kh3 keeps 6, 5, 3 but the reply kept 6, 5, 2"),
        ("1d20 (14) + 5", 25, "roll-total",
         "total 25 recorded, dice and modifiers give 19 (1d20 (14) + 5 = 19)"),
        ("2d20kh1 (7, ~~12~~) + 4", 11, "roll-kept", "2d20kh1 keeps 12 but the reply kept 7"),
        ("1d20ro1 (**1**) + 2", 3, "roll-reroll", "1d20ro1 rerolls die 1 (1) but the reply kept it"),
        ("1d20ro1 (~~5~~, 15)", 15, "roll-reroll",
         "the reply rerolled die 1 (5 -> 15) but 1d20ro1 does not reroll it"),
        ("2d6e6 (**6**, 3)", 9, "roll-explode", "2d6e6 explodes into 1 added die but the reply shows 0"),
        ("2d6e6 (4, 3, 5!)", 12, "roll-explode", "2d6e6 explodes into 0 added dice but the reply shows 1"),
        ("1d% (45)", 45, "roll-range", "die 1 shows 45, not a face of a die of 1d% (0, 10, ..., 90)"),
        ("4d6mi2 (1 -> 3, 5, 3, **6**)", 17, "roll-forced", "die 1 is forced from 1 to 3, but mi2 makes a 1 2"),
        ("4d6 (1 -> 3, 5, 3, **6**)", 17, "roll-forced", "die 1 is forced from 1 to 3, but no mi or ma"),
        ("1001d6 (3)", 3, "roll-limit", "over the avrae dialect's limits: 1001d6 : 1001 dice"),
    ],
)
def test_each_discrepancy_is_named(roll: str, total: int, code: str, message: str) -> None:
    read = read_reply(avrae(roll, total))
    assert read is not None
    found = check_reply(read)
    assert [d.code for d in found] == [code]
    assert found[0].message.startswith(f"Avrae reply ({read.notation}): ")
    assert message in found[0].message


@pytest.mark.parametrize(("roll", "total", "unread"), [
    ("3d6 (2, 4)", 6, "3d6 shows 2 of its 3 dice"),
    ("1d20 (?) + 5", 17, "a face that is not a number: '?'"),
])
def test_a_reply_read_only_in_part_is_not_judged_on_what_was_not_read(roll: str, total: int, unread: str) -> None:
    """A hidden face or a list cut short is the reader's gap, not the roller's doing: the event
    says what was not read, and only its notation is judged (a hidden d20 recorded as 0 was a
    roll-range against the roller)."""
    read = read_reply(avrae(roll, total))
    assert read is not None and read.problems
    event = read.event()
    assert event.unread is not None and unread in event.unread
    assert check_reply(read) == [] and check_event(event, "roll") == []
    over = read_reply(avrae("1001d6 (3, ?)", 3))
    assert over is not None and over.event().unread
    assert [d.code for d in check_reply(over)] == ["roll-limit"]  # the notation alone says it


def test_a_wrong_pattern_and_a_wrong_total_are_both_named() -> None:
    read = read_reply(avrae("4d6kh3 (6, 5, ~~3~~, 2)", 15))
    assert read is not None
    assert [d.code for d in check_reply(read)] == ["roll-kept", "roll-total"]


def test_a_clean_reply_reevaluates_to_its_total() -> None:
    read = read_reply(avrae("2d6ro<3 (**~~1~~**, 4, 5) + 3", 12))
    assert read is not None and check_reply(read) == []
    result = reevaluated(read.event())
    assert result is not None and result.total == 12
    assert [d.rerolled for d in result.dice] == [[1], []]


def test_fightlog_notation_by_default_and_faces_of_other_dice() -> None:
    event = DiceRolled(roller="x", notation="2d6!", generator="external", total=13,
                       dice=[Die(sides=6, face=6), Die(sides=6, face=3), Die(sides=6, face=4, exploded=True)])
    assert check_event(event, "roll") == []
    unknown = replace(event, dialect="no-such-bot")
    assert [d.code for d in check_event(unknown, "roll")] == ["roll-notation"]


def test_verify_and_the_audit_report_it() -> None:
    read = read_reply(avrae("4d6kh3 (6, 5, ~~3~~, 2)", 13), roller="carol")
    assert read is not None
    event = replace(read.event(), seq=7)
    verifier = RollVerifier()
    verifier.feed(7, event)
    findings = verifier.finish()
    assert [(f.line, f.code) for f in findings] == [(7, "roll-kept")]
    assert "external roll by carol (4d6kh3): 4d6kh3 keeps 6, 5, 3 but the roll kept 6, 5, 2" in str(findings[0])
    audit = DiceAudit()
    audit.feed(event)
    assert [f.code for f in audit.finish()] == ["dice.kept", "dice.unverifiable"]


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_an_expression_over_the_limits_is_flagged_in_every_dialect(dialect: str) -> None:
    event = DiceRolled(roller="x", notation="1001d6", generator="external", total=3,
                       dice=[Die(sides=6, face=3)], dialect=dialect)
    found = check_event(event, "roll")
    assert [d.code for d in found] == ["roll-limit"]
    assert found[0].message.startswith(f"roll: over the {dialect} dialect's limits: 1001d6 : 1001 dice")


@pytest.mark.parametrize("value", [10_000_000, -(2**63), 2**63])
def test_a_modifier_over_the_limits_is_a_finding_not_a_refused_log(value: int) -> None:
    """The log records what a HUD claimed: a modifier past the limits is its claim, named as
    ``roll-limit`` (the audit's ``dice.limit``); before, re-evaluating it refused the whole log
    with a message naming neither file nor line."""
    from fightlog.events.model import Modifier

    event = DiceRolled(roller="x", notation="1d20", generator="external", total=9,
                       dice=[Die(sides=20, face=9)], modifiers=[Modifier(value=value, source="racial")])
    found = check_event(event, "roll")
    assert [d.code for d in found] == ["roll-limit"]
    assert found[0].message == (f"roll: over the limits: modifier {value} (racial) is too large; modifiers are "
                                "limited to +/-9999999")
    assert check_event(replace(event, modifiers=[Modifier(value=9_999_999, source="racial")], total=10_000_008),
                       "roll") == []
    audit = DiceAudit()
    audit.feed(replace(event, seq=3))
    assert [f.code for f in audit.finish()] == ["dice.limit", "dice.unverifiable"]


def test_a_modifier_without_a_source_is_a_finding_and_a_verdict_names_its_own_source() -> None:
    from fightlog.events.model import Modifier

    event = DiceRolled(roller="x", notation="1d20", generator="external", total=10,
                       dice=[Die(sides=20, face=9)], modifiers=[Modifier(value=1, source=" ")])
    found = check_event(event, "roll")
    assert [(d.code, d.message) for d in found] == [("roll-notation", "roll: its modifiers are refused: modifier 1 has "
                                                                      "no source")]
    big = [Modifier(value=10**8, source="racial")]
    first = check_event(replace(event, modifiers=big), "roll")
    second = check_event(replace(event, modifiers=[Modifier(value=10**8, source="scope")]), "roll")
    assert "(racial)" in first[0].message and "(scope)" in second[0].message  # not the first roll's verdict again


def maiden(request: str, tally: str, result: int, rerolls: int = 0) -> str:
    shown = f" Rerolls: `{rerolls}`" if rerolls else ""
    return f"Alice Request: `[{request}]` Roll: `[{tally}]`{shown} Result: `{result}`"


@pytest.mark.parametrize(
    ("text", "codes", "words"),
    [
        # Dice Maiden prints only final faces: a reroll once may end on a face it rerolls
        (maiden("4d6 r2", "6, 5, 3, 2", 16, rerolls=1), [], ""),
        # ... but an endless reroll cannot
        (maiden("4d6 ir2", "6, 5, 3, 2", 16, rerolls=1), ["roll-reroll"], "4d6 ir2 draws more dice than the reply shows"),
        (maiden("3d6 e6", "6, 4, 3", 13), ["roll-explode"], "explodes into 1 added die but the reply shows 0"),
        (maiden("4d6 d1", "6, 5, 3, 2", 14), [], ""),
        (maiden("1d%", "57", 57), [], ""),
        (maiden("4dF", "3, 2, 1, 3", 1), [], ""),
        (maiden("4dF", "3, 2, 1, 3", 2), ["roll-total"], "total 2 recorded, dice and modifiers give 1"),
        ("Alice Request: `[6d10 t7 b1]` Roll: `[9, 8, 7, 4, 2, 1]` Botches: `1` Result: `3`", [], ""),
        ("Alice Request: `[6d10 t7 b1]` Roll: `[9, 8, 7, 4, 2, 1]` Botches: `2` Result: `3`", ["roll-botches"],
         "the reply shows 2 botches but 1 of its faces is 1 or less (b1)"),
        (maiden("3d6 e6", "6, 4, 3], [5", 18), [], ""),
        (maiden("4d6 k3", "6, 5, 3, 2", 15), ["roll-total"], "total 15 recorded, dice and modifiers give 14"),
        (maiden("6d10 t7", "10, 9, 7, 5, 3, 1", 4), ["roll-total"], "total 4 recorded, dice and modifiers give 3"),
    ],
)
def test_dice_maiden_replies_under_their_dialect(text: str, codes: list[str], words: str) -> None:
    read = read_reply(text)
    assert read is not None and read.bot == "Dice Maiden"
    found = check_reply(read)
    assert [d.code for d in found] == codes
    assert words in " ".join(d.message for d in found)


def test_the_forced_face_mi_gives_adds_up() -> None:
    read = read_reply(avrae("4d6mi2 (1 -> 2, 5, 3, **6**)", 16))
    assert read is not None and check_reply(read) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("<@1>\nRolling 3 iterations...\n1d20 (5) + 2 = `7`\n1d20 (**20**) + 2 = `22`\n1d20 (11) + 2 = `13`\n43 total.",
         "the reply's total is 43 but its 3 rolls' totals (7, 22, 13) sum to 42"),
        ("Alice Request: `[2 4d6]` Rolls:\n`[6, 5, 3, 2]` Result: `16`\n`[4, 4, 3, 1]` Result: `12`\nResults Total: `29`",
         "the reply's Results Total is 29 but its 2 rolls' totals (16, 12) sum to 28"),
    ],
)
def test_a_set_total_its_rolls_do_not_sum_to_is_named(text: str, words: str) -> None:
    rolls = read_replies(text)
    found = [d for r in rolls for d in check_reply(r)]
    assert [d.code for d in found] == ["roll-sum"]
    assert words in found[0].message
    right = text.replace("43 total.", "42 total.").replace("`29`", "`28`")
    assert [d for r in read_replies(right) for d in check_reply(r)] == []


@pytest.mark.parametrize(
    ("grade", "test", "codes"),
    [("failure", ">= 15", ["roll-outcome"]), ("success", ">= 15", []), ("critical-success", ">= 15", []),
     ("success", ">= 20", ["roll-outcome"]), ("failure", ">= 20", [])],
)
def test_rpg_sage_grades_are_checked_against_the_test(grade: str, test: str, codes: list[str]) -> None:
    read = read_reply(f"[{grade}] <i><b>19</b></i> `Attack` \u27f5 [14]1d20 + 5 {test}")
    assert read is not None and read.outcome == grade
    assert [d.code for d in check_reply(read)] == codes


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("(1d6 (3), ~~1d6 (**6**)~~)kh1 = `3`", ["roll-kept"]),
        ("(~~1d6 (3)~~, 1d6 (**6**))kh1 = `6`", []),
        ("(1d6 (3), 1d6 (**6**))kh1 = `6`", []),  # Discord's rendered text: no strikes to check
        ("(~~1d6 (3)~~, 1d6 (**6**))kh1 = `9`", ["roll-total"]),
    ],
)
def test_the_set_items_a_reply_strikes_are_checked(text: str, codes: list[str]) -> None:
    read = read_reply(text)
    assert read is not None
    found = check_reply(read)
    assert [d.code for d in found] == codes
    if codes == ["roll-kept"]:
        assert found[0].message.endswith(
            "(1d6, 1d6)kh1 drops term 1 (1d6 = 3) but the reply dropped term 2 (1d6 = 6)")
