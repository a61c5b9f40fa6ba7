"""The one pass of an audit: ``Auditor`` folds a log and checks every event.

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

Both runners make this pass: on one process (``fightlog.audit.one_process``) and on two
(``fightlog.audit.two_process``, where the checks of events as recorded run in the child);
``fightlog.audit.auditor`` chooses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from msgspec import Struct

from fightlog.audit import answers, ending, order, pools, references, scope
from fightlog.audit.attack_damage import AttackDamage
from fightlog.audit.after_end import CODE as AFTER_END
from fightlog.audit.after_end import AfterEnd
from fightlog.kit.chained import chained
from fightlog.audit.dice_checks import FED, DiceAudit, DiceFinding, DiceReport
from fightlog.audit.findings import Acceptance, Finding, Summary, ordered, severity_of, summarize
from fightlog.audit.imported import IMPORT_RULE, Pairing
from fightlog.audit.recorded import record_split
from fightlog.audit.ruled import ForeseenRolls, RuledRolls
from fightlog.audit.voided import CODE as VOIDED_CAUSE
from fightlog.audit.voided import VoidedCauses
from fightlog.audit.window import Window
from fightlog.events.model import (EVENT_TYPES, AnyEvent, DiceRolled, Event, RulingMade, SceneEnded, SceneStarted,
                                   TurnStarted, actor_of)
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.ruleset import GENERIC, Ruleset, rules_for_scene
from fightlog.reducers.fold import fold, in_force, plan_of
from fightlog.reducers.state import EMPTY, SceneState


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
        self._foreseen = ForeseenRolls(self.plan)
        """The engine rolls after the end that revealed their seed (``_scene_closed``, ``finish``)."""
        self._voided = VoidedCauses(self.plan)
        """The events that cite a voided one and still stand (``finish``)."""
        self._after_end = AfterEnd()
        """The events folded after the scene's end (``_scene_closed``, ``finish``)."""
        self._accepted = _acceptances(rulings)
        self._checks: dict[type, Check] = {}
        """Event kind -> its checks as one callable, the fold's hooks (``_bind``; changed in
        place, as the fold reads it)."""
        self._window: Window[AnyEvent] = Window()
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
        self._on_end: Check | None = None
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
        if self._foreseen.voids:
            events = self._foreseen.watch(events)
            events = self._voided.watch(events)
        return fold(events, start=start, plan=self.plan, hooks=self._checks, context=self, seen=self._window.held)

    # ------------------------------------------------------------------ AuditView

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        origin = event.origin  # an imported fight's findings cite the transcript (origin.ref)
        ref = origin.ref if origin is not None and self._imported is not None else None
        if ref is not None and self._ruled is not None and origin is not None and origin.medium == "ruling":
            ref = self._ruled.refs.get(event.seq, ref)  # amended: the line it was recorded at
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
        self._foreseen.started(event)  # type: ignore[arg-type]
        self._bind(rules_for_scene(event.ruleset, event.options))  # type: ignore[union-attr]
        self._label = scope.ruleset_label(event.ruleset)  # type: ignore[union-attr]
        if getattr(event, "transcript", None) is not None:
            self._imported = Pairing()
            self._bind(self.rules)
        check = self._on_scene
        if check is not None:
            check(before, event, after, self)

    def _scene_closed(self, before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        """The hook for ``scene_ended``: once it has revealed the seed, engine rolls after it
        are watched (``ForeseenRolls``), then the checks run."""
        if self._foreseen.ended(event):  # type: ignore[arg-type]
            self._watch_rolls()
        check = self._on_end
        if check is not None:
            check(before, event, after, self)
        if self._after_end.ended(event):  # type: ignore[arg-type]
            self._watch_after_end()

    def _watch_after_end(self) -> None:
        """From now on every event but a ruling is one written after the end (``AfterEnd``)."""
        seen = self._after_end.seen
        checks = self._checks
        for kind in EVENT_TYPES:
            if kind is RulingMade:
                continue
            check = checks.get(kind)

            def watched(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView,
                        check: Check | None = check) -> None:
                seen(event)
                if check is not None:
                    check(before, event, after, view)

            checks[kind] = watched

    def _watch_rolls(self) -> None:
        rolled = self._foreseen.rolled
        check = self._checks.get(DiceRolled)

        def watched(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
            rolled(event)  # type: ignore[arg-type]
            if check is not None:
                check(before, event, after, view)

        self._checks[DiceRolled] = watched

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
        self._posting.finish(self)  # a round the log leaves open: who its posts passed over
        if dice is None:
            dice = self.dice.report()
        refs: dict[int, str] = {}
        if self._imported is not None:
            self._imported.finish(self)
            refs = self._imported.refs
        ruled, settled = None, frozenset[tuple[str, int]]()
        if self._ruled is not None:
            refs = {**refs, **self._ruled.refs} if refs else refs  # an amended roll's own line
            if self._ruled.found:
                if again is None:
                    raise ValueError("rulings amend rolls: finish needs again= to check them as ruled")
                ruled, settled = self._ruled.findings(again, self._seed, dice.findings)
        for found in dice.findings:
            by_ruling = None
            if (found.code, found.seq) in settled and self._ruled is not None:
                amend = self._ruled.amends[found.seq]  # it mended the roll: listed, as accepted
                by_ruling = Acceptance(ruling=amend.seq, by=amend.by,
                                       reason=f"amended the roll{': ' + amend.reason if amend.reason else ''}")
            self._add(found.code, found.seq, found.message, found.actor, refs.get(found.seq), by_ruling)
        for found in ruled or ():
            self._add(found.code, found.seq, found.message, found.actor, refs.get(found.seq))
        for found in self._foreseen.findings():
            self._add(found.code, found.seq, found.message, found.actor)
        late = self._after_end.message()
        if late is not None and self._after_end.first is not None:
            self.report(AFTER_END, self._after_end.first, late, actor=actor_of(self._after_end.first))
        for orphan in self._voided.found:
            self._add(VOIDED_CAUSE, orphan.seq, orphan.message, orphan.actor,
                      orphan.ref if self._imported is not None else None)  # a transcript's line, as report() cites
        for found in recorded:
            self._add(found.code, found.seq, found.message, found.actor, found.ref)
        findings = ordered(self.findings)
        voided = sum(1 for ruling in self.plan.values() if ruling.action == "void")
        line = dice.summary  # the rolls as recorded; what a ruling mended is said apart
        mended = len(settled)
        if mended:
            line += f" ({mended} mended by {'a ruling' if mended == 1 else 'rulings'})"
        summary = summarize(findings, events=self.events, ruleset=self._label, dice=line, voided=voided)
        return Report(findings=findings, summary=summary)

    # ------------------------------------------------------------------ internals

    def _bind(self, rules: Ruleset) -> None:
        self.rules = rules
        self._posting = order.Posting(rules)
        found: dict[type, list[Check]] = {kind: [check] for kind, check in self._posting.checks().items()}
        for kind, check in (*scope.checks().items(), *pools.checks().items(), *ending.checks(rules).items(),
                            *references.checks().items(), *AttackDamage().checks().items()):
            found.setdefault(kind, []).append(check)
        split = record_split(rules) if self._elsewhere else None
        if not self._elsewhere or answers.in_fold(rules, split, self._imported is not None):  # else in the child
            for kind, check in answers.checks(rules).items():
                found.setdefault(kind, []).append(check)
        for kind, check in (rules.audit_checks() if split is None else split.state).items():
            found.setdefault(kind, []).append(check)
        if self._imported is not None:
            for kind, check in self._imported.checks().items():
                found.setdefault(kind, []).append(check)
        if self._unruled:
            found.setdefault(RulingMade, []).insert(0, _ruling_found)
        hooks = {kind: chained(checks) for kind, checks in found.items()}
        self._on_turn = hooks.get(TurnStarted)
        self._on_scene = hooks.get(SceneStarted)
        self._on_end = hooks.get(SceneEnded)
        hooks[TurnStarted] = self._turn_opened
        hooks[SceneStarted] = self._scene_opened
        hooks[SceneEnded] = self._scene_closed
        self._checks.clear()  # in place: a running fold reads it
        self._checks.update(hooks)
        if self._foreseen.standing:
            self._watch_rolls()
        if self._after_end.end is not None:  # bound again after the end (a scene_started there)
            self._watch_after_end()

    def _add(self, code: str, seq: int, message: str, actor: str | None, ref: str | None = None,
             accepted: Acceptance | None = None) -> None:
        for finding_code, acceptance in () if accepted is not None else self._accepted.get(seq, ()):
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


def _acceptances(rulings: Iterable[RulingMade]) -> dict[int, list[tuple[str | None, Acceptance]]]:
    """Target ``seq`` -> the accept rulings in force for it (``in_force``)."""
    out: dict[int, list[tuple[str | None, Acceptance]]] = {}
    for ruling in in_force(rulings):
        if ruling.action == "accept":
            acceptance = Acceptance(ruling=ruling.seq, by=ruling.by, reason=ruling.reason)
            out.setdefault(ruling.target, []).append((ruling.finding, acceptance))
    return out
