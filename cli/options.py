"""Options shared by several commands, defined once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from fightlog.errors import DiceSeedError
from fightlog.seeds import seed_hex

F = TypeVar("F", bound=Callable[..., Any])

format_option: Callable[[F], F] = click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json"]),
    default="human",
    show_default=True,
    help="human: readable text; json: one JSON document for bots and scripts.",
)

log_argument: Callable[[F], F] = click.argument(
    "log", type=click.Path(dir_okay=True, path_type=str), metavar="LOG"
)


def seed_value(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--seed``: an integer or 64 hex digits, the same mapping everywhere
    (``fightlog.seeds``), converted to the 64 hex digits a scene commits to."""
    if value is None:
        return None
    try:
        return seed_hex(value, what=None)
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message, ctx, param) from None


def seed_option(help: str) -> Callable[[F], F]:
    """``--seed SEED`` (an integer or 64 hex digits), with this command's ``help``."""
    return click.option("--seed", callback=seed_value, metavar="SEED", help=f"{help} An integer or 64 hex digits (docs/dice.md).")


house_option: Callable[[F], F] = click.option(
    "--options",
    "house",
    metavar="HOUSE.toml",
    help="A TOML table of ruleset option overrides (house rules), recorded in scene_started.",
)
