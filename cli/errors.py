"""Turning every exception into one clean line and an exit code: the CLI's edge.

Exit codes: 0 ok, 1 findings, 2 bad input or usage, 3 internal error (a bug: the traceback
is written to a crash report, see ``fightlog.cli.crash``), 130 interrupted (Ctrl-C), 141
standard output closed early (``fightlog replay big.jsonl | head``: quiet). Diagnostics go to
stderr, one line each; with ``--format json`` an error is also a JSON document on stdout.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, TypeVar

import click
import msgspec

from fightlog.cli.terminal import Revealing, error_line
from fightlog.events.reader import NOT_A_LOG
from fightlog.importing.sniff import FORMATS, looks_like
from fightlog.errors import (
    DiceError, FightlogError, FoldError, InputError, LogDamagedError, RefusedError, SystemRefusedError,
)

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_PIPE_CLOSED = 141
"""128 + SIGPIPE: what a shell reports for a writer whose reader went away."""

F = TypeVar("F", bound=Callable[..., Any])

_NO_ARGS_IS_HELP: type[BaseException] | tuple[()] = getattr(click.exceptions, "NoArgsIsHelpError", ())
"""click >= 8.2 raises it for a group given no command: it shows the help page."""


class FightlogClickError(click.ClickException):
    """A core error shown as ``fightlog: <file>:<line>: <what>``, exit 2 (bad input)."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, error: FightlogError | None = None) -> None:
        super().__init__(message)
        self.error = error

    def show(self, file: IO[Any] | None = None) -> None:
        error_line(self.format_message(), file)


def reports_errors(func: F) -> F:
    """Decorate a command so a ``FightlogError`` becomes a one-line message and exit 2, and
    an I/O error without a file named (``EIO`` from a read: ``/proc/self/mem``) names the
    command's ``log``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FightlogError as exc:
            _point_to_import(exc)
            _point_to_fixtures(exc)
            raise FightlogClickError(str(exc), exc) from None
        except OSError as exc:
            log = kwargs.get("log")
            if exc.filename is None and exc.errno == errno.EIO and isinstance(log, str):  # not stdout's ENOSPC
                exc.filename = log
            raise

    return wrapper  # type: ignore[return-value]


def _point_to_import(exc: FightlogError) -> None:
    """A transcript given where a log is asked for: say which importer reads it."""
    if not isinstance(exc, InputError) or exc.message != NOT_A_LOG or exc.path is None:
        return
    try:
        with open(exc.path, "rb") as handle:
            head = handle.read(8192)
    except OSError:
        return
    found = looks_like(head)
    if found in FORMATS:
        exc.message += f"; it looks like a chat transcript: `fightlog import {found} {exc.path} -o LOG` makes a log of it"


def _point_to_fixtures(exc: FightlogError) -> None:
    """A help page's example run where ``fightlog fixtures`` has not: say so."""
    if (isinstance(exc, InputError) and exc.message == "no such file" and exc.path is not None
            and exc.path.replace(os.sep, "/").startswith("fixtures/") and not os.path.isdir("fixtures")):
        exc.message += " (the examples read the bundled files: `fightlog fixtures` copies them to fixtures/ here)"


# --------------------------------------------------------------------------- the edge


def run_guarded(invoke: Callable[[], object], argv: Sequence[str]) -> int:
    """Run ``invoke`` (the whole command line); whatever happens, return an exit code after
    at most one line on stderr (and, under ``--format json``, an error document on stdout).
    Standard output is written through ``terminal.Revealing`` meanwhile."""
    shown = sys.stdout
    if shown is None:  # started with standard output closed (`>&-`): nothing could be said, nor any payload
        error_line("standard output is closed: give the command a file, a pipe or /dev/null")
        return EXIT_BAD_INPUT
    sys.stdout = Revealing(shown)
    try:
        try:
            invoke()
            code = EXIT_OK
        except SystemExit as exc:
            code = _exit_code(exc.code)
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except BaseException as exc:  # noqa: BLE001 - the edge: nothing may escape as a traceback
            code = report(exc, argv)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk behind stdout (/dev/full): said once, as any other
            code = report(exc, argv) if code == EXIT_OK else code
        return code
    except BrokenPipeError:
        return _pipe_closed()
    finally:
        sys.stdout = shown


