"""The ``en51`` audit of Medicine and Recovery (``rules.care``; Using Medicine; Recovery): the
Success recorded is the one the black and white faces give under the skill, Medicine (plus
the post's ``bonus=``) for Medicine, Toughness plus the best Medicine since the last Recovery
for Recovery; a success only where there is one; and Medicine's lasting bonus is its Success.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DeclarationPosted, DiceRolled, EffectApplied
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.bw import NOTATION, faces_of, success
from fightlog.rules.en51.care import medicine_skill
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import options_of

CODE = "rules.care"


def checks() -> Mapping[type, Check]:
    return {AttackResolved: cast(Check, resolved), EffectApplied: cast(Check, applied)}


def resolved(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
    found = _given(before, event, view)
    if found is None:
        return
    best, rolled, skill, what = found
    if event.score != (best or 0) or event.hit != (best is not None):
        faces = faces_of(rolled.dice)
        given = f"a Success of {best}" if best is not None else "no Success"
        recorded = f"a Success of {event.score}" if event.hit else "no Success"
        view.report(CODE, event, f"{event.attacker}'s {rolled.purpose} roll (black {faces.black}, white {faces.white}) "
                    f"under {what} {skill} gives {given}; recorded: {recorded}", actor=event.attacker)


def _given(before: SceneState, event: AttackResolved, view: AuditView
           ) -> tuple[int | None, DiceRolled, int, str] | None:
    """For a Medicine or Recovery outcome: the Success its faces give (``None``: none), its
    roll, and the skill and its name; ``None`` for anything else, or what cannot be read."""
    rolled = view.event(event.rolls[0]) if event.rolls else None
    if event.weapon is not None or not isinstance(rolled, DiceRolled) or rolled.notation != NOTATION \
            or rolled.purpose not in ("medicine", "recovery"):
        return None
    try:
        skill, what = _skill(before, event, rolled.purpose, view)
        return success(faces_of(rolled.dice), skill, options_of(before).die_succeeds), rolled, skill, what
    except (FightlogError, ValueError):
        return None


def _skill(before: SceneState, event: AttackResolved, purpose: str, view: AuditView) -> tuple[int, str]:
    """What the roll is made under: Medicine (and the post's ``bonus=``), or the roller's
    Toughness and the best Medicine on them."""
    who = Fighter(before, event.attacker)
    if purpose == "recovery":
        care = who.effect("medicine")
        bonus = care.magnitude or 0 if care is not None else 0
        put = view.event(care.applied) if care is not None else None
        made = view.event(put.cause) if isinstance(put, EffectApplied) and put.cause is not None else None
        found = _given(before, made, view) if isinstance(made, AttackResolved) else None
        if found is not None and found[0] is not None:  # the bonus its Medicine gives (a wrong one is named there)
            bonus = found[0]
        return who.card.toughness + bonus, "Toughness"
    posted = view.event(event.declaration) if event.declaration is not None else None
    action = next((a for a in posted.actions if a.type == "medicine"), None) \
        if isinstance(posted, DeclarationPosted) else None
    return medicine_skill(who, action) if action is not None else who.card.skill("medicine"), "Medicine"


def applied(before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
    """Medicine's lasting bonus (to the next Recovery's Toughness) is the Success of its roll."""
    if event.name != "medicine" or event.cause is None:
        return
    cause = view.event(event.cause)
    if not isinstance(cause, AttackResolved):
        return
    found = _given(before, cause, view)
    if found is not None and found[0] is not None and event.magnitude != found[0]:
        view.report(CODE, event, f"{cause.attacker}'s Medicine on {event.target} gives a bonus of {found[0]} (its "
                    f"Success), recorded as {event.magnitude}", actor=cause.attacker)
