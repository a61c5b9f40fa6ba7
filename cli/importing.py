"""``fightlog import``: a chat transcript (Second Life, DiscordChatExporter) into a new log."""

from __future__ import annotations

import os
from datetime import datetime
from typing import TYPE_CHECKING

import click

from fightlog.cli.completion import complete_ruleset
from fightlog.cli.errors import reports_errors
from fightlog.cli.options import check_new_log, house_option, scene_options
from fightlog.cli.terminal import warning_line
from fightlog.errors import InputError, RefusedError
from fightlog.report.wording import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from fightlog.events.model import AnyEvent
    from fightlog.importing.cast import Cast

FORMATS = ("sl", "discord-json", "discord-csv", "discord-txt")


def _time(ctx: click.Context, param: click.Parameter, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected an ISO date and time, such as 2024-06-12T20:05") from None


@click.command(
    "import",
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog import sl fixtures/import/sl/pump-house.txt --suggest-cast --ruleset roe7   # a cast to start from
  fightlog import sl fixtures/import/sl/midnight-brawl.txt -o brawl.jsonl --ruleset roe7 \\
      --cast fixtures/import/sl/midnight-brawl.cast.toml
  fightlog audit brawl.jsonl                            # exit 1: findings cite the transcript's lines
  fightlog import discord-json fixtures/import/discord/dockside.json -o dock.jsonl \\
      --ruleset d20-evasion --cast fixtures/import/discord/dockside.cast.toml
  fightlog import discord-csv fixtures/import/discord/dockside.csv -o dock.jsonl --force \\
      --ruleset d20-evasion --cast fixtures/import/discord/dockside.cast.toml --from 2024-03-14T20:03+00:00

\b
Formats: sl (Second Life and Firestorm local chat), discord-json, discord-csv, discord-txt
(DiscordChatExporter's exports). See docs/import.md for the cast file.
Exit codes: 0 written; 2 bad input (a transcript in another format, cut off or unreadable, a
cast or roster with a problem: its line is named), LOG exists (without --force), or usage.
On any error LOG is left as it was. 3 internal error (a bug: the error line names a crash report)."""
)
@click.argument("fmt", metavar="FORMAT", type=click.Choice(FORMATS))
@click.argument("transcript", metavar="TRANSCRIPT")
@click.option("-o", "--output", "log", metavar="LOG", help="The log file to write.")
@click.option("--ruleset", metavar="ID", help="The ruleset the fight was played under: an installed one (`fightlog rulesets` lists them), or another, audited for posting order and dice only.",
              shell_complete=complete_ruleset)
@click.option("--roster", metavar="R.toml", help="The combatants' sheets (the ruleset's roster file).")
@click.option("--cast", "cast_path", metavar="CAST.toml", help="Who is who in the transcript (docs/import.md).")
@house_option
@click.option("--from", "start", metavar="TIME", callback=_time, help="Only messages from this time on (ISO 8601).")
@click.option("--to", "end", metavar="TIME", callback=_time, help="Only messages up to this time (ISO 8601).")
@click.option("--suggest-cast", is_flag=True, help="Print a starting cast file from the speakers seen; write no log.")
@click.option("--force", is_flag=True, help="Replace LOG if it exists and is not empty.")
@reports_errors
def import_(
    fmt: str, transcript: str, log: str | None, ruleset: str | None, roster: str | None, cast_path: str | None,
    house: str | None, start: datetime | None, end: datetime | None, suggest_cast: bool, force: bool,
) -> None:
    """Read the chat TRANSCRIPT (in FORMAT) and write the fight to LOG, losslessly: every
    message becomes a post, a roll or chatter kept with its raw text, each event's
    origin.ref names its FILE:LINE or message id, and scene_started records the transcript's
    SHA-256. Posts become declarations (with actions where the cast's hints read them),
    dice bots' and HUDs' messages external rolls; turns open as the posts come. Nothing is
    corrected: out-of-turn and double posts, acting while out, rolls before their post are
    recorded as they happened, for fightlog audit to report. The same transcript, cast and
    options give the same bytes.
    """
    from fightlog.importing.arrivals import held
    from fightlog.importing.build import Builder
    from fightlog.importing.cast import empty_cast, load_cast
    from fightlog.importing.cast_warnings import ambiguous, unheard
    from fightlog.importing.importer import check_format, in_window, located, messages, opening, write_log
    from fightlog.importing.names import shown_names

    if start is not None and end is not None and (start.tzinfo is None) == (end.tzinfo is None) and start > end:
        raise click.UsageError(f"--from {start.isoformat()} is later than --to {end.isoformat()}: no message is between")
    if ruleset is not None and not ruleset.strip():
        raise click.BadParameter("give a ruleset id (`fightlog rulesets` lists them)", param_hint="'--ruleset'")
    check_format(transcript, fmt)
    actions = _action_types(ruleset)
    cast = load_cast(cast_path, ruleset or "", actions) if cast_path is not None else empty_cast()
    if suggest_cast:
        from fightlog.importing.suggest import suggest

        if log is not None or force or house is not None:
            raise click.UsageError("--suggest-cast writes no log: leave out -o, --force and --options")
        if ruleset is None:  # the hints are the ruleset's action types: a generic draft's match no import
            raise click.UsageError("--suggest-cast drafts the hints of a ruleset's actions: give --ruleset ID too "
                                   "(`fightlog rulesets` lists them)")
        from fightlog.kit.ruleset import rules_for_scene

        guessed = Guessed()  # said once the transcript has read: a refusal is the one line
        down = rules_for_scene(ruleset, {}).out_of_order_statuses()
        text = suggest(messages(transcript, fmt, cast, guessed), ruleset or "generic", actions, down)
        guessed.say()
        click.echo(text, nl=False)
        return
    if log is None or ruleset is None:
        raise click.UsageError("give -o LOG and --ruleset ID (or --suggest-cast)")
    check_new_log(log, force, {"the transcript": transcript, "the cast": cast_path, "the roster": roster,
                               "the options": house})
    said = Guessed()
    options, joined, out, answers = _ruleset_parts(ruleset, roster, house, cast, said)
    joined, arriving = held(joined, cast.arrivals, cast.order)
    first = opening(transcript, fmt, ruleset, cast, joined, options)
    shown = shown_names(messages(transcript, fmt, cast, Guessed()), cast)  # a first pass: who posts as whom
    builder = Builder(cast, medium=_medium(fmt), out_statuses=out, answers=answers, opened=len(first), shown=shown,
                      warn=located(transcript, said, bare=True), arrivals=arriving)
    done = write_log(log, first, in_window(messages(transcript, fmt, cast, said), start, end, transcript), builder)
    for slip in [*unheard(cast), *ambiguous(cast)]:
        said(slip)
    said.say()
    unsided = [entry.id for entry in cast.file.combatants if entry.side == "?"]
    if unsided:  # a suggested cast used as drafted
        warning_line(f"{cast_path}: side \"?\" (the suggested cast's placeholder) for {', '.join(unsided)}: all on "
                     "one side, so the audit takes them for allies; give each combatant its side")
    if not done.messages and (start is not None or end is not None):  # the bounds past every message
        warning_line(f"{transcript}: no message is between --from and --to: the log holds no fight")
    elif done.messages and not builder.posts:  # every message chatter: an audit would say "clean" of nothing
        why = "without --cast nobody is a combatant" if cast_path is None else \
            f"{cast_path} names none of the transcript's speakers as a combatant"
        warning_line(f"{transcript}: no message is a combatant's post ({why}): the audit has no fight to check "
                     f"(fightlog import {fmt} {transcript} --suggest-cast --ruleset {ruleset} drafts a cast)")
    click.echo(
        f"wrote {log}: {plural(done.messages, 'message')} of {transcript} as {plural(done.events, 'event')}, "
        f"scene {done.scene} (next: fightlog audit {log})"
    )


class Guessed:
    """What the readers had to guess (a line not UTF-8, a time going back), said once the
    import has succeeded (``say``): a refused import says only why, on one line. The first
    ``KEPT`` are kept, then only counted (a transcript may go back in time on every line)."""

    KEPT = 100

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.more = 0

    def __call__(self, message: str) -> None:
        if len(self.kept) < self.KEPT:
            self.kept.append(message)
        else:
            self.more += 1

    def say(self) -> None:
        for message in self.kept:
            warning_line(message)
        if self.more:
            warning_line(f"and {plural(self.more, 'more warning')}")


def _medium(fmt: str) -> str:
    from fightlog.importing.importer import MEDIUM

    return MEDIUM[fmt]


def _action_types(ruleset: str | None) -> frozenset[str] | None:
    """The action types of a ruleset fightlog plays (``None``: not known here)."""
    from fightlog.kit.table import playable, table_for

    return frozenset(table_for(ruleset).action_types) if ruleset is not None and ruleset in playable() else None


def _ruleset_parts(ruleset: str, roster: str | None, house: str | None, cast: Cast, warn: Callable[[str], None]
                   ) -> tuple[dict[str, object], list[AnyEvent], frozenset[str], frozenset[str]]:
    """The ruleset's options (its defaults, under ``house``'s rules), the combatants joined
    (from the roster, else bare from the cast), the statuses that take someone out of the
    posting order and the action types that answer a post in another's turn; ``warn`` is
    told of a ruleset that is not installed."""
    from fightlog.importing.importer import bare_joined
    from fightlog.kit.ruleset import installed, rules_for_scene
    from fightlog.kit.table import playable, table_for

    options: dict[str, object] = {}
    if ruleset not in installed():  # a fight under a rulebook fightlog does not have yet: still worth auditing
        from fightlog.kit.spelling import closest

        known = [name for name in installed() if name != "generic"]
        close = closest(ruleset, known)
        maybe = f"did you mean {close!r}? " if close else ""
        warn(f"ruleset {ruleset!r} is not installed ({maybe}installed: {', '.join(known)}): the audit will check "
             "the posting order and the dice only")
    hints = cast.file.hints
    if hints and ruleset not in hints:
        warn(f"{cast.path}: its hints are for {', '.join(sorted(hints))}, not {ruleset}: no post is read as an "
             f"attack or any other action (add [hints.{ruleset}])")
    if ruleset in playable():
        table = table_for(ruleset)
        options = dict(scene_options(table, ruleset, house))
    elif roster is not None:
        raise RefusedError(f"--roster: ruleset {ruleset!r} has no roster format (rosters: {', '.join(playable())})")
    elif house is not None:
        raise RefusedError(f"--options: ruleset {ruleset!r} has no options fightlog knows (rulesets with options: "
                           f"{', '.join(playable())})")
    if roster is None:
        joined = bare_joined(cast)
    else:
        entrants = {e.actor: e for e in table_for(ruleset).roster(roster)}
        if cast.file.combatants:
            cast.check_actors(set(entrants), roster)
            carried = rules_for_scene(ruleset, options).weapons
            cast.check_weapons({a: carried(dict(getattr(e.joined, "sheet", None) or {})) for a, e in entrants.items()},
                               roster)
            joined = [entrants[c.id].joined for c in cast.file.combatants]
        else:
            joined = [e.joined for e in entrants.values()]
    rules = rules_for_scene(ruleset, options)
    out = rules.out_of_order_statuses()
    for said in cast.near_statuses(out | rules.waiting_statuses(), ruleset):
        warn(said)
    return options, joined, frozenset(out), frozenset(getattr(rules, "answer_actions", ()))  # a plugin may lack it
