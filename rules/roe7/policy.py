"""The default policy of simulated RoE fights (``fightlog sim``; ``fightlog.kit.policy``):
shoot or strike the weakest enemy standing with each carried weapon in turn, reload what
needs it, close in when nothing reaches, and fight unarmed last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.kit.policy import Straightforward
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.ruleset import OUT


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    weapons = sorted(state.combatants[actor].weapons)
    return [
        *([f"attack target={target} 'weapon={w}'"] for w in weapons),
        *([f"reload 'weapon={w}'"] for w in weapons),
        *(["move toward=" + target + " m=6", f"attack target={target} 'weapon={w}'"] for w in weapons),
        [f"move toward={target} m=6", f"attack target={target} weapon=unarmed"],
        [f"move toward={target} m=6"],
    ]


POLICY: Final = Straightforward(OUT, plan)
