"""Roster files, whatever the ruleset: a TOML file of ``[[combatants]]``, each with a
``[combatants.sheet]`` table or a ``sheet_file`` path (relative to the roster) to a sheet
TOML file of its own. A ruleset gives its pydantic models and its field names; the reading,
the ``sheet_file`` resolution and the one-line errors are the same for all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from fightlog.errors import InputError
from fightlog.rules.inputs import describe, got, read_toml

R = TypeVar("R", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)


def load_roster(path: str | os.PathLike[str], roster: type[R], sheet: type[BaseModel], fields: Iterable[str]) -> R:
    """Read and validate the roster at ``path`` as ``roster`` (sheet files as ``sheet``);
    every problem is an ``InputError``. ``fields``: the format's names, for "did you mean"."""
    name = os.fspath(path)
    data = read_toml(Path(name), name, "roster")
    combatants = data.get("combatants")
    if isinstance(combatants, list):
        base = Path(name).parent
        data["combatants"] = [_with_sheet_file(base, name, i, entry, sheet, fields) for i, entry in enumerate(combatants)]
    try:
        return roster.model_validate(data)
    except ValidationError as exc:
        raise InputError(describe_roster(exc.errors(), fields), path=name) from None


def load_sheet(path: str | os.PathLike[str], sheet: type[S], fields: Iterable[str]) -> S:
    """Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
    name = os.fspath(path)
    try:
        return sheet.model_validate(read_toml(Path(name), name, "sheet"))
    except ValidationError as exc:
        raise InputError(describe_roster(exc.errors(), fields), path=name) from None


def describe_roster(errors: Sequence[ErrorDetails], fields: Iterable[str]) -> str:
    """One line for a roster or sheet validation failure (see ``fightlog.rules.inputs``)."""
    return describe(errors, fields=fields, special=_special)


def _with_sheet_file(base: Path, roster: str, index: int, entry: Any, sheet: type[BaseModel], fields: Iterable[str]) -> Any:
    if not isinstance(entry, dict) or "sheet_file" not in entry:
        return entry
    where = f"combatants[{index}]"
    ref = entry["sheet_file"]
    if "sheet" in entry:
        raise InputError(f"{where}: give a sheet table or a sheet_file, not both", path=roster)
    if not isinstance(ref, str) or not ref:
        raise InputError(f"{where}.sheet_file: expected a path to a sheet file, got {got(ref)}", path=roster)
    target = base / ref
    shown = os.fspath(target)
    try:
        exists = target.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        raise InputError(f"{where}.sheet_file: no such sheet file {shown!r}", path=roster)
    try:
        read = sheet.model_validate(read_toml(target, shown, "sheet"))
    except ValidationError as exc:
        raise InputError(f"{describe_roster(exc.errors(), fields)} (the sheet_file of {where} in {roster})", path=shown) from None
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
