"""A d20-evasion fight on a rigged scribe, for rules tests.

``Rigged`` (from the roe7 tests: a ``Scribe`` whose dice come from a queue) lets each test
state its faces and assert exact events. ``Fight`` builds a scene: ``join`` combatants from
sheet fields (a human with 20 in every stat, 100 HP and a pistol by default), ``begin``,
``post`` actions written in the action syntax (``"attack target=bob"``), ``respond`` with a
defensive turn, ``end_turn``, and read pools, statuses and effects. ``refused`` asserts that
a post is refused and leaves everything as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, AnyEvent, CombatantJoined, DeclarationPosted, SceneStarted
from fightlog.reducers.state import EMPTY, ActiveEffect
from fightlog.kit.actions import parse_actions
from fightlog.rules.d20evasion.card import as_snapshot
from fightlog.rules.d20evasion.sheet import Sheet
from fightlog.rules.d20evasion.table import TABLE
from fightlog.kit.table import Entrant, Post, Scribe
from tests.rules.roe7.rigged import Rigged, kinds, of, plain
from tests.rules.scene_reads import SceneReads

__all__ = ["Fight", "Rigged", "PISTOL", "SWORD", "duel", "kinds", "of", "plain", "sheet", "entrant_of"]

PISTOL: dict[str, Any] = {"name": "Pistol", "kind": "ranged", "category": "firearms", "damage": 20,
                          "ranges": ["close", "medium-close", "medium"]}
SWORD: dict[str, Any] = {"name": "Sword", "kind": "melee", "category": "blades", "damage": 15,
                         "ranges": ["touch", "close"]}
STATS: dict[str, int] = {"strength": 20, "dexterity": 20, "perception": 20, "willpower": 20}


def sheet(race_evasion: int = 11, **fields: Any) -> dict[str, Any]:
    """A sheet snapshot: a human, level 1, 100 HP, 20 in every stat, a pistol; plus
    ``fields`` (``stats`` entries are merged)."""
    data: dict[str, Any] = {"race": "human", "hp": 100, "stats": dict(STATS), "weapons": [PISTOL]}
    data["stats"].update(fields.pop("stats", {}))
    data.update(fields)
    return as_snapshot(Sheet.model_validate(data).card(race_evasion))


def entrant_of(actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None,
               owner: str | None = None, **fields: Any) -> Entrant:
    snapshot = sheet(**fields)
    pools = {"hp": snapshot["hp"], "armour": sum(a.get("armour", 0) for a in snapshot.get("armour", [])),
             "mp": snapshot.get("mp", 0) + sum(a.get("mp", 0) for a in snapshot.get("armour", []))}
    joined = CombatantJoined(actor=actor, name=actor.title(), side=side or actor, controller=actor, owner=owner,
                             pools=pools, sheet=snapshot)
    return Entrant(actor=actor, joined=joined, position=at)


class Fight(SceneReads):
    """A d20-evasion scene on a rigged scribe."""

    def __init__(self, options: dict[str, Any] | None = None, scribe: Scribe | None = None) -> None:
        self.scribe = scribe if scribe is not None else Rigged(EMPTY)
        self.scribe.emit(SceneStarted(scene="test", ruleset="d20-evasion", format=FORMAT_VERSION,
                                      options=TABLE.options(options or {})))

    def join(self, actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None,
             reserve: bool = False, owner: str | None = None, arrival: bool = False, after: str | None = None,
             **fields: Any) -> Fight:
        TABLE.join(self.scribe, entrant_of(actor, at, side=side, owner=owner, **fields), reserve=reserve,
                   arrival=arrival, after=after)
        return self

    def faces(self, *faces: int) -> Fight:
        assert isinstance(self.scribe, Rigged)
        self.scribe.faces.extend(faces)
        return self

    def begin(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        self.faces(*faces)
        events = self._new(lambda: TABLE.begin(self.scribe))
        self.used_up()
        return events

    def started(self, faces: Sequence[int] = ()) -> Fight:
        """``begin`` with the initiative faces given; the fight itself."""
        self.begin(faces)
        return self

    def post(self, actor: str, *do: str, faces: Sequence[int] = (), responds_to: int | None = None,
             text: str = "") -> list[AnyEvent]:
        """Post; the events it added. The faces given must all be used."""
        return self.play(Post(actor=actor, text=text, actions=parse_actions(do), responds_to=responds_to), faces)

    def play(self, post: Post, faces: Sequence[int] = ()) -> list[AnyEvent]:
        """Post ``post`` as made (a policy's); the events it added."""
        self.faces(*faces)
        events = self._new(lambda: TABLE.post(self.scribe, post))
        self.used_up()
        return events

    def respond(self, actor: str, *do: str, faces: Sequence[int] = (), to: int | None = None) -> list[AnyEvent]:
        """A defensive turn answering ``to`` (default: the open turn's last post)."""
        return self.post(actor, *do, faces=faces, responds_to=to if to is not None else self.last_post())

    def end_turn(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        self.faces(*faces)
        events = self._new(lambda: TABLE.end_turn(self.scribe))
        self.used_up()
        return events

    def refused(self, actor: str, *do: str, faces: Sequence[int] = (), responds_to: int | None = None) -> RefusedError:
        before, count = self.scribe.state, len(self.scribe.events)
        self.faces(*faces)
        with pytest.raises(RefusedError) as caught:
            TABLE.post(self.scribe, Post(actor=actor, actions=parse_actions(do), responds_to=responds_to))
        assert self.scribe.state == before
        assert len(self.scribe.events) == count
        if isinstance(self.scribe, Rigged):
            self.scribe.faces.clear()
        return caught.value

    def used_up(self) -> None:
        if isinstance(self.scribe, Rigged):
            left = list(self.scribe.faces)
            self.scribe.faces.clear()
            assert not left, f"faces left unused: {left}"

    def _new(self, step: Any) -> list[AnyEvent]:
        count = len(self.scribe.events)
        step()
        return self.scribe.events[count:]

    def last_post(self) -> int:
        posts = [p.seq for p in self.state.pending if p.responds_to is None]
        assert posts, "no post in the open turn"
        return posts[-1]

    # ------------------------------------------------------------------ reading

    def pool(self, actor: str, pool: str = "hp") -> int:
        return self.state.combatants[actor].pools[pool]

    def hp(self, actor: str) -> int:
        return self.pool(actor, "hp")

    def effects(self, actor: str) -> dict[str, int | None]:
        return {e.name: e.remaining for e in self.state.effects.values() if e.target == actor}

    def effect(self, actor: str, name: str) -> ActiveEffect:
        found = [e for e in self.state.effects.values() if e.target == actor and e.name == name]
        assert len(found) == 1, f"{name} on {actor}: {found}"
        return found[0]

    def position(self, actor: str) -> tuple[int, int] | None:
        return self.state.combatants[actor].position

    def declarations(self, events: Iterable[AnyEvent]) -> list[DeclarationPosted]:
        return of(events, DeclarationPosted)


def duel(options: dict[str, Any] | None = None, *, a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
         distance: int = 10, faces: Sequence[int] = (15, 5)) -> Fight:
    """Alice and Bob ``distance`` metres apart (medium-close by default), Alice first."""
    fight = Fight(options)
    fight.join("alice", (0, 0), **(a or {}))
    fight.join("bob", (distance, 0), **(b or {}))
    fight.begin(faces)
    assert fight.current == "alice"
    return fight
