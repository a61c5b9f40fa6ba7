"""The ruleset's checks of the events as recorded, for the audit's child process.

An audit on two processes (``fightlog.audit.two_process``) splits the ruleset's checks
(``Ruleset.audit_record_checks``, ``record_split``): the ones that need no folded state run
in the child on every event as recorded (``RecordChecks``), beside the chain and the dice;
the ``Clear`` tests run there too, and what they clear is sent to the main process as it goes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from fightlog.kit.checks import Check, Clear, RecordSplit
from fightlog.audit.answers import Beside, in_fold
from fightlog.audit.dice_checks import FED, DiceFinding
from fightlog.events.model import AnyEvent, Event, SceneStarted
from fightlog.reducers.fold import fold
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.kit.ruleset import Ruleset, rules_for_scene


def record_split(rules: Ruleset) -> RecordSplit | None:
    """The ruleset's checks split for two processes (``Ruleset.audit_record_checks``), or
    ``None`` if it keeps them all together (nothing split off, or a share that would read
    ``scene_started``, which ``RecordChecks`` reads itself)."""
    found = rules.audit_record_checks()
    beside = {*found.record, *found.clears, *found.kept}
    if not beside or SceneStarted in beside:
        return None
    return found


SEND_EVERY = 8192
"""The child sends what its ``Clear`` tests cleared after about this many events (by default)."""


_RECENT = 256
"""The child keeps at least this many recent events of the kinds the ``Clear`` tests look up."""


class RecordChecks:
    """The child's share of the checks (``record_split``): each event of a checked kind,
    as recorded, with the state the log's ``scene_started`` leaves (the scene's options, all
    those checks read of the state) as ``before`` and ``after``; an ``AuditView`` that keeps
    findings as ``DiceFinding``s.

    The ``Clear`` tests run only when ``send`` is given, and may look up recent events of the
    kinds kept (at least the last ``_RECENT`` of them: a test answers ``False`` for what it
    cannot find, so how far back it sees changes only what it clears, never the report).
    After about every ``send_every`` events, and at ``finish``, ``send`` is given
    ``("clear", upto, unclear)``: every event of a tested kind up to ``seq`` ``upto`` was
    tested, and ``unclear`` lists those not cleared since the last message (the main
    process's ``Inbox``, in ``fightlog.audit.two_process``, reads it).

    ``feeds`` maps each kind to read to what reads it (for ``checked``; grown in place at
    ``scene_started``, as ``checked`` reads it as it goes): ``also``, given, is fed the kinds
    ``FED`` (the dice checks) first."""

    def __init__(
        self,
        also: Callable[[AnyEvent], None] | None = None,
        send: Callable[[object], None] | None = None,
        *,
        send_every: int = SEND_EVERY,
    ) -> None:
        self.findings: list[DiceFinding] = []
        self._also = also
        self._send = send
        self._scene = EMPTY
        self._imported = False
        """Whether the scene is an imported fight (its findings cite the transcript: ``report``)."""
        self._recent: dict[int, AnyEvent] = {}
        self.event: Callable[[int], AnyEvent | None] = self._recent.get
        """``AuditView.event``: a recent event of a kind kept, else ``None``."""
        self._tested = 0
        """``seq`` of the last event a ``Clear`` test ran on."""
        self._unclear: list[int] = []
        self._send_every = send_every
        self._send_at = send_every
        self.feeds: dict[type, Callable[[AnyEvent], None]] = {kind: also for kind in FED} if also is not None else {}
        self.feeds[SceneStarted] = self._scene_started

    def _scene_started(self, event: AnyEvent) -> None:
        if self._also is not None:
            self._also(event)
        rules = rules_for_scene(event.ruleset, event.options)  # type: ignore[union-attr]
        self._imported = getattr(event, "transcript", None) is not None
        split = record_split(rules)
        self._scene = fold((event,))
        if split is not None:
            clears = split.clears if self._send is not None else {}
            kept = split.kept if clears else frozenset()
            for kind in {*split.record, *clears, *kept}:
                self.feeds[kind] = self._reader(
                    split.record.get(kind), clears.get(kind), kind in kept, self._also if kind in FED else None
                )
        if in_fold(rules, split, self._imported):
            return
        for kind, read in Beside(rules, self.findings).readers.items():  # after the ruleset's own
            self.feeds[kind] = _then(self.feeds[kind], read) if kind in self.feeds else read

    def _reader(
        self, check: Check | None, clear: Clear | None, keep: bool, first: Callable[[AnyEvent], None] | None
    ) -> Callable[[AnyEvent], None]:
        """What reads one kind: ``first`` (the dice checks), then kept as a recent event
        (``keep``), then checked, then tested (``clear``)."""
        recent = self._recent
        scene = self._scene

        def read(event: AnyEvent) -> None:
            if first is not None:
                first(event)
            if keep:
                recent[event.seq] = event
                if len(recent) > 2 * _RECENT:
                    for old in list(itertools.islice(recent, _RECENT)):
                        del recent[old]
            if check is not None:
                check(scene, event, scene, self)
            if clear is not None:
                seq = event.seq
                if not clear(scene, event, self):
                    self._unclear.append(seq)
                self._tested = seq
                if seq >= self._send_at:
                    self.finish()

        return read

    def finish(self) -> None:
        """Send what the ``Clear`` tests cleared since the last message (if any ran)."""
        if self._send is not None and self._tested:
            self._send(("clear", self._tested, self._unclear))
            self._unclear = []
            self._send_at = self._tested + self._send_every

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        origin = event.origin  # an imported fight's findings cite the transcript, as ``Auditor.report``'s
        ref = origin.ref if origin is not None and self._imported else None
        self.findings.append(DiceFinding(code, event.seq, message, actor, ref))

    @property
    def turn_start(self) -> SceneState:
        return self._scene

    def cleared(self, seq: int) -> bool:
        return False


def _then(first: Callable[[AnyEvent], None], second: Callable[[AnyEvent], None]) -> Callable[[AnyEvent], None]:
    """``first``, then ``second``, as one reader."""

    def both(event: AnyEvent) -> None:
        first(event)
        second(event)

    return both
