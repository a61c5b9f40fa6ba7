"""The audit of an effect counted down a turn at a time (``rules.tick-wrong``), for the rulesets
whose effects count down at the end of the turns of whom they count on (roe7's buffs and
debuffs, d20-evasion's conditions): each count takes one turn off what was left, and falls in
the turn of the combatant the effect counts on (its target, unless it names another:
``counts_on``), or between turns (where the slot of one out of the fight passes). A ruleset passes the effects it counts otherwise (``skip``: a fuse, a bleed-out
counted at a round's end) and judges those itself.
"""

from __future__ import annotations

from collections.abc import Collection

from fightlog.events.model import EffectCountedDown
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState

CODE = "rules.tick-wrong"


class TurnCountdowns:
    """The countdown check of one audited scene."""

    def __init__(self, skip: Collection[str] = ()) -> None:
        self.skip = frozenset(skip)

    def counted(self, before: SceneState, event: EffectCountedDown, after: SceneState, view: AuditView) -> None:
        found = before.effects.get(event.effect)
        if found is None or found.remaining is None or found.name in self.skip:
            return
        problems = []
        want = max(0, found.remaining - 1)
        if event.remaining != want:
            problems.append(f"counted down from {found.remaining} to {event.remaining} turns left; one turn takes one "
                            f"(to {want})")
        counts_on = found.counts_on or found.target
        current = before.turn.current
        if current is not None and current != counts_on:  # (between turns: the slot of one out of the fight passed)
            problems.append(f"counted in {current}'s turn; it counts down at the end of {counts_on}'s turns")
        if problems:
            view.report(CODE, event, f"{found.name} on {found.target}: " + "; ".join(problems), actor=found.target)
