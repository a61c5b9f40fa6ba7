"""Movement between range bands (Movement; Range; Sprinting).

``move target=bob range=close`` walks straight towards (or away from) Bob until at close
range, for the points the chart gives band by band; ``move lateral=true`` moves within the
band (to cover, to a comrade) for one point. A sprint is an action that adds the turn's
movement points again (``allowance``). Movement needs positions: the scene's map in metres.
"""

from __future__ import annotations

from typing import NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action, Moved
from fightlog.rules.d20evasion.bands import BANDS, Point, approach, band_between, distance, is_band, move_cost
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options
from fightlog.kit.table import Scribe


class Step(NamedTuple):
    """A move read: its cost in points, where it ends, and the band reached (``None``: a
    lateral move)."""

    points: int
    spot: Point
    band: str | None


def lateral(action: Action) -> bool:
    return action.params.get("lateral") is True


def plan_move(action: Action, me: Point | None, other: Point | None, options: D20Options) -> Step:
    """What a move costs and where it ends, from where ``me`` and the one it is relative to
    (``other``) stand; ``RefusedError`` for a move the scene cannot place."""
    if lateral(action):
        if me is None:
            raise RefusedError("a move needs positions (this scene keeps none for the mover)", code="rules.incomplete")
        return Step(options.lateral_move_cost, me, None)
    band = action.range
    if action.target is None or band is None:
        raise RefusedError("a move names whom it is relative to and the band to reach: move target=ID range=BAND "
                           "(or move lateral=true)", code="rules.incomplete")
    if not is_band(band):
        raise RefusedError(f"range={band!r} is no band (bands: {', '.join(BANDS)})")
    if me is None or other is None:
        raise RefusedError("a move needs positions (this scene keeps none for the mover or the one moved towards)",
                           code="rules.incomplete")
    start = band_between(me, other, options)
    if start == band:
        raise RefusedError(f"already at {band} range of {action.target} (a move within a band: move lateral=true)")
    return Step(move_cost(start, band), approach(me, other, band, options), band)  # type: ignore[arg-type]


def move(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    other = None if action.target is None else Fighter(scribe.state, action.target).position
    step = plan_move(action, who.position, other, who.options)
    here = who.position
    assert here is not None
    scribe.emit(
        Moved(
            actor=actor,
            metres=distance(here, step.spot),
            band=step.band,
            relative_to=action.target if step.band is not None else None,
            points=step.points,
            cause=declaration,
            x=step.spot[0],
            y=step.spot[1],
        )
    )


def sprint(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A sprint spends an action for more movement; the declaration is its record."""
