"""Field paths into events (``fightlog.events.paths``)."""

from __future__ import annotations

import pytest

from fightlog.errors import InputError
from fightlog.events.paths import parse_assignment, parse_path


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
