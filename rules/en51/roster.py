"""Rosters of ``en51`` combatants, read from a TOML file through the kit's ``RosterFormat``:
every problem is one ``InputError`` naming the file, the line of the field at fault, the
combatant by id and what was expected (``roster.toml:9: ana: sheet.armour[0].coverage: must
be at most 20, got 21``).
"""

from __future__ import annotations

from typing import Final, Literal

from fightlog.events.model import CombatantJoined
from fightlog.kit import rosters
from fightlog.rules.en51.card import WOUND_POOLS, as_snapshot, card_pools
from fightlog.rules.en51.sheet import Armour, Sheet, Weapon


class Combatant(rosters.Combatant[Sheet]):
    pass


class Roster(rosters.Roster[Combatant]):
    ruleset: Literal["en51"] = "en51"


def joined(combatant: Combatant) -> CombatantJoined:
    """The ``combatant_joined`` that brings ``combatant`` in: the Wounds track as pools."""
    card = combatant.sheet.card()
    return CombatantJoined(actor=combatant.id, name=combatant.name, side=combatant.side,
                           controller=combatant.controller, role=combatant.role,
                           pools=card_pools(card), pool_max=dict.fromkeys(WOUND_POOLS, 1), sheet=as_snapshot(card))


FORMAT: Final = rosters.RosterFormat(Roster, Sheet, (Roster, Combatant, Sheet, Weapon, Armour))

load_roster: Final = FORMAT.load_roster
load_sheet: Final = FORMAT.load_sheet
