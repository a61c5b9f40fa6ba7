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


@pytest.mark.parametrize("text", ['name="Osk\udcffr"', "name=Osk\udcffr", "total=\udcff"])
def test_a_value_that_is_not_utf8_is_refused(text: str) -> None:
    """Bytes that are not UTF-8 on the command line reach Python as surrogates; they were an
    internal error (``UnicodeDecodeError``) in ``rule`` and ``dispute`` when quoted as JSON."""
    with pytest.raises(InputError, match=r"^(name|total): VALUE is not UTF-8 text$"):
        parse_assignment(text)
