"""An en51 fight on a rigged scribe, for rules tests.

``Rigged`` (from the roe7 tests: a ``Scribe`` whose faces come from a queue) lets each test
state its black and white faces and assert exact events. ``Fight`` builds a scene: ``join``
combatants from sheet fields (Toughness 8, Agility 10, a sword and a rifle by default),
``begin``, ``post`` actions in the action syntax, ``answer`` an attack, ``end_turn``, read
the Wounds track and statuses; ``refused`` asserts a post is refused and nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fightlog.events.model import AnyEvent
from fightlog.rules.en51.roster import Combatant, joined
from fightlog.rules.en51.table import TABLE
from tests.rules.rigged_fight import RiggedFight
from tests.rules.roe7.rigged import Rigged, kinds, of

__all__ = ["Fight", "Rigged", "SWORD", "RIFLE", "SMG", "SHOTGUN", "kinds", "of", "sheet"]

SWORD: dict[str, Any] = {"name": "Sword", "kind": "melee", "attack": 12, "defense": 6, "damage": 4}
KNIFE: dict[str, Any] = {"name": "Knife", "kind": "melee", "attack": 10, "defense": 4, "damage": 2}
RIFLE: dict[str, Any] = {"name": "Rifle", "kind": "ranged", "attack": 14, "defense": 8, "damage": 6, "range": 7}
SMG: dict[str, Any] = {"name": "SMG", "kind": "ranged", "attack": 13, "defense": 9, "damage": 3, "range": 4,
                       "type": "A13"}
SHOTGUN: dict[str, Any] = {"name": "Shotgun", "kind": "ranged", "attack": 12, "defense": 8, "damage": 8,
                           "range": 2, "type": "C2"}


def sheet(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"toughness": 8, "agility": 10, "perception": 12, "stealth": 6, "unarmed_defense": 5,
                            "skills": {"medicine": 12}, "weapons": [SWORD, KNIFE, RIFLE, SMG, SHOTGUN]}
    data.update(fields)
    return data


class Fight(RiggedFight):
    """An en51 scene on a rigged scribe."""

    RULESET = "en51"
    TABLE = TABLE
    COMBATANT = Combatant
    sheet = staticmethod(sheet)
    joined = staticmethod(joined)

    def begin(self, faces: Sequence[int] = ()) -> Fight:
        self._new(lambda: TABLE.begin(self.scribe), faces)
        return self

    def end(self) -> list[AnyEvent]:
        return self._new(lambda: TABLE.end(self.scribe, reveal=None), ())

    def wounds(self, actor: str) -> list[int]:
        pools = self.state.combatants[actor].pools
        return [c for c in range(1, 21) if pools[f"w{c}"] == 0]

    def last_post(self) -> int:
        return self.state.pending[-1].seq


def duel(options: dict[str, Any] | None = None, a: dict[str, Any] | None = None,
         b: dict[str, Any] | None = None) -> Fight:
    """Ana and Bo, Ana first."""
    fight = Fight(options).join("ana", **(a or {})).join("bo", **(b or {}))
    fight.begin()
    assert fight.current == "ana"
    return fight
