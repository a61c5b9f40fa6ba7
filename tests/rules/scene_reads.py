"""What every ruleset's rigged ``Fight`` reads of its scene (``self.scribe``): the folded
state, whose turn it is, a combatant's HP and statuses."""

from __future__ import annotations

from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState


class SceneReads:
    scribe: Scribe

    @property
    def state(self) -> SceneState:
        return self.scribe.state

    @property
    def current(self) -> str | None:
        return self.state.turn.current

    def hp(self, actor: str) -> int:
        return self.state.combatants[actor].pools["hp"]

    def statuses(self, actor: str) -> tuple[str, ...]:
        return self.state.combatants[actor].statuses
