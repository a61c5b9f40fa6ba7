"""Rosters of ``bleeding-sun`` combatants, read from a TOML file through the kit's
``RosterFormat``: every problem is one ``InputError`` naming the file, the line of the field
at fault, the combatant by id and what was expected
(``roster.toml:9: ana: sheet.weapons[0].rof: must be at most 10, got 12``).
"""

from __future__ import annotations

from typing import Final, Literal

from fightlog.events.model import CombatantJoined
from fightlog.kit import rosters
from fightlog.rules.bleedingsun.card import as_snapshot, card_pools
from fightlog.rules.bleedingsun.sheet import KickerIn, PerkIn, Sheet, Weapon


class Combatant(rosters.Combatant[Sheet]):
    pass


class Roster(rosters.Roster[Combatant]):
    ruleset: Literal["bleeding-sun"] = "bleeding-sun"


def joined(combatant: Combatant) -> CombatantJoined:
    """The ``combatant_joined`` that brings ``combatant`` in: HP as a pool."""
    card = combatant.sheet.card()
    return CombatantJoined(actor=combatant.id, name=combatant.name, side=combatant.side,
                           controller=combatant.controller, role=combatant.role, pools=card_pools(card),
                           pool_max={"hp": card.hp}, sheet=as_snapshot(card))


FORMAT: Final = rosters.RosterFormat(Roster, Sheet, (Roster, Combatant, Sheet, Weapon, KickerIn, PerkIn))

load_roster: Final = FORMAT.load_roster
load_sheet: Final = FORMAT.load_sheet
