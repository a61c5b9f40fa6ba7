"""Rosters: the combatants of a scene, read from a TOML file.

``load_roster(path)`` reads the file with ``tomllib``, resolves each ``sheet_file`` relative to
the roster's directory, and validates everything with the pydantic models of ``sheet``. Every
problem becomes one ``InputError``: ``path`` is the file at fault (the roster, or the sheet
file a ``sheet_file`` names), ``line`` the line of the field at fault, and the message names
the combatant by id, the field path and what was expected (``bob: sheet.hp: must be at least
1, got -5``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, StringConstraints, model_validator

from fightlog.events.model import CombatantJoined
from fightlog.kit.inputs import Seq, Strict
from fightlog.kit import rosters
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
            pools=sheet_pools(self.sheet),
            sheet=self.sheet.to_snapshot(),
        )


def sheet_pools(sheet: Sheet) -> dict[str, int]:
    """The pools a combatant joins with: HP."""
    return {"hp": sheet.hp}


class Roster(Strict):
    """A roster file: the ruleset (always ``roe7`` here), an optional title, the combatants."""

    ruleset: Literal["roe7"] = "roe7"
    title: str | None = None
    combatants: Annotated[Seq[Combatant], Field(min_length=1)]

    @model_validator(mode="after")
    def _distinct_ids(self) -> Roster:
        rosters.distinct_ids(self.combatants)
        return self


FORMAT: Final = rosters.RosterFormat(
    Roster, Sheet, (Roster, Combatant, Sheet, Modifier, ItemModifier, SlotItem, Attachment, Weapon, DamageReduction, Grenade)
)

load_roster: Final = FORMAT.load_roster
"""Read and validate a roster TOML file; every problem is an ``InputError``."""

load_sheet: Final = FORMAT.load_sheet
"""Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
