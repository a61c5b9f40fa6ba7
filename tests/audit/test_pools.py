"""Damage or healing names a pool its target has (``rules.pool``, ``fightlog.audit.pools``):
the fold would otherwise start a made-up pool and leave the real one untouched."""

from __future__ import annotations

from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.audit.pools import pool_problem
from fightlog.events.model import DamageApplied, HealingApplied, RulingMade
from fightlog.reducers.fold import fold
from tests.audit.test_order import changed, duel, errors, only


def test_a_misspelt_pool_is_a_finding_naming_the_pools_there_are() -> None:
    found = only(changed(duel(), 21, pool="HP"))
    assert (found.seq, found.code, found.severity) == (21, "rules.pool", "error")
    assert found.message == "damage to rook's pool 'HP', which they do not have (pools: hp)"


def test_the_pools_the_fight_uses_are_no_finding() -> None:
    assert not [f for f in errors(duel()) if f.code == "rules.pool"]


def test_healing_is_checked_too_and_an_absent_target_named() -> None:
    """A damage to someone who never joined folded into nothing, audited clean (a tester)."""
    state = fold(duel()[:20])
    assert pool_problem(state, HealingApplied(target="rook", amount=3, pool="mana")) == (
        "healing of rook's pool 'mana', which they do not have (pools: hp)")
    assert pool_problem(state, HealingApplied(target="rook", amount=3)) is None
    assert pool_problem(state, DamageApplied(target="nobody", raw=3, taken=3, pool="x")) == (
        "damage to nobody, who is not in the fight")
    events = duel()
    codes = [(f.code, f.message) for f in errors(changed(events, 79, target="zed")) if f.code == "rules.pool"]
    assert codes == [("rules.pool", "damage to zed, who is not in the fight")]


def test_a_ruling_that_amends_the_pool_is_audited_as_amended() -> None:
    events = duel()
    ruling = RulingMade(seq=len(events) + 1, by="Gemma", action="amend", target=79, changes={"pool": "armour"},
                        reason="the armour took it")
    codes = [(f.seq, f.code) for f in audit_events([*events, ruling]).findings if f.code == "rules.pool"]
    assert codes == [(79, "rules.pool")]
    # the same damage, named right, is no finding
    assert not [f for f in errors(changed(events, 79, pool="hp")) if f.code == "rules.pool"]
    assert replace(events[78], pool="hp") == events[78]
