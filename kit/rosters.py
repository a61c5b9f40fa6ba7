"""Roster files, whatever the ruleset: a TOML file of ``[[combatants]]``, each with a
``[combatants.sheet]`` table or a ``sheet_file`` path (relative to the roster) to a sheet
TOML file of its own. A ruleset gives its pydantic models (``RosterFormat``); the reading,
the ``sheet_file`` resolution, the one-line errors and distinct ids (``distinct_ids``) are the
same for all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, Field, StringConstraints, ValidationError, model_validator
from pydantic_core import ErrorDetails

from fightlog.errors import InputError
from fightlog.kit.inputs import FieldProblem, Seq, Strict, describe, field_path, first_problem, read_toml_text
from fightlog.kit.options import got
from fightlog.kit.toml_lines import KeyLines

R = TypeVar("R", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)

Loc = tuple[str | int, ...]


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


def distinct_ids(combatants: Sequence[_Identified]) -> dict[str, int]:
    """Each combatant's id -> its index; a ``FieldProblem`` at the second of two combatants
    with one id (for a roster model's validator)."""
    seen: dict[str, int] = {}
    for index, combatant in enumerate(combatants):
        if combatant.id in seen:
            raise FieldProblem(
                ("combatants", index, "id"), f"{combatant.id!r} is already the id of combatants[{seen[combatant.id]}]"
            )
        seen[combatant.id] = index
    return seen


Id = Annotated[str, StringConstraints(min_length=1, max_length=200)]
SheetT = TypeVar("SheetT", bound=BaseModel)


class Combatant(Strict, Generic[SheetT]):
    """A roster entry of a ruleset whose combatants are a pc or an npc with a sheet of type
    ``SheetT``, inline or in ``sheet_file``: a ruleset subclasses ``Combatant[Sheet]``."""

    id: Id
    name: Id
    side: Id
    controller: Id | None = None
    role: Literal["pc", "npc"] = "pc"
    sheet: SheetT
    sheet_file: str | None = None


CombatantT = TypeVar("CombatantT", bound=Combatant[Any])


class Roster(Strict, Generic[CombatantT]):
    """A roster file of such combatants, with distinct ids: a ruleset subclasses
    ``Roster[Combatant]`` and narrows ``ruleset`` to its name (``Literal["en51"] = "en51"``)."""

    ruleset: str
    title: str | None = None
    combatants: Annotated[Seq[CombatantT], Field(min_length=1)]

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        distinct_ids(self.combatants)
        return self


class RosterFormat(Generic[R, S]):
    """A ruleset's roster format: its roster and sheet models, and every model a roster
    holds (their field names make the "did you mean" of an unknown key; ``extra``: names
    given by alias, such as ``class``)."""

    def __init__(self, roster: type[R], sheet: type[S], models: Iterable[type[BaseModel]],
                 extra: Iterable[str] = ()) -> None:
        self.roster = roster
        self.sheet = sheet
        self.models = tuple(models)
        self.extra = frozenset(extra)

    @cached_property
    def fields(self) -> frozenset[str]:
        return frozenset(name for model in self.models for name in model.model_fields) | self.extra

    def load_roster(self, path: str | os.PathLike[str]) -> R:
        """Read and validate a roster TOML file; every problem is an ``InputError``."""
        return load_roster(path, self.roster, self.sheet, self.fields)

    def load_sheet(self, path: str | os.PathLike[str]) -> S:
        """Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
        return load_sheet(path, self.sheet, self.fields)


def load_roster(path: str | os.PathLike[str], roster: type[R], sheet: type[BaseModel], fields: Iterable[str]) -> R:
    """Read and validate the roster at ``path`` as ``roster`` (sheet files as ``sheet``);
    every problem is an ``InputError`` at the line of the field at fault, naming the
    combatant by id (``roster.toml:12: bob: sheet.hp: must be at least 1, got -5``).
    ``fields``: the format's names, for "did you mean"."""
    name = os.fspath(path)
    data, text = read_toml_text(Path(name), name, "roster")
    place = _Place(data, text)
    field = roster.model_fields.get("ruleset")  # (a plugin's roster may have none)
    expected, got = field.default if field is not None else None, data.get("ruleset")
    if isinstance(expected, str) and isinstance(got, str) and got != expected:  # before its sheets' problems
        raise InputError(f"ruleset: expected {expected!r}, got {got!r}: a roster for another ruleset", path=name,
                         line=place.lines.line(("ruleset",)))
    combatants = data.get("combatants")
    if isinstance(combatants, list):
        base = Path(name).parent
        data["combatants"] = [
            _with_sheet_file(base, name, i, entry, sheet, fields, place) for i, entry in enumerate(combatants)
        ]
    try:
        return roster.model_validate(data)
    except ValidationError as exc:
        raise place.error(exc.errors(), fields, name) from None


def load_sheet(path: str | os.PathLike[str], sheet: type[S], fields: Iterable[str]) -> S:
    """Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
    name = os.fspath(path)
    data, text = read_toml_text(Path(name), name, "sheet")
    try:
        return sheet.model_validate(data)
    except ValidationError as exc:
        raise _Place(data, text).error(exc.errors(), fields, name) from None


class _Place:
    """Where a field of a roster (or sheet) file is: its line, and its path named from the
    combatant's id (``bob: sheet.hp``; ``combatants[1].sheet.hp`` for an entry without one)."""

    def __init__(self, data: dict[str, Any], text: str) -> None:
        self.data = data
        self.lines = KeyLines(text)

    def name(self, loc: Loc) -> str:
        if len(loc) >= 2 and loc[0] == "combatants" and isinstance(loc[1], int):
            ident = self.ident(loc[1])
            if ident is not None:
                rest = field_path(loc[2:])
                return f"{ident}: {rest}" if rest else ident
        return field_path(loc)

    def ident(self, index: int) -> str | None:
        combatants = self.data.get("combatants")
        if not isinstance(combatants, list) or index >= len(combatants) or not isinstance(combatants[index], dict):
            return None
        ident = combatants[index].get("id")
        return ident if isinstance(ident, str) and ident else None

    def error(self, errors: Sequence[ErrorDetails], fields: Iterable[str], path: str, *, prefix: str = "",
              suffix: str = "") -> InputError:
        _, loc = first_problem(errors)
        message = describe(errors, fields=fields, special=_special, place=self.name)
        return InputError(f"{prefix}{message}{suffix}", path=path, line=self.lines.line(loc))


def _with_sheet_file(
    base: Path, roster: str, index: int, entry: Any, sheet: type[BaseModel], fields: Iterable[str], place: _Place
) -> Any:
    if not isinstance(entry, dict) or "sheet_file" not in entry:
        return entry
    where = place.name(("combatants", index))
    line = place.lines.line(("combatants", index, "sheet_file"))
    ref = entry["sheet_file"]
    if "sheet" in entry:
        raise InputError(f"{where}: give a sheet table or a sheet_file, not both", path=roster, line=line)
    if not isinstance(ref, str) or not ref:
        raise InputError(f"{where}: sheet_file: expected a path to a sheet file, got {got(ref)}", path=roster, line=line)
    target = base / ref
    shown = os.fspath(target)
    try:
        exists = target.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        raise InputError(f"{where}: sheet_file: no such sheet file {shown!r}", path=roster, line=line)
    named = f" (the sheet_file of {where} in {roster}{'' if line is None else f':{line}'})"
    try:
        data, text = read_toml_text(target, shown, "sheet")
    except InputError as exc:  # not TOML, not UTF-8, too big: said of the sheet file, and of whose it is
        raise InputError(exc.message + named, path=exc.path, line=exc.line) from None
    try:
        read = sheet.model_validate(data)
    except ValidationError as exc:
        ident = place.ident(index)
        raise _Place(data, text).error(
            exc.errors(), fields, shown, prefix=f"{ident}: " if ident else "", suffix=named,
        ) from None
    return {**entry, "sheet": read}


def _special(error: ErrorDetails, loc: tuple[str | int, ...]) -> str | None:
    """Roster wording: where a sheet table or a sheet_file path belongs."""
    if not loc or loc[-1] != "sheet":
        return None
    if error["type"] == "missing":
        return "required: a [combatants.sheet] table or a sheet_file path"
    if isinstance(error.get("input"), str):
        return f"expected a table, got {got(error.get('input'))} (a path to a sheet file goes in sheet_file)"
    return None
