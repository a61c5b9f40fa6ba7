"""The ``en51`` audit of what each attack roll is used for: one roll decides an attack (Combat
actions: one roll, read for the hit, the armour and the Damage), so an attack roll no attack
cites by the round's end was rolled again, or for nothing (``rules.unused-roll``), and an
attack resolved more often than it was declared (automatic fire apart: two attacks) was
decided twice (``rules.outcome``). A hand-run log's "roll again" shows as one or the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import AttackResolved, DeclarationPosted, DiceRolled, RoundEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.bw import NOTATION, faces_of

_DECIDING = frozenset({"attack", "counter"})
"""The declared actions an attack roll decides."""


class RollUse:
    """``rules.unused-roll`` and a second resolution of one declared attack (see the module)."""

    def __init__(self) -> None:
        self._unused: dict[int, DiceRolled] = {}
        """The attack rolls of the round no attack has cited yet."""
        self._decided: dict[tuple[int, str, str], int] = {}
        """(declaration, attacker, target) -> the ``seq`` of its first resolution."""
        self._twice: dict[tuple[int, str, str], int] = {}
        """How many resolutions each of those has had."""

    def checks(self) -> Mapping[type, Check]:
        return {DiceRolled: cast(Check, self.rolled), AttackResolved: cast(Check, self.resolved),
                RoundEnded: cast(Check, self.round_over)}

    def rolled(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        if event.notation == NOTATION and event.purpose == "attack":
            self._unused[event.seq] = event

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        for seq in event.rolls:
            self._unused.pop(seq, None)
        if event.declaration is None or event.weapon is None:
            return
        key = (event.declaration, event.attacker, event.target)
        count = self._twice.get(key, 0) + 1
        self._twice[key] = count
        first = self._decided.setdefault(key, event.seq)
        posted = view.event(event.declaration)
        if not isinstance(posted, DeclarationPosted):
            return
        declared = [a for a in posted.actions if a.type in _DECIDING and a.target in (event.target, None)]
        most = sum(2 if a.mode == "auto" else 1 for a in declared)
        if declared and count > most:
            view.report("rules.outcome", event, f"{event.attacker}'s attack on {event.target} declared at seq "
                        f"{event.declaration} is resolved again (first at seq {first}): one roll decides an attack",
                        actor=event.attacker)

    def round_over(self, before: SceneState, event: RoundEnded, after: SceneState, view: AuditView) -> None:
        for roll in sorted(self._unused.values(), key=lambda r: r.seq):
            faces = faces_of(roll.dice)
            view.report("rules.unused-roll", roll, f"{roll.roller}'s attack roll (black {faces.black}, white "
                        f"{faces.white}) decides no attack by the round's end: rolled again, or for nothing?",
                        actor=roll.roller)
        self._unused.clear()
        self._decided.clear()
        self._twice.clear()
