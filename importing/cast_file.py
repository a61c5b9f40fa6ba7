"""The cast file as written (TOML, read by pydantic): its entries and fields. What they mean
for a transcript's speakers is ``fightlog.importing.cast``'s."""

from __future__ import annotations

from datetime import date as Date
from typing import Annotated, Final

from pydantic import Field, StringConstraints

from fightlog.kit.inputs import Seq, Strict

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Speakers = Annotated[Seq[Name], Field(min_length=1)]
"""The names a combatant, a dice bot or an object speaks under: at least one."""


class CombatantEntry(Strict):
    id: Name
    speakers: Speakers
    name: str | None = None
    side: str | None = None
    weapons: dict[Name, Seq[Name]] = {}
    """Weapon -> patterns of the combatant's posts that name it (``rifle``): an attack in a
    post that matches one is made with it."""
    weapon: Name | None = None
    """The weapon of an attack in a post that names none of ``weapons``."""
    range: Name | None = None
    """The range band of their attacks (``medium``: a transcript rarely says), as the ruleset names bands."""
    distance: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    """Or the distance of their attacks, in the ruleset's unit (metres)."""
    arrives: Annotated[int, Field(ge=2, le=1_000_000)] | None = None
    """The round of the log they enter the fight in progress (``fightlog.importing.arrivals``)."""


ROUNDS: Final = r"^\W*round\s*#?\s*(?P<n>[0-9]+)\b"
"""The GM lines that open a round, by default (``Round 2``, ``-- ROUND 3 --``, ``round #4: go``;
matched from the start, letter case ignored); ``n``, when the pattern has it, is the number
the GM calls."""


class GmEntry(Strict):
    name: Name
    speakers: Seq[Name] = ()
    rounds: Annotated[str, StringConstraints(max_length=200)] = ROUNDS


class DiceEntry(Strict):
    speakers: Speakers
    bot: Name
    tool: str | None = None
    cap: Annotated[int, Field(ge=0, le=1_000_000_000)] | None = None
    """The modifier cap the HUD applies without printing it (roe7's +30): recorded as the
    ``cap`` modifier the engine writes, so its total adds up."""


class ObjectEntry(Strict):
    speakers: Speakers


class StatusHint(Strict):
    pattern: Name
    status: Name
    on: bool = True


class CastFile(Strict):
    scene: Name | None = None
    title: str | None = None
    timezone: Name | None = None
    """An IANA zone name (``America/Los_Angeles``); empty is refused, not read as the default."""
    date: Date | None = None
    order: Seq[Name] = ()
    combatants: Seq[CombatantEntry] = ()
    gm: GmEntry | None = None
    dice: Seq[DiceEntry] = ()
    objects: Seq[ObjectEntry] = ()
    hints: dict[str, dict[str, Seq[Name]]] = {}
    status: Seq[StatusHint] = ()


FIELDS = ("scene", "title", "timezone", "date", "order", "combatants", "gm", "dice", "objects", "hints", "status",
          "id", "speakers", "name", "side", "bot", "tool", "cap", "pattern", "on", "rounds", "weapons", "weapon", "range",
          "distance", "arrives")
