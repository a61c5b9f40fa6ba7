"""The audit of one log: one pass that folds it and checks every event.

``Auditor`` is the ``AuditView`` the checks report to. It folds the log with the GM's
rulings applied (a voided event is not audited, an amended one is audited as amended), calls
the posting-order checks (``fightlog.audit.order``) and the ruleset's checks
(``Ruleset.audit_checks``) after each event with the state before and after it, and feeds
the dice checks (``fightlog.audit.dice``) every event as recorded. A ruling that *accepts* a
finding (``action: accept``, ``finding: CODE``, or no code: every finding on that event)
keeps the finding in the report, marked accepted, and out of the exit status.

Rulings are collected before the fold (a ruling made late in the fight still governs the
event it targets from the start); for a file, only the lines that mention ``ruling_made`` are
decoded for that.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from msgspec import Struct

from fightlog.audit import order
from fightlog.audit.checks import Check
from fightlog.audit.dice import DiceAudit
from fightlog.audit.findings import Acceptance, Finding, Summary, ordered, severity_of, summarize
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, DeclarationPosted, Event, RulingMade, SceneStarted, TurnStarted
from fightlog.events.reader import open_log, raw_lines, read_log
from fightlog.reducers.fold import fold, plan_of
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.rules.ruleset import GENERIC, Ruleset, rules_for_scene


class Report(Struct, frozen=True, kw_only=True):
    """Every finding in log order, and the counts."""

    findings: list[Finding]
    summary: Summary


class Auditor:
    """Checks a log event by event (see the module docstring)."""

    def __init__(self, rulings: Sequence[RulingMade] = (), *, seed: str | None = None) -> None:
        self.findings: list[Finding] = []
        self.dice = DiceAudit(seed)
        self.rules: Ruleset = GENERIC
        self.events = 0
        self.plan = plan_of(rulings)
        self._accepted = _acceptances(rulings)
        self._checks: dict[type, tuple[Check, ...]] = {}
        self._recent: dict[int, AnyEvent] = {}
        self._older: dict[int, AnyEvent] = {}
        self._turn_start = EMPTY
        self._bind(GENERIC)

    # ------------------------------------------------------------------ AuditView

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        self._add(code, event.seq, message, actor)

    def event(self, seq: int) -> AnyEvent | None:
        found = self._recent.get(seq)
        return found if found is not None else self._older.get(seq)

    @property
    def turn_start(self) -> SceneState:
        return self._turn_start

    # ------------------------------------------------------------------ driving

    def recorded(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """Pass the log's events on as recorded, feeding the dice checks."""
        feed = self.dice.feed
        for event in events:
            feed(event)
            yield event

    def watch(self, before: SceneState, event: AnyEvent, after: SceneState) -> None:
        """The fold's hook: check ``event`` (as ruled)."""
        self.events += 1
        kind = type(event)
        if kind is TurnStarted:
            self._older = self._recent
            self._recent = {}
            self._turn_start = after
        elif kind is SceneStarted:
            self._bind(rules_for_scene(event.ruleset, event.options))  # type: ignore[union-attr]
        self._recent[event.seq] = event
        checks = self._checks.get(kind)
        if checks:
            for check in checks:
                check(before, event, after, self)

    def finish(self) -> Report:
        for found in self.dice.finish():
            self._add(found.code, found.seq, found.message, found.actor)
        findings = ordered(self.findings)
        summary = summarize(findings, events=self.events, ruleset=self.rules.id, dice=self.dice.describe())
        return Report(findings=findings, summary=summary)

    # ------------------------------------------------------------------ internals

    def _bind(self, rules: Ruleset) -> None:
        self.rules = rules
        checks: dict[type, list[Check]] = {
            DeclarationPosted: [lambda b, e, a, v: order.posted(b, e, v, self.rules)],  # type: ignore[arg-type]
            TurnStarted: [lambda b, e, a, v: order.turn_opened(b, e, v, self.rules)],  # type: ignore[arg-type]
        }
        for kind, check in rules.audit_checks().items():
            checks.setdefault(kind, []).append(check)
        self._checks = {kind: tuple(found) for kind, found in checks.items()}

    def _add(self, code: str, seq: int, message: str, actor: str | None) -> None:
        accepted = None
        for finding_code, acceptance in self._accepted.get(seq, ()):
            if finding_code is None or finding_code == code:
                accepted = acceptance
                break
        self.findings.append(
            Finding(
                code=code,
                severity=severity_of(code),
                seq=seq,
                line=seq,
                message=message,
                rule=self.rules.rule_section(code),
                actor=actor,
                accepted=accepted,
            )
        )


def _acceptances(rulings: Iterable[RulingMade]) -> dict[int, list[tuple[str | None, Acceptance]]]:
    """Target ``seq`` -> the accept rulings in force for it (a ``withdraw``, or a ``void``
    aimed at the ruling, takes one out)."""
    accepts: dict[int, tuple[int, str | None, Acceptance]] = {}
    for ruling in rulings:
        if ruling.action == "accept":
            accepts[ruling.seq] = (
                ruling.target,
                ruling.finding,
                Acceptance(ruling=ruling.seq, by=ruling.by, reason=ruling.reason),
            )
        elif ruling.action in ("withdraw", "void"):
            accepts.pop(ruling.target, None)
    out: dict[int, list[tuple[str | None, Acceptance]]] = {}
    for target, code, acceptance in accepts.values():
        out.setdefault(target, []).append((code, acceptance))
    return out


def audit_events(events: Sequence[AnyEvent], *, seed: str | None = None, start: SceneState = EMPTY) -> Report:
    """Audit a log held in memory (the events in order, from ``start``)."""
    rulings = [e for e in events if type(e) is RulingMade]
    auditor = Auditor(rulings, seed=seed)  # type: ignore[arg-type]
    fold(auditor.recorded(events), start=start, plan=auditor.plan, watch=auditor.watch)
    return auditor.finish()


def audit_log(path: str | os.PathLike[str], *, seed: str | None = None) -> Report:
    """Audit the log at ``path`` (its chain checked as it is read: a damaged log raises
    ``LogDamagedError``, a log the fold cannot honour ``FoldError``)."""
    name = os.fspath(path)
    auditor = Auditor(_rulings(name), seed=seed)
    events = (event for _, event in read_log(name))
    fold(auditor.recorded(events), plan=auditor.plan, watch=auditor.watch)
    return auditor.finish()


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
