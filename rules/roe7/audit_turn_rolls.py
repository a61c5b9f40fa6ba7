"""Rolls that cite no post (an imported fight's: a HUD or a bot rolled, and the transcript
says nothing of what for but the roll's purpose): the post each belongs to and the contest a
damage roll follows, read back through the open turn (``AuditView.event``).
"""

from __future__ import annotations

from typing import Final

from fightlog.events.model import Action, AttackResolved, DeclarationPosted, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState

LOOK_BACK: Final = 64
"""How far back through the turn a roll citing nothing looks (a turn is short)."""


def post_of(before: SceneState, roll: DiceRolled, view: AuditView) -> DeclarationPosted | None:
    """The post ``roll`` is for: the one it cites, else (an imported or hand-kept fight) the
    roller's latest post of the open turn."""
    if roll.for_seq is not None:
        cited = view.event(roll.for_seq)
        return cited if type(cited) is DeclarationPosted else None
    first = max(before.turn.started, roll.seq - LOOK_BACK)
    for seq in range(roll.seq - 1, first - 1, -1):
        found = view.event(seq)
        if type(found) is DeclarationPosted and found.actor == roll.roller:
            return found
    return None


def contest_before(before: SceneState, damage: DiceRolled, view: AuditView) -> tuple[DiceRolled, DiceRolled] | None:
    """The attack roll a damage roll citing nothing follows, and the one dodge against it:
    the roller's latest attack roll of the turn and a dodge by another after it; ``None``
    where the turn holds an outcome (the log says how it resolved), or not exactly one of each."""
    first = max(before.turn.started, damage.seq - LOOK_BACK)
    dodges: list[DiceRolled] = []
    for seq in range(damage.seq - 1, first - 1, -1):
        found = view.event(seq)
        if type(found) is AttackResolved:
            return None
        if type(found) is not DiceRolled or not found.dice:
            continue
        if found.purpose == "dodge" and found.roller != damage.roller:
            dodges.append(found)
        elif found.purpose == "attack":
            if found.roller != damage.roller:
                return None
            return (found, dodges[0]) if len(dodges) == 1 else None
    return None


def attack_in(post: DeclarationPosted) -> Action | None:
    """The post's attack, if it makes exactly one, with one weapon at one target."""
    attacks = [a for a in post.actions if a.type == "attack"]
    if len(attacks) != 1:
        return None
    action = attacks[0]
    if action.target is None or "offhand" in action.params:
        return None
    return action
