"""What a scene's end seals: a ``scene_ended`` that revealed a seed kept secret until then.

Voiding it would let the fight play on with dice anyone can foresee: ``fightlog rule``
refuses such a void, a dispute's changed ruling too, and ``play`` a log that holds one.
"""

from __future__ import annotations

from fightlog.events.model import SceneEnded


def seals_the_dice(event: object, opened: bool) -> bool:
    """Whether ``event`` is a scene's end that revealed a seed kept secret until then
    (``opened``: the scene was open, its seed public from ``scene_started``)."""
    return isinstance(event, SceneEnded) and event.seed is not None and not opened
