"""The turn order slice: initiative, posting order, rounds, the open turn and what it spent,
who has acted this round, and arrivals waiting for their slot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from fightlog.events.model import (
    CombatantJoined,
    DeclarationPosted,
    InitiativeRolled,
    InitiativeSet,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import Arrival, TurnState


def _initiative(turn: TurnState, event: InitiativeRolled, rules: FoldRules) -> TurnState:
    initiative = dict(turn.initiative)
    score = (event.score, *event.tiebreak)
    for actor in event.group or [event.actor]:
        initiative[actor] = score
    return replace(turn, initiative=initiative)


def _order(turn: TurnState, event: InitiativeSet, rules: FoldRules) -> TurnState:
    return replace(turn, order=tuple(event.order))


def _joined(turn: TurnState, event: CombatantJoined, rules: FoldRules) -> TurnState:
    if not event.arrival:
        return turn
    waiting = Arrival(actor=event.actor, after=event.after, round=turn.round + rules.arrival_delay())
    return replace(turn, arrivals=(*turn.arrivals, waiting))


def _round_started(turn: TurnState, event: RoundStarted, rules: FoldRules) -> TurnState:
    order = turn.order
    waiting: list[Arrival] = []
    for arrival in turn.arrivals:
        if arrival.round > event.round:
            waiting.append(arrival)
        elif arrival.actor not in order:
            order = _insert_after(order, arrival.actor, arrival.after)
    return replace(
        turn,
        round=event.round,
        in_round=True,
        current=None,
        acted=(),
        spent={},
        order=order,
        arrivals=tuple(waiting),
    )


def _insert_after(order: tuple[str, ...], actor: str, after: str | None) -> tuple[str, ...]:
    if after is None or after not in order:
        return (*order, actor)
    at = order.index(after) + 1
    return (*order[:at], actor, *order[at:])


def _round_ended(turn: TurnState, event: RoundEnded, rules: FoldRules) -> TurnState:
    return replace(turn, in_round=False, current=None)


def _turn_started(turn: TurnState, event: TurnStarted, rules: FoldRules) -> TurnState:
    return replace(turn, current=event.actor, spent={}, round=max(turn.round, event.round), started=event.seq)


def _turn_ended(turn: TurnState, event: TurnEnded, rules: FoldRules) -> TurnState:
    acted = turn.acted if event.actor in turn.acted else (*turn.acted, event.actor)
    return replace(turn, current=None, acted=acted, spent={})


def _declared(turn: TurnState, event: DeclarationPosted, rules: FoldRules) -> TurnState:
    if not event.actions or event.ooc:
        return turn
    spent = dict(turn.spent)
    for action in event.actions:
        cost = rules.action_cost(action)
        if cost is not None:
            spent[cost] = spent.get(cost, 0) + 1
    return replace(turn, spent=spent)


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    InitiativeRolled: _initiative,
    InitiativeSet: _order,
    CombatantJoined: _joined,
    RoundStarted: _round_started,
    RoundEnded: _round_ended,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    DeclarationPosted: _declared,
}
