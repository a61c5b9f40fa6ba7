"""The ``en51`` audit of counterattacks left unresolved (``rules.outcome``; Melee attack: when
a counterattack is declared, both attacks are resolved, even if one of them kills): by the
end of the turn of the attack it answers, a counterattack has its own resolution (its roll,
its hit or miss), as the table resolves the two together.

A counterattack on a charge (a melee attack with a move) resolves with it when the moves do,
at the round's end: not judged here. Not judged in an imported fight (its turns opened by the import: the transcript shows rolls,
not outcomes), nor in a turn whose resolutions cite no post (a hand-kept log written so says
nothing of which attack each resolved).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import AttackResolved, TurnEnded
from fightlog.kit.checks import AuditView, Check, opened_by_import
from fightlog.kit.resolutions import TurnResolutions
from fightlog.reducers.state import SceneState

CODE = "rules.outcome"


class Counters:
    """The check (see the module docstring), with what the turn's resolutions cited."""

    def __init__(self) -> None:
        self._turn = TurnResolutions()
        self.refused = self._turn.refused
        """Told of each post the table refuses: it owes nothing."""

    def checks(self) -> Mapping[type, Check]:
        return {AttackResolved: cast(Check, self.resolved), TurnEnded: cast(Check, self.turn_over)}

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        self._turn.resolved(event)

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        refused, _, uncited = self._turn.closed()
        if uncited:
            return
        for post in before.pending:
            if post.responds_to is None or post.resolved or post.seq in refused \
                    or not any(a.type == "counter" for a in post.actions):
                continue
            answered = next((p for p in before.pending if p.seq == post.responds_to), None)
            if answered is None or any(a.type == "move" for a in answered.actions):
                continue  # a charge's answer resolves with the charge, when the moves do (the round's end)
            if opened_by_import(before, view):
                return
            declared = view.event(post.seq)
            if declared is not None:
                view.report(CODE, declared, f"{post.actor}'s counterattack (seq {post.seq}) is never resolved by the "
                            "turn's end: when a counterattack is declared, both attacks are resolved", actor=post.actor)
