"""Disputes: fork a fight at one recorded fact, re-derive what follows, show the divergence.

``dispute(events, change, seed=...)`` changes one *fact* of a log in memory (a roll's dice or
modifiers, a declaration, a GM ruling), re-derives everything after it with the ruleset's
``Table`` and the scene's seed, and returns the fork with what differs: the first event that
differs, the requests the fork no longer allows, the state at the end (pools, statuses, the
winner) and the audit findings that appear or disappear. Pure: events in, events out; the CLI
(``fightlog dispute``) reads the log and writes the fork. See ``docs/dispute.md``.

**Requests.** A log is split into the requests that produced it, each replayed through the
table to find where it ends (``requests_of``): the scene start; a join (``combatant_joined``
and the ``moved``/``status_changed`` caused by it); the begin (initiative to the first turn's
start-of-turn events); a post (``declaration_posted`` and its consequences); an end of turn
(from the end of a post or turn through the next turn's start-of-turn events); a ruling; the
scene end. Every request is re-derived from the state the log had before it (rulings made by
then honoured, as ``fightlog play`` sees it) and must give back the recorded events: a log
the ruleset does not re-derive (a hand-run fight, rules changed since) is refused at the
first request that departs, since a fork of it would differ for reasons other than the change.

**The fork** keeps every event before the request holding the change, then replays that
request and every later one on the fold of what it has so far: posts through ``table.post``
(from the recorded declaration, or the changed one), ends of turn through ``table.end_turn``,
arrivals through ``table.join``, the end through ``table.end`` (revealing the seed the
original revealed), rulings re-appended as they were, their ``target`` moved to the event
that stands in the fork where the original target stood (same request, same place, same
kind). A changed ruling restarts the fork at the ruling itself: events before it were
decided before the ruling existed, so they re-derive unchanged.

**Dice.** The fork draws with the scene's seed at the fork's roll index, so an unchanged roll
at an unchanged index keeps its face. A changed roll keeps the dice and modifiers given (the
total recomputed) and is recorded as what it was: an engine roll keeps its index (so every
later roll keeps its own index), with faces the seed does not give, and ``origin.medium``
``dispute``; ``verify --dice`` on the fork names exactly that roll. External rolls of the
original (dice bots, HUDs) are reused, in order within their request, while the rules ask
for the same notation; a roll the original did not make is drawn from the seed.

**What the fork no longer allows** is dropped and listed: a post the rules refuse (its actor
defeated, out of turn, a target gone), an end of turn whose turn is not open, a ruling whose
target is no longer there or whose amendment no longer fits. Before an original post made in
its actor's own turn, if the fork's open turn is someone else's, that turn passes (ends
without a post) until the actor's opens, at most once round the order; if it never opens,
nothing passes and the post is dropped. The change's own request must be allowed: if the
rules refuse it, the dispute is refused (``RefusedError``).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.amendment import Reach, amend
from fightlog.audit.auditor import audit_events
from fightlog.audit.findings import Finding
from fightlog.errors import DiceError, FightlogError, FoldError, InputError, RefusedError
from fightlog.events.compare import Difference, field_changes, first_difference
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
    TurnStarted,
)
from fightlog.reducers.fold import Folder, apply_ruling, plan_of, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.rules.dice import ModifierLike, RollResult, as_modifiers, commitment, read_roll, seed_bytes
from fightlog.rules.table import Entrant, Post, Scribe, Table, table_for

RequestKind = Literal["start", "join", "begin", "post", "end_turn", "ruling", "end"]


class Change(Struct, frozen=True, kw_only=True):
    """The fact changed: the event at ``seq``, with ``sets`` (``(PATH, VALUE)`` pairs:
    ``dice[0].face``, 55), or ``void`` (as if it had not happened: a declaration or a
    ruling), or ``withdraw`` (a ruling, as if it had not been made)."""

    seq: int
    sets: tuple[tuple[str, Any], ...] = ()
    void: bool = False
    withdraw: bool = False

    def text(self) -> str:
        """The change as written on the command line."""
        if self.void:
            return "--void"
        if self.withdraw:
            return "--withdraw"
        return " ".join(f"{path}={_json(value)}" for path, value in self.sets)


class Request(Struct, frozen=True):
    """One request of a log: ``kind``, the events ``events[first:stop]`` it produced, and
    whose turn was open before it (``current``)."""

    kind: RequestKind
    first: int
    stop: int
    current: str | None = None


class Dropped(Struct, frozen=True, kw_only=True):
    """A request of the original the fork no longer allows: its first event's ``seq`` in the
    original, its kind, whose it was and why."""

    seq: int
    request: RequestKind
    actor: str | None
    reason: str


class Passed(Struct, frozen=True, kw_only=True):
    """A turn of the fork that ended without a post (``actor``'s, in ``round``) so that the
    original post at ``before`` could be made in its actor's turn."""

    actor: str
    round: int
    before: int


class Standing(Struct, frozen=True, kw_only=True):
    """One combatant at the end, original against fork: every pool as ``(original, fork)``
    (``None``: not there), statuses gained and lost in the fork, and whether they are in each
    fight at all."""

    actor: str
    name: str
    pools: dict[str, tuple[int | None, int | None]]
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    present: tuple[bool, bool] = (True, True)

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost or self.present[0] != self.present[1]) or any(
            a != b for a, b in self.pools.values()
        )


