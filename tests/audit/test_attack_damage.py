"""An attack's damage lands on the attack's target, once a pool (``outcome.damage``,
``fightlog.audit.attack_damage``): testers moved a hit's damage onto the attacker, onto
someone never in the fight and onto a bystander, and applied one hit twice, under roe7,
d20-evasion, Traveller and Bleeding Sun; every log audited clean."""

from __future__ import annotations

from msgspec.structs import replace

from fightlog.events.model import AnyEvent, DamageApplied
from tests.audit.test_order import changed, duel, errors


def _damage(events: list[AnyEvent]) -> DamageApplied:
    found = events[20]
    assert isinstance(found, DamageApplied) and (found.seq, found.target, found.cause) == (21, "rook", 20)
    return found


def test_damage_on_another_than_the_attacks_target() -> None:
    found = [(f.seq, f.code, f.message) for f in errors(changed(duel(), 21, target="vex"))]
    assert found == [(21, "outcome.damage", "vex takes the damage of vex's attack on rook (seq 19): an attack's damage "
                                            "is its target's")]


def test_one_attacks_damage_applied_twice_to_one_pool() -> None:
    events = duel()
    damage = _damage(events)
    twice = [*events[:21], replace(damage, seq=22, batch=None), *[replace(e, seq=e.seq + 1) for e in events[21:]]]
    found = [(f.seq, f.code, f.message) for f in errors(twice) if f.code == "outcome.damage"]
    assert found == [(22, "outcome.damage", "rook takes the damage of vex's attack at seq 19 to hp again (first at seq "
                                            "21)")]


def test_the_duel_as_played_has_none() -> None:
    assert not [f for f in errors(duel()) if f.code == "outcome.damage"]


def test_a_damage_citing_nothing_in_a_log_the_engine_played() -> None:
    """Testers inserted a 30 and a 60 HP damage citing nothing into engine logs: clean."""
    events = duel()
    damage = _damage(events)
    found = [(f.seq, f.code, f.message) for f in errors(changed(events, 21, cause=None))]
    assert (21, "outcome.damage", f"rook takes {damage.taken} citing nothing, in a scene the engine played: it "
            "records what every damage comes from (a hit, a tick, a fall)") in found
