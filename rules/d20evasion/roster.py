"""Rosters of ``d20-evasion`` combatants, read from a TOML file.

``load_roster(path)`` reads the file with ``tomllib``, reads each ``sheet_file`` relative to
the roster's directory, and validates everything with the pydantic models of ``sheet``.
Races give a base Evasion: ``human`` (11) is the one the rulebook states; a roster adds its
own under ``[races.NAME]`` (``evasion = 12``). A minion (``role = "minion"``) names its
summoner, another combatant, in ``owner``.
Every problem becomes one ``InputError`` naming the file at fault, the line of the field at
fault, the combatant by id, the field path and what was expected
(``vex: sheet.stats.dexterity: must be at least 1, got 0``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Final, Literal

from pydantic import Field, StringConstraints, model_validator

from fightlog.events.model import CombatantJoined
from fightlog.rules.d20evasion.card import as_snapshot, card_pools
from fightlog.rules.d20evasion.sheet import Armour, Item, OverTime, Sheet, Spell, Stats, Weapon
from fightlog.kit.inputs import FieldProblem, Seq, Strict
from fightlog.kit import rosters

Id = Annotated[str, StringConstraints(min_length=1, max_length=200)]

RACES: Final[Mapping[str, int]] = {"human": 11}
"""Base Evasion by race, as far as the rulebook states them (Evasion: a human's is 11)."""


class Race(Strict):
    evasion: Annotated[int, Field(ge=0, le=100)]


class Combatant(Strict):
    """One combatant: an id (the ``actor`` of their events), a display name, a side, who
    controls them, whom they serve (a minion's summoner) and their sheet, inline
    (``[combatants.sheet]``) or in a file named by ``sheet_file``."""

    id: Id
    name: Id
    side: Id
    controller: Id
    owner: Id | None = None
    role: Literal["pc", "npc", "minion"] = "pc"
    sheet: Sheet
    sheet_file: str | None = None


class Roster(Strict):
    """A roster file: the ruleset (always ``d20-evasion``), a title, extra races, the
    combatants."""

    ruleset: Literal["d20-evasion"] = "d20-evasion"
    title: str | None = None
    races: dict[str, Race] = {}
    combatants: Annotated[Seq[Combatant], Field(min_length=1)]

    @model_validator(mode="after")
    def _consistent(self) -> Roster:
        seen = rosters.distinct_ids(self.combatants)
        for index, combatant in enumerate(self.combatants):
            if combatant.sheet.race not in self.races and combatant.sheet.race not in RACES:
                known = ", ".join(sorted({*RACES, *self.races}))
                raise FieldProblem(
                    ("combatants", index, "sheet", "race"),
                    f"unknown race {combatant.sheet.race!r} (known: {known}; give its base Evasion under "
                    f"[races.{combatant.sheet.race}] evasion = N)",
                )
        for index, combatant in enumerate(self.combatants):
            at_owner = ("combatants", index, "owner")
            if combatant.owner is None and combatant.role == "minion":
                raise FieldProblem(at_owner, 'required for a minion (role = "minion"): the id of its summoner')
            if combatant.owner is not None and combatant.owner == combatant.id:
                raise FieldProblem(at_owner, f"{combatant.owner!r} is this combatant's own id: owner names its summoner")
            if combatant.owner is not None and combatant.owner not in seen:
                raise FieldProblem(at_owner, f"{combatant.owner!r} is not a combatant of this roster")
            for spell_index, spell in enumerate(combatant.sheet.spells):
                summoned = spell.summons
                if summoned is None:
                    continue
                where = ("combatants", index, "sheet", "spells", spell_index, "summons")
                if summoned not in seen:
                    raise FieldProblem(where, f"{summoned!r} is not a combatant of this roster")
                if self.combatants[seen[summoned]].owner != combatant.id:
                    raise FieldProblem(where, f"{summoned!r} must name {combatant.id!r} as its owner")
        return self

    def race_evasion(self, race: str) -> int:
        found = self.races.get(race)
        return found.evasion if found is not None else RACES[race]

    def joined(self, combatant: Combatant) -> CombatantJoined:
        """The ``combatant_joined`` event that brings ``combatant`` into a scene: pools HP
        (base), armour and MP."""
        card = combatant.sheet.card(self.race_evasion(combatant.sheet.race))
        pools = card_pools(card)
        return CombatantJoined(
            actor=combatant.id,
            name=combatant.name,
            side=combatant.side,
            controller=combatant.controller,
            role=combatant.role,
            owner=combatant.owner,
            pools=pools,
            sheet=as_snapshot(card),
        )


FORMAT: Final = rosters.RosterFormat(
    Roster, Sheet, (Roster, Race, Combatant, Sheet, Stats, Weapon, Spell, Item, Armour, OverTime), extra={"class"}
)

load_roster: Final = FORMAT.load_roster
"""Read and validate a roster TOML file; every problem is an ``InputError``."""

load_sheet: Final = FORMAT.load_sheet
"""Read and validate one sheet TOML file (the format of a ``sheet_file``)."""
