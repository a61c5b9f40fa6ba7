"""A hit's damage is applied by the end of its turn (``rules.damage``): for a ruleset whose
hits always deal damage, recorded as a ``damage_applied`` citing the ``attack_resolved``.

``DamageDue`` remembers the turn's hits that owe damage (``owe``, called where the ruleset
judges an outcome as its rules give it, or every hit ``owes`` answers yes to), forgets one
when a damage cites it (or, citing nothing, falls on its target: a hand-kept log's way), and
at the turn's end reports those left. en5.1, Bleeding Sun, Traveller and d20-evasion use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from fightlog.events.model import AttackResolved, DamageApplied, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState

CODE = "rules.damage"


class DamageDue:
    """The checks of one audited scene; ``rule`` what the finding says the rules do; ``owes``,
    when given, tells a hit that deals damage (not a grapple's, a disarm's), else the ruleset
    calls ``owe`` itself."""

    def __init__(self, rule: str, owes: Callable[[AttackResolved], bool] | None = None) -> None:
        self._owes = owes
        self._rule = rule
        self._owed: dict[int, AttackResolved] = {}

    def checks(self) -> Mapping[type, Check]:
        own: dict[type, Check] = {DamageApplied: cast(Check, self.damaged), TurnEnded: cast(Check, self.turn_over)}
        if self._owes is not None:
            own[AttackResolved] = cast(Check, self.resolved)
        return own

    def owe(self, attack: AttackResolved) -> None:
        """``attack`` owes damage by its turn's end (a hit; a blast harms whom it catches)."""
        self._owed[attack.seq] = attack

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        if event.hit and self._owes is not None and self._owes(event):
            self.owe(event)

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        owed = self._owed
        if not owed:
            return
        if event.cause is not None:
            owed.pop(event.cause, None)
            return
        for seq in [seq for seq, hit in owed.items() if hit.target == event.target]:
            del owed[seq]

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        for seq in sorted(self._owed):
            hit = self._owed[seq]
            view.report(CODE, hit, f"{hit.attacker}'s {'hit' if hit.hit else 'attack'} on {hit.target} has no damage "
                        f"applied by the end of the turn: {self._rule}", actor=hit.attacker)
        self._owed.clear()
