"""The default policy of simulated d20-evasion fights (``fightlog sim``;
``fightlog.kit.policy``): attack the weakest enemy standing twice with each weapon of the
sheet in turn (once if the turn allows only one), closing to touch range first when the
weapon does not reach; in a duel, dodge every attack waiting for a defensive turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.events.model import Action
from fightlog.kit.policy import Straightforward
from fightlog.kit.ruleset import weapon_names
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.defence import awaiting, unanswered
from fightlog.rules.d20evasion.ruleset import OUT


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    weapons = [f"'weapon={w}'" for w in weapon_names(state.combatants[actor].sheet)] + ["weapon=unarmed"]
    hit = [f"attack target={target} {w}" for w in weapons]
    close = f"move target={target} range=touch"
    return [
        *([h, h] for h in hit),
        *([h] for h in hit),
        *([close, h, h] for h in hit),
        *([close, h] for h in hit),
        [close],
    ]


def reply(state: SceneState, poster: str) -> Sequence[Post]:
    """Each defender's defensive turn: a dodge per attack waiting for them, else taking it."""
    posts: list[Post] = []
    for post, defender in unanswered(state):
        count = len(awaiting(post, defender))
        for kind in ("dodge", "take"):
            posts.append(Post(actor=defender, responds_to=post.seq, actions=(Action(type=kind),) * count))
    return posts


POLICY: Final = Straightforward(OUT, plan, reply)
