"""Rulings as history, and the errors a fold refuses with."""

from __future__ import annotations

import msgspec
import pytest

from fightlog.errors import FoldError
from fightlog.events.model import FORMAT_VERSION, AnyEvent, CombatantJoined, DamageApplied, RoundStarted, RulingMade, SceneStarted
from fightlog.reducers.fold import fold, plan_of, reduce
from fightlog.reducers.folder import Folder
from fightlog.reducers.state import EMPTY


def log(*events: AnyEvent) -> list[AnyEvent]:
    start: list[AnyEvent] = [
        SceneStarted(scene="t", ruleset="generic", format=FORMAT_VERSION),
        CombatantJoined(actor="b", name="Ben", pools={"hp": 40}),
        DamageApplied(target="b", raw=10, taken=10),
    ]
    return [msgspec.structs.replace(e, seq=i) for i, e in enumerate([*start, *events], start=1)]


def run(events: list[AnyEvent], upto: int | None = None) -> int:
    state = Folder(lambda seq: iter(events[seq - 1 :])).run(upto=upto)
    return state.combatants["b"].pools["hp"]


def test_a_void_applies_from_when_it_is_made() -> None:
    events = log(RoundStarted(round=1), RulingMade(by="gm", action="void", target=3, reason="out of turn"))
    assert run(events, upto=4) == 30  # before the ruling: the damage stands
    assert run(events) == 40  # after it: as if it never happened
    state = Folder(lambda seq: iter(events[seq - 1 :])).run()
    assert [(r.action, r.target) for r in state.rulings] == [("void", 3)]


def test_an_amendment_is_folded_with_the_ruled_fields() -> None:
    events = log(RulingMade(by="gm", action="amend", target=3, changes={"taken": 4}))
    assert run(events) == 36


def test_withdrawing_a_ruling_restores_history() -> None:
    events = log(
        RulingMade(by="gm", action="void", target=3),
        RulingMade(by="gm", action="withdraw", target=4),
    )
    assert run(events, upto=4) == 40
    assert run(events) == 30


def test_a_later_ruling_on_the_same_event_wins_and_withdrawing_it_reinstates_the_first() -> None:
    events = log(
        RulingMade(by="gm", action="amend", target=3, changes={"taken": 4}),
        RulingMade(by="gm", action="amend", target=3, changes={"taken": 6}),
        RulingMade(by="gm", action="withdraw", target=5),
    )
    assert [run(events, upto=n) for n in (4, 5, 6)] == [36, 34, 36]


def test_accept_changes_no_event() -> None:
    events = log(RulingMade(by="gm", action="accept", target=3, finding="tie-to-attacker"))
    assert run(events) == 30


@pytest.mark.parametrize(
    ("ruling", "message"),
    [
        (RulingMade(by="gm", action="amend", target=3, changes={"seq": 9}), "cannot amend seq of seq 3"),
        (RulingMade(by="gm", action="amend", target=3, changes={"taken": "lots"}), "amendment of seq 3 is not a valid event: Expected `int`, got `str` - at `$.taken`"),
        (RulingMade(by="gm", action="void", target=1), "scene_started event cannot be voided"),
        (RulingMade(by="gm", action="void", target=9), "ruling targets seq 9, which is not earlier than the ruling"),
    ],
)
def test_bad_rulings_are_refused_at_the_ruling(ruling: RulingMade, message: str) -> None:
    events = log(ruling)
    with pytest.raises(FoldError) as info:
        run(events)
    assert info.value.line == 4
    assert message in info.value.message


def test_amending_a_ruling_is_refused() -> None:
    events = log(RulingMade(by="gm", action="void", target=3), RulingMade(by="gm", action="amend", target=4, changes={"reason": "x"}))
    with pytest.raises(FoldError, match="cannot amend the ruling at seq 4"):
        plan_of([e for e in events if isinstance(e, RulingMade)])


@pytest.mark.parametrize(("seq", "message"), [(3, "seq 3 where seq 2 was expected: events are missing"), (1, "seq 1 comes after seq 1")])
def test_out_of_order_events_are_refused(seq: int, message: str) -> None:
    state = reduce(EMPTY, SceneStarted(seq=1, scene="t", ruleset="generic", format=FORMAT_VERSION))
    with pytest.raises(FoldError) as info:
        reduce(state, RoundStarted(seq=seq, round=1))
    assert info.value.line == seq
    assert message in info.value.message


def test_fold_stops_at_upto() -> None:
    events = log(RoundStarted(round=1), RoundStarted(round=2))
    assert fold(events, upto=4).turn.round == 1
