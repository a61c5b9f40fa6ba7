"""Folding a log from a source of events, restarting when a ruling rewrites folded history.

``Folder`` drives ``fold`` (``fightlog.reducers.fold``) over a *source* of events (a
function ``seq -> events from seq on``, which is where the CLI's file reading is injected):
when a ruling changes the plan for an event already folded, it restarts from the last
snapshot before that event. Snapshots taken along the way (and checkpoints loaded from a
cache) keep a restart short, and a fold to one point restarts at most once however many
rulings the log holds: the first ruling that rewrites history has it read the rest of the
log for the others, so it restarts knowing them all. A replay, which shows each ruling as
made, refolds from its recent states (``RECENT_STEPS``) a ruling on an event they still hold.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from fightlog.errors import FoldError
from fightlog.events.model import AnyEvent, RulingMade
from fightlog.reducers.fold import fold, plan_of, rulings_in, step_for
from fightlog.reducers.fold_rules import rules_for_scene
from fightlog.reducers.state import EMPTY, SceneState


class Step(NamedTuple):
    """One event of a replay and the state before and after it."""

    event: AnyEvent
    before: SceneState
    after: SceneState


Source = Callable[[int], Iterable[AnyEvent]]
"""``source(seq)`` yields the log's events from ``seq`` on, in order."""


KEPT_SNAPSHOTS = 8
"""States a ``Folder`` keeps to restart from (``EMPTY`` and the latest ones)."""

RECENT_STEPS = 1024
"""Events a replay (``Folder.steps``) keeps with the state after each, so that a ruling on
one of them refolds from there, not from a snapshot (and the log read again)."""