class Ending(Struct, frozen=True, kw_only=True):
    """The end of both fights: each combatant's standing, the winner, whether the scene
    ended, the round reached and the number of events, each as ``(original, fork)``."""

    standings: tuple[Standing, ...]
    winner: tuple[str | None, str | None]
    ended: tuple[bool, bool]
    round: tuple[int, int]
    events: tuple[int, int]


class FindingChange(Struct, frozen=True, kw_only=True):
    """An audit finding that appears in the fork (``appeared``) or disappears from it;
    ``on_change`` marks a finding on the changed fact itself (the changed engine roll is one
    the seed does not give)."""

    appeared: bool
    finding: Finding
    on_change: bool = False


class Dispute(Struct, frozen=True, kw_only=True):
    """The outcome (see the module docstring). ``target`` is the event changed as recorded,
    ``amended`` as changed (``None``: voided or withdrawn), ``fields`` what the change did to
    it; ``restart`` the ``seq`` where re-derivation starts; ``difference`` the first event
    that differs, ``consequence`` the first after the changed event itself; ``fork`` the
    fork's events (``seq`` assigned, ``prev`` left for the store to seal)."""

    change: Change
    target: AnyEvent
    amended: AnyEvent | None
    fields: tuple[tuple[str, Any, Any], ...]
    restart: int
    seed: str
    original: list[AnyEvent]
    fork: list[AnyEvent]
    difference: Difference | None
    consequence: Difference | None
    dropped: tuple[Dropped, ...]
    passed: tuple[Passed, ...]
    ending: Ending
    findings: tuple[FindingChange, ...]

    @property
    def kind(self) -> str:
        return _kind(self.target)


_METADATA: Final = frozenset({"origin"})
"""Not compared between the original and the fork: the changed fact's ``origin`` says it
is the dispute's."""

DISPUTE_MEDIUM: Final = "dispute"
"""``origin.medium`` of a fork's changed fact."""


# --------------------------------------------------------------------------- the entry point


