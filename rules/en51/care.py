"""After the hits (The aftermath; Recovery; Using Medicine): Medicine stopping the bleeding and
adding to the next Recovery, and Recovery rolls with their complications (the bleeding itself
is kept with the Wounds: ``harm.update_bleeding``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, DamageApplied, EffectApplied, EffectExpired, HealingApplied, StatusChanged
from fightlog.kit.fighters import absent
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.aiming import param
from fightlog.rules.en51.bw import NOTATION, Faces, faces_of, success
from fightlog.rules.en51.card import TRACK, wound_pool
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.harm import BLEEDING, update_bleeding, wound_circle
from fightlog.rules.en51.options import options_of
from fightlog.rules.en51.ruleset import OUT



class Recovery(NamedTuple):
    """A Recovery roll's outcome: the Success (``None``: failed), the circle a complication
    marks, the Wounds healed and the one the highest is lowered to."""

    best: int | None
    complication: int | None
    healed: tuple[int, ...]
    lowered_to: int | None


def recovery(wounds: Sequence[int], toughness: int, faces: Faces, rule: str, reads: str) -> Recovery:
    """Recovery against ``toughness``: a result equal to a marked Wound is a complication (the
    nearest empty circle above it marked, no healing); a Success lowers the highest Wound by
    itself, healing the Wounds along the way; the lowered Wound marks the nearest empty circle
    from where it lands."""
    best = success(faces, toughness, rule)
    results = (best,) if best is not None else (faces if reads == "either" else (faces.black,))
    marked = set(wounds)
    for result in results:
        if result in marked:
            above = next((c for c in range(result + 1, TRACK + 1) if c not in marked), None)
            return Recovery(best, above, (), None)
    if best is None or not wounds:
        return Recovery(best, None, (), None)
    highest = max(wounds)
    new = highest - best
    healed = tuple(w for w in sorted(wounds) if new < w <= highest)
    # the lowered Wound is marked like any Wound (Marking Wounds): on a circle already marked,
    # the nearest empty one to the right
    return Recovery(best, None, healed, wound_circle(marked - set(healed), new) if new >= 1 else None)


def medicine_skill(physician: Fighter, action: Action) -> int:
    """What a Medicine roll is made under: the sheet's Medicine and the post's ``bonus=``."""
    return physician.card.skill("medicine") + param(action, "bonus")


def medicine(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Medicine (with ``bonus=N`` for better circumstances or more time): a success stops the
    bleeding until a new Wound and adds to the next Recovery's Toughness."""
    state = scribe.state
    if action.target is None:
        raise RefusedError("Medicine names its patient (target=ID)", code="rules.target")
    if action.target not in state.combatants:
        raise absent(state, action.target)
    physician, patient = Fighter(state, actor), Fighter(state, action.target)
    if patient.has("dead"):
        raise RefusedError(f"{patient.actor} is dead: Medicine cannot help", code="rules.target")
    skill = medicine_skill(physician, action)
    if skill < 1:
        raise RefusedError(f"{actor} has Medicine {skill}: no roll can succeed (the sheet's skills.medicine, "
                           "bonus=N for better circumstances)", code="rules.refused")
    rolled, seq = scribe.roll(NOTATION, roller=actor, purpose="medicine", for_seq=declaration,
                              label=f"Medicine on {patient.actor}")
    best = success(faces_of(rolled.dice), skill, options_of(state).die_succeeds)
    resolved = scribe.emit(AttackResolved(attacker=actor, target=patient.actor, hit=best is not None, score=best or 0,
                                          against=0, rolls=[seq], declaration=declaration,
                                          notes=[f"Medicine {skill}"]))
    if best is None:
        return
    for status in BLEEDING:
        if patient.has(status):
            scribe.emit(StatusChanged(actor=patient.actor, status=status, on=False, cause=resolved))
    if patient.effect("treated") is None:
        scribe.emit(EffectApplied(effect=f"treated-{scribe.next_seq}", name="treated", target=patient.actor,
                                  source=actor, cause=resolved))
    earlier = patient.effect("medicine")
    if earlier is None or (earlier.magnitude or 0) < best:
        if earlier is not None:
            scribe.emit(EffectExpired(cause=resolved, effect=earlier.effect, target=patient.actor, reason="a better result"))
        scribe.emit(EffectApplied(effect=f"medicine-{scribe.next_seq}", name="medicine", target=patient.actor,
                                  source=actor, magnitude=best, cause=resolved))


def fight_on(state: SceneState, actor: str) -> bool:
    """Whether anyone of another side than ``actor``'s still stands."""
    side = state.combatants[actor].side or actor
    return any((c.side or c.actor) != side and OUT.isdisjoint(c.statuses) for c in state.combatants.values())


def recover(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A Recovery roll on Toughness (plus the best Medicine since the last one)."""
    state = scribe.state
    who = Fighter(state, actor)
    if not who.wounds():
        raise RefusedError(f"{actor} has no Wound to recover from", code="rules.refused")
    options = options_of(state)
    if not options.recovery_in_fight and fight_on(state, actor):
        raise RefusedError(f"{actor} cannot make a Recovery roll while the fight is on: Recovery is between fights "
                           "(option recovery_in_fight)", code="rules.refused")
    care = who.effect("medicine")
    toughness = who.card.toughness + (care.magnitude or 0 if care is not None else 0)
    rolled, seq = scribe.roll(NOTATION, roller=actor, purpose="recovery", for_seq=declaration, label="Recovery")
    faces = faces_of(rolled.dice)
    out = recovery(who.wounds(), toughness, faces, options.die_succeeds, options.failed_recovery_reads)
    note = (f"complication: Wound {out.complication}" if out.complication else
            "no healing" if out.best is None else f"highest Wound lowered by {out.best}")
    # ``hit``: the roll succeeded (a complication may come with a Success: the note says it)
    resolved = scribe.emit(AttackResolved(attacker=actor, target=actor, hit=out.best is not None,
                                          score=out.best or 0, against=0, rolls=[seq], declaration=declaration,
                                          notes=[f"Toughness {toughness}", note]))
    if care is not None:
        scribe.emit(EffectExpired(cause=declaration, effect=care.effect, target=actor, reason="used in a Recovery"))
    if out.complication is not None:
        scribe.emit(DamageApplied(target=actor, raw=out.complication, taken=1, pool=wound_pool(out.complication),
                                  source="complication", cause=resolved))
        for treated in who.effects("treated"):  # a new Wound (rebleeding): Medicine's stop ends (Using Medicine)
            scribe.emit(EffectExpired(cause=resolved, effect=treated.effect, target=actor, reason="a new Wound"))
        update_bleeding(scribe, actor, resolved)
        return
    for circle in reversed(out.healed):
        scribe.emit(HealingApplied(target=actor, amount=1, pool=wound_pool(circle), source="recovery", cause=resolved))
    if out.lowered_to is not None:
        scribe.emit(DamageApplied(target=actor, raw=out.lowered_to, taken=1, pool=wound_pool(out.lowered_to),
                                  source="recovery", cause=resolved))
    update_bleeding(scribe, actor, resolved)
