"""The action mini-syntax: every key, quoting, value types, one-line errors naming the bad
part, and a round trip through ``format_action`` for every action the syntax can write."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fightlog.errors import InputError
from fightlog.events.model import Action
from fightlog.kit.actions import FIELDS, MOST, RESERVED, format_action, parse_action, parse_actions


def test_every_field_key() -> None:
    action = parse_action(
        "attack target=bob targets=bob,kestrel weapon=Rifle mode=auto range=close distance=8 "
        "item=Frag cost=action"
    )
    assert action == Action(
        type="attack",
        target="bob",
        targets=["bob", "kestrel"],
        weapon="Rifle",
        mode="auto",
        range="close",
        distance=8,
        item="Frag",
        cost="action",
    )


def test_a_bare_type() -> None:
    assert parse_action("flee") == Action(type="flee")
    assert parse_action("  com_call  ") == Action(type="com_call")


def test_other_keys_are_params_with_types() -> None:
    action = parse_action("attack target=bob gm=-3 aimed=true sneak=false note=flank zero=007")
    assert action.params == {"gm": -3, "aimed": True, "sneak": False, "note": "flank", "zero": 7}
    assert isinstance(action.params["aimed"], bool)


def test_shell_quoting() -> None:
    action = parse_action("""attack weapon="M_a_Rifle_Class_(Permanent)" note='behind the crates' say=it\\'s""")
    assert action.weapon == "M_a_Rifle_Class_(Permanent)"
    assert action.params == {"note": "behind the crates", "say": "it's"}
    assert parse_action("'use_item' 'item=Med Kit'") == Action(type="use_item", item="Med Kit")
    assert parse_action("attack note=a=b").params == {"note": "a=b"}
    assert parse_action("attack note='-3'").params == {"note": -3}  # quotes do not make text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action: expected TYPE [key=value ...]"),
        ("   ", "empty action"),
        ("attack bob", "expected key=value, got 'bob'"),
        ("attack target=bob target=kestrel", "'target' given twice"),
        ("attack gm=1 gm=2", "'gm' given twice"),
        ("target=bob attack", "expected the action type first (attack, move, flee...), got 'target=bob'"),
        ("at!tack", "action type must be a word"),
        ("attack type=shoot", "'type' is not a key: the action type is the first word"),
        ("attack params=x", "'params' is not a key"),
        ("attack =bob", "a key is a word (letters, digits, _ and -), got ''"),
        ("attack tar.get=bob", "got 'tar.get'"),
        ("attack target=", "'target' needs a value, got 'target='"),
        ("attack target=''", "'target' needs a value"),
        ("move distance=ten", "'distance' must be a whole number, got 'ten'"),
        ("move distance=-3", "'distance' must be a whole number, 0 or more, got '-3'"),  # was: 'a whole number' (it is one)
        ("attack targets=bob,,kestrel", "'targets' is a comma-separated list of names, got 'bob,,kestrel'"),
        ("attack targets=bob,", "'targets' is a comma-separated list"),
        ("attack note='unclosed", "no closing quotation in"),
        ("attack gm=99999999999999999999", "'gm': 99999999999999999999 is too large"),
        ("attack gm=-1000000001", "'gm': -1000000001 is too large: a number in a post is at most 1,000,000,000 either way"),
        ("medicine bonus=999999999999", "'bonus': 999999999999 is too large"),
        ("attack distance=999999999999999999", "'distance': 999999999999999999 is too large: a number in a post is at "
                                               "most 1,000,000,000"),
    ],
)
def test_refusals_name_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_action(text)
    assert message in caught.value.message
    assert "\n" not in str(caught.value)


def test_a_number_with_leading_zeros_is_read_as_its_value() -> None:
    assert parse_action("attack gm=000000000001 distance=00000000005") == Action(
        type="attack", distance=5, params={"gm": 1})
    assert parse_action("attack gm=-0001000000000").params["gm"] == -1_000_000_000


def test_parse_actions_names_the_entry() -> None:
    assert parse_actions(["flee", "move distance=3"]) == (Action(type="flee"), Action(type="move", distance=3))
    with pytest.raises(InputError, match=r"do\[1\]: expected key=value, got 'bob'"):
        parse_actions(["flee", "attack bob"])


def test_format_action() -> None:
    action = Action(type="attack", target="bob", weapon="Big Rifle", params={"gm": -3, "aimed": True})
    assert format_action(action) == "attack target=bob 'weapon=Big Rifle' aimed=true gm=-3"


@pytest.mark.parametrize(
    "action",
    [
        Action(type="attack", targets=["a,b"]),
        Action(type="attack", params={"note": "12"}),
        Action(type="attack", params={"note": "true"}),
        Action(type="attack", params={"note": None}),
        Action(type="attack", params={"target": "bob"}),
        Action(type="attack", params={"bad key": 1}),
        Action(type="attack", weapon=""),
    ],
)
def test_format_refuses_what_the_syntax_cannot_write(action: Action) -> None:
    with pytest.raises(ValueError):
        format_action(action)


# --------------------------------------------------------------------------- round trip

_WORD = st.from_regex(re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,11}"), fullmatch=True)
_TEXT = st.text(min_size=1, max_size=20).filter(
    lambda s: not re.fullmatch(r"-?[0-9]+", s) and s not in ("true", "false")
)
_NAME = st.text(min_size=1, max_size=12).filter(lambda s: "," not in s)
_SCALAR = st.one_of(st.integers(min_value=-MOST, max_value=MOST), st.booleans(), _TEXT)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    def maybe(strategy: st.SearchStrategy[str]) -> str | None:
        return draw(st.none() | strategy)

    keys = _WORD.filter(lambda k: k not in FIELDS and k not in RESERVED)
    return Action(
        type=draw(_WORD),
        target=maybe(_TEXT),
        targets=draw(st.lists(_NAME, max_size=3)),
        weapon=maybe(_TEXT),
        mode=maybe(_TEXT),
        range=maybe(_TEXT),
        distance=draw(st.none() | st.integers(min_value=0, max_value=MOST)),
        item=maybe(_TEXT),
        cost=maybe(_TEXT),
        params=draw(st.dictionaries(keys, _SCALAR, max_size=4)),
    )


@given(actions())
@example(Action(type="a", cost="=", params={"k": "=="}))
def test_format_then_parse_round_trips(action: Action) -> None:
    assert parse_action(format_action(action)) == action