def dispute(events: Sequence[AnyEvent], change: Change, *, seed: str | None = None, name: str = "<log>") -> Dispute:
    """Fork ``events`` at ``change`` and compare (see the module docstring). ``seed`` is the
    scene's seed when the log does not reveal it (checked against the commitment);
    ``name`` locates errors (``InputError`` with the ``seq`` as line)."""
    events = list(events)
    if not events or type(events[0]) is not SceneStarted:
        raise InputError("not a scene: the log does not start with scene_started", path=name)
    if not 1 <= change.seq <= len(events):
        raise InputError(f"--at {change.seq}: the log has seq 1 to {len(events)}", path=name)
    target = events[change.seq - 1]
    amended = _amend(events, target, change, name)
    secret = dice_seed(events, seed, name=name)
    table = _table(events[0], name)
    requests = requests_of(events, secret, table=table, name=name)
    at = next(r for r, req in enumerate(requests) if req.first < change.seq <= req.stop)
    ordinal = sum(1 for e in events[requests[at].first : change.seq - 1] if type(e) is DiceRolled)
    forker = _Forker(events, requests, table, secret, name)
    fork = forker.run(at, change, amended, ordinal)
    unchanged = amended is not None and _data(amended) == _data(target)
    difference = first_difference(events, fork, ignore=_METADATA)
    consequence = None
    if amended is not None and not unchanged and difference is not None and difference.seq == change.seq:
        # The changed event itself differs, by construction: what is the first thing after it?
        put_back = [*fork[: change.seq - 1], target, *fork[change.seq :]]
        consequence = first_difference(events, put_back, ignore=_METADATA)
    return Dispute(
        change=change,
        target=target,
        amended=amended,
        fields=tuple(field_changes(_data(target), _data(amended))) if amended is not None else (),
        restart=events[requests[at].first].seq,
        seed=secret,
        original=events,
        fork=fork,
        difference=difference,
        consequence=consequence,
        dropped=tuple(forker.dropped),
        passed=tuple(forker.passed),
        ending=_ending(_refold(events, name), _refold(fork, name), len(events), len(fork)),
        findings=_findings(events, fork, secret, forker.hypothetical),
    )


# --------------------------------------------------------------------------- the seed


def dice_seed(events: Sequence[AnyEvent], given: str | None, *, name: str = "<log>") -> str:
    """The scene's dice seed: ``given`` (hex), else the one the log reveals (``scene_ended``,
    or ``scene_started`` for an open scene); either must match the commitment."""
    start = events[0]
    assert isinstance(start, SceneStarted)
    dice = start.dice
    if dice is None:
        raise InputError(
            "no dice seed: the scene commits to none and reveals none (its rolls were made elsewhere, "
            "by a dice bot or a HUD); a dispute re-derives the fight with the scene's seed, so it needs "
            "a fight the engine rolled",
            path=name,
        )
    if given is not None:
        try:
            given = seed_bytes(given, what="the seed").hex()
        except DiceError as exc:
            raise InputError(f"--seed: {exc}", path=name) from None
        if commitment(given) != dice.commitment:
            raise InputError("--seed does not match the dice commitment in scene_started", path=name)
        return given
    revealed = [(e.seq, e.seed) for e in events if type(e) is SceneEnded and e.seed]
    if dice.seed:
        revealed.insert(0, (1, dice.seed))
    if not revealed:
        raise InputError(
            "no dice seed: the scene has not revealed it yet; give it with --seed HEX "
            "(during live play it is in LOG.seed)",
            path=name,
        )
    seq, seed = revealed[-1]
    try:
        seed = seed_bytes(seed, what="the seed").hex()
    except DiceError as exc:
        raise InputError(f"the seed revealed here is not usable: {exc}", path=name, line=seq) from None
    if commitment(seed) != dice.commitment:
        raise InputError("the seed revealed here does not match the dice commitment in scene_started",
                         path=name, line=seq)
    return seed


def _table(start: AnyEvent, name: str) -> Table:
    assert isinstance(start, SceneStarted)
    try:
        return table_for(start.ruleset)
    except RefusedError as exc:
        raise InputError(f"cannot re-derive this fight: {exc.message}", path=name, line=1) from None


# --------------------------------------------------------------------------- the change


