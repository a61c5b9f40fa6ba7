"""Rosters: the combatants of a scene, read from a TOML file.

``load_roster(path)`` reads the file with ``tomllib``, resolves each ``sheet_file`` relative to
the roster's directory, and validates everything with the pydantic models of ``sheet``. Every
problem becomes one ``InputError``: ``path`` is the file at fault (the roster, or the sheet
file a ``sheet_file`` names), ``line`` is set for TOML syntax errors, and the message names
the field path and what was expected (``combatants[1].sheet.hp: must be at least 1, got -5``).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator
from pydantic_core import ErrorDetails

from fightlog.errors import InputError
from fightlog.events.model import CombatantJoined
from fightlog.rules.roe7.sheet import (
    Attachment,
    DamageReduction,
    FieldProblem,
    Grenade,
    ItemModifier,
    Modifier,
    Seq,
    Sheet,
    SlotItem,
    Strict,
    Weapon,
)

MAX_FILE_BYTES: Final = 1 << 20
"""Largest roster or sheet file read (1 MiB): a roster is a few kilobytes."""

Id = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class Combatant(Strict):
    """One combatant: an id (the ``actor`` of their events), a display name, a side, who
    controls them, and their sheet, written inline (``[combatants.sheet]``) or in a file named
    by ``sheet_file`` (relative to the roster), which ``load_roster`` reads into ``sheet``."""

    id: Id
    name: Id
    side: Id
    controller: Id
    sheet: Sheet
    sheet_file: str | None = None

    def joined(self) -> CombatantJoined:
        """The ``combatant_joined`` event that brings this combatant into a scene."""
        return CombatantJoined(
            actor=self.id,
            name=self.name,
            side=self.side,
            controller=self.controller,
            pools={"hp": self.sheet.hp},
            sheet=self.sheet.to_snapshot(),
        )


class Roster(Strict):
    """A roster file: the ruleset (always ``roe7`` here), an optional title, the combatants."""

    ruleset: Literal["roe7"] = "roe7"
    title: str | None = None
    combatants: Annotated[Seq[Combatant], Field(min_length=1)]

    @model_validator(mode="after")
    def _distinct_ids(self) -> Roster:
        seen: dict[str, int] = {}
        for index, combatant in enumerate(self.combatants):
            if combatant.id in seen:
                raise FieldProblem(
                    ("combatants", index, "id"),
                    f"{combatant.id!r} is already the id of combatants[{seen[combatant.id]}]",
                )
            seen[combatant.id] = index
        return self


def load_roster(path: str | os.PathLike[str]) -> Roster:
    """Read and validate a roster TOML file; every problem is an ``InputError``."""
    name = os.fspath(path)
    data = _read_toml(Path(name), name, "roster")
    combatants = data.get("combatants")
    if isinstance(combatants, list):
        base = Path(name).parent
        data["combatants"] = [_with_sheet_file(base, name, i, entry) for i, entry in enumerate(combatants)]
    try:
        return Roster.model_validate(data)
    except ValidationError as exc:
        raise InputError(describe(exc.errors()), path=name) from None


def load_sheet(path: str | os.PathLike[str]) -> Sheet:
    """Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
    name = os.fspath(path)
    try:
        return Sheet.model_validate(_read_toml(Path(name), name, "sheet"))
    except ValidationError as exc:
        raise InputError(describe(exc.errors()), path=name) from None


def _with_sheet_file(base: Path, roster: str, index: int, entry: Any) -> Any:
    if not isinstance(entry, dict) or "sheet_file" not in entry:
        return entry
    where = f"combatants[{index}]"
    ref = entry["sheet_file"]
    if "sheet" in entry:
        raise InputError(f"{where}: give a sheet table or a sheet_file, not both", path=roster)
    if not isinstance(ref, str) or not ref:
        raise InputError(f"{where}.sheet_file: expected a path to a sheet file, got {_got(ref)}",
                         path=roster)
    target = base / ref
    shown = os.fspath(target)
    try:
        exists = target.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        raise InputError(f"{where}.sheet_file: no such sheet file {shown!r}", path=roster)
    try:
        sheet = Sheet.model_validate(_read_toml(target, shown, "sheet"))
    except ValidationError as exc:
        message = f"{describe(exc.errors())} (the sheet_file of {where} in {roster})"
        raise InputError(message, path=shown) from None
    return {**entry, "sheet": sheet}


# ---------------------------------------------------------------------------- reading TOML

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def _read_toml(path: Path, name: str, what: str) -> dict[str, Any]:
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
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not UTF-8 text (byte {exc.start + 1})", path=name, line=line) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
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


def describe(errors: Sequence[ErrorDetails]) -> str:
    """One line for a pydantic validation failure: the first problem, with its field path,
    and how many more there are."""
    # An unknown field first: a typo also makes the field it meant "missing".
    ordered = sorted(errors, key=lambda e: e["type"] != "extra_forbidden")
    first = _problem(ordered[0])
    more = len(errors) - 1
    return first if more == 0 else f"{first} (and {more} more problem{'s' if more > 1 else ''})"


def _problem(error: ErrorDetails) -> str:
    loc = tuple(error["loc"])
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    cause = ctx.get("error")
    if isinstance(cause, FieldProblem):
        loc = (*loc, *cause.field)
    where = _path(loc)
    what = _what(error, loc, ctx)
    return f"{where}: {what}" if where else what


def _path(loc: tuple[str | int, ...]) -> str:
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


def _what(error: ErrorDetails, loc: tuple[str | int, ...], ctx: Mapping[str, Any]) -> str:
    kind = error["type"]
    got = _got(error.get("input"))
    if kind == "missing":
        if loc and loc[-1] == "sheet":
            return "required: a [combatants.sheet] table or a sheet_file path"
        return "required field is missing"
    if kind == "extra_forbidden":
        return f"unknown field{_hint(loc)}"
    if kind in _BOUNDS:
        bound = next(iter(ctx.values()))
        return f"must be {_BOUNDS[kind]} {bound}, got {got}"
    if kind in _EXPECTED:
        if loc and loc[-1] == "sheet" and isinstance(error.get("input"), str):
            return f"expected a table, got {got} (a path to a sheet file goes in sheet_file)"
        return f"expected {_EXPECTED[kind]}, got {got}"
    if kind == "literal_error":
        return f"expected {ctx.get('expected')}, got {got}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters, got {len(str(error.get('input')))}"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
    if kind == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])
    return error["msg"]


def _got(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value!r} (a float: game numbers are integers)"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


@cache
def _field_names() -> frozenset[str]:
    models = (Roster, Combatant, Sheet, Modifier, ItemModifier, SlotItem, Attachment, Weapon, DamageReduction, Grenade)
    return frozenset(name for model in models for name in model.model_fields)


def _hint(loc: tuple[str | int, ...]) -> str:
    if not loc or not isinstance(loc[-1], str):
        return ""
    close = difflib.get_close_matches(loc[-1], sorted(_field_names()), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
