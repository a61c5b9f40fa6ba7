"""One table of commands (``fightlog.cli.main.COMMANDS``): what ``fightlog --help`` lists,
what the group runs and the command modules under ``cli/`` all agree with it."""

from __future__ import annotations

import importlib
import pkgutil

import click
from click.testing import CliRunner

import fightlog.cli
from fightlog.cli.main import COMMANDS, cli


def listed() -> dict[str, str]:
    """The Commands section of ``fightlog --help``: name -> summary."""
    result = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    section = result.output.partition("\nCommands:\n")[2].partition("\n\n")[0]
    rows = [line.split(None, 1) for line in section.splitlines()]
    return {row[0]: row[1] if len(row) > 1 else "" for row in rows}


def test_help_lists_every_command_of_the_table_with_its_summary() -> None:
    assert listed() == {name: entry.summary for name, entry in sorted(COMMANDS.items())}


def test_every_entry_names_the_click_command_it_runs() -> None:
    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == sorted(COMMANDS)
    for name, entry in COMMANDS.items():
        module, _, attr = entry.target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command), name
        assert command.name == name and cli.get_command(ctx, name) is command


def test_every_command_module_is_in_the_table() -> None:
    """A click command defined at the top of a module under cli/ is one of the table's
    targets or a subcommand of one (a command written but never listed cannot be run)."""
    targets = {entry.target for entry in COMMANDS.values()}
    found: dict[str, click.Command] = {}
    for info in pkgutil.iter_modules(fightlog.cli.__path__):
        if info.name in ("main", "__main__"):
            continue
        module = importlib.import_module(f"fightlog.cli.{info.name}")
        for attr, value in vars(module).items():
            if isinstance(value, click.Command) and getattr(value.callback, "__module__", None) == module.__name__:
                found[f"{module.__name__}:{attr}"] = value
    subcommands = {id(sub) for group in found.values() if isinstance(group, click.Group) for sub in group.commands.values()}
    commands = {target for target, command in found.items() if id(command) not in subcommands}
    assert commands == targets
