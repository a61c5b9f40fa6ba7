"""The default policy of simulated bleeding-sun fights (``fightlog sim``; ``fightlog.kit.policy``):
attack the weakest enemy standing with each weapon of the sheet in turn (a gun at short
range, a grenade thrown at them), reload, close in; an attack waiting for its target's answer
is dodged (a trip resisted), and when the target cannot, it resolves at the end of the turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import FightlogError
from fightlog.events.model import Action
from fightlog.kit.policy import Straightforward
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.card import read_card
from fightlog.rules.bleedingsun.fighters import INCOMING
from fightlog.rules.bleedingsun.ruleset import OUT


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    try:
        weapons = read_card(state.combatants[actor].sheet).weapons
    except FightlogError:
        weapons = ()
    attacks: list[list[str]] = []
    for weapon in weapons:
        named = f"'weapon={weapon.name}'"
        if weapon.kind == "ranged":
            attacks.append([f"attack target={target} {named} range=short"])
        elif weapon.kind in ("thrown", "explosive"):
            attacks.append([f"throw {named} target={target}"])
        else:
            attacks.append([f"attack target={target} {named}"])
    reloads = [[f"reload 'weapon={w.name}'"] for w in weapons if w.kind == "ranged"]
    return [*attacks, *reloads, ["move hexes=4"]]


def reply(state: SceneState, poster: str) -> Sequence[Post]:
    """The answer to each of ``poster``'s attacks that waits for one: a dodge (a trip resisted)."""
    waiting = sorted((e for e in state.effects.values() if e.name == INCOMING and e.source == poster),
                     key=lambda e: (e.applied, e.effect))
    return [Post(actor=e.target, actions=(Action(type="resist" if e.params.get("kind") == "trip" else "dodge"),))
            for e in waiting]


POLICY: Final = Straightforward(OUT, plan, reply)
