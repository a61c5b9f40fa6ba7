"""What a scene's end seals: a ``scene_ended`` that revealed a seed kept secret until then.

Voiding it would let the fight play on with dice anyone can foresee: ``fightlog rule``
refuses such a void, a dispute's changed ruling too, and ``play`` a log that holds one.
"""

from __future__ import annotations

from fightlog.events.model import SceneEnded, SceneStarted


def seals_the_dice(event: object, opened: bool) -> bool:
    """Whether ``event`` is a scene's end that revealed a seed kept secret until then
    (``opened``: the scene was open, its seed public from ``scene_started``)."""
    return isinstance(event, SceneEnded) and event.seed is not None and not opened


def opened(first: object) -> bool:
    """Whether ``first`` is a ``scene_started`` of an open scene: its seed public from the start."""
    return isinstance(first, SceneStarted) and first.dice is not None and first.dice.seed is not None
