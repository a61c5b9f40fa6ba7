"""The audit of a fighter's fall against their HP, for a ruleset where 0 HP puts a fighter
out (``rules.condition``): put out only at 0 HP or below, and nobody at 0 HP or below still
in the fight when a turn ends. A status without a ``cause`` is the GM's word (a fighter taken
out in the story), not judged. roe7 (defeated) and d20-evasion (mortally wounded) use it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import DamageApplied, StatusChanged, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState

CODE = "rules.condition"


class HpCondition:
    """The checks of one audited scene, remembering who a damage left at 0 HP or below while
    still in the fight (a turn's end looks only at them). ``out``: the statuses that put a
    fighter out; ``falls``: the one 0 HP gives, and ``said`` how the words say it."""

    def __init__(self, out: frozenset[str], falls: str, said: str) -> None:
        self._out = out
        self._falls = falls
        self._said = said
        self._owed: dict[str, int] = {}

    def checks(self) -> Mapping[type, Check]:
        return {DamageApplied: cast(Check, self.damaged), StatusChanged: cast(Check, self.status),
                TurnEnded: cast(Check, self.turn_over)}

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        who = after.combatants.get(event.target)
        if who is not None and who.pools.get("hp", 1) <= 0 and self._out.isdisjoint(who.statuses):
            self._owed[event.target] = event.seq

    def status(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        if not event.on or event.status not in self._out:
            return
        self._owed.pop(event.actor, None)
        if event.status != self._falls or event.cause is None:
            return
        who = before.combatants.get(event.actor)
        hp = None if who is None else who.pools.get("hp")
        if hp is not None and hp > 0:
            view.report(CODE, event, f"{event.actor} recorded {self._falls} with {hp} HP left: a fighter is "
                        f"{self._said} at 0 HP or below", actor=event.actor)

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        if not self._owed:
            return
        for actor, since in sorted(self._owed.items()):
            who = before.combatants.get(actor)
            hp = None if who is None else who.pools.get("hp")
            if who is not None and hp is not None and hp <= 0 and self._out.isdisjoint(who.statuses):
                view.report(CODE, event, f"{actor} is at {hp} HP (since seq {since}) and still in the fight when the "
                            f"turn ends: a fighter at 0 HP or below is {self._said}", actor=actor)
        self._owed.clear()
