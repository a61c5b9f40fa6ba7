"""A minimal ``Table`` for testing what drives tables (scenarios, ``fightlog play``) apart
from any ruleset's rules: it joins roe7 roster combatants, posts in a fixed order, rolls one
die for a ``shoot`` and refuses what a real table would (a post out of turn, an unknown
target or weapon, an action of type ``refuse``).

Use it with ``install(monkeypatch)`` (the ``fake`` ruleset, whose table this is, registered
for the test) and a scene whose ruleset is ``fake``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import InputError, RefusedError
from fightlog.events.model import (
    DeclarationPosted,
    InitiativeSet,
    Json,
    Moved,
    RoundEnded,
    RoundStarted,
    SceneEnded,
    TurnEnded,
    TurnStarted,
)
from fightlog.rules.roe7.roster import load_roster
from fightlog.kit.ruleset import GenericRules
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.reducers import fold_rules


class FakeRules(GenericRules):
    """The ``fake`` ruleset: the generic answers, and this module's table."""

    id = "fake"
    table_module = __name__


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the ``fake`` ruleset for one test (``kit.ruleset.register``, undone after)."""
    monkeypatch.setitem(fold_rules._REGISTRY, "fake", FakeRules())


class FakeOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    house: int = 0


class FakeTable:
    id = "fake"
    option_type = FakeOptions

    def options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> dict[str, Json]:
        unknown = sorted(set(overrides) - {"house"})
        if unknown:
            raise InputError(f"fake options: unknown option {unknown[0]!r}", path=where)
        return {"house": overrides.get("house", 0)}

    def roster(self, path: str) -> Sequence[Entrant]:
        return [Entrant(actor=c.id, joined=c.joined()) for c in load_roster(path).combatants]

    def join(self, scribe: Scribe, entrant: Entrant, *, arrival: bool = False, after: str | None = None,
             salt: str | None = None, reserve: bool = False) -> None:
        if entrant.actor in scribe.state.combatants:
            raise RefusedError(f"{entrant.actor} is already in the scene")
        if after is not None and after not in scribe.state.combatants:
            raise RefusedError(f"{after} is not in the scene")
        scribe.emit(replace(entrant.joined, arrival=arrival, after=after, salt=salt,
                            role="reserve" if reserve else "pc"))
        if entrant.position is not None:
            x, y = entrant.position
            scribe.emit(Moved(actor=entrant.actor, x=x, y=y))

    def begin(self, scribe: Scribe) -> None:
        state = scribe.state
        if state.turn.round:
            raise RefusedError("the fight has begun already")
        order = [a for a, c in state.combatants.items() if c.role != "reserve"]
        if not order:
            raise RefusedError("nobody has joined")
        scribe.emit(InitiativeSet(order=order, reason="joined"))
        scribe.emit(RoundStarted(round=1))
        scribe.emit(TurnStarted(actor=order[0], round=1))

    def post(self, scribe: Scribe, post: Post) -> None:
        state = scribe.state
        if post.actor not in state.combatants:
            raise RefusedError(f"{post.actor!r} is not in the scene")
        if state.turn.current is None:
            raise RefusedError("no turn is open")
        if post.actor != state.turn.current and post.responds_to is None and not post.ooc:
            raise RefusedError(f"it is {state.turn.current}'s turn, not {post.actor}'s")
        for action in post.actions:
            if action.type == "refuse":
                raise RefusedError("the rules refuse this")
            if action.target is not None and action.target not in state.combatants:
                raise RefusedError(f"no combatant {action.target!r} in the scene")
            weapons = state.combatants[post.actor].weapons
            if action.weapon is not None and action.weapon not in weapons:
                raise RefusedError(f"{post.actor} carries no weapon {action.weapon!r}")
        seq = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                            responds_to=post.responds_to, ooc=post.ooc))
        for action in post.actions:
            if action.type == "shoot":
                scribe.roll("1d100", roller=post.actor, purpose="attack", for_seq=seq)

    def end_turn(self, scribe: Scribe) -> None:
        turn = scribe.state.turn
        if turn.current is None:
            raise RefusedError("no turn is open")
        scribe.emit(TurnEnded(actor=turn.current, round=turn.round))
        order = list(scribe.state.turn.order)
        at = order.index(turn.current) + 1
        if at < len(order):
            scribe.emit(TurnStarted(actor=order[at], round=turn.round))
            return
        scribe.emit(RoundEnded(round=turn.round))
        scribe.emit(RoundStarted(round=turn.round + 1))
        scribe.emit(TurnStarted(actor=scribe.state.turn.order[0], round=turn.round + 1))

    def end(self, scribe: Scribe, *, reveal: str | None, reason: str | None = None) -> None:
        if scribe.state.scene is not None and scribe.state.scene.ended:
            raise RefusedError("the scene has ended already")
        order = scribe.state.turn.order
        scribe.emit(SceneEnded(seed=reveal, winner=order[0] if order else None, reason=reason))


TABLE = FakeTable()
