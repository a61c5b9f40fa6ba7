"""What humans write: TOML files read safely and validated with pydantic, and one-line
error messages that name the file, the line or field path, and what was expected.

Shared by every format people write (rosters, sheets, scenarios, house rules). Pydantic is
imported here: never import this module from the light paths (events, reducers, verify).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Protocol, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic_core import ErrorDetails

from fightlog.errors import InputError
from fightlog.kit.options import got
from fightlog.kit.spelling import closest

MAX_FILE_BYTES: Final = 1 << 20
"""Largest file of human input read (1 MiB): a roster or scenario is a few kilobytes."""

T = TypeVar("T")


def _to_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Seq = Annotated[tuple[T, ...], BeforeValidator(_to_tuple)]
"""A TOML array, kept as a tuple."""

class FieldProblem(ValueError):
    """A model-level refusal that belongs to one field: reported at the model's location
    followed by ``field`` (``("cybernetics",)``, ``("combatants", 2, "id")``)."""

    def __init__(self, field: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.field = field


class Strict(BaseModel):
    """Base of every model of human input: unknown fields refused (typos are caught), no
    coercion (TOML has real integers and booleans), immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def read_toml(path: Path, name: str, what: str) -> dict[str, Any]:
    return read_toml_text(path, name, what)[0]


def read_toml_text(path: Path, name: str, what: str) -> tuple[dict[str, Any], str]:
    """The TOML file at ``path`` read, and its text (to find lines in: ``toml_lines``)."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise InputError(f"is a directory, not a {what} file", path=name) from None
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except PermissionError:
        raise InputError("permission denied", path=name) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InputError(f"cannot open: {getattr(exc, 'strerror', None) or exc}", path=name) from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"larger than {MAX_FILE_BYTES} bytes: not a {what} file", path=name)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"UTF-16 text (it starts with a byte-order mark {raw[:2].hex(' ').upper()}): save the {what} "
                         "file as UTF-8", path=name, line=1)
    raw = raw.removeprefix(b"\xef\xbb\xbf")  # the UTF-8 byte-order mark a Windows editor writes: no TOML
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not UTF-8 text (byte {exc.start + 1})", path=name, line=line) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        if text.startswith('{"kind":"scene_started"'):  # a log given for a roster or a scenario
            raise InputError(f"a fightlog log (JSON Lines), not a {what} file: give the {what}'s TOML (a log is "
                             "read by state, replay, audit...)", path=name, line=1) from None
        raise _toml_error(str(exc), text, name) from None
    except RecursionError:
        raise InputError("not valid TOML: nested too deeply", path=name) from None


def _toml_error(message: str, text: str, name: str) -> InputError:
    where = _TOML_WHERE.search(message)
    if where is not None:
        what = message[: where.start()]
        message = f"not valid TOML: {_lower(what)} (column {where.group(2)})"
        return InputError(message, path=name, line=int(where.group(1)))
    end = _TOML_END.search(message)
    what = message[: end.start()] if end is not None else message
    message = f"not valid TOML: {_lower(what)} (at the end of the file)"
    return InputError(message, path=name, line=text.count("\n") + 1)


def _lower(message: str) -> str:
    return message[:1].lower() + message[1:]


# ---------------------------------------------------------------------------- error messages


Special = Callable[[ErrorDetails, tuple[str | int, ...]], "str | None"]
"""A format's own wording for some errors (``None``: the general wording)."""

Place = Callable[[tuple[str | int, ...]], str]
"""How a format names the place of a field path (``field_path``: ``combatants[1].sheet.hp``)."""


def first_problem(errors: Sequence[ErrorDetails]) -> tuple[ErrorDetails, tuple[str | int, ...]]:
    """The problem ``describe`` reports, and its field path (a ``FieldProblem``'s included).
    An unknown field first: a typo also makes the field it meant "missing"."""
    error = sorted(errors, key=lambda e: e["type"] != "extra_forbidden")[0]
    loc = tuple(error["loc"])
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, FieldProblem):
        loc = (*loc, *cause.field)
    return error, loc


def describe(
    errors: Sequence[ErrorDetails],
    *,
    fields: Iterable[str] = (),
    special: Special | None = None,
    place: Place | None = None,
) -> str:
    """One line for a pydantic validation failure: the first problem, with its field path
    (named by ``place``), and how many more there are. ``fields`` are the format's field
    names, for "did you mean" on an unknown field."""
    error, loc = first_problem(errors)
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    where = (place or field_path)(loc)
    what = (special(error, loc) if special is not None else None) or _what(error, loc, ctx, sorted(fields))
    first = f"{where}: {what}" if where else what
    more = len(errors) - 1
    if error["type"] == "extra_forbidden":
        # an unknown key beside a missing one in the same table: the key it should have been
        table = tuple(error["loc"])[:-1]
        missing = sorted(str(e["loc"][-1]) for e in errors if e["type"] == "missing" and tuple(e["loc"])[:-1] == table)
        meant = [m for m in missing if f"did you mean {m!r}" in what]  # the typo explains it
        if missing and not meant:
            first += f" ({' and '.join(repr(m) for m in missing)} {'is' if len(missing) == 1 else 'are'} missing there)"
        more -= len(missing) if not meant else len(meant)
    return first if more == 0 else f"{first} (and {more} more problem{'s' if more > 1 else ''})"


def field_path(loc: tuple[str | int, ...]) -> str:
    """``("combatants", 1, "sheet", "hp")`` -> ``combatants[1].sheet.hp``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


_BOUNDS: Final[Mapping[str, str]] = {
    "greater_than_equal": "at least",
    "greater_than": "more than",
    "less_than_equal": "at most",
    "less_than": "less than",
}
_EXPECTED: Final[Mapping[str, str]] = {
    "int_type": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "model_type": "a table",
    "dict_type": "a table",
    "model_attributes_type": "a table",
    "tuple_type": "an array",
    "list_type": "an array",
}


def _what(error: ErrorDetails, loc: tuple[str | int, ...], ctx: Mapping[str, Any], fields: list[str]) -> str:
    kind = error["type"]
    shown = got(error.get("input"))
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return f"unknown field{_hint(loc, fields)}"
    if kind in _BOUNDS:
        bound = next(iter(ctx.values()))
        return f"must be {_BOUNDS[kind]} {bound}, got {shown}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {shown}"
    if kind == "literal_error":
        return f"expected {ctx.get('expected')}, got {shown}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters, got {len(str(error.get('input')))}"
    if kind == "too_short":
        least = ctx.get("min_length")
        return f"needs at least {least} {'entry' if least == 1 else 'entries'}, got {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"at most {ctx.get('max_length')} entries, got {ctx.get('actual_length')}"
    if kind == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])
    return error["msg"]




def _hint(loc: tuple[str | int, ...], fields: list[str]) -> str:
    if not loc or not isinstance(loc[-1], str):
        return ""
    close = closest(loc[-1], fields)
    return f" (did you mean {close!r}?)" if close else ""


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def distinct_weapons(weapons: Sequence[N]) -> Iterator[tuple[int, N]]:
    """Each of a sheet's ``weapons`` with its index, once its name is known distinct from the
    ones before it: a ``FieldProblem`` at the second of two with one name (for a sheet model's
    validator, which may check each weapon further as it comes)."""
    seen: set[str] = set()
    for index, weapon in enumerate(weapons):
        if weapon.name in seen:
            raise FieldProblem(("weapons", index, "name"), f"{weapon.name!r} is already a weapon of this sheet")
        seen.add(weapon.name)
        yield index, weapon
