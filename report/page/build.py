"""A fight held in memory -> the report page's data (``page_data``): the header with the
verdicts on the chain and the dice, the timeline, the chart, the findings.

Pure: the caller reads the log (with its chain checked) and passes the events it read, the
chain's head and, for a damaged log, the damage; the audit (``audit_events``) and the dice
check (``RollVerifier``) run here on the same events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fightlog.audit.auditor import Report, audit_events
from fightlog.audit.findings import Finding
from fightlog.dice.roll_report import RollSummary
from fightlog.dice.verify import RollVerifier
from fightlog.errors import LogDamagedError
from fightlog.events.forked import Forked, can_fork
from fightlog.events.model import AnyEvent
from fightlog.events.reader import BROKEN_LINK, ChainHead
from fightlog.events.tail import revealed_in
from fightlog.kit.options import as_data
from fightlog.kit.ruleset import GENERIC, ruleset_for
from fightlog.reducers.state import SceneState
from fightlog.report.audit_text import audit_lines
from fightlog.report.narration import Namer, namer
from fightlog.report.page.chart import charts
from fightlog.report.page.model import Fighter, FindingView, Header, Level, Page, Pair, PoolView, Verdict
from fightlog.report.page.timeline import pin, tell
from fightlog.report.pool_rows import pool_rows
from fightlog.report.wording import plural, spoken, value_text

MAX_EVENTS = 50_000
"""The most events a report shows: a page of more could not be opened on a phone (a
10,000-event fight makes a page of about 2.5 MB, and the command peaks near 60 MB).
``fightlog report --at`` shows a longer fight's start; ``replay --from/--to`` any part."""


def page_data(
    events: Sequence[AnyEvent],
    *,
    log: str,
    head: ChainHead | None = None,
    damage: LogDamagedError | None = None,
    at: int | None = None,
    fork: bool = False,
) -> Page:
    """The report of ``events`` (the log from seq 1, as read; up to the damage when
    ``damage`` says where it breaks), cut after seq ``at`` when given. ``head`` is the
    chain's head as read (the whole log's). ``fork``: the audit and the dice check run in a
    forked child while this process tells the fight (the caller says when a second core is
    there to take it); the page is the same."""
    shown = list(events if at is None else events[:at])
    child = Forked(_checked, shown) if fork and can_fork() else None
    told = tell(shown)
    checked = _answer(child)
    report, dice = checked if checked is not None else _checks(shown)
    state = told.state
    who = namer(state)
    findings = [finding_view(i, f, who) for i, f in enumerate(report.findings)]
    maxima: dict[str, dict[str, int]] = {}
    for actor, fighter in state.combatants.items():
        for pool, ceiling in fighter.pool_max.items():
            maxima.setdefault(pool, {})[actor] = ceiling
    names = {actor: c.name for actor, c in state.combatants.items()}
    last = shown[-1].seq if shown else 0
    return Page(
        header=_header(state, log, head, damage, at, len(events), report, dice, who),
        fighters=_fighters(state),
        rounds=pin(told.rounds, findings, len(shown)),
        findings=findings,
        charts=charts(told.samples, maxima, names, told.starts, findings, last),
        summary=_audit_line(report),
    )


def _checks(events: Sequence[AnyEvent]) -> tuple[Report, RollSummary]:
    """The audit and the dice check of the events shown."""
    return audit_events(events), _dice(events)


def _checked(events: Sequence[AnyEvent]) -> tuple[Report, RollSummary] | None:
    """``_checks`` in the forked child: ``None`` when they raise (the parent then runs them
    itself, and raises what they raise, as on one process)."""
    try:
        return _checks(events)
    except Exception:
        return None


def _answer(child: Forked[tuple[Report, RollSummary] | None] | None) -> tuple[Report, RollSummary] | None:
    """The child's checks, or ``None`` (no child, or it failed: the parent runs them)."""
    if child is None:
        return None
    try:
        return child.result()
    except Exception:
        return None


def _audit_line(report: Report) -> str:
    """The audit's closing line (``audit: clean: ...``)."""
    lines = audit_lines(report)
    return lines[-2] if report.summary.dice else lines[-1]


def finding_view(index: int, finding: Finding, who: Namer) -> FindingView:
    """An audit finding as the page shows it (``index``: its place in the list)."""
    accepted = finding.accepted
    return FindingView(
        id=index,
        seq=finding.seq,
        code=finding.code,
        level=finding.severity,
        accepted=accepted is not None,
        actor=None if finding.actor is None else who(finding.actor),
        message=finding.message,
        rule=finding.rule,
        accepted_by=None if accepted is None else accepted.by,
        accepted_reason="" if accepted is None else accepted.reason,
        accepted_at=None if accepted is None else accepted.ruling,
        ref=finding.ref,
    )


def _dice(events: Sequence[AnyEvent]) -> RollSummary:
    """The dice check of ``verify --dice`` on the events shown."""
    verifier = _fed(RollVerifier(hint=revealed_in(list(reversed(events))), hold=False), events)
    if verifier.redo:
        verifier = _fed(RollVerifier(hint=verifier.revealed, hold=False), events)
    return verifier.summary


