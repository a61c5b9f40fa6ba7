"""The audit of one log: one pass that folds it and checks every event.

``Auditor`` is the ``AuditView`` the checks report to. It folds the log with the GM's
rulings applied (a voided event is not audited, an amended one is audited as amended), calls
the posting-order checks (``fightlog.audit.order``) and the ruleset's checks
(``Ruleset.audit_checks``) after each event with the state before and after it, and feeds
the dice checks (``fightlog.audit.dice_checks``) every event as recorded; when a ruling amends a
roll, the dice checks run again on the rolls as ruled (``fightlog.audit.ruled``: what they
find there and not in the log as recorded is ``dice.ruled``). A ruling that *accepts* a
finding (``action: accept``, ``finding: CODE``, or no code: every finding on that event)
keeps the finding in the report, marked accepted, and out of the exit status.

The checks are the fold's per-kind hooks (``fold(..., hooks=, seen=)``): an event kind
without checks costs no call, and every event is kept by ``seq`` for ``event`` (this turn's
and the previous turn's: ``fightlog.audit.window``).

Rulings are collected before the fold (a ruling made late in the fight still governs the
event it targets from the start); for a file, only the lines that mention ``ruling_made`` are
decoded for that.

A large log (``PARALLEL_MIN_BYTES`` or more, and two cores) is audited on two processes:
this one decodes, folds and checks; a forked child reads the log again (``checked``, in
``fightlog.audit.reading``), checks the chain (as ``fightlog verify`` does), recomputes the
dice and runs the ruleset's checks that need no folded state (``Ruleset.audit_record_checks``,
``RecordChecks`` in ``fightlog.audit.recorded``). Both verdicts together are the sequential
audit's. The child also runs the ruleset's ``Clear`` tests and sends what they
clear as it goes (``_Inbox``); a check here skips the part a test cleared
(``AuditView.cleared``) and does it itself for an event the child has not reached, so the
report does not depend on which process is ahead. This process does not look for rulings
first: it audits the log as holding none, and if a ``ruling_made`` turns up, it collects the
rulings and audits again with them, every check here (the child's verdict on the chain and
the dice as recorded stands; rolls a ruling amends are checked again here, as ruled, as on one
process). Whenever anything goes wrong (a damaged log, a fold error, a child that
fails), the log is audited again sequentially, which raises exactly what the sequential audit
raises; so the parallel path only ever returns a report the sequential one would have
returned, and a damaged large log costs one more pass. Tests hold the two paths equal
(``tests/audit/test_audit_parallel.py``, ``test_audit_clearing.py``).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

import msgspec
from msgspec import Struct

from fightlog.audit import order, scope
from fightlog.kit.checks import AuditView, Check
from fightlog.audit.dice_checks import FED, DiceAudit, DiceFinding, DiceReport, FastDice
from fightlog.audit.imported import IMPORT_RULE, Pairing
from fightlog.audit.reading import LINE_LIMIT, checked
from fightlog.audit.recorded import RecordChecks, record_split
from fightlog.audit.ruled import RuledRolls
from fightlog.audit.window import Window
from fightlog.audit.findings import Acceptance, Finding, Summary, ordered, severity_of, summarize
from fightlog.errors import InputError, LogDamagedError
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, Event, RulingMade, SceneEnded, SceneStarted, TurnStarted
from fightlog.events.forked import worth_forking
from fightlog.events.reader import open_log, raw_lines
from fightlog.events.tail import revealed_in, revealed_seed
from fightlog.reducers.fold import fold, in_force, plan_of
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.kit.ruleset import GENERIC, Ruleset, rules_for_scene

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

PARALLEL_MIN_BYTES = 16 << 20
"""Logs smaller than this are audited in one process (forking would cost more than it saves)."""

_SCAN_BYTES = 1 << 20


class Report(Struct, frozen=True, kw_only=True):
    """Every finding in log order, and the counts."""

    findings: list[Finding]
    summary: Summary


class Auditor:
    """Checks a log event by event (see the module docstring): ``fold`` folds the events
    with the checks as the fold's per-kind hooks (``fold(..., hooks=, seen=)``)."""

    def __init__(
        self,
        rulings: Sequence[RulingMade] = (),
        *,
        seed: str | None = None,
        unruled: bool = False,
        recorded_elsewhere: bool = False,
        cleared: Callable[[int], bool] | None = None,
    ) -> None:
        """``rulings``: every ruling the log holds (in log order); ``unruled``: the log is
        taken to hold none, and ``fold`` raises ``RulingFound`` at the first ``ruling_made``
        (the caller then audits again with the rulings); ``recorded_elsewhere``: the
        ruleset's checks of the events as recorded (``record_split``) run elsewhere (the
        child, ``RecordChecks``), and ``finish`` is given their findings; ``cleared``, what
        the ``Clear`` tests run there have cleared so far (``AuditView.cleared``)."""
        self.findings: list[Finding] = []
        self._unruled = unruled
        self._elsewhere = recorded_elsewhere
        self.dice = DiceAudit(seed)
        self.rules: Ruleset = GENERIC
        self.plan = plan_of(rulings)
        self._seed = seed
        self._ruled = RuledRolls(self.plan) if any(r.action == "amend" for r in self.plan.values()) else None
        """The rolls rulings amend, checked again as ruled (``finish``)."""
        self._accepted = _acceptances(rulings)
        self._checks: dict[type, Check] = {}
        """Event kind -> its checks as one callable, the fold's hooks (``_bind``; changed in
        place, as the fold reads it)."""
        self._window = Window()
        """The events in reach of ``event``: ``fold`` puts every event in, a turn opening
        moves the reach on (``_turn_opened``)."""
        self.event: Callable[[int], AnyEvent | None] = self._window.get
        """A recent event by ``seq`` (this turn's and the previous turn's), as ruled, or
        ``None`` (``AuditView.event``)."""
        self.cleared: Callable[[int], bool] = cleared if cleared is not None else _never
        """``AuditView.cleared``."""
        self._turn_start = EMPTY
        self._on_turn: Check | None = None
        self._on_scene: Check | None = None
        self._label = GENERIC.id
        """The summary's name for the rules checked (``scope.ruleset_label``)."""
        self._imported: Pairing | None = None
        """The checks of an imported fight (``fightlog.audit.imported``), when it is one."""
        self._bind(GENERIC)

    @property
    def events(self) -> int:
        """How many events were checked (every event folded, as ruled)."""
        return self._window.added

    def fold(self, events: Iterable[AnyEvent], *, start: SceneState = EMPTY) -> SceneState:
        """Fold ``events`` (continuing ``start``) with the rulings applied, checking each."""
        if self._ruled is not None:
            events = self._ruled.watch(events)
        return fold(events, start=start, plan=self.plan, hooks=self._checks, context=self, seen=self._window.held)

    # ------------------------------------------------------------------ AuditView

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        origin = event.origin  # an imported fight's findings cite the transcript (origin.ref)
        ref = origin.ref if origin is not None and self._imported is not None else None
        self._add(code, event.seq, message, actor, ref)

    @property
    def turn_start(self) -> SceneState:
        return self._turn_start

    # ------------------------------------------------------------------ driving

    def recorded(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """Pass the log's events on as recorded, feeding the dice checks (``self.dice``)."""
        feed = self.dice.feed
        for event in events:
            if type(event) in FED:
                feed(event)
            yield event

    def _turn_opened(self, before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        """The hook for ``turn_started``: the window of recent events moves on (only the
        previous turn's stay in reach), then the checks run."""
        self._window.turn_opened(event.seq)
        self._turn_start = after
        check = self._on_turn
        if check is not None:
            check(before, event, after, self)

    def _scene_opened(self, before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        """The hook for ``scene_started``: the checks of the scene's ruleset, which then run."""
        self._bind(rules_for_scene(event.ruleset, event.options))  # type: ignore[union-attr]
        self._label = scope.ruleset_label(event.ruleset)  # type: ignore[union-attr]
        if getattr(event, "transcript", None) is not None:
            self._imported = Pairing()
            self._bind(self.rules)
        check = self._on_scene
        if check is not None:
            check(before, event, after, self)

    def finish(
        self,
        dice: DiceReport | None = None,
        recorded: Sequence[DiceFinding] = (),
        *,
        again: Callable[[], Iterable[AnyEvent]] | None = None,
    ) -> Report:
        """The report; ``dice`` is the dice checks' report when they ran elsewhere (else the
        dice checks fed through ``recorded`` are finished here); ``recorded``, the findings
        of the checks run elsewhere (``recorded_elsewhere``); ``again`` reads the log's dice
        events again, as recorded, for the rolls a ruling amends (``fightlog.audit.ruled``)."""
        if dice is None:
            dice = self.dice.report()
        refs: dict[int, str] = {}
        if self._imported is not None:
            self._imported.finish(self)
            refs = self._imported.refs
        for found in dice.findings:
            self._add(found.code, found.seq, found.message, found.actor, refs.get(found.seq))
        if self._ruled is not None and self._ruled.found:
            if again is None:
                raise ValueError("rulings amend rolls: finish needs again= to check them as ruled")
            for found in self._ruled.findings(again, self._seed, dice.findings):
                self._add(found.code, found.seq, found.message, found.actor)
        for found in recorded:
            self._add(found.code, found.seq, found.message, found.actor)
        findings = ordered(self.findings)
        voided = sum(1 for ruling in self.plan.values() if ruling.action == "void")
        summary = summarize(findings, events=self.events, ruleset=self._label, dice=dice.summary, voided=voided)
        return Report(findings=findings, summary=summary)

    # ------------------------------------------------------------------ internals

    def _bind(self, rules: Ruleset) -> None:
        self.rules = rules
        found: dict[type, list[Check]] = {kind: [check] for kind, check in order.checks(rules).items()}
        found.setdefault(SceneStarted, []).extend(scope.checks().values())
        split = record_split(rules) if self._elsewhere else None
        for kind, check in (rules.audit_checks() if split is None else split.state).items():
            found.setdefault(kind, []).append(check)
        if self._imported is not None:
            for kind, check in self._imported.checks().items():
                found.setdefault(kind, []).append(check)
        if self._unruled:
            found.setdefault(RulingMade, []).insert(0, _ruling_found)
        hooks = {kind: _in_turn(checks) for kind, checks in found.items()}
        self._on_turn = hooks.get(TurnStarted)
        self._on_scene = hooks.get(SceneStarted)
        hooks[TurnStarted] = self._turn_opened
        hooks[SceneStarted] = self._scene_opened
        self._checks.clear()  # in place: a running fold reads it
        self._checks.update(hooks)

    def _add(self, code: str, seq: int, message: str, actor: str | None, ref: str | None = None) -> None:
        accepted = None
        for finding_code, acceptance in self._accepted.get(seq, ()):
            if finding_code is None or finding_code == code:
                accepted = acceptance
                break
        self.findings.append(
            Finding(
                code=code,
                severity=severity_of(code, self.rules),
                seq=seq,
                line=seq,
                message=message,
                rule=IMPORT_RULE if code.startswith("import.") else self.rules.rule_section(code),
                actor=actor,
                accepted=accepted,
                ref=ref,
            )
        )


class RulingFound(Exception):
    """A log audited as having no rulings (``Auditor(unruled=True)``) has one."""


def _ruling_found(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
    raise RulingFound(event.seq)


def _never(seq: int) -> bool:
    """``AuditView.cleared`` of a one-process audit: no test ran elsewhere."""
    return False


def _in_turn(checks: Sequence[Check]) -> Check:
    """``checks`` run one after the other, as one check."""
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks

        def both(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
            first(before, event, after, view)
            second(before, event, after, view)

        return both
    run = tuple(checks)

    def each(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        for check in run:
            check(before, event, after, view)

    return each


def _acceptances(rulings: Iterable[RulingMade]) -> dict[int, list[tuple[str | None, Acceptance]]]:
    """Target ``seq`` -> the accept rulings in force for it (``in_force``)."""
    out: dict[int, list[tuple[str | None, Acceptance]]] = {}
    for ruling in in_force(rulings):
        if ruling.action == "accept":
            acceptance = Acceptance(ruling=ruling.seq, by=ruling.by, reason=ruling.reason)
            out.setdefault(ruling.target, []).append((ruling.finding, acceptance))
    return out


def audit_events(events: Sequence[AnyEvent], *, seed: str | None = None, start: SceneState = EMPTY) -> Report:
    """Audit a log held in memory (the events in order, from ``start``)."""
    rulings = [e for e in events if type(e) is RulingMade]
    auditor = Auditor(rulings, seed=seed)
    dice = FastDice(seed, hint=revealed_in(reversed(events)))
    feed = dice.feed
    fed = FED

    def recorded() -> Iterator[AnyEvent]:
        for event in events:
            if type(event) in fed:
                feed(event)
            yield event

    auditor.fold(recorded(), start=start)
    return auditor.finish(_or_exact(dice, seed, lambda: events), again=lambda: events)


def audit_log(
    path: str | os.PathLike[str],
    *,
    seed: str | None = None,
    workers: int | None = None,
    parallel_min_bytes: int | None = None,
) -> Report:
    """Audit the log at ``path`` (its chain checked as it is read: a damaged log raises
    ``LogDamagedError``, a log the fold cannot honour ``FoldError``).

    A log of ``parallel_min_bytes`` (default ``PARALLEL_MIN_BYTES``) or more is audited on
    two processes when ``workers`` (default: the cores this process may use) allows; the
    report, or the error, is the same.
    """
    name = os.fspath(path)
    with _collector_eased():
        if _parallel(name, workers, parallel_min_bytes):
            report = _audit_parallel(name, seed)
            if report is not None:
                return report
        return _audit_sequential(name, seed)


_YOUNG = 50_000
"""Allocations between two collections of the youngest generation during an audit."""


@contextmanager
def _collector_eased() -> Iterator[None]:
    """The cyclic garbage collector runs less often during an audit (and in its child, forked
    inside): the fold allocates and drops a few objects per event, none of them in a cycle,
    and at the default threshold (700) each collection walks the live state again. The
    previous thresholds are restored after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], _YOUNG), before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)


# ---------------------------------------------------------------------- one process


def _audit_sequential(name: str, seed: str | None) -> Report:
    auditor = Auditor(_rulings(name), seed=seed)
    dice = FastDice(seed, hint=revealed_seed(name))
    with open_log(name) as stream:
        auditor.fold(checked(stream, name, dice.feed))
    return auditor.finish(_or_exact(dice, seed, lambda: _dice_events(name)), again=lambda: _dice_events(name))


def _rulings(path: str) -> list[RulingMade]:
    """The log's rulings, decoding only the lines that mention ``ruling_made`` (the full
    read that follows checks every line)."""
    found: list[RulingMade] = []
    with open_log(path) as stream:
        for raw in raw_lines(stream):
            if b'"ruling_made"' in raw:
                try:
                    event = DECODER.decode(raw)
                except Exception:
                    continue  # the checked read names it
                if type(event) is RulingMade:
                    found.append(event)
    return found


def _or_exact(dice: FastDice, seed: str | None, again: Callable[[], Iterable[AnyEvent]]) -> DiceReport:
    """``dice``'s report, or when it cannot vouch for it, ``DiceAudit`` over the events again."""
    report = dice.report()
    if report is not None:
        return report
    exact = DiceAudit(seed)
    for event in again():
        exact.feed(event)
    return exact.report()


def _dice_events(path: str) -> Iterator[AnyEvent]:
    """The events the dice checks read, from a log already checked."""
    with open_log(path) as stream:
        for raw in raw_lines(stream):
            event = DECODER.decode(raw)
            if type(event) in FED:
                yield event


# ---------------------------------------------------------------------- two processes


def _parallel(path: str, workers: int | None, parallel_min_bytes: int | None) -> bool:
    threshold = PARALLEL_MIN_BYTES if parallel_min_bytes is None else parallel_min_bytes
    return worth_forking(path, threshold, workers)


def _audit_parallel(name: str, seed: str | None) -> Report | None:
    """The audit on two processes, or ``None`` when anything went wrong (see the module
    docstring: the caller then audits sequentially)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    try:
        hint = revealed_seed(name)
        receive, send = context.Pipe(duplex=False)
    except Exception:
        return None
    child = context.Process(target=_check_and_roll, args=(send, name, seed, hint), daemon=True)
    child.start()
    send.close()
    inbox = _Inbox(receive)
    done = False
    try:
        try:
            # most logs hold no ruling: no scan for them; the child runs the checks of the
            # events as recorded, and the ``Clear`` tests
            auditor = Auditor(seed=seed, unruled=True, recorded_elsewhere=True, cleared=inbox.cleared)
            _fold_checked(name, auditor)
        except RulingFound:  # the rulings govern events already checked: again, with them
            auditor = Auditor(_rulings_scanned(name), seed=seed)  # every check here: as ruled
            _fold_checked(name, auditor)
        sent = inbox.result()
        done = True
    except Exception:
        return None
    finally:
        receive.close()
        if not done:
            child.terminate()
        child.join()
    if not isinstance(sent, tuple) or len(sent) != 2 or not isinstance(sent[0], DiceReport):
        return None
    dice, recorded = sent
    return auditor.finish(dice, recorded if auditor._elsewhere else (), again=lambda: _dice_events(name))


_POLL_EVERY = 1024
"""Events between two looks for the child's news, while it is behind."""


class _Inbox:
    """The child's messages (``_check_and_roll``): what its ``Clear`` tests cleared as they
    come (``("clear", upto, unclear)``, see ``RecordChecks``), then its result
    (``("done", result)``). ``cleared`` is ``AuditView.cleared``: it reads what has arrived,
    never waits for more, and looks again only every ``_POLL_EVERY`` events while the child
    is behind."""

    def __init__(self, receive: Connection) -> None:
        self._receive = receive
        self._upto = 0
        self._unclear: set[int] = set()
        self._look_at = 0
        self._done = False
        self._result: object = None

    def cleared(self, seq: int) -> bool:
        if seq > self._upto:
            if seq < self._look_at or self._done:
                return False
            self._look_at = seq + _POLL_EVERY
            receive = self._receive
            if receive.poll():  # news: forget what nobody will ask again (asked: seq on)
                self._unclear = {s for s in self._unclear if s >= seq}
                while not self._done and receive.poll():
                    self._take(receive.recv())
            if seq > self._upto:
                return False
        return seq not in self._unclear

    def result(self) -> object:
        """The child's result, once everything before it has been read."""
        while not self._done:
            self._take(self._receive.recv())
        return self._result

    def _take(self, message: object) -> None:
        if not isinstance(message, tuple) or not message:
            raise ValueError("not a message from the audit's child")
        if message[0] == "clear":
            _, upto, unclear = message
            self._unclear.update(unclear)
            self._upto = upto
        else:
            self._done = True
            self._result = message[1]


def _fold_checked(name: str, auditor: Auditor) -> None:
    """Fold the log at ``name`` with ``auditor`` checking (the chain unchecked: the child
    checks it)."""
    with open_log(name) as stream:
        lines = iter(partial(stream.readline, LINE_LIMIT), b"")
        auditor.fold(map(DECODER.decode, lines))


def _check_and_roll(send: Connection, name: str, seed: str | None, hint: str | None) -> None:
    """The child: check the chain and the dice of the whole log, run the ruleset's checks
    of the events as recorded and its ``Clear`` tests (``RecordChecks``, which sends what
    the tests clear as it goes); send ``("done", result)``: the dice report and those
    findings, or ``None`` if the log is damaged (or anything else failed)."""
    result: tuple[DiceReport, list[DiceFinding]] | None = None
    try:
        try:
            dice = FastDice(seed, hint=hint)
            record = RecordChecks(dice.feed, send.send)
            with open_log(name) as stream:
                for _ in checked(stream, name, None, record.feeds, links=True):
                    pass
            record.finish()
            result = (_or_exact(dice, seed, lambda: _dice_events(name)), record.findings)
        except Exception:
            result = None
        send.send(("done", result))
    except Exception:
        pass  # the parent gave up (and closed its end): nobody to tell
    finally:
        send.close()


def _rulings_scanned(path: str) -> list[RulingMade]:
    """``_rulings`` by searching the file a block at a time for ``"ruling_made"``: a log
    without rulings costs one fast scan. The same list as ``_rulings`` for an intact log, the
    only kind the parallel path reports on (a line too long for a log stops the scan)."""
    found: list[RulingMade] = []
    needle = b'"ruling_made"'
    buffer = bytearray(_SCAN_BYTES + LINE_LIMIT)  # a block, after the last block's cut line
    view = memoryview(buffer)
    kept = 0
    with open(path, "rb", buffering=0) as stream:  # blocks straight from the file
        while True:
            got = stream.readinto(view[kept : kept + _SCAN_BYTES])
            filled = kept + got
            end = filled if not got else buffer.rfind(b"\n", 0, filled) + 1  # complete lines only
            at = buffer.find(needle, 0, end)
            while at >= 0:
                start = buffer.rfind(b"\n", 0, at) + 1
                stop = buffer.find(b"\n", at, end)
                stop = end if stop < 0 else stop + 1
                try:
                    event = DECODER.decode(view[start:stop])
                except Exception:
                    event = None  # the child's checked read names it
                if type(event) is RulingMade:
                    found.append(event)
                at = buffer.find(needle, stop, end)
            if not got:
                return found
            kept = filled - end
            if kept > LINE_LIMIT:
                raise LogDamagedError("a line is too long for a log", path=path)
            buffer[:kept] = buffer[end:filled]
