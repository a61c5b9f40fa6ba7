"""Field paths into events (``fightlog.events.paths``)."""

from __future__ import annotations

import pytest

from fightlog.errors import InputError
from fightlog.events.model import Action, DeclarationPosted, DiceRolled, Die, Modifier
from fightlog.events.paths import assign, parse_assignment, parse_path

ROLL = DiceRolled(seq=5, roller="bob", notation="1d100", dice=[Die(sides=100, face=40)], total=45,
                  modifiers=[Modifier(value=5, source="cover")])
POST = DeclarationPosted(seq=6, actor="bob", actions=[Action(type="attack", target="alice", weapon="Rifle")])


def test_paths_parse() -> None:
    assert parse_path("dice[0].face") == ("dice", 0, "face")
    assert parse_path("total") == ("total",)
    assert parse_path("params.x") == ("params", "x")
    assert parse_assignment("dice[0].face=55") == (("dice", 0, "face"), 55)
    assert parse_assignment("actions[0].target=carol") == (("actions", 0, "target"), "carol")
    assert parse_assignment('text="a=b"') == (("text",), "a=b")


@pytest.mark.parametrize("bad", ["", "[0]", "dice..face", "dice[x]", "0abc", "dice[0]face"])
def test_bad_paths_are_named(bad: str) -> None:
    with pytest.raises(InputError):
        parse_path(bad)


def test_assign_returns_the_changed_top_level_fields() -> None:
    changes = assign(ROLL, [parse_assignment("dice[0].face=55"), parse_assignment("total=60")])
    assert changes == {"dice": [{"sides": 100, "face": 55}], "total": 60}
    assert assign(ROLL, [parse_assignment("modifiers[0].value=10")]) == {"modifiers": [{"value": 10, "source": "cover"}]}
    assert assign(POST, [parse_assignment("actions[0].target=carol")])["actions"][0]["target"] == "carol"
    # A field left at its default can still be set.
    assert assign(POST, [parse_assignment("responds_to=3")]) == {"responds_to": 3}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dice[3].face=1", "dice[3].face: there is no item [3] (1 recorded)"),
        ("hit=true", "hit: a dice_rolled event has no field 'hit'"),
        ("seq=9", "seq: the seq of an event cannot be changed"),
        ("total.x=1", "total.x: 'x' is not a field here"),
    ],
)
def test_bad_assignments_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        assign(ROLL, [parse_assignment(text)])
    assert caught.value.message == message
