"""The default policy of simulated RoE fights (``fightlog sim``; ``fightlog.kit.policy``):
flee when down to a fifth of the sheet's HP with the enemies standing outnumbering one's
own side; else shoot or strike the weakest enemy standing with each carried weapon in turn,
reload what needs it, close in when nothing reaches, and fight unarmed last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.kit.policy import Straightforward, enemies
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.ruleset import OUT


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    me = state.combatants[actor]
    weapons = sorted(me.weapons)
    flee = [["flee"]] if _losing(state, actor) else []
    return [
        *flee,
        *([f"attack target={target} 'weapon={w}'"] for w in weapons),
        *([f"reload 'weapon={w}'"] for w in weapons),
        *(["move toward=" + target + " m=6", f"attack target={target} 'weapon={w}'"] for w in weapons),
        [f"move toward={target} m=6", f"attack target={target} weapon=unarmed"],
        [f"move toward={target} m=6"],
    ]


def _losing(state: SceneState, actor: str) -> bool:
    """Down to a fifth of the sheet's HP, and outnumbered by the enemies still standing."""
    me = state.combatants[actor]
    start = me.sheet.get("hp")
    if not isinstance(start, int) or me.pools.get("hp", 0) * 5 > start:
        return False
    standing = [c for c in state.combatants.values() if OUT.isdisjoint(c.statuses)]
    mine = sum(1 for c in standing if (c.side or c.actor) == (me.side or me.actor))
    return len(enemies(state, actor, OUT)) > mine


POLICY: Final = Straightforward(OUT, plan)
