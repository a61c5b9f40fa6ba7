"""The scene slice: what ``scene_started`` and ``scene_ended`` say, the dice salts joined
and the next engine roll index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from fightlog.events.model import CombatantJoined, DiceRolled, SceneEnded, SceneStarted
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import SceneInfo


def _started(info: SceneInfo | None, event: SceneStarted, rules: FoldRules) -> SceneInfo:
    dice = event.dice
    return SceneInfo(
        scene=event.scene,
        ruleset=event.ruleset,
        format=event.format,
        options=dict(event.options),
        title=event.title,
        gm=event.gm,
        commitment=None if dice is None else dice.commitment,
        seed=None if dice is None else dice.seed,
    )


def _ended(info: SceneInfo | None, event: SceneEnded, rules: FoldRules) -> SceneInfo | None:
    if info is None:
        return None
    return replace(
        info,
        ended=True,
        winner=event.winner,
        end_reason=event.reason,
        seed=event.seed if event.seed is not None else info.seed,
    )


def _joined(info: SceneInfo | None, event: CombatantJoined, rules: FoldRules) -> SceneInfo | None:
    if info is None or event.salt is None:
        return info
    return replace(info, salts=(*info.salts, event.salt))


def roll_consumed(info: SceneInfo | None, event: object) -> SceneInfo | None:
    """``info`` after a voided event: an engine roll voided still used its number (the next
    roll is drawn after it, never the voided faces again); anything else changes nothing."""
    if type(event) is not DiceRolled or info is None:
        return info
    index = event.index
    if index is None or event.generator != "engine" or index < info.rolls:
        return info
    return replace(info, rolls=index + 1)


def _rolled(info: SceneInfo | None, event: DiceRolled, rules: FoldRules) -> SceneInfo | None:
    return roll_consumed(info, event)


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    SceneStarted: _started,
    SceneEnded: _ended,
    CombatantJoined: _joined,
    DiceRolled: _rolled,
}