def report(exc: BaseException, argv: Sequence[str]) -> int:
    """Say what ``exc`` means in one line; its exit code."""
    if _is_broken_pipe(exc):
        return _pipe_closed()
    if isinstance(exc, (KeyboardInterrupt, click.Abort)):
        error_line("interrupted")
        return EXIT_INTERRUPTED
    if isinstance(exc, _NO_ARGS_IS_HELP) and isinstance(exc, click.ClickException):
        exc.show()  # the help page: asked for by giving nothing
        return exc.exit_code
    failure = describe(exc, argv)
    error_line(failure.line)
    if wants_json(argv):
        from fightlog.cli.output import echo_json

        try:
            echo_json({"error": failure.as_json()})
            sys.stdout.flush()
        except OSError:  # stdout is what failed (a full disk): the line on stderr is all there is
            pass
    return failure.code


class Failure(msgspec.Struct, frozen=True, kw_only=True):
    """What went wrong: the line on stderr (without ``fightlog: ``) and the JSON error's fields."""

    code: int
    kind: str
    message: str
    line: str
    path: str | None = None
    at: int | None = None
    report: str | None = None

    def as_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "code": self.code,
            "kind": self.kind,
            "message": self.message,
            "path": self.path,
            "line": self.at,
        }
        if self.report is not None:
            doc["report"] = self.report
        return doc


def describe(exc: BaseException, argv: Sequence[str]) -> Failure:
    """The failure ``exc`` stands for (writing a crash report if it is a bug)."""
    if isinstance(exc, FightlogClickError) and exc.error is not None:
        exc = exc.error
    if isinstance(exc, FightlogError):
        return _fightlog_failure(exc)
    if isinstance(exc, click.UsageError):
        text = _usage_message(exc, argv)
        return Failure(code=exc.exit_code, kind="usage", message=text, line=text)
    if isinstance(exc, click.ClickException):
        text = _click_text(exc.format_message())
        kind = "usage" if exc.exit_code == EXIT_BAD_INPUT else "error"
        return Failure(code=exc.exit_code, kind=kind, message=text, line=text)
    if isinstance(exc, UnicodeEncodeError) and exc.reason == "surrogates not allowed":
        # Text from the command line that was not UTF-8 (Python keeps such bytes as
        # surrogates), met when it was to be recorded or hashed: bad input, not a bug.
        byte = ord(exc.object[exc.start]) - 0xDC00
        text = f"an argument is not valid UTF-8 (byte 0x{byte & 0xFF:02x}): fightlog records text as UTF-8"
        return Failure(code=EXIT_BAD_INPUT, kind="usage", message=text, line=text)
    if isinstance(exc, OSError) and exc.filename is None and exc.errno in _FULL and exc.strerror:
        # a write with no file named: standard output's (the logs, pages and forks a command
        # writes are written through the store or ``replacing``, which name theirs)
        text = f"standard output failed: {exc.strerror}{_written_first(argv)}"
        return Failure(code=EXIT_BAD_INPUT, kind="system", message=text, line=text)
    if isinstance(exc, OSError) and exc.errno is not None and exc.strerror:
        # The system refused (permissions, a full disk...): bad input, not a bug.
        path = None if exc.filename is None else str(exc.filename)
        text = exc.strerror if path is None else f"{path}: {exc.strerror}"
        return Failure(code=EXIT_BAD_INPUT, kind="system", message=exc.strerror, line=text, path=path)
    return _internal(exc, argv)


_FULL = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})
"""A write that found no room."""

_WRITERS = frozenset({"play", "rule", "run", "import", "dispute", "report", "fixtures"})
"""The commands that may write before they print (a log, a page, a fork, files)."""


def _written_first(argv: Sequence[str]) -> str:
    """For a command that writes before it prints: that its writing stands (a retry after a
    failed ``play post`` would post twice)."""
    words = [arg for arg in argv if not arg.startswith("-")][:2]
    if not words or words[0] not in _WRITERS:
        return ""
    name = " ".join(words) if words[0] == "play" else words[0]  # play's subcommand; rule's second word is its LOG
    return f" ({name} had written before it printed: what it wrote stands; look before running it again)"


def _fightlog_failure(exc: FightlogError) -> Failure:
    kind = "input"
    for cls, name in ((SystemRefusedError, "system"), (LogDamagedError, "damaged"), (FoldError, "fold"),
                      (RefusedError, "refused"), (DiceError, "dice")):
        if isinstance(exc, cls):
            kind = name
            break
    path = exc.path if isinstance(exc, InputError) else None
    at = exc.line if isinstance(exc, InputError) else None
    return Failure(code=EXIT_BAD_INPUT, kind=kind, message=_one_line(exc.message), line=_one_line(str(exc)),
                   path=path, at=at)


