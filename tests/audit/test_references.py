"""An event names only earlier events as what it follows from (``outcome.reference``,
``fightlog.audit.references``): a tester's ``cause`` of 999 and an outcome reading a roll
written later both verified and audited clean, every check following them finding nothing."""

from __future__ import annotations

import pytest

from tests.audit.test_order import changed, duel, errors, only


@pytest.mark.parametrize(("seq", "fields", "message"), [
    (21, {"cause": 999}, "seq 21 names seq 999 as its cause, which is a later event, not an earlier event: what it "
                         "follows from cannot be checked"),
    (21, {"cause": 21}, "seq 21 names seq 21 as its cause, which is it, not an earlier event: what it follows from "
                        "cannot be checked"),
    (23, {"cause": 0}, "seq 23 names seq 0 as its cause, which is no event, not an earlier event: what it follows from "
                       "cannot be checked"),
    (17, {"rolls": [40, 15]}, "seq 17 names seq 40 as its roll read, which is a later event, not an earlier event: "
                              "what it follows from cannot be checked"),
    (27, {"responds_to": 30}, "seq 27 names seq 30 as its responds_to, which is a later event, not an earlier event: "
                              "what it follows from cannot be checked"),
])
def test_a_reference_to_no_earlier_event_is_a_finding(seq: int, fields: dict[str, object], message: str) -> None:
    found = [f for f in errors(changed(duel(), seq, **fields)) if f.code == "outcome.reference"]
    assert [(f.seq, f.message) for f in found] == [(seq, message)]


def test_a_damage_roll_made_for_no_earlier_event() -> None:
    """A roll's ``for_seq`` is judged where a check follows it: roe7's damage of an attack."""
    found = only(changed(duel(), 20, for_seq=999))
    assert (found.seq, found.code, found.severity) == (20, "outcome.reference", "error")
    assert found.message == ("seq 20 names seq 999 as its for_seq, which is a later event, not an earlier event: what "
                             "it follows from cannot be checked")


def test_references_as_played_are_no_finding() -> None:
    assert not [f for f in errors(duel()) if f.code == "outcome.reference"]
