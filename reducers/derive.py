"""Facts derived from state rather than stored: who posts next, and why each combatant is
where they are in the posting order."""

from __future__ import annotations

from msgspec import Struct

from fightlog.reducers.state import SceneState
from fightlog.reducers.fold_rules import FoldRules, rules_for_scene


class Slot(Struct, frozen=True):
    """A combatant's place in the posting order and its standing this round:
    ``posting`` (their turn is open), ``acted``, ``next``, ``waiting`` (to post this round),
    ``holding`` (delaying or holding), ``out`` (skipped: defeated, fled...), ``arriving``."""

    actor: str
    standing: str
    note: str = ""


def rules_of(state: SceneState) -> FoldRules:
    scene = state.scene
    return rules_for_scene(None, {}) if scene is None else rules_for_scene(scene.ruleset, scene.options)


def posting_order(state: SceneState) -> list[Slot]:
    """Every combatant in posting order with their standing; arrivals last."""
    rules = rules_of(state)
    out = rules.out_of_order_statuses()
    waiting = rules.waiting_statuses()
    turn = state.turn
    nxt = next_to_post(state)
    slots: list[Slot] = []
    for actor in turn.order:
        who = state.combatants.get(actor)
        statuses = () if who is None else who.statuses
        gone = sorted(out.intersection(statuses))
        held = sorted(waiting.intersection(statuses))
        if gone:
            slots.append(Slot(actor, "out", ", ".join(gone)))
        elif actor == turn.current:
            slots.append(Slot(actor, "posting"))
        elif turn.in_round and actor in turn.acted:
            slots.append(Slot(actor, "acted"))
        elif held:
            slots.append(Slot(actor, "holding", ", ".join(held)))
        elif actor == nxt:
            slots.append(Slot(actor, "next"))
        else:
            slots.append(Slot(actor, "waiting"))
    for arrival in turn.arrivals:
        after = f"after {arrival.after}, " if arrival.after else ""
        slots.append(Slot(arrival.actor, "arriving", f"{after}from round {arrival.round}"))
    return slots


def next_to_post(state: SceneState, rules: FoldRules | None = None) -> str | None:
    """Who is expected to post next: nobody once the scene has ended; the open turn's actor
    unless they are out (fled during their turn) or holding; else the first combatant in the
    order who has not acted this round and is neither out nor holding (wrapping to the next
    round when everyone has acted). ``rules`` is the state's ruleset (``rules_of(state)``),
    for callers that have it at hand."""
    if rules is None:
        rules = rules_of(state)
    return due_to_post(state, rules.out_of_order_statuses() | rules.waiting_statuses())


def due_to_post(state: SceneState, skip: frozenset[str]) -> str | None:
    """``next_to_post`` with the statuses that skip a combatant given (the ruleset's out of
    order and waiting statuses): the audit asks at every turn."""
    if state.scene is not None and state.scene.ended:
        return None
    turn = state.turn
    current = turn.current
    combatants = state.combatants
    if current is not None:
        who = combatants.get(current)
        if who is None or skip.isdisjoint(who.statuses):
            return current
    done = turn.acted if turn.in_round else ()
    order = turn.order
    # Usually those who acted are the order's first few, in order: skip them at once.
    acted = len(done)
    for actor in order[acted:] if order[:acted] == done else order:
        if actor == current or actor in done:
            continue
        who = combatants.get(actor)
        if who is not None and skip.isdisjoint(who.statuses):
            return actor
    for actor in order:  # everyone eligible has acted (or is posting): the first of them
        who = combatants.get(actor)
        if who is not None and skip.isdisjoint(who.statuses):
            return actor
    return None


def _statuses(state: SceneState, actor: str) -> tuple[str, ...]:
    who = state.combatants.get(actor)
    return () if who is None else who.statuses


def standing_sides(state: SceneState, out: frozenset[str]) -> list[str]:
    """The sides (a fighter without one by their id) with someone whose statuses ``out``
    does not take out of the fight, sorted: one is the winner a scene's end names."""
    return sorted({c.side or c.actor for c in state.combatants.values() if out.isdisjoint(c.statuses)})
