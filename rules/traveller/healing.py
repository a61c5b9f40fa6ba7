"""First aid (Healing: First Aid): 2D + Medic + EDU DM, with basic medical supplies (a
``medikit``), within ten rounds of the patient's last injury, once per patient; success heals
max(Effect, 1) points of physical characteristics, divided as chosen (``first_aid target=ID
STR=1 END=2``; the rest to the most damaged). Healing over days is not played: it is
recorded by hand as ``healing_applied`` events.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied
from fightlog.kit.actions import value_written
from fightlog.kit.table import Scribe
from fightlog.rules.traveller import harm
from fightlog.rules.traveller.attack import used_up
from fightlog.rules.traveller.card import PHYSICAL
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import FIRST_AIDED, INJURED, Fighter
from fightlog.rules.traveller.modifiers import distance


def check_points(actions: Sequence[Action]) -> None:
    """Refuse a first aid's share (``STR=``, ``DEX=``, ``END=``) that is not a whole number 0
    or more: it would be dropped, the healing going to the most damaged characteristic. For a
    post asked for now (a post played again from a log changed nothing when it was recorded)."""
    for action in actions:
        for name in PHYSICAL if action.type == "first_aid" else ():
            chosen = action.params.get(name)
            if chosen is not None and (type(chosen) is not int or chosen < 0):
                raise RefusedError(f"{name}={value_written(chosen)}: the points of {name} first aid is to restore "
                                   "must be a whole number 0 or more", code="rules.incomplete")


def check(scribe: Scribe, actor: str, action: Action) -> tuple[Fighter, Fighter]:
    state = scribe.state
    medic, patient = Fighter(state, actor), Fighter(state, action.target or actor)
    options = medic.options
    if options.first_aid_needs_kit and "medikit" not in {g.casefold() for g in medic.card.gear}:
        raise RefusedError(f"{actor} has no medikit (first aid needs basic medical supplies)")
    if patient.has("dead"):
        raise RefusedError(f"{patient.actor} is dead: first aid cannot help", code="rules.target")
    if patient.effect(FIRST_AIDED) is not None:
        raise RefusedError(f"{patient.actor} has had first aid already (once only)")
    injured = patient.effect(INJURED)
    if injured is None:
        raise RefusedError(f"{patient.actor} has no injury to treat", code="rules.incomplete")
    since = state.turn.round - int(str(injured.params.get("round", 0)))
    if since > options.first_aid_rounds:
        raise RefusedError(f"{patient.actor} was injured {since} rounds ago: first aid is within "
                           f"{options.first_aid_rounds} rounds of the injury")
    if patient.actor != actor and distance(medic, patient, action) > options.melee_reach_m:
        raise RefusedError(f"{patient.actor} is out of reach for first aid", code="rules.range")
    return medic, patient


def first_aid(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    medic, patient = check(scribe, actor, action)
    mods = [medic.skill("medic"), (medic.dm("EDU"), "EDU DM"), *medic.check_mods()]
    rolled, seq = scribe.roll("2d6", roller=actor, purpose="first_aid", modifiers=[m for m in mods if m[0]],
                              for_seq=declaration)
    used_up(scribe, Fighter(scribe.state, actor), declaration)
    scribe.emit(EffectApplied(effect=f"{FIRST_AIDED}-{patient.actor}", name=FIRST_AIDED, target=patient.actor,
                              source=actor, cause=seq))
    margin = effect(rolled.total, medic.options)
    if margin < 0:
        return
    chosen = {n: v for n, v in action.params.items() if n in PHYSICAL and type(v) is int}
    harm.heal(scribe, patient.actor, max(margin, 1), chosen, seq, "first aid")
