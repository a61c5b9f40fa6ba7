"""The fork: a log replayed from one request on, with one fact changed.

``Forker.run`` keeps every event before the request holding the change, as recorded, then
replays that request (with the change) and every later one on the fold of the fork so far:
posts through ``table.post`` (from the recorded declaration, or the changed one), ends of
turn through ``table.end_turn``, arrivals through ``table.join``, the end through
``table.end``, rulings re-appended with their ``target`` moved to the event that stands in
the fork where the original target stood. The recorded external rolls of each request are
reused, in order, for the rolls of the same dice, roller and purpose.

What the fork no longer allows is dropped and listed (``Dropped``); a recorded roll the fork
has no use for, a turn opening it does not make, a request the rules cannot play even as
recorded (kept as recorded where it still folds) are listed as ``Divergence``. Before a post
made in its actor's own turn, the fork's open turns pass until the actor's opens (at most
once round the order). See ``docs/dispute.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.divergence import Divergence, Dropped, down_since
from fightlog.audit.fork_history import ForkHistory
from fightlog.audit.replay_request import Refolding, ReplayScribe, event_kind, externals, refold, run_call
from fightlog.audit.requests import REQUEST_NAMES, Request, Split, call_for
from fightlog.errors import FoldError, RefusedError
from fightlog.events.model import (REFERENCES, AnyEvent, AttackResolved, DeclarationPosted, DiceRolled, RulingMade,
                                   TurnStarted, actor_of)
from fightlog.reducers.fold import apply_ruling, changing, in_force, plan_of, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.kit.table import Table


class Passed(Struct, frozen=True, kw_only=True):
    """A turn of the fork that ended without a post (``actor``'s, in ``round``) so that the
    original post at ``before`` could be made in its actor's turn; ``unchanged`` when the
    fork of the unchanged log passes it too."""

    actor: str
    round: int
    before: int
    unchanged: bool = False


OUT_CODE: Final = "order.cannot-act"
"""The refusal code of a post whose actor cannot act (down, fled, stunned...)."""


class Forker:
    """Builds the fork request by request (see the module docstring)."""

    def __init__(self, events: list[AnyEvent], split: Split, table: Table, seed: str | None, name: str) -> None:
        self.events = events
        self.requests = split.requests
        self.table = table
        self.seed = seed
        self.name = name
        self.fork: list[AnyEvent] = []
        self.mapped: dict[int, int] = {}
        self.dropped: list[Dropped] = []
        self.passed: list[Passed] = []
        self.divergences: list[Divergence] = []
        self.hypothetical: int | None = None
        self.baseline = False
        self._state = EMPTY
        self._history = ForkHistory()
        """Recent states and the rulings read, for a ruling to refold from (``fork_history``)."""
        self._original: Refolding | None = None
        """The recorded log's states as the requests pass (``_drop``)."""
        self._carried: list[tuple[DiceRolled, str]] = []
        """Recorded external rolls the open turn's requests have had no use for yet, each
        with the request it was recorded in (a later request of the turn may roll them: an
        answer rolls the attack it answers, after the attack's post)."""
        self._carried_in: int | None = None
        """``turn.started`` of the turn the carried rolls (and a change not yet rolled) belong to."""
        self._change: tuple[int, DiceRolled] | None = None
        """A changed external roll its request did not roll: a later request of the turn may."""
        self._change_in = ""
        self._unrolled: tuple[str, int] | None = None

    def run(self, at: int, change_seq: int, amended: AnyEvent | None, ordinal: int, *,
            baseline: bool = False) -> list[AnyEvent]:
        """The fork from request ``at``, with the event at ``change_seq`` as ``amended``
        (``ordinal``: a changed roll's place among the request's rolls). ``baseline``: the
        unchanged replay, which keeps the first request as recorded where the rules cannot
        play it."""
        self.baseline = baseline
        self._carried, self._carried_in, self._change, self._unrolled = [], None, None, None
        first = self.requests[at].first
        self.fork = list(self.events[:first])
        self.mapped = {e.seq: e.seq for e in self.fork}
        self._history.clear()
        self._original = Refolding(self.events, self.name)
        self.state = refold(self.fork, self.name)
        for r in range(at, len(self.requests)):
            req = self.requests[r]
            recorded = self.events[req.first : req.stop]
            head = recorded[0]
            if r == at:
                self._changed(req, recorded, change_seq, amended, ordinal)
            elif req.kind == "ruling":
                assert isinstance(head, RulingMade)
                self._ruling(head)
            elif req.kind == "open":
                self._open(req, recorded)
            else:
                self._request(req, recorded, head)
        open_turn = self.state.turn.started if self.state.turn.current is not None else None
        waiting = self._change is not None and self._carried_in == open_turn  # in a turn the log leaves open
        self._flush()
        if self._unrolled is not None:
            self._no_such_roll(*self._unrolled, waiting=waiting)
        return self.fork

    @property
    def state(self) -> SceneState:
        """The state after the fork's events (each one set is kept: ``ForkHistory``)."""
        return self._state

    @state.setter
    def state(self, state: SceneState) -> None:
        self._state = state
        self._history.kept(len(self.fork), state)

    # ------------------------------------------------------------------ one request

    def _changed(self, req: Request, recorded: list[AnyEvent], seq: int, amended: AnyEvent | None,
                 ordinal: int) -> None:
        """The request holding the change; refused means the dispute is."""
        target = self.events[seq - 1]
        if req.kind == "ruling":
            if amended is not None:
                assert isinstance(amended, RulingMade)
                reason = self._append_ruling(amended, amended.target)
                if reason is not None and self.baseline:
                    self._drop_ruling(amended, reason)
                elif reason is not None:
                    raise RefusedError(f"the changed ruling cannot be honoured: {reason}", path=self.name, line=seq)
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
            if req.refused is not None and exc.message == req.refused:
                if self.baseline:
                    self._keep(req, recorded, recorded[0])
                    return
                raise RefusedError(
                    f"the rules cannot play the {self._what(req, head)}, which holds the change, even as recorded "
                    f"({exc.message}): they cannot re-derive what the change does",
                    path=self.name,
                    line=seq,
                ) from None
            raise RefusedError(
                f"the fork is refused at its first request ({self._what(req, head)}): {exc.message}",
                path=self.name,
                line=seq,
            ) from None
        if roll is not None and self.hypothetical is None and not self.baseline:
            if roll[1].generator == "external" and self._carried_in is not None:  # the turn goes on
                self._change, self._change_in = roll, self._what(req, head)  # a later post of it may roll it
                return
            self._no_such_roll(self._what(req, head), seq)

    def _no_such_roll(self, what: str, seq: int, *, waiting: bool = False) -> None:
        """Refuse a change to a roll no request rolls; ``waiting``: the change still waited at
        the fork's end, in a turn the log leaves open (an answer or the turn's end, not
        recorded, may roll it)."""
        if waiting:
            raise RefusedError(
                f"the rules make no such roll when they play the {what}, and the log ends with its turn open "
                "(an answer or the turn's end, not recorded, may roll it): nothing follows from the change",
                path=self.name,
                line=seq,
            )
        raise RefusedError(
            f"the rules make no such roll when they play the {what} (a hand-run log may "
            "record rolls the rules do not ask for): the change has nothing to change",
            path=self.name,
            line=seq,
        )

    def _request(self, req: Request, recorded: list[AnyEvent], head: AnyEvent) -> None:
        """A later request: replayed, kept as recorded (the rules cannot play it, even as
        recorded), or dropped (and listed) if the fork refuses it."""
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
            if req.refused is not None and exc.message == req.refused:
                self._keep(req, recorded, head)
            else:
                self._drop(req, head, actor_of(head) or req.current, exc.message, out=exc.code == OUT_CODE)

    def _replay(self, req: Request, recorded: list[AnyEvent], head: AnyEvent,
                roll: tuple[int, DiceRolled] | None = None) -> None:
        answered = head.responds_to if isinstance(head, DeclarationPosted) else None
        responds_to = None if answered is None else self.mapped.get(answered)
        call, stamp = call_for(req.kind, head, self.events[req.first + 1 :], responds_to)
        turn = self.state.turn.started if self.state.turn.current is not None else None
        if self._carried_in is not None and self._carried_in != turn:
            self._flush()  # the turn they were recorded in has ended in the fork
        change = roll if roll is not None else self._change
        changed = change[1].seq if change is not None else None
        # an engine roll an earlier dispute changed, changed again: the change stands in for it, not it reused too
        carried = [(r, what) for r, what in self._carried if r.seq != changed or r.generator == "external"]
        reused = [*(r for r, _ in carried),
                  *(e for e in externals(recorded) if e.seq != changed or e.generator == "external")]
        scribe = ReplayScribe(self.state, self.seed, externals=reused, stamp=stamp, amended=change, key=f"seq {head.seq}")
        run_call(lambda: call(self.table, scribe))
        self._commit(scribe, recorded)
        if scribe.hypothetical is not None:
            self.hypothetical = scribe.hypothetical
            self._change = None
        was = {r.seq: what for r, what in carried}
        self._carried = [(r, was.get(r.seq, self._what(req, head))) for r in scribe.unused]
        self._carried_in = turn
        if turn is None or self.state.turn.current is None or self.state.turn.started != turn:
            self._flush()  # no turn open, or this request ended it: nothing after it rolls them
        for seq in scribe.stand_ins:
            drawn = self.fork[seq - 1]
            assert isinstance(drawn, DiceRolled)
            self.divergences.append(Divergence(
                seq=head.seq, kind="stand-in", actor=drawn.roller,
                text=f"the {self._what(req, head)} needs a {drawn.notation} {drawn.purpose} roll by {drawn.roller} "
                     f"that the log does not record: the fork's seq {seq} stands in for it, drawn by the dispute "
                     f"({_faces(drawn)})",
            ))

    def _flush(self) -> None:
        """The end of the turn the carried rolls were recorded in (or of the fork): each is
        a recorded roll the fork made no use of; a change no request rolled is refused."""
        for unused, where in self._carried:
            what = f"{unused.roller}'s {unused.notation} {unused.purpose} roll"
            self.divergences.append(Divergence(
                seq=unused.seq, kind="roll", actor=unused.roller,
                text=f"{what} is recorded, but the fork makes no such roll in the {where}",
            ))
        self._carried, self._carried_in = [], None
        if self._change is not None:
            self._unrolled = (self._change_in, self._change[1].seq)  # refused once the fork is made (``run``)
            self._change = None

    def _keep(self, req: Request, recorded: list[AnyEvent], head: AnyEvent, *, listed: bool = True) -> None:
        """A request the rules refuse on the recorded log too: kept as recorded (its
        references moved to the fork's events), if it still folds on the fork."""
        base = len(self.fork)
        local = {e.seq: base + k + 1 for k, e in enumerate(recorded)}
        where = self.mapped | local
        state = self.state
        moved: list[AnyEvent] = []
        try:
            for event in recorded:
                event = _renumbered(event, where)
                state = reduce(state, event)
                moved.append(event)
        except (FoldError, _Gone) as exc:
            reason = exc.message if isinstance(exc, FoldError) else str(exc)
            self._drop(req, head, actor_of(head) or req.current,
                       f"kept as recorded, it no longer fits the fork: {reason}")
            return
        self.fork.extend(moved)
        self.mapped.update(local)
        self.state = state
        if not listed:
            return
        self.divergences.append(Divergence(
            seq=head.seq, kind="kept", actor=actor_of(head) or req.current,
            text=f"the {self._what(req, head)} is kept as recorded: the rules refuse it on the recorded log too "
                 f"({req.refused})",
        ))

    def _open(self, req: Request, recorded: list[AnyEvent]) -> None:
        """A recorded turn opening (no table call makes one on its own): nothing to do when
        the fork has opened that turn already, kept as recorded when no turn is open."""
        opened = next((e for e in recorded if isinstance(e, TurnStarted)), None)
        now = self.state.turn.current
        if now is None:
            self._keep(req, recorded, recorded[0], listed=False)
            return
        if opened is not None and opened.actor != now:
            self.divergences.append(Divergence(
                seq=opened.seq, kind="opening", actor=opened.actor,
                text=f"{opened.actor}'s turn opens here, but in the fork it is {now}'s turn",
            ))

    def _pass_turns(self, post: DeclarationPosted) -> None:
        """Before ``post``, made in its actor's own turn in the original: pass the fork's
        open turns until the actor's opens (at most once round the order); if it never
        does, pass nothing (the post will be refused and dropped)."""
        actor = post.actor
        scribe = ReplayScribe(self.state, self.seed, key=f"turns passed before seq {post.seq}")
        passes: list[Passed] = []
        for _ in range(len(self.state.turn.order) + 1):
            turn = scribe.state.turn
            if turn.current is None or turn.current == actor:
                break
            passes.append(Passed(actor=turn.current, round=turn.round, before=post.seq))
            try:
                run_call(lambda: self.table.end_turn(scribe))
            except RefusedError:
                return
        if not passes or scribe.state.turn.current != actor:
            return
        self._commit(scribe, [])
        self.passed.extend(passes)

    def _ruling(self, ruling: RulingMade) -> None:
        target = self.mapped.get(ruling.target)
        if target is None:
            self._drop_ruling(ruling, f"its target (seq {ruling.target}, {event_kind(self.events[ruling.target - 1])}) "
                                      "is not in the fork")
            return
        reason = self._append_ruling(ruling, target)
        if reason is not None:
            self._drop_ruling(ruling, reason)

    def _append_ruling(self, ruling: RulingMade, target: int) -> str | None:
        """Append ``ruling`` aimed at the fork's ``target``; why not, if it no longer fits."""
        moved = replace(ruling, seq=len(self.fork) + 1, prev="", target=target)
        aimed = self.fork[target - 1]
        rulings = self._history.rulings(self.fork)
        if moved.action in ("void", "amend"):  # as ``fightlog rule`` refuses a second ruling on one event
            earlier = changing(target, in_force(rulings))
            if earlier is not None:
                return (f"seq {target} is already {earlier.action}ed by the ruling at seq {earlier.seq} in the "
                        "fork, in force")
        try:
            if moved.action == "amend" and type(aimed) is not RulingMade:
                apply_ruling(aimed, moved)
            state = self._history.folded_with(self.fork, moved, plan_of(rulings), plan_of([*rulings, moved]))
        except FoldError as exc:
            return f"it no longer fits the fork: {exc.message}"
        self.fork.append(moved)
        self.mapped[ruling.seq] = moved.seq
        self.state = state
        return None

    def _commit(self, scribe: ReplayScribe, recorded: Sequence[AnyEvent]) -> None:
        made = scribe.events
        for old, new in zip(recorded, made):
            if type(old) is type(new):
                self.mapped[old.seq] = new.seq
        self.mapped.update(scribe.reused)
        self.fork.extend(made)
        self.state = scribe.state

    def _drop(self, req: Request, head: AnyEvent, actor: str | None, reason: str, *, out: bool = False) -> None:
        statuses: tuple[str, ...] = ()
        since = None
        if actor is not None and out:
            assert self._original is not None
            before = self._original.at(req.first)
            statuses, since = down_since(self.fork, actor, before, self.state)
        self.dropped.append(Dropped(seq=head.seq, request=req.kind, actor=actor, reason=reason,
                                    statuses=statuses, since=since))

    def _drop_ruling(self, ruling: RulingMade, reason: str) -> None:
        self.dropped.append(Dropped(seq=ruling.seq, request="ruling", actor=ruling.by, reason=reason))

    @staticmethod
    def _what(req: Request, head: AnyEvent) -> str:
        who = actor_of(head) or req.current
        return f"{REQUEST_NAMES.get(req.kind, req.kind)}" + (f" by {who}" if who else "") + f" at seq {head.seq}"


def _faces(roll: DiceRolled) -> str:
    return "faces " + ", ".join(str(d.face) for d in roll.dice) + f"; total {roll.total}"


class _Gone(Exception):
    """A kept event names an event the fork does not have."""


def _renumbered(event: AnyEvent, where: dict[int, int]) -> AnyEvent:
    """``event`` at its ``seq`` in the fork, every reference to another event moved."""

    def moved(ref: int) -> int:
        if ref not in where:
            raise _Gone(f"{event_kind(event)} at seq {event.seq} refers to seq {ref}, which the fork does not have")
        return where[ref]

    changes: dict[str, Any] = {"seq": where[event.seq], "prev": ""}
    for name in REFERENCES:
        ref = getattr(event, name, None)
        if isinstance(ref, int):
            changes[name] = moved(ref)
    if isinstance(event, AttackResolved):
        changes["rolls"] = [moved(r) for r in event.rolls]
    if isinstance(event, RulingMade):
        changes["target"] = moved(event.target)
    return replace(event, **changes)
