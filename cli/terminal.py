"""The one place that decides how fightlog's text reaches a terminal: colour, and players'
text shown as it is.

Colour goes to a terminal only: never to a pipe or a file, never when ``NO_COLOR`` is set to
anything (https://no-color.org), always when ``FORCE_COLOR`` is set to anything else than
``0`` (for tests and for pagers that understand it). Errors are red, warnings yellow; the
text is the same either way.

A player's text (a name, a post, a file name) may hold an escape sequence or a bidirectional
control: every command's human output shows each as a visible mark (``⟦U+001B⟧``,
``fightlog.report.visible``). The edge (``fightlog.cli.errors.run_guarded``) writes standard
output through ``Revealing`` while a command runs; the diagnostic lines here mark the message
before colouring it; a JSON document is data and goes out as it is (``raw``).
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO, Any, TypeVar, cast

import click

from fightlog.report.visible import one_line, reveal_for_terminal


def use_colour(stream: IO[Any] | None = None) -> bool:
    """Whether to colour what is written to ``stream`` (default: standard error)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def error_line(message: str, file: IO[Any] | None = None) -> None:
    """``fightlog: MESSAGE`` on standard error, the prefix red and bold on a terminal."""
    _say(click.style("fightlog:", fg="red", bold=True), message, file)


def warning_line(message: str, file: IO[Any] | None = None) -> None:
    """``fightlog: warning: MESSAGE`` on standard error, yellow on a terminal."""
    _say(click.style("fightlog: warning:", fg="yellow", bold=True), message, file)


def _say(prefix: str, message: str, file: IO[Any] | None) -> None:
    stream = sys.stderr if file is None else file
    click.echo(f"{prefix} {one_line(message)}", file=raw(stream), color=use_colour(stream))


_SEVERITY = re.compile(r"^(seq \S+\s+)(error|warning)\b")
_SHADE = {"error": "red", "warning": "yellow"}


def report_line(line: str) -> None:
    """A line of a report (``seq 39    error    order.out-of-turn ...``) on stdout, its
    severity red or yellow on a terminal; the columns stay where they were."""
    colour = use_colour(sys.stdout)
    line = reveal_for_terminal(line)
    if colour:
        line = _SEVERITY.sub(lambda m: m.group(1) + click.style(m.group(2), fg=_SHADE[m.group(2)], bold=True), line)
    click.echo(line, file=raw(sys.stdout), color=colour)


class Revealing:
    """A text stream writing to ``inner`` with players' control characters shown as marks
    (``reveal_for_terminal``); everything else is ``inner``'s."""

    def __init__(self, inner: IO[str]) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(reveal_for_terminal(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


S = TypeVar("S", bound=IO[Any])


def raw(stream: S) -> S:
    """The stream under ``Revealing`` (what a JSON document, or a line this module has
    marked and coloured itself, is written to), else ``stream``."""
    return cast(S, stream.inner) if isinstance(stream, Revealing) else stream
