"""Defects found in review of the dialects engine: each test failed before its fix."""

from __future__ import annotations

import re

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.errors import DiceError, DiceLimitError, DiceSyntaxError
from fightlog.dice.dialects import DIALECTS, compile_in, roll_all
from fightlog.dice.dialects import avrae, dice_maiden, roll20, rpg_sage
from fightlog.dice.dialects.syntax import Syntax

from fightlog.events.model import FORMAT_VERSION, AnyEvent, CombatantJoined, SceneEnded, SceneStarted
from fightlog.dice import FairGenerator, RollResult, RollVerifier, breakdown, dice_commitment, dice_rolled, read_roll, roll
from fightlog.events.store import MemoryStore

_SYNTAX: dict[str, Syntax] = {
    "avrae": avrae.SYNTAX, "dice-maiden": dice_maiden.SYNTAX, "roll20": roll20.SYNTAX, "rpg-sage": rpg_sage.SYNTAX,
}
SEED = bytes(range(32)).hex()
SCENE = "duel-1"
DIALECT_ROLLS = {
    "roll20": "3d6!!+{2d20}kh1",
    "avrae": "4d6kh3+1d%",
    "dice-maiden": "4d6 k3 + 2",
    "rpg-sage": "2d6+1d8",
}


def _dialect_log() -> list[AnyEvent]:
    gen = FairGenerator(SEED, SCENE, ["a1"])
    events: list[AnyEvent] = [
        SceneStarted(scene=SCENE, ruleset="roe7", format=FORMAT_VERSION, dice=dice_commitment(SEED)),
        CombatantJoined(actor="bob", name="Bob", salt="a1"),
    ]
    for index, (dialect, expr) in enumerate(DIALECT_ROLLS.items()):
        events.append(dice_rolled(roll(expr, gen, index, dialect=dialect), roller="bob"))
    events.append(SceneEnded(seed=SEED, winner="bob"))
    return events


def _verify(events: list[AnyEvent]) -> list[str]:
    store = MemoryStore()
    store.append(events)
    verifier = RollVerifier(SEED)
    for line, event in store.read():
        verifier.feed(line, event)
    return [f.message for f in verifier.finish()]


def test_engine_rolls_keep_their_dialect_and_verify_clean() -> None:
    events = _dialect_log()
    assert [getattr(e, "dialect", "-") for e in events[2:-1]] == list(DIALECT_ROLLS)
    assert _verify(events) == []


@pytest.mark.parametrize("at", range(2, 2 + len(DIALECT_ROLLS)))
def test_a_tampered_face_in_a_dialect_roll_is_named(at: int) -> None:
    events = _dialect_log()
    ev = events[at]
    assert hasattr(ev, "dice")
    first = ev.dice[0]
    face = 1 if first.face != 1 else 2
    events[at] = msgspec.structs.replace(ev, dice=[msgspec.structs.replace(first, face=face), *ev.dice[1:]])
    messages = _verify(events)
    assert any(f"face {face} recorded, seed gives {first.face}" in m for m in messages), messages


# --------------------------------------------------------------------------- 1: runs of !! / !p


@pytest.mark.parametrize("expr", ["1d6!!!!", "1d6!p!p", "3d6!!!!!!", "2d6!!>5!!<2"])
def test_roll20_runs_of_compounding_or_penetrating_are_refused(expr: str) -> None:
    with pytest.raises(DiceSyntaxError, match="written twice in a row"):
        compile_in(expr, "roll20")


def _alphabet(dialect: str) -> list[str]:
    syntax = _SYNTAX.get(dialect)
    ops = list(syntax.ops) + list(syntax.mark_ops) + list(syntax.letters) if syntax else []
    return ops + list("0123456789dDF%<>=!+-*/(){}[],# .khlpreaf") + ["//", "**", ">=", "<=", "=="]


