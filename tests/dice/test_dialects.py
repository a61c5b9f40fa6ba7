"""The dialects against their bots' documented examples (tests/dice/data/dialect_examples.json),
the registry and the API, and the properties every dialect keeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.errors import DiceError, DiceLimitError, DiceValueError
from fightlog.dice import FairGenerator, compile_expression
from fightlog.dice import roll as engine_roll
from fightlog.dice.dialects import DIALECTS, compile_in, roll, roll_all
from tests.dice.conftest import ModuloStream, ScriptedStream

EXAMPLES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "dialect_examples.json").read_text()
)["examples"]
GEN = FairGenerator(bytes(range(32)), "dialects")


@pytest.mark.parametrize("case", EXAMPLES, ids=lambda c: f"{c['dialect']}:{c['expr']}")
def test_documented_examples_mean_what_the_bot_says(case: dict[str, Any]) -> None:
    expr = compile_in(case["expr"], case["dialect"])
    stream = ScriptedStream(case["faces"])
    results = [expr.roll(stream) for _ in range(expr.repeat)]
    assert stream.pos == len(case["faces"]), "every scripted face is drawn"
    first, expect = results[0], case["expect"]
    assert first.total == expect["total"]
    assert expr.low <= first.total <= expr.high
    checks = {
        "successes": lambda: first.successes,
        "failures": lambda: first.failures,
        "passed": lambda: first.passed,
        "label": lambda: first.label,
        "dice": lambda: len(first.dice),
        "repeat": lambda: len(results),
    }
    for key, got in checks.items():
        if key in expect:
            assert got() == expect[key], key


def test_every_dialect_has_a_description_a_source_and_a_working_example() -> None:
    assert list(DIALECTS)[0] == "fightlog"
    assert {"fightlog", "avrae", "dice-maiden", "roll20", "rpg-sage"} <= set(DIALECTS)
    for name, dialect in DIALECTS.items():
        assert dialect.name == name and dialect.description and dialect.source
        compile_in(dialect.example, name)


def test_fightlog_is_compile_expression_and_the_cache_holds() -> None:
    assert compile_in("3d20kh1+5") is compile_expression("3d20kh1+5")
    assert compile_in("(1d6, 1d6)kh1", "avrae") is compile_in("(1d6, 1d6)kh1", "avrae")
    assert compile_in("4d6 k3", "dice-maiden").dialect == "dice-maiden"


def test_an_unknown_dialect_names_the_known_ones() -> None:
    with pytest.raises(DiceValueError, match="unknown dice dialect 'nope'; known: fightlog, avrae"):
        compile_in("1d20", "nope")


def test_roll_takes_a_dialect_and_repeats_are_separate_engine_rolls() -> None:
    one = engine_roll("(1d20, 1d20)kh1", GEN, 4, dialect="avrae")
    assert one.expression.dialect == "avrae" and one.index == 4
    rolls = roll_all("3#1d20", GEN, 7, dialect="rpg-sage")
    assert [r.index for r in rolls] == [7, 8, 9]
    assert [r.total for r in rolls] == [roll("1d20", GEN, i).total for i in (7, 8, 9)]


def test_the_same_text_means_different_rolls_in_different_dialects() -> None:
    faces = [4, 3, 5, 3, 4, 3, 6, 1]
    assert compile_in("8d6>4", "roll20").roll(ScriptedStream(faces)).total == 4  # 4s count
    with pytest.raises(DiceError, match="ambiguous"):
        compile_in("8d6>4")
    assert compile_in("8d6>=5").roll(ScriptedStream(faces)).total == 2
    assert compile_in("1d%", "avrae").roll(ScriptedStream([1])).total == 0
    assert compile_in("1d%").roll(ScriptedStream([1])).total == 1


def test_avrae_rr_rerolls_until_the_condition_fails() -> None:
    stream = ModuloStream(raws=[0] * 150 + [5])  # 150 ones, then a 6
    result = compile_in("1d6rr1", "avrae").roll(stream)
    assert result.total == 6 and stream.drawn == 151  # fightlog's rr stops after 100
    assert compile_expression("1d6rr1").roll(ModuloStream(raws=[0] * 150 + [5])).total == 1


# ---------------------------------------------------------------- properties, every dialect

NAMES = sorted(DIALECTS)
PIECES = {
    "fightlog": ["1d20", "4d6kh3", "3d6!", "5d6>=5", "2d6ro1", "+", "-", "*", "//", "(", ")", "2", "# x"],
    "avrae": ["1d20", "4d6kh3", "(1d6, 2d4)", "k>2", "e6", "ra1", "rr1", "1d%", "/", "%", "==", ",", "[fire]", "2", " x"],
    "dice-maiden": ["4d6", " k3", " e6", " ie", " t7", " f1", " r2", "+d20", "-d20", "+", "/", "2 ", "! x"],
    "roll20": ["8d6", ">4", "!!", "!p", "r<2", "{", "}", "kh1", "4dF", "f1", "cs>5", ",", "+", "2", " x"],
    "rpg-sage": ["3#", "1d20", "dl1", "x", "bt2", " >= ", "gte", "10", "+", "*", " x"],
}


class CycleStream(ModuloStream):
    """``ModuloStream`` over its raw numbers again and again (never runs out)."""

    def draw(self, sides: int) -> int:
        raw = self.raws[self.pos % len(self.raws)]
        self.pos += 1
        self.drawn += 1
        return raw % sides + 1


@st.composite
def dialect_text(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(NAMES))
    parts = draw(st.lists(st.sampled_from(PIECES[name]), min_size=1, max_size=7))
    return name, "".join(parts)


@given(dialect_text(), st.lists(st.integers(0, 2**32), min_size=1, max_size=40))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_compiled_roll_is_deterministic_and_within_bounds(pair: tuple[str, str], raws: list[int]) -> None:
    name, text = pair
    try:
        expr = compile_in(text, name)
    except DiceError:
        return
    first = expr.roll(CycleStream(raws))
    again = expr.roll(CycleStream(raws))
    assert first.terms == again.terms and first.total == again.total
    assert expr.low <= first.value <= expr.high


@given(st.sampled_from(NAMES), st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_an_expression_or_a_clean_error(name: str, text: str) -> None:
    try:
        compile_in(text, name)
    except DiceError:
        pass


OVER = {
    "characters": "1d6+" * 70,
    "digits": "1d12345678",
    "sides": "1d1000001",
    "dice": "1001d6",
    "depth": "(" * 40 + "1" + ")" * 40,
    "total": "500d1000000*500d1000000",
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("limit", list(OVER))
def test_every_limit_holds_in_every_dialect_before_any_die_is_drawn(name: str, limit: str) -> None:
    text = OVER[limit]
    if name == "rpg-sage" and limit == "depth":
        text = "-" * 40 + "1"
    if name == "dice-maiden" and limit == "total":  # its dice have at most 1000 sides
        text = "500d1000*500d1000*9999999"
    with pytest.raises(DiceLimitError) as info:
        compile_in(text, name)
    assert info.value.limit == limit
