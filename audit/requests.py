"""A log split back into the requests that produced it, each re-derived by the rules.

A log is the record of *requests* made to a ruleset's ``Table`` (``fightlog play``,
``fightlog run``): the scene start, joins, the begin, posts, ends of turn, rulings, the scene
end, each of which appended a batch of events. ``split`` finds them again. A request's kind is
known from its first event; where it *ends* is found by re-deriving it: it is replayed from the
state the log had before it (the fold of the events before it, the rulings made by then
honoured) with the log's external rolls supplied, and an engine fight gives back exactly the
events recorded.

A hand-run or imported fight (rolls from a HUD, outcomes typed in by the GM) need not: where
the rules give something else, or refuse the request, the request is cut at the next event
that starts one (a declaration, a ruling, a join, an end of turn, the scene end) and the
*departure* is noted (``Departure``); the split goes on from the recorded state. Recorded
events that open a turn on their own (a GM who ends a turn, lets someone join, then opens the
next) form an ``open`` request, which no table call makes.

Also here: the table call that makes a request (``call_for``); the ``Scribe`` it is replayed
with is ``fightlog.audit.replay_request.ReplayScribe``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal

from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.replay_request import Refolding, ReplayScribe, as_json, event_kind, externals, run_call
from fightlog.errors import RefusedError
from fightlog.events.compare import Difference, first_difference
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    Moved,
    RulingMade,
    SceneEnded,
    StatusChanged,
    TurnEnded,
)
from fightlog.reducers.fold import reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.kit.table import Entrant, Post, Scribe, Table

RequestKind = Literal["start", "join", "begin", "post", "end_turn", "open", "ruling", "end"]


class Request(Struct, frozen=True):
    """One request of a log: ``kind``, the events ``events[first:stop]`` it produced, whose
    turn was open before it (``current``), and, when the rules do not give back what was
    recorded, how they depart (``departs``) or why they refuse it (``refused``)."""

    kind: RequestKind
    first: int
    stop: int
    current: str | None = None
    departs: str | None = None
    refused: str | None = None


class Departure(Struct, frozen=True, kw_only=True):
    """Where the recorded log departs from what the rules derive: the ``seq`` of the first
    event that differs (or of the request they refuse) and what they give instead."""

    seq: int
    text: str


class Split(Struct, frozen=True, kw_only=True):
    """The requests of a log, in order, and where it departs from the rules (none for a
    fight the engine played under the rules it has now)."""

    requests: list[Request]
    departures: tuple[Departure, ...]


REQUEST_NAMES: Final[Mapping[str, str]] = {
    "join": "join",
    "begin": "begin",
    "post": "post",
    "end_turn": "end of turn",
    "open": "turn opening",
    "ruling": "ruling",
    "end": "scene end",
}

_MARKERS: Final = (DeclarationPosted, RulingMade, CombatantJoined, SceneEnded)
_CUTS: Final = (*_MARKERS, TurnEnded)

Call = Callable[[Table, Scribe], None]


def split(events: Sequence[AnyEvent], seed: str | None, *, table: Table, name: str = "<log>") -> Split:
    """The requests that produced ``events`` (see the module docstring), re-derived by
    ``table``, the scene's ruleset's."""
    out: list[Request] = [Request("start", 0, 1)]
    departures: list[Departure] = []
    state = reduce(EMPTY, events[0])
    refolding = Refolding(events, name)
    i, n = 1, len(events)
    while i < n:
        event = events[i]
        if type(event) is RulingMade:
            out.append(Request("ruling", i, i + 1, state.turn.current))
            i += 1
            state = refolding.at(i)
            continue
        kind = _kind_of(event, state)
        if kind == "open":
            stop = _cut(events, i)
            out.append(Request("open", i, stop, state.turn.current))
            i = stop
            state = refolding.at(i)
            continue
        window = events[i : _next_marker(events, i)]
        answered = event.responds_to if isinstance(event, DeclarationPosted) else None
        call, stamp = call_for(kind, event, events[i + 1 :], answered)
        scribe = ReplayScribe(state, seed, externals=externals(window), stamp=stamp, key=f"seq {event.seq}")
        refused = departs = None
        try:
            run_call(lambda: call(table, scribe))
        except RefusedError as exc:
            refused = exc.message
            departures.append(Departure(seq=event.seq, text=f"the rules refuse this {REQUEST_NAMES[kind]}: {refused}"))
        else:
            made = scribe.events
            recorded = events[i : i + len(made)]
            diff = first_difference([_blank(e) for e in recorded], [_blank(e) for e in made])
            if diff is None and made:
                out.append(Request(kind, i, i + len(made), state.turn.current))
                i += len(made)
                state = scribe.state
                continue
            departs = departure(diff)
            seq = event.seq + (diff.seq - 1 if diff is not None else 0)
            departures.append(Departure(seq=seq, text=departs))
        stop = _joined_stop(events, i) if kind == "join" else _cut(events, i)
        out.append(Request(kind, i, stop, state.turn.current, departs=departs, refused=refused))
        i = stop
        state = refolding.at(i)
    return Split(requests=out, departures=tuple(departures))


def requests_of(events: Sequence[AnyEvent], seed: str | None, *, table: Table, name: str = "<log>") -> list[Request]:
    """The requests of ``events`` (``split(...).requests``)."""
    return split(events, seed, table=table, name=name).requests


def _next_marker(events: Sequence[AnyEvent], i: int) -> int:
    """The index of the next event after ``i`` that starts a request of its own kind."""
    for j in range(i + 1, len(events)):
        if isinstance(events[j], _MARKERS):
            return j
    return len(events)


def _cut(events: Sequence[AnyEvent], i: int) -> int:
    """Where a request the rules do not give back ends, as recorded: before the next event
    that starts a request (an end of turn included, unless the request starts with it)."""
    for j in range(i + 1, len(events)):
        if isinstance(events[j], _CUTS):
            return j
    return len(events)


def _joined_stop(events: Sequence[AnyEvent], i: int) -> int:
    """The end of a join as recorded: ``combatant_joined`` and the events it caused."""
    j = i + 1
    while j < len(events):
        event = events[j]
        if not isinstance(event, (Moved, StatusChanged)) or event.cause != events[i].seq:
            break
        j += 1
    return j


def _kind_of(event: AnyEvent, state: SceneState) -> RequestKind:
    """The kind of request ``event`` (the first of one) starts, in a log at ``state``."""
    if isinstance(event, SceneEnded):
        return "end"
    if isinstance(event, CombatantJoined):
        return "join"
    if isinstance(event, DeclarationPosted):
        return "post"
    if state.turn.round == 0:
        return "begin"
    return "end_turn" if state.turn.current is not None else "open"


def call_for(
    kind: RequestKind, head: AnyEvent, following: Sequence[AnyEvent], responds_to: int | None
) -> tuple[Call, AnyEvent | None]:
    """The table call that makes a request of ``kind`` starting with ``head`` (``following``:
    the events after it; ``responds_to``: the post answered, as a seq of this log), and the
    recorded event whose ``at``/``origin`` the re-derived one keeps."""
    if kind == "end":
        assert isinstance(head, SceneEnded)
        ended = head
        return lambda t, s: t.end(s, reveal=ended.seed, reason=ended.reason), ended
    if kind == "join":
        assert isinstance(head, CombatantJoined)
        entrant, options = _entrant(head, following)
        return lambda t, s: t.join(s, entrant, **options), None
    if kind == "post":
        assert isinstance(head, DeclarationPosted)
        post = _post(head, responds_to)
        return lambda t, s: t.post(s, post), head
    if kind == "begin":
        return lambda t, s: t.begin(s), None
    return lambda t, s: t.end_turn(s), None


def _entrant(joined: CombatantJoined, after: Sequence[AnyEvent]) -> tuple[Entrant, dict[str, Any]]:
    """The entrant and ``join`` options that gave ``joined`` (its position from the
    ``moved`` it caused, a reserve from its ``status_changed``)."""
    position: tuple[int, int] | None = None
    reserve = False
    for event in after[:2]:
        if isinstance(event, Moved) and event.cause == joined.seq and event.x is not None and event.y is not None:
            position = (event.x, event.y)
        elif isinstance(event, StatusChanged) and event.cause == joined.seq and event.status == "reserve":
            reserve = True
    entrant = Entrant(actor=joined.actor, joined=replace(joined, seq=0, prev=""), position=position)
    return entrant, {"arrival": joined.arrival, "after": joined.after, "salt": joined.salt, "reserve": reserve}


def _post(declaration: DeclarationPosted, responds_to: int | None) -> Post:
    return Post(
        actor=declaration.actor,
        text=declaration.text,
        actions=tuple(declaration.actions),
        responds_to=responds_to,
        ooc=declaration.ooc,
        recorded=True,
    )


def departure(diff: Difference | None) -> str:
    """How re-derived events depart from recorded ones, in a few words."""
    if diff is None:
        return "it records nothing"
    if diff.expected is None:
        return f"the rules add a {event_kind(diff.actual)}"
    if diff.actual is None:
        return f"the rules give no {event_kind(diff.expected)}"
    if type(diff.expected) is not type(diff.actual):
        return f"the rules give {event_kind(diff.actual)} where {event_kind(diff.expected)} is recorded"
    shown = ", ".join(f"{f} {as_json(a)} -> {as_json(b)}" for f, a, b in diff.fields[:3])
    return f"{event_kind(diff.actual)}: recorded -> re-derived: {shown}"


def _blank(event: AnyEvent) -> AnyEvent:
    """``event`` without ``prev`` (re-derived events are not sealed yet)."""
    return replace(event, prev="")
