"""Phrases several narrations share: pools and the structured reading of a post's actions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from fightlog.events.model import Action
from fightlog.kit.ruleset import ruleset_for
from fightlog.reducers.state import SceneState
from fightlog.report.pool_rows import pool_rows
from fightlog.report.wording import plural, value_text


def pool_name(pool: str) -> str:
    return "HP" if pool == "hp" else pool


def pools_text(pools: Mapping[str, int], maxima: Mapping[str, int]) -> str:
    """``hp 84/100, armour 20/20``: HP first, then the other pools by name; a wound track as
    one, ``w1..w20 18/20 (w7 0, w12 0)`` (``fightlog.report.pool_rows``)."""
    shown = []
    for row in pool_rows(pools, maxima):
        shown.append(f"{row.name} {row.value}" + ("" if row.maximum is None else f"/{row.maximum}")
                     + (f" ({row.below})" if row.below else ""))
    return ", ".join(shown)


def unit_of(state: SceneState) -> str:
    """What the scene's ruleset counts distances in (``Ruleset.distance_unit``)."""
    return ruleset_for(None if state.scene is None else state.scene.ruleset).distance_unit


def distance_text(count: int, unit: str) -> str:
    """``8 m``; ``1 hex``, ``3 hexes``."""
    return f"{count} m" if unit == "m" else plural(count, unit, unit + "es" if unit.endswith("x") else None)


def actions_text(actions: Iterable[Action], who: Callable[[str | None], str], unit: str) -> str:
    """The structured reading of a post: ``move 8 m; attack Bob with X, single, close``, its
    distances in ``unit`` (``unit_of``)."""
    return "; ".join(_action(a, who, unit) for a in actions)


def _action(action: Action, who: Callable[[str | None], str], unit: str) -> str:
    targets = [action.target] if action.target else []
    targets += [t for t in action.targets if t not in targets]
    text = action.type
    if targets:
        text += " " + ", ".join(who(t) for t in targets)
    if action.weapon:
        text += f" with {action.weapon}"
    if action.item:
        text += f" ({action.item})"
    if action.distance is not None:
        text += " " + distance_text(action.distance, unit)
    qualifiers = [q for q in (action.mode, action.range) if q]
    qualifiers += [_param(k, v) for k, v in sorted(action.params.items())]
    return ", ".join([text, *qualifiers])


def _param(key: str, value: object) -> str:
    """An action's parameter: ``m 8``; a flag as ``cover`` (true) or ``not cover`` (false)."""
    if isinstance(value, bool):
        return key if value else f"not {key}"
    return f"{key} {value_text(value)}"
