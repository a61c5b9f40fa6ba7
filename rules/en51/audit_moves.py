"""The ``en51`` audit of a move as made against the move declared (Movement; Roll with it):
the move kept for the turn's end is the metres the post declared (``moves.declare``), and
the move made is those metres, or half of them when rolling with a hit replaced the rest
(``moves._arrive``). How far a post may declare is judged at the post (``rules.combined``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import DeclarationPosted, EffectApplied, Moved
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState

CODE = "rules.combined"


class Moves:
    """The moves declared and not yet made, by their post's seq."""

    def __init__(self) -> None:
        self._declared: dict[int, int] = {}

    def checks(self) -> Mapping[type, Check]:
        return {EffectApplied: cast(Check, self.kept), Moved: cast(Check, self.moved)}

    def kept(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if event.name != "move":
            return
        declaration = int(event.params.get("declaration") or event.cause or 0)
        metres = event.params.get("metres")
        post = view.event(declaration)
        if type(post) is not DeclarationPosted or not isinstance(metres, int):
            return
        move = next((a for a in post.actions if a.type == "move"), None)
        declared = (move.distance or 0) if move is not None else None
        if declared is not None and metres != declared:
            view.report(CODE, event, f"{event.target}'s move is kept as {metres} m; the post (seq {declaration}) "
                        f"declared {declared} m", actor=event.target)
        self._declared[declaration] = declared if declared is not None else metres

    def moved(self, before: SceneState, event: Moved, after: SceneState, view: AuditView) -> None:
        if event.relative_to is not None or event.cause is None:  # a sneak's metres: judged with the sneak
            return
        declared = self._declared.pop(event.cause, None)
        if declared is None:
            return
        who = before.combatants.get(event.actor)
        rolling = who is not None and "rolling" in who.statuses
        want = declared // 2 if rolling else declared
        if event.metres != want:
            half = f", half of it rolling with a hit ({want} m)" if rolling else ""
            view.report(CODE, event, f"{event.actor} moves {event.metres} m; the post (seq {event.cause}) declared "
                        f"{declared} m{half}", actor=event.actor)
