"""An audit's report as text: one line per finding, then the summary (``fightlog audit``,
``Fight.audit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fightlog.report.wording import plural

if TYPE_CHECKING:  # the text needs only the report's fields: the auditor is not imported
    from fightlog.audit.auditor import Report


def audit_lines(report: Report) -> list[str]:
    """The report as text: one line per finding, then the summary."""
    lines: list[str] = []
    for f in report.findings:
        label = "accepted" if f.accepted is not None else f.severity
        who = f"{f.actor}: " if f.actor else ""
        source = f" (transcript {f.ref})" if f.ref else ""
        lines.append(f"seq {f.seq:<5} {label:<8} {f.code:<22} {who}{f.message} [{f.rule}]{source}")
        if f.accepted is not None:
            why = f": {f.accepted.reason}" if f.accepted.reason else ""
            lines.append(f"{'':<10}accepted by {f.accepted.by} (ruling at seq {f.accepted.ruling}){why}")
    s = report.summary
    counts = [plural(s.errors, "error"), plural(s.warnings, "warning"), f"{s.info} info"]
    if s.accepted:
        counts.append(f"{s.accepted} accepted by ruling")
    verdict = "findings" if s.failed else "clean"
    checked = f"{plural(s.events, 'event')} checked under {s.ruleset}"
    if s.voided:
        checked += f" (and {plural(s.voided, 'event')} voided by ruling, not checked)"
    lines.append(f"audit: {verdict}: {', '.join(counts)}; {checked}")
    if s.dice:
        lines.append(s.dice)
    return lines
