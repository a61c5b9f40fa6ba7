"""The audit's plan cache (``audit_plans.planned_post``) is used again only while what the
plan reads is the same: the attacker's standing and every effect they are in (an aim, a
stagger, a freeze, a grapple either side of it), the allies a gang-up names, the post's
actions; a later post of the same attack in the same standing gets the same plan."""

from __future__ import annotations

from msgspec.structs import replace

from fightlog.events.model import DeclarationPosted
from fightlog.kit.actions import parse_actions
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.bleedingsun import audit_plans
from fightlog.rules.bleedingsun.planning import plan
from tests.rules.bleedingsun.rigged import duel, trio


def test_a_plan_is_worked_out_again_when_an_effect_the_attacker_is_in_changes() -> None:
    fight = duel(a={"perception": 8})
    state = fight.state
    declared = DeclarationPosted(seq=state.seq + 1, actor="ana", actions=list(parse_actions(["attack target=bo weapon=Knife"])))
    first = audit_plans.planned_post(state, "ana", declared)
    assert first is not None and first == plan(state, "ana", declared.actions)
    grapple = ActiveEffect(effect="grapple-bo", name="grapple", target="bo", source="ana", applied=state.seq)
    held = replace(state, effects={**state.effects, "grapple-bo": grapple})  # ana's standing is the same object
    assert held.combatants["ana"] is state.combatants["ana"]
    again = audit_plans.planned_post(held, "ana", declared)
    assert again == plan(held, "ana", declared.actions)
    assert again is not None and again.plans[0].dice == first.plans[0].dice - 4  # in a grapple: -4
    for effect in (ActiveEffect(effect="frozen-ana", name="frozen", target="ana", applied=state.seq),
                   ActiveEffect(effect="staggered-ana", name="staggered", target="ana", applied=state.seq, magnitude=2)):
        changed = replace(state, effects={**state.effects, effect.effect: effect})
        assert audit_plans.planned_post(changed, "ana", declared) == plan(changed, "ana", declared.actions)
    staggered = audit_plans.planned_post(changed, "ana", declared)
    assert staggered is not None and staggered.plans[0].dice == first.plans[0].dice - 2
    assert audit_plans.planned_post(state, "ana", declared) == first  # back as it was


def test_a_plan_is_worked_out_again_when_an_ally_it_gangs_up_with_falls() -> None:
    fight = trio(perception=8)
    state = fight.state
    declared = DeclarationPosted(seq=state.seq + 1, actor="bo",
                                 actions=list(parse_actions(["attack target=ana weapon=Knife gang=cy"])))
    first = audit_plans.planned_post(state, "bo", declared)
    assert first is not None and first == plan(state, "bo", declared.actions)
    cy = state.combatants["cy"]
    fallen = replace(state, combatants={**state.combatants, "cy": replace(cy, statuses=("unconscious",))})
    assert fallen.combatants["bo"] is state.combatants["bo"]
    assert audit_plans.planned_post(fallen, "bo", declared) is None  # gang up needs an ally standing: refused


def test_a_later_post_of_the_same_attack_gets_the_plan_and_another_attack_its_own() -> None:
    fight = duel(a={"perception": 8})
    state = fight.state
    first = DeclarationPosted(seq=state.seq + 1, actor="ana", actions=list(parse_actions(["attack target=bo weapon=Knife"])))
    later = DeclarationPosted(seq=state.seq + 9, actor="ana", actions=list(parse_actions(["attack target=bo weapon=Knife"])))
    planned = audit_plans.planned_post(state, "ana", first)
    assert planned is not None and audit_plans.planned_post(state, "ana", later) is planned
    darker = DeclarationPosted(seq=state.seq + 9, actor="ana",
                               actions=list(parse_actions(["attack target=bo weapon=Knife light=dark"])))
    assert audit_plans.planned_post(state, "ana", darker) == plan(state, "ana", darker.actions) != planned
    ana = state.combatants["ana"]
    crouched = replace(state, combatants={**state.combatants, "ana": replace(ana, statuses=("crouched",))})
    assert audit_plans.planned_post(crouched, "ana", later) == plan(crouched, "ana", later.actions)
    gone = replace(state, combatants={"ana": ana})  # the target not in the fight: refused, not the plan kept
    assert audit_plans.planned_post(gone, "ana", later) is None
