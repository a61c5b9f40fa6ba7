"""``fightlog report``: the fight as one self-contained HTML page (the core is
``fightlog.report.page``; this reads the log and writes the page)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import SEQ, check_new_page, input_log_argument
from fightlog.cli.terminal import warning_line
from fightlog.errors import FoldError, InputError, LogDamagedError
from fightlog.events.piped import is_stream
from fightlog.report.wording import plural

if TYPE_CHECKING:
    from fightlog.events.model import AnyEvent
    from fightlog.events.reader import ChainHead


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog report fixtures/roe7/disputed-duel.jsonl -o duel.html        # open duel.html in a browser
  fightlog report fixtures/roe7/disputed-duel.jsonl -o round2.html --at 60   # the fight up to seq 60
  fightlog report fixtures/roe7/audit/out-of-turn.jsonl -o out.html     # findings pinned to their events
  fightlog report fixtures/roe7/disputed-duel.jsonl -o duel.html --force   # replace duel.html

\b
Exit codes: 0 written; 1 written, but the log is damaged (the page says so at the top and
shows the fight up to the break); 2 bad input (a missing log, --at past its end, PAGE
exists without --force or cannot be written, more than 50,000 events without --at, Jinja2
not installed) or usage. PAGE is written whole or not at all.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=1)
@click.option("-o", "--output", "output", required=True, metavar="PAGE",
              help="The HTML file to write (one file: style, script and charts inline).")
@click.option("--at", "at", type=SEQ, metavar="SEQ", help="Show the fight up to this event, as it stood then.")
@click.option("--force", is_flag=True, help="Replace PAGE if it exists (only a page fightlog wrote).")
@reports_errors
def report(log: str, output: str, at: int | None, force: bool) -> None:
    """Write the fight in LOG as one HTML page, PAGE, to open in any browser or post.

    The page shows the scene (ruleset, house rules, fighters, the winner, the log's head
    hash, whether the chain is intact and the dice verified), the timeline round by round
    (each post, every die kept or dropped, each modifier's source, outcomes, damage,
    effects, GM rulings on the events they change), a chart of every fighter's pools over
    the fight, the posting order of each round, and the audit's findings, each linked to
    its event. Nothing is fetched when the page is viewed.
    """
    from fightlog.report.page.render import require_jinja

    require_jinja()  # before anything is read: one line naming the extra to install
    check_new_page(output, force, {"the log": log})
    events, head, damage = read_events(log, at)
    if at is not None and (not events or events[-1].seq < at):
        end = events[-1].seq if events else 0
        raise InputError(f"--at {at}: the log {'breaks after' if damage else 'ends at'} seq {end}", path=log)
    write_page(output, log, events, head, damage, at)
    if damage is not None:
        raise SystemExit(EXIT_FINDINGS)


def read_events(log: str, at: int | None) -> tuple[list[AnyEvent], ChainHead, LogDamagedError | None]:
    """The log's events (up to ``at``, or to the damage), the chain's head, the damage."""
    from fightlog.events.reader import ChainHead, read_log
    from fightlog.events.tail import last_seq
    from fightlog.report.page.build import in_doubt
    from fightlog.report.page.build import MAX_EVENTS

    limit = MAX_EVENTS if at is None else min(at, MAX_EVENTS)
    hint = None if is_stream(log) else last_seq(log)
    if hint is not None and hint > MAX_EVENTS and (at is None or at > MAX_EVENTS):
        raise InputError(_too_long(f"{hint:,} events", at), path=log)
    head = ChainHead()
    events: list[AnyEvent] = []
    damage: LogDamagedError | None = None
    try:
        for _, event in read_log(log, head=head):
            if event.seq > limit:
                if at is None:
                    raise InputError(_too_long(f"more than {MAX_EVENTS:,} events"), path=log)
                continue  # the rest is read for the chain's verdict and head
            events.append(event)
    except LogDamagedError as exc:
        if exc.line == 1 or not events:
            raise
        damage = exc
        if exc.line is not None:  # an unfinished append starts before the line that broke: none of it is shown
            end = exc.line - 1 if in_doubt(exc) else exc.line  # the line a broken link names may be the edited one
            events = [event for event in events if event.seq < end]
            if not events:
                raise
    return events, head, damage


@contextmanager
def collector_eased() -> Iterator[None]:
    """The cyclic garbage collector runs less often while the page is made (as in the
    audit, ``fightlog.audit.auditor``): the fold, the narration and the templates allocate
    many objects, none in a cycle, and each collection would walk them all again."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _too_long(count: str, at: int | None = None) -> str:
    from fightlog.report.page.build import MAX_EVENTS

    if at is not None:  # asked for already: say how far it may go
        return (f"--at {at}: a page shows at most {MAX_EVENTS:,} events: give --at {MAX_EVENTS} or less "
                "(fightlog replay --from/--to tells any part)")
    return (f"{count}: a page shows at most {MAX_EVENTS:,} (--at SEQ shows the fight up to an event; "
            "fightlog replay --from/--to tells any part)")


LARGE_PAGE = 8_000_000
"""From this many bytes a page is said to be large: a phone's browser may not open it."""

FORK_EVENTS = 2000
"""From this many events shown, the page's audit runs in a forked child beside the telling of
the fight (when this process may use two cores): below it, forking costs more than it saves."""


def _fork(events: list[AnyEvent], at: int | None) -> bool:
    shown = len(events) if at is None else min(at, len(events))
    return shown >= FORK_EVENTS and len(os.sched_getaffinity(0)) >= 2


def write_page(
    output: str, log: str, events: list[AnyEvent], head: ChainHead, damage: LogDamagedError | None, at: int | None
) -> None:
    """Build the page, write it whole, and say so in one line."""
    from fightlog.cli.run import write_atomically
    from fightlog.report.page.build import page_data
    from fightlog.report.page.render import render_page

    with collector_eased():
        try:
            page = page_data(events, log=log, head=head, damage=damage, at=at, fork=_fork(events, at))
        except FoldError as exc:
            exc.path = exc.path or log
            raise
        html = render_page(page)
    data = html.encode("utf-8")
    write_atomically(output, data)
    if len(data) >= LARGE_PAGE:
        warning_line(f"{output}: {len(data) / 1e6:.1f} MB, large for a phone's browser (--at SEQ shows less of the "
                     "fight)")
    # the audit's own verdict and counts, as ``fightlog audit`` ends (what the page's
    # findings list holds: accepted and info findings too)
    audit = page.header.audit.text.split(";")[0]
    last = events[-1].seq if events else 0
    broken = "" if damage is None else f"; damaged at line {damage.line}, shown up to seq {min(last, at or last)}"
    click.echo(f"wrote {output}: {plural(page.header.events, 'event')}; audit: {audit}{broken}")
