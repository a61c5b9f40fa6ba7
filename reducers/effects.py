"""The effects slice: effects in force, their stacks, turns left and ticks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from fightlog.events.model import EffectApplied, EffectCountedDown, EffectExpired, EffectTicked
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import ActiveEffect

Effects = dict[str, ActiveEffect]


def _applied(effects: Effects, event: EffectApplied, rules: FoldRules) -> Effects:
    out = dict(effects)
    if event.refreshes is not None:
        out.pop(event.refreshes, None)
    out[event.effect] = ActiveEffect(
        effect=event.effect,
        name=event.name,
        target=event.target,
        applied=event.seq,
        source=event.source,
        stacks=event.stacks,
        remaining=event.duration,
        counts_on=event.counts_on,
        magnitude=event.magnitude,
        dice=event.dice,
        params=event.params,
    )
    return out


def _ticked(effects: Effects, event: EffectTicked, rules: FoldRules) -> Effects:
    effect = effects.get(event.effect)
    if effect is None:
        return effects
    out = dict(effects)
    remaining = event.remaining if event.remaining is not None else effect.remaining
    out[event.effect] = replace(effect, ticks=effect.ticks + 1, remaining=remaining)
    return out


def _counted_down(effects: Effects, event: EffectCountedDown, rules: FoldRules) -> Effects:
    effect = effects.get(event.effect)
    if effect is None:
        return effects
    out = dict(effects)
    out[event.effect] = replace(effect, remaining=event.remaining)
    return out


def _expired(effects: Effects, event: EffectExpired, rules: FoldRules) -> Effects:
    if event.effect not in effects:
        return effects
    out = dict(effects)
    del out[event.effect]
    return out


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    EffectApplied: _applied,
    EffectTicked: _ticked,
    EffectCountedDown: _counted_down,
    EffectExpired: _expired,
}
