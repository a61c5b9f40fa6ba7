"""A rigged ``Scribe`` for rules tests, and a small fight builder around the roe7 table.

``Rigged.roll`` takes its faces from a queue the test gives instead of the seeded generator,
so a test states the dice and asserts exact events. It compiles the notation and rolls it
the way ``Scribe.roll`` does (``compile_expression(n).roll(stream, modifiers, index=i)``)
and emits the ``dice_rolled`` event the same way, so the log looks like an engine log. A
roll with no face left, or a face that does not fit the die, fails the test at once.

``Fight`` builds a scene: ``join`` combatants from sheet fields (a neutral human medium by
default), ``begin``, ``post`` actions (``act("attack", target="bob", weapon=RIFLE)``),
``end_turn``, and read HP, statuses and effects. ``refused`` asserts that a post is refused
and that nothing changed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import pytest

from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, AnyEvent, CombatantJoined, Scalar, SceneStarted
from fightlog.reducers.state import EMPTY, ActiveEffect, SceneInfo, SceneState
from fightlog.dice import ModifierLike, RollResult, compile_expression
from fightlog.rules.roe7.sheet import Sheet
from fightlog.rules.roe7.table import TABLE
from fightlog.kit.table import Entrant, Post, Scribe
from tests.rules.scene_reads import SceneReads

RIFLE = "M_a_Rifle_Class_(Permanent)"
SEMI_RIFLE = "M_s_Rifle_Class_(Permanent)"
PISTOL = "S_s_Pistol_Class_(Permanent)"
SMG = "S_a_SMG_Class_(Permanent)"
HPISTOL = "S_s_HPistol_Class_(Permanent)"
SHOTGUN = "M_s_Shotgun_Class_(Permanent)"
AMR = "L_s_AMR_Class_(Permanent)"
MG = "L_a_MG_Class_(Permanent)"
FLAMER = "L_a_ChemThrower_Class_(Permanent)"
CANNON = "H_a_ACannon_Class_(Permanent)"
CLUB_S = "S_b_Club_Class_(Permanent)"
CLUB_M = "M_b_Club_Class_(Permanent)"
CLUB_L = "L_b_Club_Class_(Permanent)"
CLUB_H = "H_b_Club_Class_(Permanent)"
SWORD_M = "M_s_Sword_Class_(Permanent)"
BLADE = "S_s_Blade_Class_(Permanent)"
SPEAR = "L_p_Shafted_Class_(Permanent)"
PIERCE_M = "M_p_Sword_Class_(Permanent)"
WHIP = "M_w_Whip_Class_(Permanent)"
MAGIKA = "M_m_Magika_Class_(Permanent)"
AXE_H = "H_s_Axe_Class_(Permanent)"


class Faces:
    """A ``FaceStream`` over the rigged queue."""

    def __init__(self, queue: deque[int], what: str) -> None:
        self.queue = queue
        self.what = what
        self.drawn = 0

    def draw(self, sides: int) -> int:
        if not self.queue:
            raise AssertionError(f"no face queued for {self.what}")
        face = self.queue.popleft()
        if not 1 <= face <= sides:
            raise AssertionError(f"face {face} queued for a d{sides} ({self.what})")
        self.drawn += 1
        return face

    def draw_many(self, sides: int, count: int) -> list[int]:
        return [self.draw(sides) for _ in range(count)]


class Rigged(Scribe):
    """A ``Scribe`` whose dice come from ``faces`` (see the module docstring)."""

    def __init__(self, state: SceneState, faces: Iterable[int] = ()) -> None:
        super().__init__(state, None)
        self.faces: deque[int] = deque(faces)

    def draw(self, notation: str, modifiers: Iterable[ModifierLike], info: SceneInfo, *, what: str) -> RollResult:
        return compile_expression(notation).roll(Faces(self.faces, what), modifiers, index=info.rolls)


def act(kind: str, target: str | None = None, *, weapon: str | None = None, mode: str | None = None,
        item: str | None = None, distance: int | None = None, range: str | None = None, **params: Scalar) -> Action:
    """An ``Action``; keyword arguments other than its fields go to ``params``."""
    return Action(type=kind, target=target, weapon=weapon, mode=mode, item=item, distance=distance, range=range,
                  params=dict(params))


def sheet(**fields: Any) -> dict[str, Any]:
    """A sheet snapshot: a human (Compassionate: nothing that counts in a fight), medium,
    100 HP, no modifiers, plus ``fields``."""
    data: dict[str, Any] = {"hp": 100, "race": "human", "racial": "compassionate", "size_class": "medium"}
    data.update(fields)
    return Sheet.model_validate(data).to_snapshot()


def entrant_of(actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None, **fields: Any) -> Entrant:
    """A combatant ready to join, from sheet fields (see ``sheet``)."""
    snapshot = sheet(**fields)
    joined = CombatantJoined(actor=actor, name=actor.title(), side=side or actor, controller=actor,
                             pools={"hp": snapshot["hp"]}, sheet=snapshot)
    return Entrant(actor=actor, joined=joined, position=at)


class Fight(SceneReads):
    """A roe7 scene on a rigged scribe."""

    def __init__(self, options: dict[str, Any] | None = None, scribe: Scribe | None = None) -> None:
        self.scribe = scribe if scribe is not None else Rigged(EMPTY)
        self.scribe.emit(
            SceneStarted(scene="test", ruleset="roe7", format=FORMAT_VERSION, options=TABLE.options(options or {}))
        )

    # ------------------------------------------------------------------ setting up

    def join(self, actor: str, at: tuple[int, int] | None = (0, 0), *, side: str | None = None, arrival: bool = False,
             after: str | None = None, reserve: bool = False, salt: str | None = None, **fields: Any) -> Fight:
        entrant = entrant_of(actor, at, side=side, **fields)
        TABLE.join(self.scribe, entrant, arrival=arrival, after=after, reserve=reserve, salt=salt)
        return self

    def begin(self) -> list[AnyEvent]:
        return self._new(lambda: TABLE.begin(self.scribe))

    def faces(self, *faces: int) -> Fight:
        """Queue faces for the next rolls."""
        assert isinstance(self.scribe, Rigged)
        self.scribe.faces.extend(faces)
        return self

    # ------------------------------------------------------------------ playing

    def post(self, actor: str, *actions: Action, faces: Sequence[int] = (), text: str = "",
             responds_to: int | None = None) -> list[AnyEvent]:
        """Post; the events it added. The faces given must all be used."""
        self.faces(*faces)
        events = self._new(lambda: TABLE.post(self.scribe, Post(actor=actor, text=text, actions=actions,
                                                                   responds_to=responds_to)))
        self.used_up()
        return events

    def end_turn(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        self.faces(*faces)
        events = self._new(lambda: TABLE.end_turn(self.scribe))
        self.used_up()
        return events

    def refused(self, actor: str, *actions: Action, faces: Sequence[int] = (), responds_to: int | None = None) -> str:
        """Assert the post is refused and leaves events and state as they were; the reason."""
        before, count = self.scribe.state, len(self.scribe.events)
        self.faces(*faces)
        with pytest.raises(RefusedError) as caught:
            TABLE.post(self.scribe, Post(actor=actor, actions=actions, responds_to=responds_to))
        assert self.scribe.state == before
        assert len(self.scribe.events) == count
        if isinstance(self.scribe, Rigged):
            self.scribe.faces.clear()
        return caught.value.message

    def used_up(self) -> None:
        if isinstance(self.scribe, Rigged):
            left = list(self.scribe.faces)
            self.scribe.faces.clear()
            assert not left, f"faces left unused: {left}"

    def _new(self, step: Any) -> list[AnyEvent]:
        count = len(self.scribe.events)
        step()
        return self.scribe.events[count:]

    # ------------------------------------------------------------------ reading

    def effects(self, actor: str) -> dict[str, int | None]:
        """Effect name -> turns left, for effects on ``actor``."""
        return {e.name: e.remaining for e in self.state.effects.values() if e.target == actor}

    def effect(self, actor: str, name: str) -> ActiveEffect:
        found = [e for e in self.state.effects.values() if e.target == actor and e.name == name]
        assert len(found) == 1, f"{name} on {actor}: {found}"
        return found[0]

    def weapon(self, actor: str, token: str) -> tuple[int, bool, int]:
        w = self.state.combatants[actor].weapons[token]
        return w.fired, w.needs_reload, w.cooldown

    def spent(self, actor: str) -> dict[str, int]:
        return self.state.combatants[actor].spent


def of(events: Iterable[AnyEvent], kind: type[Any]) -> list[Any]:
    """The events of one kind."""
    return [e for e in events if isinstance(e, kind)]


def kinds(events: Iterable[AnyEvent]) -> list[str]:
    return [str(type(e).__struct_config__.tag) for e in events]


def plain(events: Iterable[AnyEvent]) -> list[dict[str, Any]]:
    """Events as plain data (for comparing whole logs)."""
    return [msgspec.to_builtins(e) for e in events]


def duel(options: dict[str, Any] | None = None, *, a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
         distance: int = 10) -> Fight:
    """Alice and Bob, ``distance`` metres apart, fight begun (Alice's turn open)."""
    fight = Fight(options)
    fight.join("alice", (0, 0), **({"weapons": [RIFLE]} | (a or {})))
    fight.join("bob", (distance, 0), **({"weapons": [RIFLE]} | (b or {})))
    fight.begin()
    return fight
