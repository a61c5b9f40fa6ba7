"""``fightlog audit``: a fight checked against the posting order, the rules and the dice."""

from __future__ import annotations

import click
import msgspec

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import check_seed_fits, format_option, input_log_argument, seed_option
from fightlog.cli.output import echo_json
from fightlog.cli.terminal import report_line
from fightlog.cli.wording import plural


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog audit fixtures/roe7/scenarios/alley-duel.jsonl               # clean: exit 0
  fightlog audit fixtures/roe7/audit/the-tie-that-hit.jsonl             # findings: exit 1
  fightlog audit fixtures/roe7/audit/the-tie-that-hit.jsonl --format json   # for bots
  cat fixtures/roe7/disputed-duel.jsonl | fightlog audit -         # LOG "-": standard input
  fightlog play start live.jsonl --ruleset roe7         # a live scene: its seed in live.jsonl.seed
  fightlog audit live.jsonl --seed "$(cat live.jsonl.seed)"   # before play end reveals the seed
  cp fixtures/roe7/audit/the-tie-that-hit.jsonl tie.jsonl     # a ruling is appended: rule on a copy
  fightlog rule tie.jsonl accept 27 --finding rules.tie-to-attacker --by Gemma \\
      --reason "tie went to the attacker by agreement"
  fightlog audit tie.jsonl                              # the tie is accepted now

\b
Exit codes: 0 clean (no errors or warnings, or every one accepted by a GM ruling); 1
findings; 2 bad input (a missing or damaged log, a ruling the log cannot honour) or usage.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=2)
@seed_option(
    "The dice seed, to recompute engine rolls of a scene that has not revealed it yet "
    "(checked against the scene's commitment)."
)
@format_option
@reports_errors
def audit(log: str, seed: str | None, fmt: str) -> None:
    """Check the fight in LOG and list what went wrong.

    Posting order (who posted when it was not their turn, twice in a round, who was
    skipped, rounds never ended), the ruleset's rules (caps, damage, criticals, ties, effect
    ticks and expiry, the turn's allowance, reloads, flee attempts; in a hand-run or imported
    log, every post the table would refuse) and the dice (impossible faces, totals,
    engine rolls against the revealed seed; external rolls cannot be checked for honesty).
    Each finding names the event (seq = line), the actor, what is wrong and the rulebook
    section. GM rulings are honoured: a voided event is not audited, an amended one is
    audited as amended, an accepted finding is listed as accepted and does not fail. A
    scene under a ruleset this fightlog does not have gets a warning, and only its posting
    order and dice are checked.
    """
    from fightlog.audit.auditor import audit_log

    check_seed_fits(log, seed)
    report = audit_log(log, seed=seed)
    if fmt == "json":
        doc = {"log": log, **msgspec.to_builtins(report)}
        echo_json(doc)
    else:
        for line in human_lines(report):
            report_line(line)
    if report.summary.failed:
        raise SystemExit(EXIT_FINDINGS)


def human_lines(report: object) -> list[str]:
    """The report as text: one line per finding, then the summary."""
    from fightlog.audit.auditor import Report

    assert isinstance(report, Report)
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

