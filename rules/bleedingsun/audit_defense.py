"""The ``bleeding-sun`` audit of defending: the pool of an answer's defense roll (Physical
Defense: Vigor, less a stagger) and a total defense's (Agility or Body, less a stagger), and
what a total defense adds to the threshold (its hits, Total Defense). The defense roll's hits
against an attack are judged with the attack (``audit_attacks``, ``rules.threshold``);
these are ``rules.defense``.
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, EffectApplied
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.audit_attacks import dice_text, hits, roll_of
from fightlog.rules.bleedingsun.fighters import DEFENSE, Fighter

CODE = "rules.defense"


def answered(before: SceneState, event: AttackResolved, view: AuditView) -> None:
    """The dice of the defense roll an attack cites: the target's Vigor less a stagger."""
    if len(event.rolls) < 2:
        return
    roll = roll_of(view, event.rolls[1], "defense")
    if roll is None or roll.roller != event.target:
        return
    try:
        who = Fighter(before, event.target)
        vigor, stagger, want = who.attr("vigor"), who.stagger(), who.check_pool("vigor")
    except FightlogError:
        return
    if len(roll.dice) != want:
        view.report(CODE, roll, f"{event.target}'s defense against {event.attacker}'s attack rolled "
                    f"{dice_text(len(roll.dice))}; Vigor {vigor}" + (f" less {stagger} (staggered)" if stagger else "")
                    + f" gives {dice_text(want)}", actor=event.target)


def total_defense(before: SceneState, event: EffectApplied, view: AuditView) -> None:
    """A total defense's roll (Agility or Body, as it says, less a stagger) and its size: the
    hits that roll shows."""
    if event.name != DEFENSE:
        return
    roll = roll_of(view, int(event.params.get("roll") or 0), "defense")
    if roll is None:
        return
    given = event.params.get("with")
    try:
        who = Fighter(before, event.target)
        use = who.defends_with(given if given in ("agility", "body") else None)
        score, stagger, want, face = who.attr(use), who.stagger(), who.check_pool(use), who.options.hit_face
    except FightlogError:
        return
    if len(roll.dice) != max(0, want):
        view.report(CODE, roll, f"{event.target}'s total defense rolled {dice_text(len(roll.dice))}; "
                    f"{use.capitalize()} {score}" + (f" less {stagger} (staggered)" if stagger else "")
                    + f" gives {dice_text(want)}", actor=event.target)
    shown = hits(roll, face)
    if event.magnitude != shown:
        view.report(CODE, event, f"{event.target}'s total defense adds {event.magnitude} to the "
                    f"threshold; its roll (seq {roll.seq}) shows {shown} {'hit' if shown == 1 else 'hits'}, each "
                    "adding one", actor=event.target)