def _fed(verifier: RollVerifier, events: Sequence[AnyEvent]) -> RollVerifier:
    for line, event in enumerate(events, 1):
        verifier.feed(line, event)
    verifier.finish()
    return verifier


def _house_rules(ruleset: str, options: Mapping[str, object]) -> list[tuple[str, object]]:
    """The options that differ from the ruleset's defaults, by name (every option the scene
    records: a ruleset not installed here, whose defaults are not known)."""
    table = ruleset_for(ruleset).table()
    defaults = {} if table is None else as_data(table.option_type())
    return sorted((k, v) for k, v in options.items() if k not in defaults or defaults[k] != v)


def _dice_verdict(dice: RollSummary, report: Report) -> Verdict:
    """The dice as the audit says them (what a ruling mended said apart), red while a dice
    finding still counts."""
    text = (report.summary.dice or dice.describe()).removeprefix("dice: ")
    if any(f.code.startswith("dice.") and f.counts for f in report.findings):
        return Verdict("error", text)
    if dice.findings:
        return Verdict("warning", text)  # each mended by a GM's ruling
    if dice.engine > dice.recomputed:
        return Verdict("warning", text)
    if dice.external or not dice.engine:
        return Verdict("info", text)
    return Verdict("ok", text)


def in_doubt(damage: LogDamagedError) -> bool:
    """Whether the line before the break is in doubt: a line whose ``prev`` is not the hash
    of the one before it says that one (or itself) was edited, or lines between removed."""
    return damage.message.startswith(BROKEN_LINK)


def _shown_to(damage: LogDamagedError) -> str:
    line = damage.line or 0
    if in_doubt(damage):
        return (f"shown up to line {line - 2}: line {line - 1} does not match the hash line {line} records, so it may "
                "be the edited one (not shown)")
    return f"shown up to line {line - 1}"


def _chain_verdict(head: ChainHead | None, damage: LogDamagedError | None, events: int) -> Verdict:
    if damage is not None:
        return Verdict("error", f"damaged: {damage}; {_shown_to(damage)}")
    if head is None:
        return Verdict("warning", "not checked")
    return Verdict("ok", f"intact: {plural(events, 'event')}, each line chained to the one before by its SHA-256")


def _header(
    state: SceneState,
    log: str,
    head: ChainHead | None,
    damage: LogDamagedError | None,
    at: int | None,
    read: int,
    report: Report,
    dice: RollSummary,
    who: Namer,
) -> Header:
    info = state.scene
    ruleset = info.ruleset if info is not None else "generic"
    known = info is None or ruleset_for(ruleset) is not GENERIC
    notes = []
    if damage is not None:
        notes.append(Verdict("error", f"This log is damaged at line {damage.line} ({damage.message}): the fight is "
                                      f"{_shown_to(damage)}."))
    if not known:
        notes.append(Verdict("warning", f"The ruleset {ruleset!r} is not installed here: the generic view "
                                        "(the posting order and the dice are checked, its rules are not)."))
    if at is not None:
        end = head.seq if head is not None and head.seq else read
        notes.append(Verdict("info", f"The fight up to seq {at}, as it stood then (the log goes on to seq {end})."))
    summary = report.summary
    audit_level: Level = "error" if summary.errors else "warning" if summary.warnings else "ok"
    people = sorted(state.combatants.values(), key=lambda c: (c.name, c.actor))
    return Header(
        log=log,
        scene=info.scene if info is not None else "(no scene)",
        title=None if info is None else info.title,
        ruleset=ruleset,
        ruleset_known=known,
        options=[] if info is None else [Pair(k, value_text(v)) for k, v in _house_rules(ruleset, info.options)],
        gm=None if info is None else info.gm,
        fighters=[c.name + (f" ({c.side})" if c.side else "") for c in people],
        ended=info is not None and info.ended,
        winner=None if info is None or not info.winner else who(info.winner),
        end_reason=None if info is None else info.end_reason,
        head=None if head is None or not head.seq else f"{head.seq}:{head.digest}",
        events=min(read, at) if at is not None else read,
        at=at,
        chain=_chain_verdict(head, damage, read),
        dice=_dice_verdict(dice, report),
        audit=Verdict(audit_level, _audit_line(report).removeprefix("audit: ")),
        notes=notes,
    )


def _fighters(state: SceneState) -> list[Fighter]:
    out = []
    for c in sorted(state.combatants.values(), key=lambda c: (c.name, c.actor)):
        statuses = [spoken(s) for s in c.statuses]  # "mortally wounded": words, that wrap on a phone
        out.append(Fighter(c.actor, c.name, c.side, c.role, pool_views(c.pools, c.pool_max), statuses))
    return out


def pool_views(pools: Mapping[str, int], maxima: Mapping[str, int]) -> list[PoolView]:
    """A combatant's pools as the page shows them (``fightlog.report.pool_rows``: HP first,
    then by name, ``w2`` before ``w10``, each track of numbered pools as one, its total)."""
    return [PoolView(row.name, row.value, row.maximum, row.below) for row in pool_rows(pools, maxima)]