FACTS: Final[Mapping[type, frozenset[str]]] = {
    DiceRolled: frozenset({"dice", "modifiers"}),
    DeclarationPosted: frozenset({"actor", "text", "actions", "responds_to", "ooc"}),
    RulingMade: frozenset({"by", "action", "target", "reason", "changes", "finding"}),
}
"""The kinds of event a dispute can change, and the fields ``--set`` may reach."""

_EXAMPLES: Final[Mapping[type, str]] = {
    DiceRolled: "dice[0].face, modifiers[1].value",
    DeclarationPosted: "actions[0].target, actions[0].weapon, text",
    RulingMade: "action, target, changes",
}



def _amend(events: Sequence[AnyEvent], target: AnyEvent, change: Change, name: str) -> AnyEvent | None:
    """The event at ``change.seq`` as changed (``None``: voided or withdrawn), or the
    ``InputError`` that says why it cannot be."""
    seq, kind = change.seq, _kind(target)
    modes = sum((bool(change.sets), change.void, change.withdraw))
    if modes != 1:
        raise InputError("give exactly one change: --set PATH=VALUE (repeatable), --void or --withdraw", path=name)
    if type(target) not in FACTS:
        raise InputError(f"--at {seq}: {_not_a_fact(events, target)}", path=name, line=seq)
    if change.withdraw and type(target) is not RulingMade:
        raise InputError(f"--at {seq}: --withdraw takes a ruling (seq {seq} is {kind}); use --set or --void",
                         path=name, line=seq)
    if change.void and type(target) is DiceRolled:
        raise InputError(f"--at {seq}: a roll cannot be voided (the rules need it): change its dice with "
                         "--set dice[0].face=N", path=name, line=seq)
    if change.void or change.withdraw:
        return None
    reach = Reach(FACTS[type(target)], _EXAMPLES[type(target)])
    amended = amend(target, change.sets, reach, scene=events[0], name=name)
    if isinstance(amended, RulingMade) and amended.target >= seq:
        raise InputError(f"--set: bad VALUE: target {amended.target}: a ruling targets an earlier event "
                         f"(before seq {seq})", path=name, line=seq)
    if _data(amended) != _data(target):
        amended = replace(amended, origin=Origin(medium=DISPUTE_MEDIUM, ref=f"seq {seq}", raw=change.text()))
    return amended


def _not_a_fact(events: Sequence[AnyEvent], target: AnyEvent) -> str:
    kind = _kind(target)
    if type(target) in (SceneStarted, SceneEnded, CombatantJoined):
        return f"seq {target.seq} is {kind}, not a fact a dispute can change (a roll, a declaration or a ruling)"
    facts = _facts_behind(events, target.seq)
    behind = f" ({', '.join(f'{k} at seq {s}' for s, k in facts)})" if facts else ""
    return (f"seq {target.seq} is {kind}, which the rules derive: change the roll or the declaration that "
            f"produced it{behind}")


def _facts_behind(events: Sequence[AnyEvent], seq: int) -> list[tuple[int, str]]:
    """The declaration before ``seq`` in its turn and the (last three) rolls after it."""
    rolls: list[tuple[int, str]] = []
    post: list[tuple[int, str]] = []
    for event in reversed(events[: seq - 1]):
        if type(event) is DiceRolled:
            rolls.append((event.seq, "dice_rolled"))
        elif type(event) is DeclarationPosted:
            post.append((event.seq, "declaration_posted"))
            break
        elif type(event) is TurnStarted:
            break
    return post + sorted(rolls[:3])


# --------------------------------------------------------------------------- requests


