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
