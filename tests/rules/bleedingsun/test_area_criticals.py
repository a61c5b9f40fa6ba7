"""Criticals and net hits on spreads and blasts (Critical Hits; Shotguns and Flamers; Normal
and Explosives Damage): the direct hit of a blast's impact damage counts its net hits and can
get a threshold critical, the others caught cannot; a half-dice critical counts wherever a
spread or blast lands, under option ``area_criticals``; the audit judges both as the table does."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from fightlog.audit.one_process import audit_events
from fightlog.events.model import AttackResolved, DiceRolled
from tests.rules.bleedingsun.rigged import FRAG, SHOTGUN, of, trio


def _errors(events: list[Any]) -> list[str]:
    return [f.code for f in audit_events(events).findings if f.severity == "error"]


def _damage_dice(events: list[Any]) -> list[int]:
    return [len(r.dice) for r in of(events, DiceRolled) if r.purpose == "damage"]


def _missile_at_bo_and_cy(options: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
    """Ana (8 dice) throws a frag with an impact DV of 3, no fuse, at Bo, catching Cy 2 hexes
    off; 6 hits against Bo's threshold of 1: beaten by 5."""
    fight = trio(options, perception=8, weapons=[{**FRAG, "dv": 3}, SHOTGUN])
    fight.post("ana", "throw weapon=Frag target=bo caught=cy:2")
    fight.post("bo", "take")
    events = fight.post("cy", "take", faces=[5] * 6 + [1, 1] + [5] * 18 + [1, 1] + [5] * 6 + [1, 1])
    return fight, events


def test_a_blasts_direct_hit_counts_its_net_hits_and_a_threshold_critical_the_others_caught_do_not() -> None:
    fight, events = _missile_at_bo_and_cy()
    on_bo, on_cy = of(events, AttackResolved)
    assert (on_bo.target, on_bo.score, on_bo.against, on_bo.critical) == ("bo", 6, 1, "success")
    assert (on_cy.target, on_cy.critical) == ("cy", None)  # no threshold critical for the blast alone
    assert _damage_dice(events) == [18, 6]  # blast 6 + impact 3 + net hits 5 + critical 4; blast 6
    assert _errors(fight.scribe.events) == []


def test_the_audit_finds_a_direct_hits_threshold_critical_not_recorded() -> None:
    fight, _ = _missile_at_bo_and_cy()
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, AttackResolved) and e.target == "bo")
    events[at] = replace(events[at], critical=None)
    assert "rules.outcome" in _errors(events)


def _spread_missing_its_threshold(options: dict[str, Any] | None = None, dv: int = 10) -> tuple[Any, list[Any]]:
    """Ana's shotgun (4 dice) at Bo 8 hexes off (long: threshold 3) shows two 6s: two hits,
    under the threshold, half the dice 6s."""
    fight = trio(options, armour=0)
    events = fight.post("ana", "attack weapon=Shotgun target=bo distance=8", faces=[6, 6, 1, 1] + [5] * dv + [1, 1])
    return fight, events


def test_a_spread_landing_below_its_threshold_gets_a_half_dice_critical_by_default() -> None:
    fight, events = _spread_missing_its_threshold()
    (hit,) = of(events, AttackResolved)
    assert (hit.hit, hit.score, hit.against, hit.critical) == (True, 2, 3, "success")
    assert _damage_dice(events) == [10]  # the spread's DV 6 + the critical 4, no net hits
    assert _errors(fight.scribe.events) == []


def test_under_threshold_met_a_spread_below_its_threshold_gets_no_critical() -> None:
    fight, events = _spread_missing_its_threshold({"area_criticals": "threshold_met"}, dv=6)
    (hit,) = of(events, AttackResolved)
    assert (hit.hit, hit.score, hit.against, hit.critical) == (True, 2, 3, None)
    assert _damage_dice(events) == [6]
    assert _errors(fight.scribe.events) == []
    recorded = list(fight.scribe.events)
    at = next(i for i, e in enumerate(recorded) if isinstance(e, AttackResolved))
    recorded[at] = replace(recorded[at], critical="success")
    assert "rules.outcome" in _errors(recorded)
