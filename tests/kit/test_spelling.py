"""Did you mean: the closest known name, ties to the one sharing the longest start, never the
word itself (``fightlog.kit.spelling``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightlog.kit.declared import unknown_action
from fightlog.kit.spelling import closest
from fightlog.events.model import Action


@pytest.mark.parametrize(("word", "names", "expected"), [
    ("acter", ["after", "actor", "text", "do"], "actor"),  # was 'after': as close, a shorter shared start
    ("atack", ["attack", "aim", "move"], "attack"),
    ("name", ["name", "token", "attachments"], None),  # unknown here, known elsewhere: not itself
    ("roe8", ["roe7", "en51", "traveller"], "roe7"),
    ("ROE7", ["roe7", "en51", "traveller"], "roe7"),  # a new user's capitals: was no suggestion at all
    ("EN51", ["en5", "en51"], "en51"),  # the case-folded match before a closer-looking spelling
    ("zzzz", ["attack", "move"], None),
])
def test_the_closest_name(word: str, names: list[str], expected: str | None) -> None:
    assert closest(word, names) == expected


@given(st.text(max_size=12), st.lists(st.text(max_size=12), max_size=8))
def test_the_answer_is_a_known_name_other_than_the_word(word: str, names: list[str]) -> None:
    found = closest(word, names)
    assert found is None or (found in names and found != word)


def test_an_unknown_action_says_the_closest() -> None:
    refused = unknown_action([Action(type="atack")], {"attack", "move", "aim"})
    assert refused is not None and refused.message == "unknown action 'atack' (did you mean 'attack'? actions: aim, attack, move)"
