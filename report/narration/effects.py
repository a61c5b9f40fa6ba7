"""Effects in words: applied, taking hold, counting down, running out; and an effect in force
(shared with the state tables and the change lines)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fightlog.events.model import EffectApplied, EffectCountedDown, EffectExpired, EffectTicked
from fightlog.kit.ruleset import ruleset_for
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.report.narration.lines import Scene
from fightlog.report.wording import plural, spoken


def _effect_applied(event: EffectApplied, scene: Scene) -> str:
    by = f"{scene.who(event.source)} puts " if event.source else ""
    text = f"{by}{spoken(event.name)} on {scene.who(event.target)}"
    parts = ["until removed" if event.duration is None else turns(event.duration)]
    period = harm_period(scene.before, event.name, event.params)
    parts += _effect_details(event.magnitude, event.dice, event.stacks, event.counts_on, event.target, scene.who, period)
    if event.refreshes is not None:
        parts.append(f"replacing {event.refreshes}")
    return text + ": " + ", ".join(parts)


def _ticked(event: EffectTicked, scene: Scene) -> str:
    text = f"{_effect_name(event.effect, scene)} on {scene.who(event.target)} takes hold"
    if event.remaining is not None:
        text += f" ({turns(event.remaining)} left)"
    return text


def _counted_down(event: EffectCountedDown, scene: Scene) -> str:
    name = _effect_name(event.effect, scene)
    return f"{name} on {scene.who(event.target)} counts down: {turns(event.remaining)} left"


def _expired(event: EffectExpired, scene: Scene) -> str:
    name = _effect_name(event.effect, scene)
    why = "runs out" if event.reason == "duration" else f"ends ({event.reason})"
    return f"{name} on {scene.who(event.target)} {why}"


DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {
    EffectApplied: _effect_applied,
    EffectTicked: _ticked,
    EffectCountedDown: _counted_down,
    EffectExpired: _expired,
}
"""Event type -> its line."""


def turns(n: int) -> str:
    """``1 turn``, ``3 turns``."""
    return plural(n, "turn")


def harm_period(state: SceneState, effect: str, params: Mapping[str, Any]) -> str | None:
    """How often the effect harms under the scene's ruleset (``Ruleset.harm_period``)."""
    return ruleset_for(None if state.scene is None else state.scene.ruleset).harm_period(effect, params)


def _effect_details(
    magnitude: int | None,
    dice: str | None,
    stacks: int,
    counts_on: str | None,
    target: str,
    who: Callable[[str | None], str],
    period: str | None,
) -> list[str]:
    """The damage over time (``5/turn``, ``1d10/turn``, ``2/round``) or the magnitude of
    another effect (an aim's bonus, a penalty: ``magnitude -15``), stacks and whose turns
    count an effect, as phrases."""
    parts: list[str] = []
    harm = dice or (None if magnitude is None else str(magnitude))
    if harm is not None:
        parts.append(f"{harm}/{period}" if period is not None else f"magnitude {harm}")
    if stacks != 1:
        parts.append(plural(stacks, "stack"))
    if counts_on is not None and counts_on != target:
        parts.append(f"counted on {who(counts_on)}'s turns")
    return parts


def _effect_name(effect: str, scene: Scene) -> str:
    active = scene.before.effects.get(effect) or scene.after.effects.get(effect)
    return effect if active is None else spoken(active.name)


def effect_text(effect: ActiveEffect, who: Callable[[str | None], str], state: SceneState) -> str:
    """``bleed on Alice from Bob: 3 turns left, 5/turn``; ``aim on Vex: 1 turn left, magnitude 2``."""
    text = f"{spoken(effect.name)} on {who(effect.target)}"
    if effect.source:
        text += f" from {who(effect.source)}"
    parts = ["until removed" if effect.remaining is None else f"{turns(effect.remaining)} left"]
    parts += _effect_details(effect.magnitude, effect.dice, effect.stacks, effect.counts_on, effect.target, who,
                             harm_period(state, effect.name, effect.params))
    return text + ": " + ", ".join(parts)
