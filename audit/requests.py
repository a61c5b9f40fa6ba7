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

Also here: the ``Scribe`` that replays a request (``ReplayScribe``: recorded external rolls
reused, one roll replaced) and the table call that makes a request (``call_for``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import FightlogError, FoldError, InputError, RefusedError
from fightlog.events.compare import Difference, first_difference
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Moved,
    Origin,
    RulingMade,
    SceneEnded,
    SceneStarted,
    StatusChanged,
    TurnEnded,
)
from fightlog.reducers.fold import Folder, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.rules.dice import FairGenerator, ModifierLike, RollResult, as_modifiers, dice_rolled, read_roll, roll
from fightlog.rules.table import Entrant, Post, Scribe, Table, table_for

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

STAND_IN_SEED: Final = hashlib.sha256(b"fightlog dispute: a roll the log does not record").hexdigest()
"""The public seed of stand-in rolls (see ``ReplayScribe``): nothing is hidden in them."""

STAND_IN_TOOL: Final = "fightlog dispute (stand-in)"


def split(events: Sequence[AnyEvent], seed: str | None, *, table: Table | None = None,
          name: str = "<log>") -> Split:
    """The requests that produced ``events`` (see the module docstring)."""
    table = table or table_of(events[0], name)
    out: list[Request] = [Request("start", 0, 1)]
    departures: list[Departure] = []
    state = reduce(EMPTY, events[0])
    i, n = 1, len(events)
    while i < n:
        event = events[i]
        if type(event) is RulingMade:
            out.append(Request("ruling", i, i + 1, state.turn.current))
            i += 1
            state = refold(events[:i], name)
            continue
        kind = _kind_of(event, state)
        if kind == "open":
            stop = _cut(events, i)
            out.append(Request("open", i, stop, state.turn.current))
            i = stop
            state = refold(events[:i], name)
            continue
        window = events[i : _next_marker(events, i)]
        answered = event.responds_to if isinstance(event, DeclarationPosted) else None
        call, stamp = call_for(kind, event, events[i + 1 :], answered)
        scribe = ReplayScribe(state, seed, externals=externals(window), stamp=stamp)
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
        state = refold(events[:i], name)
    return Split(requests=out, departures=tuple(departures))


def requests_of(events: Sequence[AnyEvent], seed: str | None, *, table: Table | None = None,
                name: str = "<log>") -> list[Request]:
    """The requests of ``events`` (``split(...).requests``)."""
    return split(events, seed, table=table, name=name).requests


def table_of(start: AnyEvent, name: str) -> Table:
    """The table of the scene's ruleset; ``InputError`` for one without live play."""
    assert isinstance(start, SceneStarted)
    try:
        return table_for(start.ruleset)
    except RefusedError as exc:
        raise InputError(f"cannot re-derive this fight: {exc.message}", path=name, line=1) from None


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


# --------------------------------------------------------------------------- replaying


