"""The default policy of simulated en51 fights (``fightlog sim``; ``fightlog.kit.policy``):
attack the weakest enemy standing with each weapon of the sheet in turn, reload what needs
it, close in when nothing reaches; a defender counterattacks with the first of its weapons
the rules allow (or lets the attack resolve alone).

en5.1 keeps no map: a shot names its distance. The policy gives the distance between the
two fighters' positions when both joined with one (a scenario's or a roster's), else
``ASSUMED_METRES``; a melee attack names none (the table takes it to be in reach)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.events.model import Action
from fightlog.kit.policy import Straightforward
from fightlog.kit.geometry import metres_between
from fightlog.kit.ruleset import weapon_names
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.ruleset import OUT
from fightlog.rules.en51.turns import unanswered


ASSUMED_METRES: Final = 10
"""The distance of a shot between fighters without positions (the policy's guess)."""


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    sheet = state.combatants[actor].sheet
    weapons = [f"'weapon={w}'" for w in weapon_names(sheet)]
    ranged = {str(w.get("name")) for w in sheet.get("weapons", ()) if isinstance(w, dict) and w.get("kind") == "ranged"}
    here, there = state.combatants[actor].position, state.combatants[target].position
    metres = ASSUMED_METRES if here is None or there is None else metres_between(here, there)
    return [
        *([f"attack target={target} 'weapon={w}'" + (f" distance={metres}" if w in ranged else "")]
          for w in weapon_names(sheet)),
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