class Folder:
    """Folds a log from a source, restarting when a ruling rewrites folded history.

    ``snapshots`` are states to start from (checkpoints from a cache, ``EMPTY`` always
    included); ``keep_every`` keeps a snapshot every so many events during the fold, so a
    restart never goes back further than that; ``read_again`` (default: ``source``) is what a
    replay's refold reads the events it has stepped through already from.
    """

    def __init__(self, source: Source, *, snapshots: Sequence[SceneState] = (), keep_every: int = 50_000,
                 read_again: Source | None = None) -> None:
        self.source = source
        self.read_again = read_again if read_again is not None else source
        """The source a replay's refold reads events it has read already from (one that need
        not check the chain again: ``fightlog.history.states.FileSource.read_again``), and the
        rulings a start snapshot does not list are read from (``_fill_known_for``)."""
        self.snapshots: list[SceneState] = sorted({s.seq: s for s in (EMPTY, *snapshots)}.values(), key=lambda s: s.seq)
        self.keep_every = keep_every
        self.restarts = 0
        self._known: dict[int, RulingMade] = {}
        self._plan: dict[int, RulingMade] = {}
        self._looked_ahead = False
        self._latest = 0
        """The latest ``seq`` among the rulings known (``_learn``'s fast path)."""
        self._unlisted_before = 0
        """Rulings up to this seq may be missing from those known: the snapshot a fold started
        from lists the rulings in force, not those withdrawn (``_fill_known_for``)."""

    def run(self, upto: int | None = None) -> SceneState:
        """The state after ``upto`` (or after the last event)."""
        state = self._from_snapshot(upto)
        self._known = {r.seq: r for r in rulings_in(state)}
        self._latest = max(self._known, default=0)
        self._unlisted_before = state.seq
        self._plan = plan_of(_in_order(self._known))
        while True:
            restart_at: list[int] = []
            keep = self._keep if self.keep_every else None
            state = fold(
                self._watch(self.source(state.seq + 1), upto, restart_at),
                start=state,
                upto=upto,
                plan=self._plan,
                keep=keep,
                keep_every=self.keep_every or 1,
            )
            if not restart_at:
                return state
            state = self._restart(restart_at[0])

    def _watch(self, events: Iterable[AnyEvent], upto: int | None, restart_at: list[int]) -> Iterator[AnyEvent]:
        """Pass events to the fold, learning new rulings; stop before one that rewrites
        history already folded (``restart_at`` is given where to go back to), and at ``upto``
        (a ruling made after the point asked for must not be learned)."""
        known = self._known
        limit = upto if upto is not None else sys.maxsize
        for event in events:
            if event.seq > limit:
                return
            if type(event) is RulingMade and event.seq not in known:
                target = self._learn(event, event.seq - 1)
                if target is not None:
                    if not self._looked_ahead:  # the others first, so this is the one restart
                        self._looked_ahead = True
                        ahead = self._learn_ahead(event.seq, limit, event.seq - 1)
                        target = target if ahead is None else min(target, ahead)
                    restart_at.append(target)
                    return
            yield event

    def _learn_ahead(self, after: int, limit: int, folded: int) -> int | None:
        """Learn every ruling after seq ``after`` (to ``limit``) at once, reading on in the
        source; the earliest changed target if that event is already folded (``folded``).
        What cannot be read is left for the fold to meet and raise where it is (the rulings
        before it are learnt); so is a ruling that does not make a plan (``FoldError``): the
        rulings before it are learnt, it and those after it are met one by one."""
        found: list[RulingMade] = []
        events = iter(self.source(after + 1))
        try:
            for event in events:
                if event.seq > limit:
                    break
                if type(event) is RulingMade and event.seq not in self._known:
                    found.append(event)
        except Exception:  # damage: the fold reads the same lines and raises it there
            pass
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
        self._fill_known_for(found)
        while True:
            if not found:
                return None
            known = {**self._known, **{ruling.seq: ruling for ruling in found}}
            try:
                plan = plan_of(_in_order(known))
                break
            except FoldError as exc:
                before_it = [ruling for ruling in found if ruling.seq < (exc.line or 0)]
                if len(before_it) == len(found):
                    return None
                found = before_it
        before = dict(self._plan)
        self._known.update(known)  # in place: ``_watch`` reads it
        self._latest = max(self._latest, *known)
        self._plan.clear()
        self._plan.update(plan)
        changed = [t for t in before.keys() | plan.keys() if before.get(t) != plan.get(t)]
        return min(changed) if changed and min(changed) <= folded else None

    def steps(self, start: int = 1, upto: int | None = None) -> Iterator[Step]:
        """Each event from ``start`` on with the state before and after it.

        A ruling that rewrites folded history is one step whose ``after`` is the state
        refolded as if the ruling had always been there.
        """
        state = self.run(upto=start - 1) if start > 1 else self._from_snapshot(0)
        if start <= 1:
            self._known = {}
            self._latest = 0
            self._unlisted_before = 0
            self._plan.clear()
        configured: tuple[object, object] = (None, None)  # the (ruleset, options) ``rules`` is for
        rules = rules_for_scene(None, {})
        recent: deque[tuple[AnyEvent, SceneState]] = deque(maxlen=RECENT_STEPS)  # as recorded, the state after
        for event in self.source(state.seq + 1):
            seq = event.seq
            if upto is not None and seq > upto:
                return
            before = state
            if isinstance(event, RulingMade) and seq not in self._known:
                restart_at = self._learn(event, state.seq)
                if restart_at is not None:
                    if recent and recent[0][0].seq < restart_at:
                        state = self._refold_recent(recent, restart_at)
                        state = fold((event,), start=state, plan=self._plan)
                    else:
                        state = self._refold(self._restart(restart_at), seq)
                        recent.clear()
                    recent.append((event, state))
                    yield Step(event, before, state)
                    continue
            scene = state.scene
            if scene is not None and (scene.ruleset is not configured[0] or scene.options is not configured[1]):
                configured = (scene.ruleset, scene.options)
                rules = rules_for_scene(scene.ruleset, scene.options)
            if self._plan or seq != state.seq + 1:
                state = fold((event,), start=state, plan=self._plan, rules=rules)
            else:  # no ruling in force and the next seq: ``fold``'s step, without its set-up
                step = step_for(type(event), seq)
                state = step(state, event, rules, seq)
            if self.keep_every and seq % self.keep_every == 0:
                self._keep(state)
            recent.append((event, state))
            yield Step(event, before, state)

    def _refold_recent(self, recent: deque[tuple[AnyEvent, SceneState]], target: int) -> SceneState:
        """Refold the ``recent`` events from ``target`` on under the current plan, from the
        state before it, which ``recent`` holds; their states replaced by the refolded ones."""
        self.snapshots = [s for s in self.snapshots if s.seq < target]  # folded under the old plan
        at = target - recent[0][0].seq
        state = recent[at - 1][1]
        for index in range(at, len(recent)):
            event = recent[index][0]
            state = fold((event,), start=state, plan=self._plan)
            recent[index] = (event, state)
        return state

    def _learn(self, ruling: RulingMade, folded: int) -> int | None:
        """Add a new ruling to the plan (updated in place: a running fold reads it); the
        earliest changed target if that event is already folded."""
        known = self._known
        target = ruling.target
        if (ruling.action != "withdraw" and target < ruling.seq and target not in known
                and ruling.seq > self._latest):
            # the usual ruling, the latest, on an event that is no ruling: what ``plan_of``
            # would make of them all, without making it again
            known[ruling.seq] = ruling
            self._latest = ruling.seq
            if ruling.action == "accept" or self._plan.get(target) == ruling:
                return None
            self._plan[target] = ruling
            return target if target <= folded else None
        before = dict(self._plan)
        self._fill_known_for((ruling,))
        self._add(ruling)
        changed = [t for t in before.keys() | self._plan.keys() if before.get(t) != self._plan.get(t)]
        if changed and min(changed) <= folded:
            return min(changed)
        return None

    def _fill_known_for(self, rulings: Iterable[RulingMade]) -> None:
        """Learn the rulings the start snapshot does not list (withdrawn before it), when one
        of ``rulings`` is aimed at a ruling: how far back it reaches goes through the rulings
        it is aimed at (``_stands``: a snapshot it reaches behind is stale). One read of the
        log up to there; rare (a ruling on a ruling after a checkpoint)."""
        until = self._unlisted_before
        if not until or not any(r.action == "withdraw" or r.target in self._known for r in rulings):
            return
        self._unlisted_before = 0
        for event in self.read_again(1):  # (not ``source``: a caller's source may remember what it read last)
            if event.seq > until:
                break
            if type(event) is RulingMade and event.seq not in self._known:
                self._known[event.seq] = event
                self._latest = max(self._latest, event.seq)

    def _restart(self, target: int) -> SceneState:
        """The latest snapshot before ``target`` that the rulings known leave standing: one
        folded before a ruling made after it reached back behind it (a checkpoint of an
        earlier run) is not (``_stands``); the others from ``target`` on are dropped."""
        self.restarts += 1
        self.snapshots = [s for s in self.snapshots if s.seq < target and self._stands(s)]
        return self.snapshots[-1]

    def _stands(self, snapshot: SceneState) -> bool:
        """Whether no ruling known, made after ``snapshot``, changes an event up to it."""
        seq = snapshot.seq
        known = self._known
        for ruling in known.values():
            if ruling.seq <= seq or ruling.action == "accept":
                continue
            reach = ruling.target
            while reach in known and known[reach].target < reach:  # a ruling on a ruling: what that one changed
                reach = known[reach].target
            if reach <= seq:
                return False
        return True

    def _refold(self, state: SceneState, upto: int) -> SceneState:
        """Fold from ``state`` to ``upto`` under the current plan (rulings met on the way are
        known already, so they cannot restart it), in one ``fold``: a ruling not yet known is
        added to the plan, which the fold reads as it goes, before it is folded."""
        return fold(self._adding(self.read_again(state.seq + 1), upto), start=state, plan=self._plan)

    def _adding(self, events: Iterable[AnyEvent], upto: int) -> Iterator[AnyEvent]:
        """``events`` up to ``upto`` (none read past it), each ruling not yet known added first."""
        for event in events:
            if event.seq > upto:
                return
            if isinstance(event, RulingMade) and event.seq not in self._known:
                self._add(event)
            yield event
            if event.seq == upto:
                return

    def _add(self, ruling: RulingMade) -> None:
        """Know ``ruling`` and rebuild the plan in place (a running fold reads it)."""
        self._known[ruling.seq] = ruling
        self._latest = max(self._latest, ruling.seq)
        self._plan.clear()
        self._plan.update(plan_of(_in_order(self._known)))

    def _from_snapshot(self, upto: int | None) -> SceneState:
        usable = [s for s in self.snapshots if upto is None or s.seq <= upto]
        return usable[-1]

    def _keep(self, state: SceneState) -> None:
        if self.snapshots[-1].seq < state.seq:
            self.snapshots.append(state)
            if len(self.snapshots) > KEPT_SNAPSHOTS:  # memory stays flat in the log's length
                del self.snapshots[1]  # the oldest but EMPTY: a ruling that far back refolds from the start


def _in_order(known: Mapping[int, RulingMade]) -> list[RulingMade]:
    return [known[seq] for seq in sorted(known)]
