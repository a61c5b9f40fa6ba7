"""Combining the slice reducers into one dispatch table (``fightlog.reducers.fold`` runs it).

Each slice module exports ``REDUCERS``: event type -> function ``(slice, event, rules) ->
slice``, where ``rules`` is the ``FoldRules`` governing the log (the only thing a slice may
consult besides its own slice and the event). ``combine`` builds, once, the list of interested slices for every event kind, so an
event only visits the slices it changes; a slice returned unchanged (``is``) is not replaced.
Every kind of the event union must appear here (a kind no slice cares about still advances
``seq``); a test checks the table covers the union. To read what a kind changes, see
``kind_changes.CHANGES`` (the same table written out per kind, held to this one by a test).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fightlog.errors import FoldError
from fightlog.events.model import EVENT_TYPES, AnyEvent
from fightlog.reducers import combatants, declarations, effects, rulings, scene, turns
from fightlog.reducers.state import SceneState
from fightlog.reducers.fold_rules import FoldRules

SliceReducer = Callable[[Any, Any, FoldRules], Any]

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


def out_of_order(state: SceneState, event: AnyEvent) -> FoldError:
    expected = state.seq + 1
    if event.seq <= state.seq:
        what = f"seq {event.seq} comes after seq {state.seq}: events must be folded in order"
    else:
        what = f"seq {event.seq} where seq {expected} was expected: events are missing"
    return FoldError(what, line=event.seq)
