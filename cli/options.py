"""Options shared by several commands, defined once."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fightlog.cli.errors import reports_errors
from fightlog.errors import DiceSeedError, InputError
from fightlog.events.piped import STDIN, is_stream, reading
from fightlog.events.seeds import seed_hex

if TYPE_CHECKING:
    from fightlog.kit.table import Table

F = TypeVar("F", bound=Callable[..., Any])

MAX_OPTION_INT = 2**63 - 1
"""The largest integer any option takes (a seq, a position): what a 64-bit reader of the log
can hold. A larger one is refused as usage, before anything is read."""


class BoundedInt(click.IntRange):
    """A whole number from ``min`` to ``2**bits - 1``, the bound shown as a power of two
    in help and errors (``1<=x<2**63``) rather than as 19 digits; or, given ``most``
    instead, from ``min`` to ``most`` (``1<=x<=1,000,000,000``)."""

    def __init__(self, min: int, bits: int | None = None, *, most: int | None = None) -> None:
        if bits is not None:
            super().__init__(min=min, max=2**bits - 1)
            self.shown = f"{min}<=x<2**{bits}"
        else:
            super().__init__(min=min, max=most)
            self.shown = f"{min}<=x<={most:,}"

    def _describe_range(self) -> str:
        return self.shown

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                int(value.strip())
            except ValueError:  # click says "is not a valid integer range" of a word
                self.fail(f"{value!r} is not a whole number ({self.shown})", param, ctx)
        return super().convert(value, param, ctx)


SEQ = BoundedInt(1, 63)
"""The type of every option or argument naming an event by its ``seq``."""

format_option: Callable[[F], F] = click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json"]),
    default="human",
    show_default=True,
    help="human: readable text; json: one JSON document for bots and scripts.",
)

def _written_log(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value == STDIN:
        raise click.BadParameter(
            "'-' (standard input) cannot be written to: give the log's file (./- for a file named -)", ctx, param
        )
    return value


log_argument: Callable[[F], F] = click.argument(
    "log", type=click.Path(dir_okay=True, path_type=str), metavar="LOG", callback=_written_log
)
"""LOG for a command that appends to it (rule, play): a file, never ``-``."""


def input_log_argument(*, passes: int | Callable[[dict[str, Any]], int]) -> Callable[[F], F]:
    """LOG for a command that reads it: a file, or ``-`` for standard input, a pipe, a FIFO
    (``fightlog.events.piped.reading``: ``passes=2`` when the command reads LOG more than
    once, or a function of the command's parameters saying so). The command is called with
    the name to read it by (``<stdin>`` for ``-``)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def reads(*args: Any, **kwargs: Any) -> Any:
            times = passes if isinstance(passes, int) else passes(kwargs)
            with reading(kwargs["log"], passes=times) as name:
                return func(*args, **{**kwargs, "log": name})

        argument = click.argument("log", type=click.Path(dir_okay=True, allow_dash=True, path_type=str), metavar="LOG")
        return argument(reports_errors(reads))  # type: ignore[return-value]

    return decorate


def seed_value(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--seed``: an integer or 64 hex digits, the same mapping everywhere
    (``fightlog.events.seeds``), converted to the 64 hex digits a scene commits to."""
    if value is None:
        return None
    try:
        return seed_hex(value, what=None)
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message, ctx, param) from None


def check_seed_fits(log: str, seed: str | None) -> None:
    """A ``--seed`` the log's scene does not commit to is a mistyped seed, not a tampered log:
    refused (exit 2) before anything is checked, as is a seed for a scene that commits to none.
    A log read once from a stream, or one whose first line is unusable, is left to the checks."""
    if seed is None:
        return
    from fightlog.errors import FightlogError
    from fightlog.events.model import SceneStarted
    from fightlog.events.reader import read_log
    from fightlog.dice import commitment

    if is_stream(log):
        return
    try:
        first = next((event for _, event in read_log(log)), None)
    except FightlogError:
        return
    if not isinstance(first, SceneStarted):
        return
    if first.dice is None:
        raise click.BadParameter("the scene commits to no dice seed (line 1): there is nothing to check it against",
                                 param_hint="'--seed'")
    digest = commitment(seed)  # the one definition of what a scene commits to
    if digest != first.dice.commitment:
        raise click.BadParameter(
            f"it is not the scene's seed: its sha256 is {digest[:12]}..., the scene (line 1) commits to "
            f"{first.dice.commitment[:12]}...", param_hint="'--seed'",
        )


def seed_option(help: str) -> Callable[[F], F]:
    """``--seed SEED`` (an integer or 64 hex digits), with this command's ``help``."""
    return click.option("--seed", callback=seed_value, metavar="SEED", help=f"{help} An integer or 64 hex digits (docs/dice.md).")


house_option: Callable[[F], F] = click.option(
    "--options",
    "house",
    metavar="HOUSE.toml",
    help="A TOML table of ruleset option overrides (house rules), recorded in scene_started.",
)


def scene_options(table: Table, ruleset: str, house: str | None) -> dict[str, Any]:
    """A scene's options (``--options``): the ruleset's defaults with the house rules over them."""
    if house is None:
        return table.options({})
    from fightlog.kit.house import read_house_rules

    rules = read_house_rules(house)
    try:
        return table.options(rules.overrides(ruleset, table.option_type), where=house)
    except InputError as exc:
        raise rules.located(exc) from None


def check_new_log(log: str, force: bool, inputs: Mapping[str, str | None] | None = None) -> None:
    """A log a command is about to write anew (``run``, ``dispute -o``, ``import``): not a
    directory, not a file with something in it unless ``--force``, and even then only a
    fightlog log (its first line a ``scene_started``), never one of the files the command
    reads (``inputs``: what each is, ``the scenario``, by path): ``--force`` replaced a
    scenario, a roster or the log under dispute with the output."""
    _check_new(log, force, inputs, "log", starts_a_log,
               "is not a fightlog log (its first line is no scene_started): --force replaces only a log")


def check_new_page(page: str, force: bool, inputs: Mapping[str, str | None] | None = None) -> None:
    """A page a command is about to write (``report -o``, ``dispute --report``), checked as
    ``check_new_log`` checks a log: ``--force`` replaces only a page fightlog wrote (a log
    named by mistake, say another fight's, is never replaced by a page)."""
    _check_new(page, force, inputs, "page", _is_page,
               "is not a page fightlog wrote: --force replaces only such a page")


def check_new_chart(chart: str, force: bool) -> None:
    """A chart a command is about to write (``sim --chart``), checked as ``check_new_log``
    checks a log: ``--force`` replaces only a file of the chart's kind (an SVG, a PNG, or for
    ``.html`` a page fightlog wrote)."""
    _check_new(chart, force, None, "chart", _is_chart, "is not a chart of that kind: --force replaces only such a chart")


def _is_chart(path: str) -> bool:
    """Whether the file at ``path`` is what a chart at that name would be (SVG, PNG, a page)."""
    if path.endswith(".html"):
        return _is_page(path)
    try:
        with open(path, "rb") as stream:
            start = stream.read(256)
    except OSError:
        return False
    if path.endswith(".png"):
        return start.startswith(b"\x89PNG\r\n\x1a\n")
    return start.lstrip().startswith((b"<svg", b"<?xml"))


def _check_new(path: str, force: bool, inputs: Mapping[str, str | None] | None, noun: str,
               replaceable: Callable[[str], bool], refused: str) -> None:
    import os

    from fightlog.errors import InputError

    if path == "-":  # read as standard input by the commands that read a log: never a file named "-"
        raise click.UsageError(f"the {noun} is written to a file, not to standard output ('-'): name the file "
                               "(./- for a file named -)")
    if os.path.isdir(path):
        raise InputError(f"is a directory, not a {noun} file", path=path)
    if not os.path.exists(path):
        return
    if not os.path.isfile(path):  # a device or a pipe reads as empty: the new file would replace it
        raise InputError(f"is not a regular file (a device or a pipe): write the new {noun} to a file", path=path)
    for what, other in (inputs or {}).items():
        if other is not None and not is_stream(other) and os.path.exists(other) and os.path.samefile(path, other):
            raise InputError(f"is {what}, which this command reads: write the new {noun} to another file", path=path)
    if os.path.getsize(path) == 0:
        return
    if not force:
        raise InputError("exists and is not empty (--force replaces it)", path=path)
    if not replaceable(path):
        raise InputError(f"{refused}; write the new {noun} to another file", path=path)


def _is_page(path: str) -> bool:
    """Whether the file at ``path`` is an HTML page fightlog wrote (its ``generator`` meta)."""
    try:
        with open(path, "rb") as stream:
            start = stream.read(4096)
    except OSError:
        return False
    return start.lstrip().lower().startswith(b"<!doctype html") and b'<meta name="generator" content="fightlog' in start


def starts_a_log(path: str) -> bool:
    """Whether the file at ``path`` starts with a ``scene_started`` line (a log to replace)."""
    import msgspec

    from fightlog.events.codec import DECODER, MAX_LINE_BYTES
    from fightlog.events.model import SceneStarted

    try:
        with open(path, "rb") as stream:
            first = stream.readline(MAX_LINE_BYTES + 1)
        return isinstance(DECODER.decode(first), SceneStarted)
    except (OSError, msgspec.DecodeError, RecursionError):
        return False
