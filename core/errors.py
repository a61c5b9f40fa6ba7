"""The one exception tree of fightlog.

Every error the core raises derives from :class:`FightlogError` and carries the structured
facts a user needs (file, line, column, what was expected). The CLI is the only place that
turns them into text and exit codes (see ``fightlog.cli.errors``).

Exit codes (documented in the README and docs/cli.md): 0 ok, 1 findings (a damaged log, a
failed check), 2 bad input or usage, 3 internal error (any exception that is not one of these:
a bug, reported with a crash report).
"""

from __future__ import annotations


class FightlogError(Exception):
    """Base of every error fightlog raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only fields survive pickling (errors cross process boundaries in
        # parallel verification).
        return (_rebuild, (type(self), dict(self.__dict__)))


def _rebuild(cls: type[FightlogError], state: dict[str, object]) -> FightlogError:
    error = cls.__new__(cls)
    Exception.__init__(error, state.get("message"))
    error.__dict__.update(state)
    return error


class InputError(FightlogError):
    """Input that fightlog cannot use: a missing file, a directory, a file that is not a log.

    ``path`` and ``line`` (1-based) locate the problem when they are known.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None and self.line is None:
            return self.message  # about no file (a post, a value given in code)
        where = "'' (an empty file name)" if self.path == "" else self.path or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class LogDamagedError(InputError):
    """A log whose first line is a fightlog event but which breaks later.

    An undecodable line, a gap or repeat in ``seq``, a broken hash chain, a torn last line.
    ``fightlog verify`` reports it as a finding (exit 1); other commands refuse the log (exit 2).
    """


class TornTailError(LogDamagedError):
    """The last line has no newline: a crash during an append, or a writer that stopped early.

    ``offset`` is the byte offset where the torn line starts; ``complete`` is true when the
    bytes after it nonetheless decode as the next valid event (only the ``\\n`` is missing).
    """

    def __init__(
        self, message: str, *, path: str | None, line: int, offset: int, complete: bool
    ) -> None:
        super().__init__(message, path=path, line=line)
        self.offset = offset
        self.complete = complete


class FoldError(InputError):
    """A log that cannot be folded into state: an event out of ``seq`` order, a ruling that
    targets a later event or amends a field it may not. ``line`` is the event's ``seq``."""


class RulesetError(FightlogError):
    """An installed ruleset that cannot be used: its ``fightlog.rulesets`` entry point (or
    its table module) does not import, or does not load a ruleset with the id it is
    registered under. Bad input (exit 2): the installation, not the log, is at fault."""


class MissingExtra(FightlogError):
    """A command whose optional dependencies (an extra: ``report``, ``scale``) are not
    installed. Bad input (exit 2): the installation is at fault; the message names the extra."""


class RefusedError(InputError):
    """A declaration or table command the ruleset refuses (out of turn, no action left, a
    weapon that needs a reload, a target out of range). Nothing is written. ``path`` and
    ``line`` locate it in a scenario file when it came from one. ``code`` names the rule
    broken in the audit's terms (``rules.allowance``, ``rules.reload``...; see
    ``fightlog.audit.findings.CODES``), so the audit can report the same refusal as a
    finding."""

    def __init__(
        self, message: str, *, path: str | None = None, line: int | None = None, code: str = "rules.refused"
    ) -> None:
        super().__init__(message, path=path, line=line)
        self.code = code


class SeedUnavailableError(RefusedError):
    """A roll the table must make without the scene's dice seed (its ``LOG.seed`` file gone):
    not the rules refusing a declaration, so a table that lets a refused resolution come to
    nothing (en5.1's attack logged but not playable) lets this one through."""


class StoreError(FightlogError):
    """An append or repair that could not be carried out; the log is left as it was."""


class SystemRefusedError(StoreError, InputError):
    """The system refused to let a log be opened or written (permissions, a full disk): the
    log is left as it was; ``path`` names it (the command line's ``kind: system``)."""


class DiceError(FightlogError):
    """Base for dice notation and dice limit errors (see ``fightlog.dice``)."""


class DiceSyntaxError(DiceError):
    """A dice expression that does not parse. ``column`` is 1-based."""

    def __init__(self, message: str, *, expr: str, column: int, expected: str | None = None) -> None:
        super().__init__(message)
        self.expr = expr
        self.column = column
        self.expected = expected

    def __str__(self) -> str:
        return f"{self.expr} : {self.message} at column {self.column}"


class DiceLimitError(DiceError):
    """A dice expression that exceeds a limit (dice count, sides, length, reroll chains)."""

    def __init__(self, message: str, *, limit: str, value: int, maximum: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value
        self.maximum = maximum


class DiceValueError(DiceError):
    """A dice expression that parses but cannot be rolled (0 sides, keep more than rolled...)."""


class DiceSeedError(DiceError):
    """A dice seed or salt that cannot be used: not hex, or too short for a scene seed."""
