"""``fightlog audit``: a fight checked against the posting order, the rules and the dice."""

from __future__ import annotations

import click
import msgspec

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import check_seed_fits, format_option, input_log_argument, seed_option
from fightlog.cli.output import echo_json
from fightlog.cli.terminal import report_line
from fightlog.report.audit_text import audit_lines


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog audit fixtures/roe7/scenarios/alley-duel.jsonl               # clean: exit 0
  fightlog audit fixtures/roe7/audit/the-tie-that-hit.jsonl             # findings: exit 1
  fightlog audit fixtures/roe7/audit/the-tie-that-hit.jsonl --format json   # for bots
  cat fixtures/roe7/disputed-duel.jsonl | fightlog audit -         # LOG "-": standard input
  fightlog play start secret.jsonl --ruleset roe7       # a live scene: its seed in secret.jsonl.seed
  fightlog audit secret.jsonl --seed "$(cat secret.jsonl.seed)"   # before play end reveals the seed
  cp fixtures/roe7/audit/the-tie-that-hit.jsonl tie.jsonl     # a ruling is appended: rule on a copy
  fightlog rule tie.jsonl accept 27 --finding rules.tie-to-attacker --by Gemma \\
      --reason "tie went to the attacker by agreement"
  fightlog audit tie.jsonl        # exit 1: the tie accepted, the critical at seq 55 still an error

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
        for line in audit_lines(report):
            report_line(line)
    if report.summary.failed:
        raise SystemExit(EXIT_FINDINGS)

