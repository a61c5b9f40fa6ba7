"""A dispute as a page (``fightlog dispute ... --report``): the original fight and the fork
side by side from the first event that differs, each with its own findings, under the
dispute's summary (the lines ``fightlog dispute`` prints, given by the caller)."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.audit.dispute import Dispute
from fightlog.events.model import AnyEvent
from fightlog.report.narration import namer
from fightlog.report.page.build import finding_view
from fightlog.report.page.model import FindingView, RoundView
from fightlog.report.page.timeline import pin, tell


class SideView(Struct, frozen=True, kw_only=True):
    """One of the two fights, from the first difference on: its rounds, and its findings
    (all of them: the page lists those from the first difference on)."""

    title: str
    prefix: str
    events: int
    rounds: list[RoundView]
    findings: list[FindingView]
    winner: str | None


class DisputePage(Struct, frozen=True, kw_only=True):
    """The dispute: what changed and what followed (``summary``), and both fights from
    ``start`` (the first difference, or the changed event when none differs)."""

    log: str
    summary: list[str]
    start: int
    left: SideView
    right: SideView


def dispute_page(outcome: Dispute, *, log: str, summary: Sequence[str]) -> DisputePage:
    """The page of ``outcome``; ``summary`` is the dispute in words (its text output)."""
    start = outcome.difference.seq if outcome.difference is not None else outcome.change.seq
    original = outcome.original if outcome.baseline is None else outcome.baseline
    title = "original" if outcome.baseline is None else "original, as the rules re-derive it"
    return DisputePage(
        log=log,
        summary=list(summary),
        start=start,
        left=_side(title, "o", original, start),
        right=_side("fork", "k", outcome.fork, start),
    )


def _side(title: str, prefix: str, events: Sequence[AnyEvent], start: int) -> SideView:
    told = tell(events)
    who = namer(told.state)
    findings = [finding_view(i, f, who) for i, f in enumerate(audit_events(events).findings)]
    rounds = []
    for part in pin(told.rounds, findings, len(events)):
        items = [item for item in part.items if item.seq >= start]
        if items:
            rounds.append(replace(part, items=items, first=items[0].seq, open=True))
    winner = None if told.state.scene is None or not told.state.scene.winner else who(told.state.scene.winner)
    return SideView(
        title=title,
        prefix=prefix,
        events=len(events),
        rounds=rounds,
        findings=findings,
        winner=winner,
    )
