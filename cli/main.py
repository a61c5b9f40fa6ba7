"""The ``fightlog`` command group. Each subcommand lives in its own module.

Subcommands are imported only when invoked (click's lazy-group pattern), so ``fightlog
verify`` starts without importing the dice engine, the rulesets or pydantic.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from fightlog import __version__
from fightlog.cli.errors import run_guarded

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


class Command(NamedTuple):
    """Where a subcommand lives and what ``fightlog --help`` says of it."""

    target: str
    """``module:attribute`` of its click command, imported when the command is used."""
    summary: str
    """Its line in ``fightlog --help``, so listing the commands imports none of them."""


COMMANDS: dict[str, Command] = {
    "verify": Command("fightlog.cli.verify:verify", "Check that a log is intact (chain, seq, every line)."),
    "schema": Command("fightlog.cli.schema:schema", "Print the JSON Schema of the event format."),
    "roll": Command("fightlog.cli.roll:roll", "Roll dice notation (try the notation, quick seeded rolls)."),
    "state": Command("fightlog.cli.state:state", "Show the state after any event: HP, effects, who posts next."),
    "replay": Command("fightlog.cli.replay:replay", "Tell the fight event by event, with the state changes each caused."),
    "play": Command("fightlog.cli.play:play", "Play a fight live: start, join, post, end turns, end (the rules decide)."),
    "run": Command("fightlog.cli.run:run", "Play a scripted fight (a scenario file) into a new log."),
    "audit": Command("fightlog.cli.audit:audit", "Check a fight against the posting order, the rules and the dice."),
    "rule": Command("fightlog.cli.rule:rule", "Record a GM ruling: void or amend an event, accept a finding."),
    "dispute": Command("fightlog.cli.dispute:dispute", "Fork a fight at an event, change one fact, see what follows."),
    "fixtures": Command("fightlog.cli.fixtures:fixtures", "Copy the bundled example logs and scenarios here (for the --help examples)."),
    "import": Command("fightlog.cli.importing:import_", "Import a chat transcript (Second Life, Discord exports) into a new log."),
    "read-roll": Command("fightlog.cli.read_roll:read_roll", "Read a dice bot's pasted reply as a roll and check that it adds up."),
    "report": Command("fightlog.cli.report:report", "Write the fight as one HTML page: timeline, chart, findings."),
    "batch": Command("fightlog.cli.batch:batch", "Audit whole archives on Dask: findings of every log as Parquet."),
    "sim": Command("fightlog.cli.sim:sim", "Play many fights by the rulesets' policies on Dask: win rates, house rules compared."),
    "rulesets": Command("fightlog.cli.rulesets:rulesets", "List the installed rulesets: options, defaults, whether each can play."),
}
"""Every subcommand: its name -> where it lives and its summary. One entry per command."""


class LazyGroup(click.Group):
    """The command group: commands imported when used, and the edge where every exception
    becomes one line and an exit code (``fightlog.cli.errors.run_guarded``)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        argv = sys.argv[1:] if args is None else list(args)
        name = prog_name or "fightlog"

        def invoke() -> None:
            self._main_shell_completion(extra, name, complete_var)
            with self.make_context(name, argv, **extra) as ctx:
                self.invoke(ctx)

        sys.exit(run_guarded(invoke, argv))

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        # Command names from the table above: completing one imports no command module.
        from click.shell_completion import CompletionItem

        if incomplete.startswith("-"):
            return super().shell_complete(ctx, incomplete)
        return [CompletionItem(n, help=_summary(n)) for n in self.list_commands(ctx) if n.startswith(incomplete)]

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, _, attr = entry.target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            rows = []
            for name in self.list_commands(ctx):
                eager = self.commands.get(name)
                summary = eager.get_short_help_str() if eager else _summary(name) or ""
                rows.append((name, summary))
            formatter.write_dl(rows)


def _summary(name: str) -> str | None:
    entry = COMMANDS.get(name)
    return None if entry is None else entry.summary


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # click.version_option would import locale and importlib.metadata on every start.
    if value and not ctx.resilient_parsing:
        click.echo(f"fightlog {__version__}")
        ctx.exit()


@click.group(
    cls=LazyGroup,
    # color=True: click would strip a player's escape sequences from output that is not a
    # terminal before the edge's ``Revealing`` can show them as marks; fightlog's own colour
    # is decided where it is written (``terminal.use_colour``)
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100, "color": True},
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog replay fixtures/roe7/disputed-duel.jsonl
  fightlog state fixtures/roe7/disputed-duel.jsonl --at 58
  fightlog verify --dice fixtures/dice/seeded-rolls.jsonl
  fightlog roll '3d20kh1+5'
  fightlog schema > fightlog-event.schema.json

\b
Exit codes: 0 ok, 1 findings (a damaged log, a failed check), 2 bad input or usage,
3 internal error (a bug: one line, and a crash report to attach to a bug report).
Shell completion: see docs/cli.md (eval "$(_FIGHTLOG_COMPLETE=bash_source fightlog)").""",
)
@click.option(
    "--version",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_print_version,
    help="Show the version and exit.",
)
def cli() -> None:
    """fightlog: tamper-evident logs of role-play dice fights.

    Every post, roll and effect tick is one line of an append-only JSONL log, chained by
    SHA-256 so that any edit, deletion, insertion or reordering shows.
    """


def main() -> None:
    cli(prog_name="fightlog")
