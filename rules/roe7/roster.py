"""Rosters: the combatants of a scene, read from a TOML file.

``load_roster(path)`` reads the file with ``tomllib``, resolves each ``sheet_file`` relative to
the roster's directory, and validates everything with the pydantic models of ``sheet``. Every
problem becomes one ``InputError``: ``path`` is the file at fault (the roster, or the sheet
file a ``sheet_file`` names), ``line`` is set for TOML syntax errors, and the message names
the field path and what was expected (``combatants[1].sheet.hp: must be at least 1, got -5``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator
from pydantic_core import ErrorDetails

from fightlog.errors import InputError
from fightlog.events.model import CombatantJoined
from fightlog.rules.inputs import FieldProblem, Seq, Strict, got, read_toml
from fightlog.rules.inputs import describe as describe_errors
from fightlog.rules.roe7.sheet import (
    Attachment,
    DamageReduction,
    Grenade,
    ItemModifier,
    Modifier,
    Sheet,
    SlotItem,
    Weapon,
)

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
    data = read_toml(Path(name), name, "roster")
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
        return Sheet.model_validate(read_toml(Path(name), name, "sheet"))
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
        raise InputError(f"{where}.sheet_file: expected a path to a sheet file, got {got(ref)}",
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
        sheet = Sheet.model_validate(read_toml(target, shown, "sheet"))
    except ValidationError as exc:
        message = f"{describe(exc.errors())} (the sheet_file of {where} in {roster})"
        raise InputError(message, path=shown) from None
    return {**entry, "sheet": sheet}


# ---------------------------------------------------------------------------- reading TOML

def _special(error: ErrorDetails, loc: tuple[str | int, ...]) -> str | None:
    """Roster wording: where a sheet table or a sheet_file path belongs."""
    if not loc or loc[-1] != "sheet":
        return None
    if error["type"] == "missing":
        return "required: a [combatants.sheet] table or a sheet_file path"
    if isinstance(error.get("input"), str):
        return f"expected a table, got {got(error.get('input'))} (a path to a sheet file goes in sheet_file)"
    return None


def describe(errors: Sequence[ErrorDetails]) -> str:
    """One line for a roster or sheet validation failure (see ``fightlog.rules.inputs``)."""
    return describe_errors(errors, fields=_field_names(), special=_special)


@cache
def _field_names() -> frozenset[str]:
    models = (Roster, Combatant, Sheet, Modifier, ItemModifier, SlotItem, Attachment, Weapon, DamageReduction, Grenade)
    return frozenset(name for model in models for name in model.model_fields)
