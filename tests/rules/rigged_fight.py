"""A scene of one ruleset on a rigged scribe (``tests.rules.roe7.rigged.Rigged``: faces from a
queue), for rules tests: the part every ruleset's ``Fight`` shares.

A ruleset's ``Fight`` subclasses ``RiggedFight`` with its ``RULESET`` and ``TABLE`` and adds
how it joins combatants and what it reads. Each step (``post``, ``end_turn``, ``turn``) takes
the faces it must use, all of them, and gives the events it added; ``refused`` asserts a post
is refused and nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

import pytest

from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, AnyEvent, SceneStarted
from fightlog.kit.actions import parse_actions
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.reducers.state import EMPTY
from tests.rules.roe7.rigged import Rigged
from tests.rules.scene_reads import SceneReads


class RiggedFight(SceneReads):
    RULESET: ClassVar[str]
    TABLE: ClassVar[Any]
    COMBATANT: ClassVar[Any]
    """The roster entry model ``join`` validates (``sheet``: the sheet from its fields; ``joined``:
    the ``combatant_joined`` of an entry)."""
    sheet: ClassVar[Callable[..., dict[str, Any]]]
    joined: ClassVar[Callable[[Any], Any]]

    def __init__(self, options: dict[str, Any] | None = None, scribe: Scribe | None = None) -> None:
        self.scribe = scribe if scribe is not None else Rigged(EMPTY)
        self.scribe.emit(SceneStarted(scene="test", ruleset=self.RULESET, format=FORMAT_VERSION,
                                      options=self.TABLE.options(options or {})))

    def join(self, actor: str, *, side: str | None = None, role: str = "pc", arrival: bool = False,
             **fields: Any) -> Self:
        combatant = self.COMBATANT.model_validate({"id": actor, "name": actor.title(), "side": side or actor,
                                                   "role": role, "sheet": self.sheet(**fields)})
        self.TABLE.join(self.scribe, Entrant(actor=actor, joined=self.joined(combatant)), arrival=arrival)
        return self

    def faces(self, *faces: int) -> Self:
        assert isinstance(self.scribe, Rigged)
        self.scribe.faces.extend(faces)
        return self

    def used_up(self) -> None:
        if isinstance(self.scribe, Rigged):
            left = list(self.scribe.faces)
            self.scribe.faces.clear()
            assert not left, f"faces left unused: {left}"

    def _new(self, step: Callable[[], Any], faces: Sequence[int] = ()) -> list[AnyEvent]:
        """The events ``step`` adds, given ``faces``, which it must use up."""
        self.faces(*faces)
        count = len(self.scribe.events)
        step()
        self.used_up()
        return self.scribe.events[count:]

    def post(self, actor: str, *do: str, faces: Sequence[int] = (), responds_to: int | None = None,
             text: str = "") -> list[AnyEvent]:
        post = Post(actor=actor, text=text, actions=parse_actions(do), responds_to=responds_to)
        return self._new(lambda: self.TABLE.post(self.scribe, post), faces)

    def end_turn(self, faces: Sequence[int] = ()) -> list[AnyEvent]:
        return self._new(lambda: self.TABLE.end_turn(self.scribe), faces)

    def turn(self, actor: str, *do: str, faces: Sequence[int] = ()) -> list[AnyEvent]:
        """``actor`` posts in their turn and the turn ends; the events of both."""
        post = Post(actor=actor, actions=parse_actions(do))
        return self._new(lambda: (self.TABLE.post(self.scribe, post), self.TABLE.end_turn(self.scribe)), faces)

    def refused(self, actor: str, *do: str, responds_to: int | None = None) -> RefusedError:
        before, count = self.scribe.state, len(self.scribe.events)
        with pytest.raises(RefusedError) as caught:
            self.TABLE.post(self.scribe, Post(actor=actor, actions=parse_actions(do), responds_to=responds_to))
        assert self.scribe.state == before
        assert len(self.scribe.events) == count
        return caught.value
