"""A posting order said to be by initiative goes highest score first (``rules.initiative``,
``fightlog.kit.initiative_order``): roe7 (its ``initiative = "d100"``) and d20-evasion
(Initiative). A hand-kept order contradicting the scores it follows audited clean."""

from __future__ import annotations

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import DECODER
from fightlog.events.model import InitiativeSet
from fightlog.fixtures.d20_audit_fights import scenario
from fightlog.fixtures.tampering import Tamper
from fightlog.kit.initiative_order import out_of_initiative
from fightlog.reducers.state import EMPTY, TurnState
from tests.conftest import FIXTURES


def _state(scores: dict[str, tuple[int, ...]]) -> object:
    return msgspec.structs.replace(EMPTY, turn=TurnState(initiative=scores))


def _initiative(events: list[object]) -> list[tuple[int, str]]:
    return [(f.seq, f.message) for f in audit_events(events).findings if f.code == "rules.initiative"]  # type: ignore[arg-type]


def test_d20_a_party_placed_after_one_that_rolled_lower() -> None:
    log = Tamper(scenario("sunken-archive"))  # john's party rolled 18, the cult 10: the party first
    order = log.find(InitiativeSet)
    log.change(order, order=["archer", "acolyte", "warden", "john", "mira", "tobin"])
    events = log.done().events
    seq = next(e.seq for e in events if isinstance(e, InitiativeSet))
    assert _initiative(events) == [
        (seq, "the posting order puts warden (initiative 10) before john (initiative 18): the higher goes first")]


def test_d20_an_order_by_initiative_as_played_and_one_the_gm_set_are_clean() -> None:
    assert _initiative(scenario("sunken-archive")) == []
    log = Tamper(scenario("sunken-archive"))
    order = log.find(InitiativeSet)
    log.change(order, order=["archer", "acolyte", "warden", "john", "mira", "tobin"], reason="gm")  # the GM's call
    assert _initiative(log.done().events) == []


def test_roe7_the_disputed_duel_with_alice_first_though_bob_rolled_higher() -> None:
    events = [DECODER.decode(line) for line in (FIXTURES / "roe7/disputed-duel.jsonl").read_bytes().splitlines()]
    assert _initiative(events) == []  # Bob 71, Alice 58: Bob first
    log = Tamper(events)
    order = log.find(InitiativeSet)
    log.change(order, order=["alice", "bob"])
    assert _initiative(log.done().events) == [
        (order.seq, "the posting order puts alice (initiative 58) before bob (initiative 71): the higher goes first")]


def test_a_tie_goes_by_the_tie_breaks_when_both_have_as_many() -> None:
    state = _state({"a": (7, 1), "b": (7, 3), "c": (7,), "d": (9,)})
    assert out_of_initiative(state, ["b", "a"]) is None  # type: ignore[arg-type]
    assert out_of_initiative(state, ["a", "b"]) == (  # type: ignore[arg-type]
        "the posting order puts a (initiative 7, tie-break 1) before b (initiative 7, tie-break 3): the higher goes first")
    assert out_of_initiative(state, ["c", "a"]) is None and out_of_initiative(state, ["a", "c"]) is None  # type: ignore[arg-type]
    assert out_of_initiative(state, ["d", "x", "b"]) is None  # type: ignore[arg-type]  # x: no score, not judged
    assert out_of_initiative(state, ["a", "d", "a"]) is None  # type: ignore[arg-type]  # named twice: order.listed-twice


_SCORES = st.dictionaries(st.sampled_from("abcdefg"), st.integers(-5, 30).map(lambda n: (n,)), min_size=1)


@given(_SCORES, st.randoms(use_true_random=False))
def test_highest_first_is_never_a_finding_and_any_order_placing_a_lower_score_first_is(
    scores: dict[str, tuple[int, ...]], rng: object
) -> None:
    state = _state(scores)
    actors = list(scores)
    rng.shuffle(actors)  # type: ignore[attr-defined]
    ranked = sorted(actors, key=lambda a: -scores[a][0])
    assert out_of_initiative(state, ranked) is None  # type: ignore[arg-type]
    inverted = any(scores[x][0] < scores[y][0] for i, x in enumerate(actors) for y in actors[i + 1:])
    assert (out_of_initiative(state, actors) is not None) is inverted  # type: ignore[arg-type]
