"""Folding a log into state, honouring GM rulings as if they had always been there.

A ruling (``ruling_made``) voids or amends an earlier event. The log is never changed; the
fold instead reads history through a *plan*: target ``seq`` -> the ruling in force for it. A
voided event still takes its ``seq`` but changes nothing; an amended event is folded with the
ruled fields (validated against its kind). So the state after any event ``n`` equals folding
the log up to ``n`` with every ruling made up to ``n`` applied to the events it targets.

``fold`` is the pure fold of a sequence under a fixed plan; ``fightlog.reducers.folder``
drives it over a log, learning the plan as it goes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from fightlog.errors import FoldError
from fightlog.events.model import AnyEvent, RulingMade, SceneStarted
from fightlog.reducers.combine import DISPATCH, out_of_order
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.reducers.fold_rules import FoldRules, rules_for_scene
from fightlog.reducers.scene import roll_consumed

Plan = Mapping[int, RulingMade]
"""Target ``seq`` -> the void or amend ruling in force for it."""

_PROTECTED = frozenset({"kind", "seq", "prev", "batch"})


def in_force(rulings: Iterable[RulingMade]) -> list[RulingMade]:
    """The void, amend and accept rulings still in force, in log order (``rulings`` in log
    order).

    ``withdraw`` (or ``void`` aimed at a ruling) takes a ruling out of force, so an earlier
    ruling on the same event applies again. A ruling must target an earlier event, and a
    ruling cannot be amended (``FoldError``).
    """
    kept: list[RulingMade] = []
    seen: set[int] = set()
    for ruling in rulings:
        if ruling.target >= ruling.seq:
            raise FoldError(
                f"ruling targets seq {ruling.target}, which is not earlier than the ruling",
                line=ruling.seq,
            )
        if ruling.action == "withdraw" or (ruling.action == "void" and ruling.target in seen):
            kept = [r for r in kept if r.seq != ruling.target]
        elif ruling.action == "amend" and ruling.target in seen:
            raise FoldError(
                f"a ruling cannot amend the ruling at seq {ruling.target}; withdraw it and rule again",
                line=ruling.seq,
            )
        else:
            kept.append(ruling)
        seen.add(ruling.seq)
    return kept


def changing(target: int, standing: Iterable[RulingMade]) -> RulingMade | None:
    """The amend or void among ``standing`` (rulings in force) that changes ``target``: one a
    second would replace as a whole (the fold applies the latest), so ``rule`` and a dispute's
    fork refuse the second."""
    return next((r for r in standing if r.target == target and r.action in ("amend", "void")), None)


def plan_of(rulings: Iterable[RulingMade]) -> dict[int, RulingMade]:
    """The plan made by ``rulings`` (in log order): the void and amend rulings in force
    (``in_force``), later ones on the same event winning. ``accept`` rulings change no
    event."""
    return {r.target: r for r in in_force(rulings) if r.action in ("void", "amend")}


def apply_ruling(event: AnyEvent, ruling: RulingMade) -> AnyEvent | None:
    """``event`` as ``ruling`` has it: ``None`` when voided, the amended event otherwise, its
    ``origin`` the ruling (``medium: ruling``, ``ref: seq N``) unless the ruling sets one: what
    it says now is the GM's, not the engine's (the audit checks it as it checks a hand-run one).

    A ruling aimed at another ruling acts through ``plan_of`` (it withdraws it); as an event,
    the targeted ruling is left as it is.
    """
    if isinstance(event, RulingMade):
        return event
    if ruling.action == "void":
        if isinstance(event, SceneStarted):
            raise FoldError("the scene_started event cannot be voided", line=ruling.seq)
        return None
    bad = sorted(_PROTECTED.intersection(ruling.changes))
    if bad:
        raise FoldError(f"a ruling cannot amend {', '.join(bad)} of seq {event.seq}", line=ruling.seq)
    data = msgspec.to_builtins(event)
    data.update(ruling.changes)
    if "origin" not in ruling.changes:  # what the event says now comes from the ruling, not the engine
        data["origin"] = {"medium": "ruling", "ref": f"seq {ruling.seq}"}
    try:
        return msgspec.convert(data, type(event))
    except msgspec.ValidationError as exc:
        raise FoldError(f"amendment of seq {event.seq} is not a valid event: {exc}", line=ruling.seq) from None


def rulings_in(state: SceneState) -> list[RulingMade]:
    """The rulings recorded in ``state``, as events (to continue a fold from a snapshot)."""
    return [
        RulingMade(
            seq=r.seq,
            by=r.by,
            action=r.action,  # type: ignore[arg-type]
            target=r.target,
            reason=r.reason,
            changes=r.changes,
            finding=r.finding,
        )
        for r in state.rulings
    ]


def reduce(state: SceneState, event: AnyEvent) -> SceneState:
    """The state after one event (a fold of one). Refuses an event whose ``seq`` is not the
    next one, and kinds no reducer knows."""
    return fold((event,), start=state)


def fold(
    events: Iterable[AnyEvent],
    *,
    start: SceneState = EMPTY,
    upto: int | None = None,
    plan: Plan | None = None,
    keep: Callable[[SceneState], None] | None = None,
    keep_every: int = 50_000,
    watch: Callable[[SceneState, AnyEvent, SceneState], None] | None = None,
    hooks: Mapping[type, Callable[[SceneState, Any, SceneState, Any], None]] | None = None,
    context: Any = None,
    seen: MutableMapping[int, AnyEvent] | None = None,
    rules: FoldRules | None = None,
) -> SceneState:
    """Fold ``events`` (which must continue ``start``) under ``plan``, up to ``seq == upto``.

    The combined reducer runs inline here, the hot path of every fold: each event visits
    only the slices interested in its kind (``DISPATCH``, through ``step_for``), and a slice
    returned unchanged is shared, not copied. ``keep``, when given, receives the state after
    every ``keep_every``-th event. The plan is read as the fold goes, so a caller may extend
    it in place.

    Watching the fold (every event folded, as ruled: a voided event is not folded, so not
    watched), in this order: ``seen``, when given, receives every event by ``seq``;
    ``watch`` is called as ``watch(before, event, after)``; ``hooks`` maps event kinds to
    ``hook(before, event, after, context)``, called for events of that kind only (read as
    the fold goes: a hook may change the map). The audit uses ``seen`` and ``hooks``: one
    call per checked event and none for the rest, which a ``watch`` for every event costs.

    ``rules``, when given, is ``start``'s ruleset as ``rules_for_scene`` gives it (a caller
    folding one event at a time saves looking it up again for each).
    """
    # Long on purpose: the hot path of every fold; a helper per event would cost a call per event.
    state = start
    plan = plan if plan is not None else {}
    limit = upto if upto is not None else sys.maxsize
    steps = _STEPS
    scene = state.scene
    # The ruleset depends only on the scene's ruleset id and options, which a scene keeps
    # (the same objects) while its other fields change (every engine roll moves ``rolls``).
    ruleset_id = None if scene is None else scene.ruleset
    options: Mapping[str, Any] = {} if scene is None else scene.options
    if rules is None:
        rules = rules_for_scene(ruleset_id, options)
    last = state.seq
    for event in events:
        seq = event.seq
        if seq > limit:
            break
        if seq != last + 1:
            raise out_of_order(state, event)
        last = seq
        if plan:
            ruling = plan.get(seq)
            if ruling is not None:
                ruled = apply_ruling(event, ruling)
                if ruled is None:
                    state = replace(state, seq=seq, scene=roll_consumed(state.scene, event))
                    continue
                event = ruled
        kind = type(event)
        step = steps.get(kind)
        if step is None:
            step = step_for(kind, seq)
        before = state
        state = step(state, event, rules, seq)
        if state.scene is not scene:
            scene = state.scene
            if scene is None:
                if ruleset_id is not None or options:
                    ruleset_id, options = None, {}
                    rules = rules_for_scene(None, {})
            elif scene.ruleset is not ruleset_id or scene.options is not options:
                ruleset_id, options = scene.ruleset, scene.options
                rules = rules_for_scene(ruleset_id, options)
        if seen is not None:
            seen[seq] = event
        if watch is not None:
            watch(before, event, state)
        if hooks is not None:
            hook = hooks.get(kind)
            if hook is not None:
                hook(before, event, state, context)
        if keep is not None and seq % keep_every == 0:
            keep(state)
    return state


KindStep = Callable[[SceneState, Any, FoldRules, int], SceneState]
"""``step(state, event, rules, seq)``: the state after one event of a kind."""

_STEPS: dict[type, KindStep] = {}


def step_for(kind: type, seq: int = 0) -> KindStep:
    """The combined reducer of one event kind (``FoldError`` for a kind no reducer knows),
    made the first time it is asked for.

    Written out once per kind, as ``replace(state, seq=seq, turn=h0(state.turn, event,
    rules), ...)`` over the slices ``DISPATCH`` names for it: one call per event instead of
    a loop over the slices, attribute lookups by name and a dict of changes (a slice a
    reducer returns unchanged is passed back as the same object, so it is shared).
    """
    known = _STEPS.get(kind)
    if known is not None:
        return known
    handlers = DISPATCH.get(kind)
    if handlers is None:
        raise FoldError(f"no reducer for events of type {kind.__name__}", line=seq)
    names = [name for name, _ in handlers]
    if any(not name.isidentifier() or name not in SceneState.__struct_fields__ for name in names):
        raise ValueError(f"DISPATCH names a field SceneState does not have: {names}")
    updates = "".join(f", {name}=h{i}(state.{name}, event, rules)" for i, name in enumerate(names))
    source = f"def step(state, event, rules, seq):\n    return replace(state, seq=seq{updates})\n"
    scope: dict[str, Any] = {"replace": replace, **{f"h{i}": handler for i, (_, handler) in enumerate(handlers)}}
    exec(compile(source, f"<fold step for {kind.__name__}>", "exec"), scope)
    step: KindStep = scope["step"]
    _STEPS[kind] = step
    return step
