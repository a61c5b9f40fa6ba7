"""A bleeding-sun fight on a rigged scribe, for rules tests.

``Rigged`` (from the roe7 tests: a ``Scribe`` whose faces come from a queue) lets each test
state its d6 faces and assert exact events. ``Fight`` builds a scene: ``join`` combatants
from sheet fields (every attribute 3, HP 10, pace 4, a rifle, a knife, a shotgun and a
grenade by default), ``begin`` (the sequence faces given), ``post`` actions in the action
syntax, ``end_turn``, read HP, statuses and effects; ``refused`` asserts a post is refused
and nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fightlog.events.model import AnyEvent
from fightlog.rules.bleedingsun.roster import Combatant, joined
from fightlog.rules.bleedingsun.table import TABLE
from tests.rules.rigged_fight import RiggedFight
from tests.rules.roe7.rigged import Rigged, kinds, of

__all__ = ["Fight", "Rigged", "RIFLE", "KNIFE", "SHOTGUN", "FRAG", "kinds", "of", "sheet"]

RIFLE: dict[str, Any] = {"name": "Rifle", "kind": "ranged", "accuracy": 2, "dv": 5, "ap": -1,
                         "fire": ["SA", "3RB"], "rof": 3, "ranges": [10, 20, 40, 80]}
SMG: dict[str, Any] = {"name": "SMG", "kind": "ranged", "accuracy": 1, "dv": 3, "fire": ["FA"], "rof": 3,
                       "ranges": [5, 10, 20, 40]}
KNIFE: dict[str, Any] = {"name": "Knife", "kind": "melee", "accuracy": 1, "dv": 3, "small": True}
CLUB: dict[str, Any] = {"name": "Club", "kind": "melee", "accuracy": 1, "dv": 4, "knockdown": 2}
SHOTGUN: dict[str, Any] = {"name": "Shotgun", "kind": "ranged", "accuracy": 1, "dv": 6, "fire": ["SS"], "rof": 1,
                           "spread": "medium"}
FRAG: dict[str, Any] = {"name": "Frag", "kind": "explosive", "accuracy": 0, "dv": 0, "blast": 6}

ATTRS = ("agility", "body", "savvy", "perception", "vigor", "grit", "willpower", "strength", "intelligence",
         "endurance", "charisma", "legerdemain", "medic")


def sheet(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict.fromkeys(ATTRS, 3)
    data.update({"hp": 10, "pace": 4, "sprint": 2, "fortitude": 2, "armour": 0,
                 "weapons": [RIFLE, SMG, KNIFE, CLUB, SHOTGUN, FRAG]})
    data.update(fields)
    return data


class Fight(RiggedFight):
    """A bleeding-sun scene on a rigged scribe."""

    RULESET = "bleeding-sun"
    TABLE = TABLE
    COMBATANT = Combatant
    sheet = staticmethod(sheet)
    joined = staticmethod(joined)

    def begin(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        return self._new(lambda: TABLE.begin(self.scribe), faces)

    @property
    def order(self) -> list[str]:
        return list(self.state.turn.order)

    def effects(self, actor: str) -> list[str]:
        return sorted(e.name for e in self.state.effects.values() if e.target == actor)


def duel(options: dict[str, Any] | None = None, a: dict[str, Any] | None = None,
         b: dict[str, Any] | None = None) -> Fight:
    """Ana and Bo; Ana's sequence 6 dice all hits, Bo's all misses: Ana first."""
    fight = Fight(options).join("ana", **(a or {})).join("bo", **(b or {}))
    fight.begin([6] * 6 + [1] * 6)
    assert fight.current == "ana"
    return fight


def trio(options: dict[str, Any] | None = None, **fields: Any) -> Fight:
    """Ana and Bo (one side) and Cy, in that order, after a first round of talk: nobody is
    flat-footed, every immediate action is back, round 2 has opened on Ana."""
    fight = Fight(options).join("ana", side="a", **fields).join("bo", side="b", **fields)
    fight.join("cy", side="b", **fields)
    fight.begin([6] * 6 + [6] * 5 + [1] + [6] * 4 + [1] * 2)
    assert fight.order == ["ana", "bo", "cy"]
    for actor in ("ana", "bo", "cy"):
        fight.turn(actor, "say")
    assert fight.current == "ana" and fight.state.turn.round == 2
    return fight


def ready_duel(options: dict[str, Any] | None = None, a: dict[str, Any] | None = None,
               b: dict[str, Any] | None = None) -> Fight:
    """``duel`` after a first round of talk: round 2 opened on Ana, nobody flat-footed."""
    fight = duel(options, a, b)
    fight.turn("ana", "say")
    fight.turn("bo", "say")
    assert fight.current == "ana" and fight.state.turn.round == 2
    return fight