def requests_of(
    events: Sequence[AnyEvent], seed: str, *, table: Table | None = None, name: str = "<log>"
) -> list[Request]:
    """The requests that produced ``events`` (see the module docstring), each re-derived
    from the log's state before it; ``InputError`` at the first that does not give back what
    was recorded."""
    table = table or _table(events[0], name)
    out: list[Request] = []
    state = reduce(EMPTY, events[0])
    out.append(Request("start", 0, 1))
    i, n = 1, len(events)
    while i < n:
        event = events[i]
        if type(event) is RulingMade:
            out.append(Request("ruling", i, i + 1, state.turn.current))
            i += 1
            state = _refold(events[:i], name)
            continue
        window = events[i : _next_marker(events, i)]
        kind = _kind_of(event, state)
        answered = event.responds_to if isinstance(event, DeclarationPosted) else None
        call, stamp = _call_for(kind, event, events[i + 1 :], answered)
        scribe = _Scribe(state, seed, externals=_externals(window), stamp=stamp)
        try:
            _call(lambda: call(table, scribe))
        except RefusedError as exc:
            raise InputError(
                f"the ruleset does not re-derive this {_REQUEST_NAMES[kind]}: it refuses it ({exc.message}); "
                "a dispute forks fights the ruleset can replay",
                path=name,
                line=event.seq,
            ) from None
        made = scribe.events
        recorded = events[i : i + len(made)]
        diff = first_difference([_blank(e) for e in recorded], [_blank(e) for e in made])
        if diff is not None or not made:
            seq = event.seq + (diff.seq - 1 if diff is not None else 0)
            how = _departure(diff)
            raise InputError(
                f"the ruleset does not re-derive this log from here ({how}); a dispute forks fights the "
                "ruleset can replay (engine fights, rules unchanged since)",
                path=name,
                line=seq,
            )
        out.append(Request(kind, i, i + len(made), state.turn.current))
        i += len(made)
        state = scribe.state
    return out


_REQUEST_NAMES: Final[Mapping[str, str]] = {
    "join": "join",
    "begin": "begin",
    "post": "post",
    "end_turn": "end of turn",
    "end": "scene end",
}

_MARKERS: Final = (DeclarationPosted, RulingMade, CombatantJoined, SceneEnded)


def _next_marker(events: Sequence[AnyEvent], i: int) -> int:
    """The index of the next event after ``i`` that starts a request of its own kind."""
    for j in range(i + 1, len(events)):
        if isinstance(events[j], _MARKERS):
            return j
    return len(events)


Call = Callable[[Table, Scribe], None]


def _kind_of(event: AnyEvent, state: SceneState) -> RequestKind:
    """The kind of request ``event`` (the first of one) starts, in a log at ``state``."""
    if isinstance(event, SceneEnded):
        return "end"
    if isinstance(event, CombatantJoined):
        return "join"
    if isinstance(event, DeclarationPosted):
        return "post"
    return "begin" if state.turn.round == 0 else "end_turn"