@pytest.mark.parametrize("dialect", list(DIALECTS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_string_of_a_dialects_alphabet_compiles_and_rolls_or_is_a_dice_error(dialect: str, data: st.DataObject) -> None:
    pieces = data.draw(st.lists(st.sampled_from(_alphabet(dialect)), max_size=14))
    text = "".join(pieces)
    try:
        for result in roll_all(text, FairGenerator(SEED, SCENE, []), 0, dialect=dialect):
            assert isinstance(result.total, int)
    except DiceError:
        pass


# --------------------------------------------------------------------------- 2, 3: roll20 groups


def _roll20(expr: str, seed: int = 3) -> RollResult:
    return roll(expr, FairGenerator(bytes([seed]) * 32, SCENE, []), 0, dialect="roll20")


def test_a_single_roll_group_keeps_among_all_its_dice() -> None:
    result = _roll20("{4d6+3d8}k4")
    faces = sorted((d.face for d in result.dice), reverse=True)
    assert result.total == sum(faces[:4])
    assert sum(d.kept for d in result.dice) == 4
    assert "}kh4 = " in breakdown(result)


def test_a_single_die_group_keeps_the_higher_die() -> None:
    for seed in range(8):
        result = _roll20("{2d20}kh1", seed)
        assert result.total == max(d.face for d in result.dice)


def test_a_multi_roll_group_keeps_the_highest_roll_total() -> None:
    for seed in range(8):
        result = _roll20("{4d6, 3d8}kh1", seed)
        four, three = sum(d.face for d in result.dice[:4]), sum(d.face for d in result.dice[4:])
        assert result.total == max(four, three)


@pytest.mark.parametrize("expr", ["{3d6}>4", "{4d6, 3d10}>10", "{2d6} < 3"])
def test_roll20_group_targets_are_refused_not_read_as_a_label(expr: str) -> None:
    with pytest.raises(DiceSyntaxError, match="target after a roll20 group"):
        compile_in(expr, "roll20")


# --------------------------------------------------------------------------- 5: repeats and the dice limit


@pytest.mark.parametrize(("expr", "dialect"), [("100#1000d6", "rpg-sage"), ("20 100d6", "dice-maiden"), ("2#501d6", "rpg-sage")])
def test_repeats_count_against_the_dice_limit(expr: str, dialect: str) -> None:
    with pytest.raises(DiceLimitError, match="at most 1000 dice"):
        compile_in(expr, dialect)


def test_repeats_within_the_dice_limit_roll() -> None:
    assert len(roll_all("2#500d6", FairGenerator(SEED, SCENE, []), 0, dialect="rpg-sage")) == 2


# --------------------------------------------------------------------------- 6: trailing text


@pytest.mark.parametrize(
    ("expr", "dialect", "column"),
    [
        ("1d6mi7", "roll20", 5),
        ("1d20 >= 15 >= 3", "roll20", 6),
        ("1.5d6", "roll20", 2),
        ("1d6!!p", "roll20", 6),
        ("1d6%0", "rpg-sage", 4),
        ("6#6#3d6", "rpg-sage", 4),
    ],
)
def test_malformed_trailing_text_is_refused_naming_the_column(expr: str, dialect: str, column: int) -> None:
    with pytest.raises(DiceSyntaxError, match="expected an operator") as caught:
        compile_in(expr, dialect)
    assert caught.value.column == column


@pytest.mark.parametrize(
    ("expr", "dialect", "label"),
    [("1d20+5 Roll for Initiative", "roll20", "Roll for Initiative"), ("1d4 piercing + 2 strength", "rpg-sage", "piercing strength")],
)
def test_words_after_the_expression_are_still_its_comment(expr: str, dialect: str, label: str) -> None:
    assert compile_in(expr, dialect).label == label


# --------------------------------------------------------------------------- 7: fightlog's own notation


def test_an_explosion_ending_in_a_comparison_is_refused_for_a_new_roll_naming_both_readings() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        roll("3d10!>=8", FairGenerator(SEED, SCENE, []), 0)
    message = str(caught.value)
    assert "3d10!>=8mi1" in message and "3d10!10>=8" in message and caught.value.column == 5


def test_the_ambiguous_explosion_still_reads_from_an_old_log() -> None:
    old = roll("3d10!>=8mi1", FairGenerator(SEED, SCENE, []), 0)
    event = msgspec.structs.replace(dice_rolled(old, roller="bob"), notation="3d10!>=8")
    assert read_roll(event).total == old.total


@pytest.mark.parametrize(
    ("expr", "hint"),
    [
        ("6 3d6", "6 repeats of 3d6"),
        ("4d6pl1", "write dl1"),
        ("1d20!p", "--dialect roll20"),
        ("3d6x", "write !"),
        ("1d20==20", "1d20=20"),
        ("7 % 3", "--dialect avrae"),
        ("1.5", "--dialect avrae"),
        ("1d20+5attack", "1d20+5 # attack"),
    ],
)
def test_refusals_name_the_nearest_spelling(expr: str, hint: str) -> None:
    with pytest.raises(DiceSyntaxError, match=re.escape(hint)):
        roll(expr, FairGenerator(SEED, SCENE, []), 0)


def test_roll20_division_says_what_roll20_means() -> None:
    with pytest.raises(DiceSyntaxError, match="divides exactly") as caught:
        compile_in("1d6/2", "roll20")
    assert "//" not in str(caught.value)
