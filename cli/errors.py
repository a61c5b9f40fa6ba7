"""Turning the core's exception tree into one clean line and an exit code.

Exit codes: 0 ok, 1 findings, 2 bad input or usage. Diagnostics go to stderr.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

from fightlog.errors import FightlogError

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2

F = TypeVar("F", bound=Callable[..., Any])


class FightlogClickError(click.ClickException):
    """A core error shown as ``fightlog: <file>:<line>: <what>``, exit 2 (bad input)."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"fightlog: {self.format_message()}", err=True, file=file)


def reports_errors(func: F) -> F:
    """Decorate a command so a ``FightlogError`` becomes a one-line message and exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FightlogError as exc:
            raise FightlogClickError(str(exc)) from None

    return wrapper  # type: ignore[return-value]
