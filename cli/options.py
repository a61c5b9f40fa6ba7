"""Options shared by several commands, defined once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

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


def _seed(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    # Imported here: ``verify`` uses this module and must not load the dice engine.
    from fightlog.errors import DiceSeedError
    from fightlog.rules.dice import SEED_BYTES, seed_bytes

    try:
        return seed_bytes(value, minimum=SEED_BYTES, what="the seed").hex()
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message) from None


seed_option: Callable[[F], F] = click.option(
    "--seed",
    metavar="HEX",
    callback=_seed,
    help="The scene's secret dice seed (32 bytes as hex; default: a fresh random one).",
)

house_option: Callable[[F], F] = click.option(
    "--options",
    "house",
    metavar="HOUSE.toml",
    help="A TOML table of ruleset option overrides (house rules), recorded in scene_started.",
)
