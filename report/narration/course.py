"""The course of a scene in words: its start and end, who joins, the posting order, rounds,
turns and posts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fightlog.events.model import (
    CombatantJoined,
    DeclarationPosted,
    InitiativeRolled,
    InitiativeSet,
    RoundEnded,
    RoundStarted,
    SceneEnded,
    SceneStarted,
    TurnEnded,
    TurnStarted,
)
from fightlog.report.narration.lines import Scene
from fightlog.report.narration.phrases import actions_text, pools_text, unit_of


def _scene_started(event: SceneStarted, scene: Scene) -> str:
    text = f"Scene {event.scene} ({event.ruleset})"
    extras = [f'"{event.title}"'] if event.title else []
    if event.gm:
        extras.append(f"GM {event.gm}")
    if event.dice is not None:
        extras.append("dice seed revealed" if event.dice.seed else "dice seed committed")
    return text + (": " + ", ".join(extras) if extras else "")


def _scene_ended(event: SceneEnded, scene: Scene) -> str:
    parts = []
    if event.winner:
        parts.append(f"winner {scene.who(event.winner)}")
    if event.reason:
        parts.append(event.reason)
    if event.seed:
        before = scene.before.scene
        parts.append("dice seed public from the start" if before is not None and before.seed else "dice seed revealed")
    return "Scene ends" + (": " + "; ".join(parts) if parts else "")


def _joined(event: CombatantJoined, scene: Scene) -> str:
    text = event.name + " joins"
    if event.side:
        text += f" (side {event.side})"
    if event.role != "pc":
        text += f" as {event.role}"
    if event.owner:
        text += f", with {scene.who(event.owner)}"
    if event.arrival:
        text += ", arriving" + (f" after {scene.who(event.after)}" if event.after else "")
    details = [pools_text(event.pools, event.pool_max)] if event.pools else []
    joined = scene.after.combatants.get(event.actor)
    if joined is not None and joined.weapons:
        details.append("armed with " + ", ".join(sorted(joined.weapons)))
    return text + (": " + "; ".join(details) if details else "")


def _initiative(event: InitiativeRolled, scene: Scene) -> str:
    who = ", ".join(scene.who(a) for a in event.group) if event.group else scene.who(event.actor)
    text = f"{who}: initiative {event.score}"
    if event.tiebreak:
        text += " (tie-breakers " + ", ".join(str(t) for t in event.tiebreak) + ")"
    if event.roll is not None:
        text += f", from the roll at seq {event.roll}"
    return text


def _order(event: InitiativeSet, scene: Scene) -> str:
    why = event.reason + (f", by {event.by}" if event.by else "")
    return f"Posting order ({why}): " + ", ".join(scene.who(a) for a in event.order)


def _round_started(event: RoundStarted, scene: Scene) -> str:
    return f"Round {event.round}"


def _round_ended(event: RoundEnded, scene: Scene) -> str:
    return f"End of round {event.round}"


def _turn_started(event: TurnStarted, scene: Scene) -> str:
    return f"{scene.who(event.actor)}'s turn"


def _turn_ended(event: TurnEnded, scene: Scene) -> str:
    return f"End of {scene.who(event.actor)}'s turn"


def _posted(event: DeclarationPosted, scene: Scene) -> str:
    who = scene.who(event.actor)
    if who == event.actor and event.origin is not None and event.origin.author:
        who = event.origin.author  # not (yet) in the scene: the name the source showed
    who += " (ooc)" if event.ooc else ""
    text = f'{who}: "{event.text}"' if event.text else f"{who} posts"
    if event.actions:
        text += " [" + actions_text(event.actions, scene.who, unit_of(scene.before)) + "]"
    if event.responds_to is not None:
        text += f" (answering seq {event.responds_to})"
    return text


DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {
    SceneStarted: _scene_started,
    SceneEnded: _scene_ended,
    CombatantJoined: _joined,
    InitiativeRolled: _initiative,
    InitiativeSet: _order,
    RoundStarted: _round_started,
    RoundEnded: _round_ended,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    DeclarationPosted: _posted,
}
"""Event type -> its line."""