def _call_for(
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


def _departure(diff: Difference | None) -> str:
    if diff is None:
        return "it records nothing"
    if diff.expected is None:
        return f"the rules add a {_kind(diff.actual)}"
    if diff.actual is None:
        return f"the rules give no {_kind(diff.expected)}"
    if type(diff.expected) is not type(diff.actual):
        return f"the rules give {_kind(diff.actual)} where {_kind(diff.expected)} is recorded"
    shown = ", ".join(f"{f} {_json(a)} -> {_json(b)}" for f, a, b in diff.fields[:3])
    return f"{_kind(diff.actual)}: recorded -> re-derived: {shown}"


# --------------------------------------------------------------------------- the fork


class _Forker:
    """Builds the fork request by request (see the module docstring)."""

    def __init__(self, events: list[AnyEvent], requests: list[Request], table: Table, seed: str, name: str) -> None:
        self.events = events
        self.requests = requests
        self.table = table
        self.seed = seed
        self.name = name
        self.fork: list[AnyEvent] = []
        self.mapped: dict[int, int] = {}
        self.dropped: list[Dropped] = []
        self.passed: list[Passed] = []
        self.hypothetical: int | None = None
        self.state = EMPTY

    def run(self, at: int, change: Change, amended: AnyEvent | None, ordinal: int) -> list[AnyEvent]:
        first = self.requests[at].first
        self.fork = list(self.events[:first])
        self.mapped = {e.seq: e.seq for e in self.fork}
        self.state = _refold(self.fork, self.name)
        for r in range(at, len(self.requests)):
            req = self.requests[r]
            recorded = self.events[req.first : req.stop]
            head = recorded[0]
            if r == at:
                self._changed(req, recorded, change, amended, ordinal)
            elif req.kind == "ruling":
                assert isinstance(head, RulingMade)
                self._ruling(head)
            else:
                self._request(req, recorded, head)
        return self.fork

    # ------------------------------------------------------------------ one request

    def _changed(
        self, req: Request, recorded: list[AnyEvent], change: Change, amended: AnyEvent | None, ordinal: int
    ) -> None:
        """The request holding the change; refused means the dispute is."""
        target = self.events[change.seq - 1]
        if req.kind == "ruling":
            if amended is not None:
                assert isinstance(amended, RulingMade)
                reason = self._append_ruling(amended, amended.target)
                if reason is not None:
                    raise RefusedError(f"the changed ruling cannot be honoured: {reason}",
                                       path=self.name, line=change.seq)
            return
        if isinstance(target, DeclarationPosted):
            if amended is None:
                return  # voided: the post is not made
            assert isinstance(amended, DeclarationPosted)
            head: AnyEvent = amended
            roll = None
        else:
            assert isinstance(target, DiceRolled) and isinstance(amended, DiceRolled)
            head = recorded[0]
            roll = (ordinal, amended)
        try:
            self._replay(req, recorded, head, roll=roll)
        except RefusedError as exc:
            raise RefusedError(
                f"the fork is refused at its first request ({self._what(req, head)}): {exc.message}",
                path=self.name,
                line=change.seq,
            ) from None

    def _request(self, req: Request, recorded: list[AnyEvent], head: AnyEvent) -> None:
        """A later request: replayed, or dropped (and listed) if the fork refuses it."""
        if req.kind == "end_turn" and self.state.turn.current != req.current:
            now = self.state.turn.current
            self._drop(req, head, req.current, f"{req.current}'s turn is not open in the fork "
                       + (f"(it is {now}'s)" if now else "(no turn is open)"))
            return
        if isinstance(head, DeclarationPosted) and req.current == head.actor and not head.ooc:
            self._pass_turns(head)
        try:
            self._replay(req, recorded, head)
        except RefusedError as exc:
            self._drop(req, head, _actor(head) or req.current, exc.message)

    def _replay(self, req: Request, recorded: list[AnyEvent], head: AnyEvent,
                roll: tuple[int, DiceRolled] | None = None) -> None:
        answered = head.responds_to if isinstance(head, DeclarationPosted) else None
        responds_to = None if answered is None else self.mapped.get(answered)
        call, stamp = _call_for(req.kind, head, self.events[req.first + 1 :], responds_to)
        scribe = _Scribe(self.state, self.seed, externals=_externals(recorded), stamp=stamp, amended=roll)
        _call(lambda: call(self.table, scribe))
        self._commit(scribe, recorded)
        if scribe.hypothetical is not None:
            self.hypothetical = scribe.hypothetical

    def _pass_turns(self, post: DeclarationPosted) -> None:
        """Before ``post``, made in its actor's own turn in the original: pass the fork's
        open turns until the actor's opens (at most once round the order); if it never
        does, pass nothing (the post will be refused and dropped)."""
        actor = post.actor
        scribe = _Scribe(self.state, self.seed)
        passes: list[Passed] = []
        for _ in range(len(self.state.turn.order) + 1):
            turn = scribe.state.turn
            if turn.current is None or turn.current == actor:
                break
            passes.append(Passed(actor=turn.current, round=turn.round, before=post.seq))
            try:
                _call(lambda: self.table.end_turn(scribe))
            except RefusedError:
                return
        if not passes or scribe.state.turn.current != actor:
            return
        self._commit(scribe, [])
        self.passed.extend(passes)

    def _ruling(self, ruling: RulingMade) -> None:
        target = self.mapped.get(ruling.target)
        if target is None:
            self._drop_ruling(ruling, f"its target (seq {ruling.target}, {_kind(self.events[ruling.target - 1])}) "
                                      "is not in the fork")
            return
        reason = self._append_ruling(ruling, target)
        if reason is not None:
            self._drop_ruling(ruling, reason)

    def _append_ruling(self, ruling: RulingMade, target: int) -> str | None:
        """Append ``ruling`` aimed at the fork's ``target``; why not, if it no longer fits."""
        moved = replace(ruling, seq=len(self.fork) + 1, prev="", target=target)
        aimed = self.fork[target - 1]
        try:
            if moved.action == "amend" and type(aimed) is not RulingMade:
                apply_ruling(aimed, moved)
            plan_of([*(e for e in self.fork if type(e) is RulingMade), moved])
            state = _fold_all([*self.fork, moved])
        except FoldError as exc:
            return f"it no longer fits the fork: {exc.message}"
        self.fork.append(moved)
        self.mapped[ruling.seq] = moved.seq
        self.state = state
        return None

    def _commit(self, scribe: _Scribe, recorded: Sequence[AnyEvent]) -> None:
        made = scribe.events
        for old, new in zip(recorded, made):
            if type(old) is type(new):
                self.mapped[old.seq] = new.seq
        self.fork.extend(made)
        self.state = scribe.state

    def _drop(self, req: Request, head: AnyEvent, actor: str | None, reason: str) -> None:
        self.dropped.append(Dropped(seq=head.seq, request=req.kind, actor=actor, reason=reason))

    def _drop_ruling(self, ruling: RulingMade, reason: str) -> None:
        self.dropped.append(Dropped(seq=ruling.seq, request="ruling", actor=ruling.by, reason=reason))

    @staticmethod
    def _what(req: Request, head: AnyEvent) -> str:
        who = _actor(head) or req.current
        return f"{_REQUEST_NAMES.get(req.kind, req.kind)}" + (f" by {who}" if who else "") + f" at seq {head.seq}"


class _Scribe(Scribe):
    """A ``Scribe`` for re-deriving: external rolls of the original reused while the
    notation matches, one roll replaced by the changed one (``amended``: its ordinal in
    the request and the event), and the recorded ``at``/``origin`` kept on the re-derived
    declaration or scene end (``stamp``)."""

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
        self._externals = deque(externals)
        self._amended = amended
        self._stamp = stamp
        self._rolled = 0
        self.hypothetical: int | None = None

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
        if self._amended is not None and ordinal == self._amended[0]:
            changed = self._amended[1]
            if changed.generator == "engine":
                changed = replace(changed, index=info.rolls)
            seq = self.emit(replace(changed, seq=0, prev="", for_seq=for_seq))
            self.hypothetical = seq
            return read_roll(changed), seq
        if self._externals and self._externals[0].notation == notation:
            recorded = self._externals.popleft()
            mods = list(as_modifiers(modifiers))
            result = read_roll(replace(recorded, modifiers=mods))
            event = replace(recorded, seq=0, prev="", roller=roller, purpose=purpose, modifiers=mods,
                            total=result.total, for_seq=for_seq,
                            label=label if label is not None else recorded.label)
            return result, self.emit(event)
        return super().roll(notation, roller=roller, purpose=purpose, modifiers=modifiers, for_seq=for_seq, label=label)


def _call(action: Callable[[], None]) -> None:
    """Run a table call; a ruleset that breaks on data it was not written for (a sheet
    from elsewhere) is a refusal, never a traceback."""
    try:
        action()
    except FightlogError as exc:
        if isinstance(exc, RefusedError):
            raise
        raise RefusedError(str(exc)) from None
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        raise RefusedError(f"the ruleset cannot play this ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------- comparing


def _refold(events: Sequence[AnyEvent], name: str) -> SceneState:
    """The state after ``events`` with every ruling among them honoured (``Folder``)."""
    try:
        return _fold_all(events)
    except FoldError as exc:
        raise InputError(exc.message, path=name, line=exc.line) from None


def _fold_all(events: Sequence[AnyEvent]) -> SceneState:
    def source(seq: int) -> Iterator[AnyEvent]:
        return iter(events[seq - 1 :])

    return Folder(source, keep_every=0).run()


def _ending(before: SceneState, after: SceneState, count: int, forked: int) -> Ending:
    joined = {a: c.joined for a, c in after.combatants.items()} | {a: c.joined for a, c in before.combatants.items()}
    standings = []
    for actor in sorted(joined, key=lambda a: (joined[a], a)):
        old, new = before.combatants.get(actor), after.combatants.get(actor)
        known = old or new
        assert known is not None
        old_pools = old.pools if old else {}
        new_pools = new.pools if new else {}
        pools = {p: (old_pools.get(p), new_pools.get(p)) for p in sorted(old_pools.keys() | new_pools.keys())}
        old_s, new_s = set(old.statuses if old else ()), set(new.statuses if new else ())
        standings.append(Standing(
            actor=actor,
            name=known.name,
            pools=pools,
            gained=tuple(sorted(new_s - old_s)),
            lost=tuple(sorted(old_s - new_s)),
            present=(old is not None, new is not None),
        ))
    bs, as_ = before.scene, after.scene
    return Ending(
        standings=tuple(standings),
        winner=(bs.winner if bs else None, as_.winner if as_ else None),
        ended=(bool(bs and bs.ended), bool(as_ and as_.ended)),
        round=(before.turn.round, after.turn.round),
        events=(count, forked),
    )


def _findings(
    original: Sequence[AnyEvent], fork: Sequence[AnyEvent], seed: str, changed: int | None
) -> tuple[FindingChange, ...]:
    """Findings of the fork's audit not in the original's (and the reverse), matched by
    code, actor and message (not by seq: the fork's events may sit elsewhere)."""
    before = audit_events(list(original), seed=seed).findings
    after = audit_events(list(fork), seed=seed).findings
    left = Counter(_key(f) for f in before)
    out: list[FindingChange] = []
    for finding in after:
        if left[_key(finding)] > 0:
            left[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=True, finding=finding, on_change=finding.seq == changed))
    gone = Counter(_key(f) for f in after)
    for finding in before:
        if gone[_key(finding)] > 0:
            gone[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=False, finding=finding))
    return tuple(out)


def _key(finding: Finding) -> tuple[str, str | None, str]:
    return finding.code, finding.actor, finding.message


# --------------------------------------------------------------------------- small helpers


def _kind(event: AnyEvent | None) -> str:
    return "nothing" if event is None else _tag(type(event))


def _tag(kind: type) -> str:
    return str(kind.__struct_config__.tag)  # type: ignore[attr-defined]


def _actor(event: AnyEvent) -> str | None:
    actor = getattr(event, "actor", None)
    return actor if isinstance(actor, str) else None


def _externals(events: Iterable[AnyEvent]) -> list[DiceRolled]:
    """The external rolls among ``events`` (a dice bot's, a HUD's), in order."""
    return [e for e in events if isinstance(e, DiceRolled) and e.generator == "external"]


def _data(event: AnyEvent | None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event) if event is not None else {}
    for name in ("seq", "prev", "origin"):
        data.pop(name, None)
    return data


def _blank(event: AnyEvent) -> AnyEvent:
    """``event`` without ``prev`` (re-derived events are not sealed yet)."""
    return replace(event, prev="")


def _json(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."
