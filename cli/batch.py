"""``fightlog batch audit``: every log of an archive verified and audited on Dask, the
findings written as Parquet (``fightlog.scale``; docs/scale.md)."""

from __future__ import annotations

import os

import sys
from typing import Any

import click

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import format_option
from fightlog.cli.output import echo_json
from fightlog.cli.progress import Progress
from fightlog.cli.scale_options import check_cluster, cluster_options
from fightlog.errors import InputError
from fightlog.report.visible import one_line
from fightlog.report.wording import plural


@click.group(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog batch audit fixtures -o findings/ --workers 2   # exit 1: some bundled fights are flawed"""
)
def batch() -> None:
    """Work on many logs at once, on Dask (a local cluster, or --scheduler)."""


@batch.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog batch audit fixtures -o findings/ --workers 2             # every *.jsonl under fixtures/
  fightlog batch audit fixtures -o findings/ --workers 2 --format json   # again: only changed logs are audited
  fightlog batch audit 'fixtures/**/audit/*.jsonl' -o flawed/ --workers 2
  find fixtures/roe7 -name '*.jsonl' | fightlog batch audit - -o roe7/ --workers 2

On a Dask cluster: --scheduler tcp://HOST:8786 (docs/scale.md).

\b
Exit codes: 0 every log clean; 1 some log has findings, is damaged or could not be read
(each is a row of findings/logs.parquet); 2 bad input (a path that does not exist, no logs,
a scheduler that does not answer) or usage. On any error the previous output is left as
it was. 3 internal error (a bug: the error line names a crash report)."""
)
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("-o", "--output", "out", required=True, metavar="DIR",
              help="The output directory: logs.parquet, findings.parquet, manifest.json.")
@click.option("--full", is_flag=True, help="Audit every log again, even those unchanged since the manifest.")
@cluster_options
@format_option
@reports_errors
def audit(paths: tuple[str, ...], out: str, full: bool, scheduler: str | None, workers: int | None,
          fmt: str) -> None:
    """Verify and audit every log under PATH... (directories walked for *.jsonl, globs,
    '-' for a list of paths on standard input) in parallel; write a row per finding to
    DIR/findings.parquet and a row per log to DIR/logs.parquet, and print a summary: the
    top finding codes, the actors with the most errors, the logs that could not be read.

    A second run audits only the logs whose size or last line changed (DIR/manifest.json)
    and carries the other rows over: a nightly batch is incremental.
    """
    from fightlog.scale.batch import find_logs
    from fightlog.scale.cluster import client, require
    from fightlog.scale.jobs import batch_audit

    check_cluster(scheduler, workers)
    require("fightlog batch audit")
    named = [p for p in paths if p != "-"]
    if "-" in paths:
        named += [line.strip() for line in sys.stdin if line.strip()]
    logs = find_logs(named)
    if not logs:
        raise InputError("no logs under these paths (a directory is walked for *.jsonl)")
    progress = Progress("auditing")
    with client(scheduler, workers) as runner:
        try:
            summary = batch_audit(runner, logs, out, full=full, done=progress)
        finally:
            progress.close()
    if fmt == "json":
        echo_json({"output": out, **summary})
    else:
        for line in summary_lines(out, summary):
            click.echo(line)
    if set(summary["verdicts"]) - {"clean"}:
        raise SystemExit(EXIT_FINDINGS)


_VERDICTS = {"findings": "with findings"}
"""How a log's verdict reads in the summary (``8 logs: 2 clean, 6 with findings``)."""


def _more(rest: dict[str, int], counted: str, what: str, out: str) -> list[str]:
    """The line saying what a top list leaves out (none when it leaves nothing): ``counted``
    (``findings of``) of how many other ``what`` (``code``)."""
    if not rest["names"]:
        return []
    where = os.path.join(out, "findings.parquet")
    return [f"  {rest['count']:>8}  more {counted} {plural(rest['names'], 'other ' + what)} (all in {where})"]


def summary_lines(out: str, summary: dict[str, Any]) -> list[str]:
    """The summary as text."""
    verdicts = ", ".join(f"{v} {_VERDICTS.get(k, k)}" for k, v in summary["verdicts"].items())
    found = summary["findings"]
    counts = [plural(found["error"], "error"), plural(found["warning"], "warning"), f"{found['info']} info"]
    if found["accepted"]:
        counts.append(f"{found['accepted']} accepted by ruling")
    lines = [f"{plural(summary['logs'], 'log')}: {verdicts}; audited {summary['audited']}, "
             f"{summary['unchanged']} unchanged since the last run; written to {out}",
             f"findings: {', '.join(counts)}"]
    if summary["top_codes"]:
        lines.append("top finding codes (those a ruling accepted left out):")
        lines += [f"  {row['count']:>8}  {row['name']}" for row in summary["top_codes"]]
        lines += _more(summary["more_codes"], "findings of", "code", out)
    if summary["top_error_actors"]:
        lines.append("actors with the most errors:")
        lines += [f"  {row['count']:>8}  {row['name']}" for row in summary["top_error_actors"]]
        lines += _more(summary["more_error_actors"], "errors by", "actor", out)
    if summary["unreadable"]:
        lines.append("logs that could not be audited:")
        lines += [f"  {one_line(row['log'])}: {one_line(row['reason'])}" for row in summary["unreadable"]]
    return lines