class ReplayScribe(Scribe):
    """A ``Scribe`` for re-deriving: external rolls of the original reused, in order, for
    the rolls of the same dice, roller and purpose (``unused``: those left over), one roll replaced by the changed one
    (``amended``: its ordinal in the request and the event), and the recorded ``at``/``origin``
    kept on the re-derived declaration or scene end (``stamp``). With no seed (every roll of
    the log made elsewhere), a roll the log does not record is a *stand-in*: drawn from a
    public seed and recorded as an external roll of ``tool`` ``fightlog dispute (stand-in)``
    (``stand_ins``: their ``seq``). ``reused`` maps the ``seq`` of each recorded roll reused
    (or changed) to the ``seq`` it gets."""

    def __init__(
        self,
        state: SceneState,
        seed: str | None,
        *,
        externals: Iterable[DiceRolled] = (),
        amended: tuple[int, DiceRolled] | None = None,
        stamp: AnyEvent | None = None,
    ) -> None:
        super().__init__(state, seed)
        self._externals = list(externals)
        self._amended = amended
        self._stamp = stamp
        self._rolled = 0
        self.hypothetical: int | None = None
        self.stand_ins: list[int] = []
        self.reused: dict[int, int] = {}

    @property
    def unused(self) -> list[DiceRolled]:
        """The recorded external rolls this request had no use for."""
        return list(self._externals)

    def emit(self, event: AnyEvent) -> int:
        stamp = self._stamp
        if stamp is not None and type(event) is type(stamp):
            event = replace(event, at=stamp.at, origin=stamp.origin)
            self._stamp = None
        return super().emit(event)


    def roll(
        self,
        notation: str,
        *,
        roller: str,
        purpose: str,
        modifiers: Iterable[ModifierLike] = (),
        for_seq: int | None = None,
        label: str | None = None,
    ) -> tuple[RollResult, int]:
        info = self.state.scene
        if info is None:
            raise RefusedError("no scene has started")
        ordinal = self._rolled
        self._rolled += 1
        recorded = self._recorded(notation, roller, purpose)
        amended = self._amended
        if amended is not None and self._stands_in(ordinal, recorded):
            changed = amended[1]
            if changed.generator == "engine":
                changed = replace(changed, index=info.rolls)
            elif recorded is not None:
                self._externals.remove(recorded)  # the recorded roll it stands for
            self._amended = None
            seq = self.emit(replace(changed, seq=0, prev="", for_seq=for_seq))
            self.hypothetical = self.reused[changed.seq] = seq
            return read_roll(changed), seq
        if recorded is not None:
            self._externals.remove(recorded)
            mods = list(as_modifiers(modifiers))
            result = read_roll(replace(recorded, modifiers=mods))
            event = replace(recorded, seq=0, prev="", modifiers=mods, total=result.total, for_seq=for_seq,
                            label=label if label is not None else recorded.label)
            seq = self.reused[recorded.seq] = self.emit(event)
            return result, seq
        if self.seed is None:
            return self._stand_in(notation, roller=roller, purpose=purpose, modifiers=modifiers, for_seq=for_seq,
                                  label=label, scene=info.scene)
        return super().roll(notation, roller=roller, purpose=purpose, modifiers=modifiers, for_seq=for_seq, label=label)

    def _stand_in(self, notation: str, *, roller: str, purpose: str, modifiers: Iterable[ModifierLike],
                  for_seq: int | None, label: str | None, scene: str) -> tuple[RollResult, int]:
        """A roll the log does not record, in a log with no seed: drawn by the dispute (from a
        fixed public seed, at the ``seq`` it gets, so the same dispute draws the same faces),
        recorded as an external roll whose origin says so."""
        result = roll(notation, FairGenerator(STAND_IN_SEED, scene), self.next_seq, modifiers)
        event = replace(
            dice_rolled(result, roller=roller, purpose=purpose, for_seq=for_seq, label=label),
            generator="external", index=None, tool=STAND_IN_TOOL,
            origin=Origin(medium="dispute", ref="stand-in", raw=f"{notation}: not in the log; drawn by the dispute"),
        )
        seq = self.emit(event)
        self.stand_ins.append(seq)
        return result, seq

    def _recorded(self, notation: str, roller: str, purpose: str) -> DiceRolled | None:
        """The first recorded external roll left that this roll reuses: same notation, same
        roller, same purpose (a HUD may list a defender's dodge after the attacker's shots;
        the rules may ask for it first)."""
        for recorded in self._externals:
            if recorded.roller == roller and recorded.purpose == purpose and _same_dice(recorded, notation):
                return recorded
        return None

    def _stands_in(self, ordinal: int, recorded: DiceRolled | None) -> bool:
        """Whether this roll is the changed one: an engine roll by its ordinal in the request
        (the request replays identically up to it), an external one when it would reuse the
        recorded roll the change is to."""
        assert self._amended is not None
        changed = self._amended[1]
        if changed.generator == "engine":
            return ordinal == self._amended[0]
        return recorded is not None and recorded.seq == changed.seq


def _same_dice(recorded: DiceRolled, notation: str) -> bool:
    """Whether ``recorded`` rolled what ``notation`` rolls: the same notation, or the same
    dice written another way (a HUD's ``2d20`` for the rules' ``1d20 + 1d20``)."""
    if recorded.notation == notation:
        return True
    try:
        asked = roll(notation, FairGenerator(STAND_IN_SEED, "shape"), 0)
    except (FightlogError, ValueError):
        return False
    return sorted(d.sides for d in asked.dice) == sorted(d.sides for d in recorded.dice)


def run_call(action: Callable[[], None]) -> None:
    """Run a table call; a ruleset that breaks on data it was not written for (a sheet
    from elsewhere) is a refusal, never a traceback."""
    try:
        action()
    except FightlogError as exc:
        if isinstance(exc, RefusedError):
            raise
        raise RefusedError(str(exc)) from None
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        raise RefusedError(f"the ruleset cannot play this ({type(exc).__name__}: {_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else ""


# --------------------------------------------------------------------------- folding and small helpers


def refold(events: Sequence[AnyEvent], name: str) -> SceneState:
    """The state after ``events`` with every ruling among them honoured (``Folder``)."""
    try:
        return fold_all(events)
    except FoldError as exc:
        raise InputError(exc.message, path=name, line=exc.line) from None


def fold_all(events: Sequence[AnyEvent]) -> SceneState:
    def source(seq: int) -> Iterator[AnyEvent]:
        return iter(events[seq - 1 :])

    return Folder(source, keep_every=0).run()


def externals(events: Iterable[AnyEvent]) -> list[DiceRolled]:
    """The external rolls among ``events`` (a dice bot's, a HUD's), in order."""
    return [e for e in events if isinstance(e, DiceRolled) and e.generator == "external"]


def event_kind(event: AnyEvent | None) -> str:
    return "nothing" if event is None else tag(type(event))


def tag(kind: type) -> str:
    return str(kind.__struct_config__.tag)  # type: ignore[attr-defined]


def actor_of(event: AnyEvent) -> str | None:
    actor = getattr(event, "actor", None)
    return actor if isinstance(actor, str) else None


def as_json(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."


def _blank(event: AnyEvent) -> AnyEvent:
    """``event`` without ``prev`` (re-derived events are not sealed yet)."""
    return replace(event, prev="")