def _internal(exc: BaseException, argv: Sequence[str]) -> Failure:
    from fightlog.cli.crash import write_crash_report

    from fightlog.reducers.fold_rules import plugin_at_fault

    what = f"{type(exc).__name__}: {_one_line(str(exc))}" if str(exc) else type(exc).__name__
    saved = write_crash_report(exc, argv)
    where = f"details in {saved}" if saved else "no crash report could be written"
    plugin = plugin_at_fault(exc)
    if plugin is not None:  # not fightlog's bug: the plugin's, named
        ruleset, module, line = plugin
        what = f"ruleset {ruleset!r} failed in its own code ({module}, line {line}): {what}"
        return Failure(code=EXIT_INTERNAL, kind="plugin", message=what,
                       line=f"{what}: a bug in that ruleset plugin, not in fightlog; {where}", report=saved)
    return Failure(code=EXIT_INTERNAL, kind="internal", message=what, line=f"internal error: {what}; {where}",
                   report=saved)


# --------------------------------------------------------------------------- usage errors


def _usage_message(exc: click.UsageError, argv: Sequence[str] = ()) -> str:
    """A click usage error as one line: ``verify: no such option --hed (did you mean --head?)``."""
    ctx = exc.ctx
    if isinstance(exc, click.NoSuchOption):
        text = f"no such option {exc.option_name}"
        if exc.possibilities:
            text += f" (did you mean {exc.possibilities[0]}?)"  # the closest first
        elif ctx is not None and ctx.command.name == "roll" and re.match(r"-[\dd(]", exc.option_name, re.IGNORECASE):
            text += " (an expression starting with '-' goes after '--', options before it: fightlog roll -- -1d20)"
    elif ctx is not None and isinstance(ctx.command, click.Group) and (name := _unknown_command(exc)) is not None:
        from fightlog.kit.spelling import closest

        text = f"no such command {name!r}"
        close = closest(name, ctx.command.list_commands(ctx))
        text += f" (did you mean {close!r}?)" if close else f" (commands: {', '.join(ctx.command.list_commands(ctx))})"
    else:
        text = _click_text(exc.format_message())
    where = _command_words(ctx) or _named_in(argv)
    return f"{where}: {text}" if where else text


def _unknown_command(exc: click.UsageError) -> str | None:
    name = getattr(exc, "command_name", None)  # click >= 8.4: NoSuchCommand
    if isinstance(name, str):
        return name
    found = re.fullmatch(r"No such command '(.*)'\.", exc.message)
    return found.group(1) if found else None


def _command_words(ctx: click.Context | None) -> str:
    """``play join`` for ``fightlog play join``; empty for the group itself."""
    if ctx is None:
        return ""
    words = ctx.command_path.split()
    return " ".join(words[1:])


def _named_in(argv: Sequence[str]) -> str:
    """The command words ``argv`` names (``rule withdraw``), for an error click raised while
    parsing, before a context existed (an option missing its value)."""
    from fightlog.cli.main import cli

    words: list[str] = []
    command: click.Command = cli
    for token in argv:
        if not isinstance(command, click.Group):
            break
        found = command.get_command(click.Context(command), token) if not token.startswith("-") else None
        if found is not None:
            words.append(token)
            command = found
    return " ".join(words)


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def _click_text(text: str) -> str:
    """A click message on one line, without its closing full stop (as fightlog's own)."""
    joined = _one_line(text)
    return joined[:-1] if joined.endswith(".") and not joined.endswith("..") else joined


# --------------------------------------------------------------------------- helpers


def wants_json(argv: Sequence[str]) -> bool:
    """Whether the command line asks for ``--format json`` or ``--jsonl`` (before any ``--``)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            return False
        if arg in ("--format=json", "--jsonl") or (arg == "--format" and argv[i + 1 : i + 2] == ["json"]):
            return True
    return False


def _exit_code(code: object) -> int:
    if code is None:
        return EXIT_OK
    if isinstance(code, int):
        return code
    error_line(str(code))  # SystemExit("message"): what sys.exit would print
    return EXIT_FINDINGS


def _is_broken_pipe(exc: BaseException) -> bool:
    return isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE)


def _pipe_closed() -> int:
    """The reader of stdout went away: stop quietly, and keep Python's final flush quiet too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's stream)
        pass
    return EXIT_PIPE_CLOSED
