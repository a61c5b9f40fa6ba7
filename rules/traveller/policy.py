"""The default policy of simulated Traveller fights (``fightlog sim``;
``fightlog.kit.policy``): give first aid to the most hurt ally (oneself included) when the
rules allow it (a medikit, soon enough after the injury), else attack the weakest enemy
standing with the weapon in hand, else
draw each weapon of the sheet and attack with it, reload an empty one, or close in; a
target dodges every attack that waits for a reaction (taking it when it cannot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.events.model import Action
from fightlog.kit.policy import Straightforward, toward
from fightlog.kit.ruleset import weapon_names
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.card import PHYSICAL
from fightlog.rules.traveller.reactions import unanswered
from fightlog.rules.traveller.ruleset import OUT


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    weapons = [f"'weapon={w}'" for w in weapon_names(state.combatants[actor].sheet)]
    spot = toward(state, actor, target, 6)
    move = [] if spot is None else [f"move x={spot[0]} y={spot[1]}"]
    hurt = _most_hurt(state, actor)
    return [
        *([[f"first_aid target={hurt}"]] if hurt is not None else []),
        [f"attack target={target}"],
        *([f"draw {w}", f"attack target={target} {w}"] for w in weapons),
        *([f"reload {w}"] for w in weapons),
        [*move, f"attack target={target} weapon=unarmed"],
        *([move] if move else []),
    ]


def _most_hurt(state: SceneState, actor: str) -> str | None:
    """The ally (or ``actor``) still standing who has lost the most of their physical
    characteristics, if anyone has lost any."""
    me = state.combatants[actor]
    worst, lost_most = None, 0
    for who in sorted(state.combatants.values(), key=lambda c: c.actor):
        if (who.side or who.actor) != (me.side or me.actor) or not OUT.isdisjoint(who.statuses):
            continue
        start = who.sheet.get("characteristics", {})
        lost = sum(max(0, int(start.get(p, 0)) - who.pools.get(p, 0)) for p in PHYSICAL
                   if isinstance(start, dict) and isinstance(start.get(p), int))
        if lost > lost_most:
            worst, lost_most = who.actor, lost
    return worst


def reply(state: SceneState, poster: str) -> Sequence[Post]:
    """A reaction to each attack of ``poster`` still waiting for one: a dodge, else take it."""
    return [Post(actor=waiting.target, actions=(Action(type=kind),))
            for waiting in unanswered(state, poster) for kind in ("dodge", "take")]


POLICY: Final = Straightforward(OUT, plan, reply)
