"""An attack's damage lands on the attack's target, once a pool (``outcome.damage``), for
every ruleset.

A ``damage_applied`` stands on the ``attack_resolved`` it cites, directly (its ``cause``) or
through the damage roll made for it (a ``dice_rolled`` whose ``for_seq`` is the outcome, as
roe7 rolls damage). The outcome names whom the attack was on: damage given to anyone else
(another fighter, the attacker, someone never in the fight) moves HP the dice never decided
(the attacker of an attack that did not land aside: a contest the defender won may hurt the
attacker, as a Traveller grapple's winner may choose); and one attack's damage applied
twice to one target's pool counts it twice (an attack's damage may be split between pools:
Traveller's characteristics, d20-evasion's armour and HP).
A damage citing nothing, with no ``origin``, in a scene committed to a dice seed (one the
engine played: ``kit.declared.by_table``) was not the engine's: it records what every damage
comes from. The rulesets judge the amount (``rules.damage``), a damage after a miss, and a
hit left without damage. An attack out of the audit's window of recent events is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState

CODE = "outcome.damage"

_KEPT = 1024
"""Damages remembered by attack, target and pool (a second one is found while it is remembered)."""


def attack_of(event: DamageApplied, view: AuditView) -> AttackResolved | None:
    """The outcome ``event`` stands on: its ``cause``, or the outcome its cause, a roll, was
    made for; ``None`` for another cause (an effect's tick, a fall) or one out of reach."""
    cause = event.cause
    source = view.event(cause) if cause is not None else None
    if type(source) is DiceRolled:
        for_seq = source.for_seq
        source = view.event(for_seq) if for_seq is not None else None
    return source if type(source) is AttackResolved else None


class AttackDamage:
    """The check, with the damages it has seen (one audited scene)."""

    def __init__(self) -> None:
        self._applied: dict[tuple[int, str, str], int] = {}
        """(outcome, target, pool) -> the damage that applied it."""

    def checks(self) -> Mapping[type, Check]:
        return {DamageApplied: cast(Check, self.damaged)}

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        if event.cause is None:
            scene = before.scene
            if event.origin is None and scene is not None and scene.commitment is not None:  # as ``kit.declared.by_table``
                view.report(CODE, event, f"{event.target} takes {event.taken} citing nothing, in a scene the engine "
                            "played: it records what every damage comes from (a hit, a tick, a fall)", actor=None)
            return
        attack = attack_of(event, view)
        if attack is None:
            return
        if event.target != attack.target and (attack.hit or event.target != attack.attacker):
            view.report(CODE, event, f"{event.target} takes the damage of {attack.attacker}'s attack on "
                        f"{attack.target} (seq {attack.seq}): an attack's damage is its target's", actor=attack.attacker)
            return
        key = (attack.seq, event.target, event.pool)
        first = self._applied.get(key)
        if first is not None:
            view.report(CODE, event, f"{event.target} takes the damage of {attack.attacker}'s attack at seq "
                        f"{attack.seq} to {event.pool} again (first at seq {first})", actor=attack.attacker)
            return
        if len(self._applied) >= _KEPT:
            self._applied.clear()
        self._applied[key] = event.seq
