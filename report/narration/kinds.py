"""One line saying what an event records: the table of every kind's describer, gathered from
the modules of each event family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fightlog.events.model import AnyEvent
from fightlog.report.narration import combat, course, effects, rolls, rulings
from fightlog.report.narration.lines import Scene, kind_of


def describe(event: AnyEvent, scene: Scene) -> str:
    """One line saying what ``event`` records (its kind, for a kind nothing describes)."""
    handler = _DESCRIBE.get(type(event))
    if handler is None:
        return kind_of(event)
    return handler(event, scene)


_DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {
    **course.DESCRIBE,
    **rolls.DESCRIBE,
    **combat.DESCRIBE,
    **effects.DESCRIBE,
    **rulings.DESCRIBE,
}
