"""Grenade fuses (Cooking a grenade; Normal and Explosives Damage): a grenade with a delay
left lands and waits as an effect, counts down at the start of its thrower's turn and goes
off as attacks and damage when the delay runs out; ``cook`` takes 1 off the delay once a
round; the direct hit of a grenade going off at once takes the impact DV with the blast."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from fightlog.audit.one_process import audit_events
from fightlog.events.model import (AttackResolved, DamageApplied, DiceRolled, EffectApplied, EffectCountedDown,
                                   EffectExpired, EffectTicked)
from tests.rules.bleedingsun.rigged import FRAG, of, ready_duel


def _frag(**fields: Any) -> dict[str, Any]:
    return {"weapons": [{**FRAG, **fields}]}


def _errors(events: list[Any]) -> list[str]:
    return [f.code for f in audit_events(events).findings if f.severity == "error"]


def test_a_grenade_with_a_delay_waits_and_goes_off_at_the_throwers_next_turn() -> None:
    fight = ready_duel(a=_frag(fuse=1))
    thrown = fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])  # nobody answers: it waits
    assert not of(thrown, AttackResolved) and not of(thrown, DamageApplied)
    (waits,) = of(thrown, EffectApplied)
    assert waits.name == "grenade" and waits.duration == 1 and waits.params["caught"] == "bo:0"
    fight.end_turn()
    went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])  # round 3: Ana's turn opens, the grenade goes off
    assert fight.state.turn.round == 3 and fight.current == "ana"
    assert of(went, EffectTicked) and [e.reason for e in of(went, EffectExpired)] == ["went off"]
    (hit,) = of(went, AttackResolved)
    assert hit.hit and hit.target == "bo" and any(n.startswith("went off") for n in hit.notes)
    (dealt,) = of(went, DamageApplied)
    assert dealt.target == "bo" and dealt.raw == 6
    assert not [e for e in fight.state.effects.values() if e.name == "grenade"]
    assert _errors(fight.scribe.events) == []


def test_a_waiting_grenade_lies_where_its_throw_put_it() -> None:
    """Missing with an explosive; Total Defense: thrown at Bo on total defense (threshold 1 + 3),
    1 hit lands 4 hexes off; it went off after Bo's total defense had lapsed and was judged
    from the threshold then, 0 hexes from Bo, where the throw had said 4 (a tester)."""
    from tests.rules.bleedingsun.rigged import duel

    fight = duel(a=_frag(fuse=1))
    fight.turn("ana", "say")
    fight.turn("bo", "total_defense with=agility", faces=[6, 6, 6])
    thrown = fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1, 3])
    (scatter,) = [r for r in of(thrown, DiceRolled) if r.purpose == "scatter"]
    assert scatter.label is not None and scatter.label.startswith("missed: lands 4 hexes off")
    fight.end_turn()
    went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])  # Bo's total defense lapses as Bo's turn opens
    (hit,) = of(went, AttackResolved)
    assert "blast: 4 hexes from the centre" in hit.notes
    (dealt,) = of(went, DamageApplied)
    assert dealt.raw == 3  # 6 hits, less 1 a hex beyond the one next to the blast (it was 6)
    assert _errors(fight.scribe.events) == []


def test_a_waiting_grenade_is_judged_on_its_targets_threshold_at_the_throw() -> None:
    """Missing with an explosive; Critical hits: 2 hits against Bo on total defense (4) miss and
    scatter 3 hexes; when it went off after the total defense lapsed it was recorded as a hit
    against 1, and under area_criticals = threshold_met a critical, +4 DV (a review): judged as
    thrown, it is the miss the same throw going off at once is."""
    from tests.rules.bleedingsun.rigged import duel

    fight = duel(options={"area_criticals": "threshold_met"}, a=_frag(fuse=1))
    fight.turn("ana", "say")
    fight.turn("bo", "total_defense with=agility", faces=[6, 6, 6])
    (waits,) = of(fight.post("ana", "throw weapon=Frag target=bo", faces=[6, 6, 1, 3]), EffectApplied)
    assert (waits.params["shift"], waits.params["threshold"], waits.params["net_from"]) == (3, 4, 4)
    fight.end_turn()
    went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
    (missed,) = of(went, AttackResolved)
    assert (missed.hit, missed.against, missed.critical) == (False, 4, None)
    assert [d.raw for d in of(went, DamageApplied)] == [4]  # 6 hits, less 2 for 3 hexes
    assert _errors(fight.scribe.events) == []


def test_the_audit_finds_a_waiting_grenade_laid_elsewhere_than_its_throw_put_it() -> None:
    """The blast is read from where the grenade's effect says it lies: a hand-kept log laying a
    missed grenade on its target (and its damage to match) audited clean (a review)."""
    fight = ready_duel(a=_frag(fuse=1))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[1, 1, 1, 3])  # no hit: 2 hexes off
    fight.end_turn()
    fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
    events = [replace(e, params={**e.params, "shift": 0}) if isinstance(e, EffectApplied) and e.name == "grenade"
              else replace(e, raw=6, taken=6) if isinstance(e, DamageApplied) else e for e in fight.scribe.events]
    found = [(f.code, f.message) for f in audit_events(events).findings if f.code.startswith("rules.")]
    assert found == [("rules.threshold", "ana's grenade is recorded lying 0 hexes off; its 0 hits put it 2 off")]


def test_a_longer_delay_counts_down_a_round_at_a_time() -> None:
    fight = ready_duel(a=_frag(fuse=2))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
    fight.end_turn()
    counted = fight.turn("bo", "say")
    assert [e.remaining for e in of(counted, EffectCountedDown)] == [1] and not of(counted, DamageApplied)
    fight.end_turn()
    went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
    assert fight.state.turn.round == 4 and len(of(went, DamageApplied)) == 1
    assert _errors(fight.scribe.events) == []


def test_cooking_takes_the_delay_to_zero_and_the_grenade_goes_off_at_once() -> None:
    fight = ready_duel(a=_frag(fuse=1))
    cooked = fight.post("ana", "cook weapon=Frag", "throw weapon=Frag target=bo")
    assert [e.name for e in of(cooked, EffectApplied)] == ["cooked", "incoming"]  # Bo may answer: it goes off now
    went = fight.post("bo", "take", faces=[5, 1, 1] + [5] * 6 + [1, 1])
    assert len(of(went, DamageApplied)) == 1 and [e.reason for e in of(went, EffectExpired)][-1].startswith("thrown")
    assert not fight.effects("ana")
    assert _errors(fight.scribe.events) == []


def test_a_grenade_is_cooked_once_a_round_and_only_while_it_has_a_delay() -> None:
    fight = ready_duel(a={"weapons": [{**FRAG, "fuse": 3}, {**FRAG, "name": "Flash"}]})
    assert "no delay left to cook" in str(fight.refused("ana", "cook weapon=Flash"))
    fight.post("ana", "cook weapon=Frag")
    assert "once a round" in str(fight.refused("ana", "cook weapon=Frag"))
    fight.end_turn()
    fight.turn("bo", "say")
    fight.post("ana", "cook weapon=Frag")  # a new round: once more
    assert [e.name for e in fight.state.effects.values() if e.target == "ana"] == ["cooked", "cooked"]


def test_only_an_explosive_is_cooked() -> None:
    fight = ready_duel()
    refused = fight.refused("ana", "cook weapon=Rifle")
    assert refused.code == "rules.cook" and "not an explosive" in str(refused)


def test_the_direct_hit_of_a_grenade_going_off_at_once_adds_the_impact_dv() -> None:
    fight = ready_duel(a=_frag(dv=3))
    fight.post("ana", "throw weapon=Frag target=bo")
    went = fight.post("bo", "take", faces=[5, 1, 1] + [5] * 9 + [1, 1])
    assert [len(r.dice) for r in of(went, DiceRolled) if r.purpose == "damage"] == [9]  # blast 6 + impact 3
    assert _errors(fight.scribe.events) == []


def test_an_uncooked_grenade_going_off_later_has_no_impact_dv() -> None:
    fight = ready_duel(a=_frag(dv=3, fuse=1))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
    fight.end_turn()
    went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
    assert [len(r.dice) for r in of(went, DiceRolled) if r.purpose == "damage"] == [6]
    assert _errors(fight.scribe.events) == []


def test_the_audit_finds_a_waiting_grenades_blast_the_rules_do_not_give() -> None:
    fight = ready_duel(a=_frag(fuse=1))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
    fight.end_turn()
    fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, AttackResolved))
    events[at] = replace(events[at], against=3, margin=-2, hit=True)
    assert "rules.threshold" in _errors(events)
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, DamageApplied))
    events[at] = replace(events[at], raw=4)
    assert "rules.damage" in _errors(events)


def _jumped_fight() -> Any:
    """Ana throws a grenade with a delay of 1 at Bo, catching herself 2 hexes off; Bo jumps on it."""
    fight = ready_duel(a=_frag(fuse=1))
    fight.post("ana", "throw weapon=Frag target=bo caught=ana:2", faces=[5, 1, 1])
    jumped = fight.post("bo", "jump distance=1")
    (covered,) = of(jumped, EffectApplied)[1:] or of(jumped, EffectApplied)
    assert covered.name == "grenade" and covered.params["jumped"] == "bo" and covered.duration == 1
    fight.end_turn()
    return fight


def test_the_one_who_jumps_on_a_grenade_takes_the_whole_blast_alone() -> None:
    fight = _jumped_fight()
    went = fight.turn("bo", "say", faces=[4] * 5 + [3] * 5 + [6, 5])  # a critical: 6 + 4 dice, 4-6 hit; soak 6s
    damage = [r for r in of(went, DiceRolled) if r.purpose == "damage"]
    assert [len(r.dice) for r in damage] == [10]
    (dealt,) = of(went, DamageApplied)
    assert (dealt.target, dealt.raw, dealt.reduced_by, dealt.taken) == ("bo", 5, 1, 4)
    assert [e.target for e in of(went, AttackResolved)] == ["bo"]  # Ana, caught 2 hexes off, takes nothing
    assert _errors(fight.scribe.events) == []


def test_jumping_on_a_grenade_is_an_immediate_action_and_drops() -> None:
    fight = ready_duel(a=_frag(fuse=1))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
    fight.post("bo", "jump distance=0")
    assert "has spent the immediate action this round" in str(fight.refused("bo", "jump distance=0"))


def test_jumping_on_a_grenade_is_refused_without_one_within_a_hex() -> None:
    fight = ready_duel(a=_frag(fuse=1))
    assert "no grenade is waiting" in str(fight.refused("bo", "jump distance=1"))
    fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
    refused = fight.refused("bo", "jump distance=2")
    assert refused.code == "rules.jump" and "within 1 hex" in str(refused)
    assert "distance=HEXES" in str(fight.refused("bo", "jump"))


def test_the_audit_finds_a_jumped_grenades_blast_on_another_or_not_a_critical() -> None:
    fight = _jumped_fight()
    fight.turn("bo", "say", faces=[4] * 5 + [3] * 5 + [6, 5])
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, DamageApplied))
    events[at] = replace(events[at], raw=3, taken=2)
    assert _errors(events) == ["rules.jump"]
    events = list(fight.scribe.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, AttackResolved))
    events[at] = replace(events[at], target="ana")
    assert "rules.jump" in _errors(events)


def test_the_countdown_is_at_the_throwers_turn_or_at_the_round_start_by_option() -> None:
    """``fuse_countdown``: by default the grenade goes off as its thrower's turn opens; with
    ``round_start``, as the round opens, before anyone's turn."""
    from fightlog.events.model import RoundStarted, TurnStarted

    for option, before_the_turn in (("thrower_turn", False), ("round_start", True)):
        fight = ready_duel({"fuse_countdown": option}, a=_frag(fuse=1))
        fight.post("ana", "throw weapon=Frag target=bo", faces=[5, 1, 1])
        fight.end_turn()
        went = fight.turn("bo", "say", faces=[5] * 6 + [1, 1])
        kinds = [type(e) for e in went]
        ticked, opened = kinds.index(EffectTicked), kinds.index(TurnStarted)
        assert kinds.index(RoundStarted) < ticked and (ticked < opened) is before_the_turn, option
        assert len(of(went, DamageApplied)) == 1 and fight.state.turn.round == 3
        assert _errors(fight.scribe.events) == []
