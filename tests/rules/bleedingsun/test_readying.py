"""Readying an action (Readying and Delaying Actions): up to two actions set aside in one's
turn, paid from it, taken in another's turn without a drop, lost when one's next turn comes."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from fightlog.audit.one_process import audit_events
from fightlog.events.model import AttackResolved, EffectApplied, EffectExpired, InitiativeSet
from tests.rules.bleedingsun.rigged import of, ready_duel


def _errors(events: list[Any]) -> list[str]:
    return [f.code for f in audit_events(events).findings if f.severity == "error"]


def test_a_readied_attack_interrupts_anothers_turn_without_a_drop() -> None:
    fight = ready_duel()
    readied = fight.post("ana", "ready actions=attack")
    assert [(e.name, e.params["actions"]) for e in of(readied, EffectApplied)] == [("readied", "attack")]
    fight.end_turn()
    assert fight.current == "bo"
    fight.post("bo", "move hexes=1")
    taken = fight.post("ana", "attack target=bo weapon=Rifle range=short", faces=[1] * 5)
    (shot,) = of(taken, AttackResolved)
    assert shot.attacker == "ana" and not shot.hit
    assert [e.reason for e in of(taken, EffectExpired)] == ["taken"] and not of(taken, InitiativeSet)
    assert fight.current == "bo" and fight.order == ["ana", "bo"]
    assert _errors(fight.scribe.events) == []


def test_readied_actions_unused_are_lost_when_ones_turn_comes_round() -> None:
    fight = ready_duel()
    fight.post("ana", "ready actions=attack,stance")
    fight.end_turn()
    came = fight.turn("bo", "say")
    assert [e.reason for e in of(came, EffectExpired)] == ["unused: the next turn came round"]
    assert fight.current == "ana" and not fight.effects("ana")
    assert _errors(fight.scribe.events) == []


def test_at_most_two_actions_are_readied_and_they_are_paid_from_the_turn() -> None:
    fight = ready_duel()
    refused = fight.refused("ana", "ready actions=attack,stance,aim")
    assert refused.code == "rules.ready" and "at most 2" in str(refused)
    assert "cannot be readied" in str(fight.refused("ana", "ready actions=dodge"))
    fight.post("ana", "ready actions=aim")
    assert "aim twice" in str(fight.refused("ana", "aim weapon=Rifle"))


def test_only_a_readied_action_is_taken() -> None:
    fight = ready_duel()
    fight.post("ana", "ready actions=aim")
    fight.end_turn()
    refused = fight.refused("ana", "attack target=bo weapon=Rifle range=short")
    assert refused.code == "rules.ready" and "readied aim, not attack" in str(refused)


def test_the_audit_finds_an_action_taken_that_was_not_readied() -> None:
    fight = ready_duel()
    fight.post("ana", "ready actions=attack")
    fight.end_turn()
    fight.post("ana", "attack target=bo weapon=Rifle range=short", faces=[1] * 5)
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, EffectApplied) and e.name == "readied")
    events[at] = replace(events[at], params={**events[at].params, "actions": "aim"})
    assert "rules.ready" in _errors(events)
