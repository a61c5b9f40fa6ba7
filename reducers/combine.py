"""Combining the slice reducers into one ``reduce(state, event) -> state``.

Each slice module exports ``REDUCERS``: event type -> function ``(slice, event, context) ->
slice``. ``combine`` builds, once, the list of interested slices for every event kind, so an
event only visits the slices it changes; a slice returned unchanged (``is``) is not replaced.
Every kind of the event union must appear here (a kind no slice cares about still advances
``seq``); a test checks the table covers the union.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from fightlog.errors import FoldError
from fightlog.events.model import EVENT_TYPES, AnyEvent
from fightlog.reducers import combatants, declarations, effects, rulings, scene, turns
from fightlog.reducers.context import Context
from fightlog.reducers.state import SceneState
from fightlog.rules.ruleset import ruleset_for

SliceReducer = Callable[[Any, Any, Context], Any]

SLICES: dict[str, Mapping[type, SliceReducer]] = {
    "scene": scene.REDUCERS,
    "combatants": combatants.REDUCERS,
    "turn": turns.REDUCERS,
    "effects": effects.REDUCERS,
    "pending": declarations.REDUCERS,
    "rulings": rulings.REDUCERS,
}
"""State field -> that slice's reducers by event type."""


def combine(slices: Mapping[str, Mapping[type, SliceReducer]]) -> dict[type, tuple[tuple[str, SliceReducer], ...]]:
    """Event type -> the ``(field, reducer)`` pairs interested in it, for every kind."""
    table: dict[type, tuple[tuple[str, SliceReducer], ...]] = {}
    for kind in EVENT_TYPES:
        table[kind] = tuple((name, by_type[kind]) for name, by_type in slices.items() if kind in by_type)
    return table


DISPATCH = combine(SLICES)


def reduce(state: SceneState, event: AnyEvent) -> SceneState:
    """The state after ``event``. Refuses an event whose ``seq`` is not the next one."""
    seq = event.seq
    if seq != state.seq + 1:
        raise _out_of_order(state, event)
    try:
        handlers = DISPATCH[type(event)]
    except KeyError:
        raise FoldError(f"no reducer for events of type {type(event).__name__}", line=seq) from None
    if not handlers:
        return replace(state, seq=seq)
    info = state.scene
    ctx = Context(state, ruleset_for(None if info is None else info.ruleset))
    changes: dict[str, Any] = {}
    for name, handler in handlers:
        old = getattr(state, name)
        new = handler(old, event, ctx)
        if new is not old:
            changes[name] = new
    return replace(state, seq=seq, **changes)


def _out_of_order(state: SceneState, event: AnyEvent) -> FoldError:
    expected = state.seq + 1
    if event.seq <= state.seq:
        what = f"seq {event.seq} comes after seq {state.seq}: events must be folded in order"
    else:
        what = f"seq {event.seq} where seq {expected} was expected: events are missing"
    return FoldError(what, line=event.seq)
