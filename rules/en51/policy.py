"""The default policy of simulated en51 fights (``fightlog sim``; ``fightlog.kit.policy``):
attack the weakest enemy standing with each weapon of the sheet in turn, reload what needs
it, close in when nothing reaches; a defender counterattacks with the first of its weapons
the rules allow (or lets the attack resolve alone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.events.model import Action
from fightlog.kit.policy import Straightforward
from fightlog.kit.ruleset import weapon_names
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.ruleset import OUT
from fightlog.rules.en51.turns import unanswered


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    weapons = [f"'weapon={w}'" for w in weapon_names(state.combatants[actor].sheet)]
    return [
        *([f"attack target={target} {w}"] for w in weapons),
        *([f"reload {w}"] for w in weapons),
        [f"attack target={target} weapon=unarmed"],
        ["move distance=6"],
    ]


def reply(state: SceneState, poster: str) -> Sequence[Post]:
    """A counterattack to each of ``poster``'s attacks still unanswered, weapon by weapon."""
    posts: list[Post] = []
    for post, action in unanswered(state):
        if post.actor != poster or action.target is None:
            continue
        sheet = state.combatants[action.target].sheet
        posts.extend(Post(actor=action.target, responds_to=post.seq,
                          actions=(Action(type="counter", weapon=w),)) for w in weapon_names(sheet))
    return posts


POLICY: Final = Straightforward(OUT, plan, reply)
