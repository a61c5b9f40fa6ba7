"""A Traveller fight on a rigged scribe, for rules tests.

``Rigged`` (from the roe7 tests: a ``Scribe`` whose dice come from a queue) lets each test
state its faces and assert exact events. ``Fight`` builds a scene: ``join`` combatants from
sheet fields (7 in every characteristic, Gun Combat 1, Melee 1, a 3D rifle of 100 m and a
1D+2 blade by default), ``begin`` with the initiative faces, ``post`` actions in the action
syntax, ``react`` to an attack, ``end_turn``, and read pools, statuses and effects.
``refused`` asserts that a post is refused and leaves everything as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from fightlog.events.model import AnyEvent, DiceRolled
from fightlog.kit.table import Entrant
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.traveller.sheet import Combatant, joined
from fightlog.rules.traveller.table import TABLE
from tests.rules.rigged_fight import RiggedFight
from tests.rules.roe7.rigged import Rigged, kinds, of

__all__ = ["Fight", "Rigged", "RIFLE", "BLADE", "kinds", "of", "entrant_of", "duel"]

RIFLE: dict[str, Any] = {"name": "Rifle", "kind": "ranged", "damage": "3D", "range_m": 100}
BLADE: dict[str, Any] = {"name": "Blade", "kind": "melee", "damage": "1D+2"}
CHARS: dict[str, int] = {"STR": 7, "DEX": 7, "END": 7, "INT": 7, "EDU": 7, "SOC": 7}


def entrant_of(actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None,
               **fields: Any) -> Entrant:
    """A combatant from sheet fields (``characteristics`` entries are merged)."""
    sheet: dict[str, Any] = {"characteristics": dict(CHARS), "skills": {"gun_combat": 1, "melee": 1},
                             "weapons": [RIFLE, BLADE]}
    sheet["characteristics"].update(fields.pop("characteristics", {}))
    sheet.update(fields)
    combatant = Combatant.model_validate({"id": actor, "name": actor.title(), "side": side or actor,
                                          "controller": actor, "sheet": sheet})
    return Entrant(actor=actor, joined=joined(combatant), position=at)


class Fight(RiggedFight):
    """A Traveller scene on a rigged scribe."""

    RULESET = "traveller"
    TABLE = TABLE

    def join(self, actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None,
             **fields: Any) -> Fight:
        TABLE.join(self.scribe, entrant_of(actor, at, side=side, **fields))
        return self

    def begin(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        return self._new(lambda: TABLE.begin(self.scribe), faces)

    def react(self, actor: str, do: str, faces: Sequence[int] = ()) -> list[AnyEvent]:
        return self.post(actor, do, faces=faces)

    def pool(self, actor: str, pool: str) -> int:
        return self.state.combatants[actor].pools[pool]

    def effects(self, actor: str, name: str) -> list[ActiveEffect]:
        return [e for e in self.state.effects.values() if e.target == actor and e.name == name]


def rolls(events: Iterable[AnyEvent], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


def mods(roll: DiceRolled) -> dict[str, int]:
    return {m.source: m.value for m in roll.modifiers}


def duel(options: dict[str, Any] | None = None, *, a: dict[str, Any] | None = None,
         b: dict[str, Any] | None = None, distance: int = 30) -> Fight:
    """Alice and Bob ``distance`` metres apart, Alice first (initiative 12 against 2)."""
    fight = Fight(options)
    fight.join("alice", (0, 0), **(a or {}))
    fight.join("bob", (distance, 0), **(b or {}))
    fight.begin([6, 6, 1, 1])
    assert fight.current == "alice"
    return fight
