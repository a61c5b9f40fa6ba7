"""``fightlog state``: the state of a scene after any event."""

from __future__ import annotations

import click

from fightlog.cli.errors import reports_errors
from fightlog.cli.options import SEQ, format_option, input_log_argument
from fightlog.cli.output import echo_json
from fightlog.cli.terminal import warning_line
from fightlog.history.states import events_at, seen_at
from fightlog.report.state_data import state_data
from fightlog.report.state_text import state_lines, wanted_events


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog state fixtures/roe7/sample-duel.jsonl                          # after the last event
  fightlog state fixtures/roe7/disputed-duel.jsonl --at 58                # just before the GM's void
  fightlog state fixtures/roe7/disputed-duel.jsonl --at 40 --format json  # for bots
  fightlog state --no-cache fixtures/roe7/sample-duel.jsonl               # ignore LOG.checkpoints
  cat fixtures/roe7/sample-duel.jsonl | fightlog state -             # LOG "-": standard input

\b
The cache: LOG.checkpoints is used only while LOG is the file it was made for
and nothing but fightlog's own appends wrote to it since (same inode, size and
times); a log rewritten or edited by another program is read from line 1, so
the answer is --no-cache's. A same-size edit that leaves the change time as it
was (the clock set back) goes unseen here; `fightlog verify` always sees it.
A sidecar that is not a regular file (a link, a FIFO, a directory), too large
or damaged is ignored with a warning.

\b
Exit codes: 0 shown; 2 bad input (a missing or damaged log, --at past its end, a ruling
the log cannot honour) or usage.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=2)
@click.option(
    "--at",
    "at",
    type=SEQ,
    metavar="SEQ",
    help="Show the state after event SEQ (default: the last event), with the rulings made by "
    "then applied.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Fold from line 1 without reading or writing the LOG.checkpoints cache (the cached "
    "answer is the same; this is slower on long logs).",
)
@format_option
@reports_errors
def state(log: str, at: int | None, no_cache: bool, fmt: str) -> None:
    """Show the state of the scene in LOG after an event.

    Pools, statuses, weapons, range bands and things spent per combatant; the effects in
    force with turns left; the posting order, each slot's standing and who posts next; the
    open turn's posts; and the GM rulings in force. GM rulings count from the moment they
    are made: before that, history reads as it was first recorded.
    """
    seen = seen_at(log, at, cache=not no_cache)
    if seen.warning is not None:
        warning_line(seen.warning)
    scene = seen.state
    if fmt == "json":
        echo_json(state_data(scene))
        return
    # Only rulings need earlier lines named; the last event comes with the state.
    events = events_at(log, wanted_events(scene) - {scene.seq})
    if seen.event is not None:
        events[scene.seq] = seen.event
    for line in state_lines(scene, events):
        click.echo(line)

