"""Movement phases and stances (Movement Range; Sprint; Falling; Changing Stance; Cover).

A move goes to a point (``x=``/``y=``), toward or away from someone (``toward=ID``/``away=ID``
with ``m=METRES``), or covers ``m=METRES`` without positions. It is refused beyond the turn's
allowance: 8 m (changed by racials; 3 m prone), plus 4 m after a sprint action this turn.
``cover=true`` ends the move in cover (+15 dodge); ``fall=METRES`` ends it with a fall.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, Moved, StatusChanged
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.geometry import Point, distance, step_away, step_toward
from fightlog.rules.roe7.harm import take
from fightlog.kit.actions import value_written
from fightlog.kit.geometry import spot_given
from fightlog.kit.table import Scribe


def sprinted(scribe: Scribe, actor: str) -> bool:
    """Whether ``actor`` declared a sprint in the open turn."""
    return any(a.type == "sprint" for p in scribe.state.pending if p.actor == actor for a in p.actions)


def sprint(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    if Fighter(scribe.state, actor).has("prone"):
        raise RefusedError("no sprinting while prone (stand up first)")


def move(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    opts = who.options
    allowance = who.movement() + (opts.sprint_m if sprinted(scribe, actor) and not who.has("prone") else 0)
    left = allowance - who.who.moved
    params = action.params
    fall = params.get("fall")
    if fall is not None and (not isinstance(fall, int) or isinstance(fall, bool) or fall < 0):
        raise RefusedError(f"fall={value_written(fall)}: the metres fallen, a whole number 0 or more",
                           code="rules.incomplete")
    goal = _goal(scribe, who, action, left)
    metres: int
    if goal is not None and who.position is not None:
        metres = distance(who.position, goal)
    else:
        asked = params.get("m", action.distance)  # distance=METRES, as hand-run logs write it, too
        if not isinstance(asked, int) or isinstance(asked, bool):
            said = "" if "m" not in params else f" (m={value_written(params['m'])} is not a whole number of metres)"
            raise RefusedError("a move needs x= and y=, toward=ID or away=ID with m=METRES, or m=METRES" + said,
                               code="rules.incomplete")
        metres = _not_negative(asked)
    extra = params.get("difficult")
    cost = metres + (extra if isinstance(extra, int) and extra > 0 else 0)
    if cost > left:
        raise _too_far(actor, action, left, metres, cost)
    if who.has("kneeling") and metres > 0:
        scribe.emit(StatusChanged(actor=actor, status="kneeling", on=False, cause=declaration, note="moved"))
    cover = params.get("cover") is True
    if who.has("in_cover") and not cover and metres > 0:
        scribe.emit(StatusChanged(actor=actor, status="in_cover", on=False, cause=declaration, note="left cover"))
    reloading = who.effect("reloading")
    if reloading is not None and metres > 0:
        conditions.expire(scribe, reloading, "interrupted", cause=declaration)
    x, y = (goal if goal is not None else (None, None))
    scribe.emit(Moved(actor=actor, metres=cost, x=x, y=y, cause=declaration))
    if cover and not who.has("in_cover"):
        scribe.emit(StatusChanged(actor=actor, status="in_cover", cause=declaration, note="within 1 m of cover"))
    if isinstance(fall, int):
        _fall(scribe, actor, fall, declaration)


def _too_far(actor: str, action: Action, left: int, metres: int, cost: int) -> RefusedError:
    """The refusal of a move of ``cost`` metres (``metres`` and any difficult ground) with
    ``left`` to go: toward someone, why its metres are not those asked."""
    asked = action.params.get("m", action.distance)
    toward = action.params.get("toward")
    why = (f" (m={asked} toward {toward}: {metres} m takes {actor} to a metre short of them)"
           if isinstance(toward, str) and asked != metres else "")
    return RefusedError(f"{actor} can move {left} m more this turn, not {cost} m{why}", code="rules.allowance")


def _goal(scribe: Scribe, who: Fighter, action: Action, left: int) -> Point | None:
    """Where the move ends (``None``: it says no point, nor anyone to go toward or away
    from who has one); refused past ``left`` metres before a spot is sought (a move of a
    billion metres away would search a billion columns)."""
    params = action.params
    given = [key for key in ("x", "toward", "away") if key in params]
    if len(given) > 1:
        said = " and ".join("x= y=" if key == "x" else f"{key}={value_written(params[key])}" for key in given)
        raise RefusedError(f"a move goes one way: {said} both given (give one)", code="rules.incomplete")
    spot = spot_given(action, "move") if "x" in params and "y" in params else None  # a lone x= is not read (as ever)
    if spot is not None:
        if who.position is None:
            raise RefusedError(f"{who.actor} has no position: move by m=METRES, or give positions when joining", code="rules.incomplete")
        return spot
    for key, step in (("toward", step_toward), ("away", step_away)):
        ref = params.get(key)
        if not isinstance(ref, str):
            continue
        other = Fighter(scribe.state, ref)
        metres = params.get("m", action.distance)  # distance=METRES too, as a move without a goal reads it
        if who.position is None or other.position is None:
            return None
        if not isinstance(metres, int) or isinstance(metres, bool):
            raise RefusedError(f"{key}={ref} needs m=METRES (or distance=METRES)", code="rules.incomplete")
        metres = _not_negative(metres)
        if key == "toward":  # up to them, not onto their spot: a metre short at most (within close reach)
            metres = min(metres, max(0, distance(who.position, other.position) - 1))
        if metres > left + 1:  # its spot is more than ``left`` away whichever it is (within a metre of ``metres``)
            raise _too_far(who.actor, action, left, metres, metres)
        return step(who.position, other.position, metres)
    return None


def _not_negative(metres: int) -> int:
    """A move's ``m=``: metres covered, never fewer than none (``away=ID`` goes back)."""
    if metres < 0:
        raise RefusedError(f"m={metres} is negative: a move covers 0 m or more (to go back, move away=ID or to x= y=)",
                           code="rules.incomplete")
    return metres


def _fall(scribe: Scribe, actor: str, metres: int, declaration: int) -> None:
    """Falling 5 m or more: 10 damage and 1 more per metre over 5, ignoring DR, unless a
    dodge roll reaches 75."""
    who = Fighter(scribe.state, actor)
    opts = who.options
    if metres < opts.fall_threshold_m:
        return
    rolled, seq = scribe.roll(
        "1d100",
        roller=actor,
        purpose="dodge",
        modifiers=capped(who.mods("dodge"), opts.modifier_cap),
        for_seq=declaration,
        label=f"fall of {metres} m",
    )
    if rolled.total >= opts.fall_dodge:
        return
    damage = opts.fall_base_damage + (metres - opts.fall_threshold_m)
    take(scribe, actor, damage, 0, damage_type=None, source=f"fall of {metres} m", cause=seq)


def stance(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Kneel (+5 ranged accuracy until moving), go prone (+10 ranged accuracy, +5 dodge and
    stealth, -5 dodge against melee, 3 m moves), or stand up (from prone: a movement phase)."""
    who = Fighter(scribe.state, actor)
    kind = action.type
    if kind == "stand":
        changed = [s for s in ("kneeling", "prone") if who.has(s)]
        if not changed:
            raise RefusedError(f"{actor} is already standing", code="rules.incomplete")
        for status in changed:
            scribe.emit(StatusChanged(actor=actor, status=status, on=False, cause=declaration))
        return
    status = "kneeling" if kind == "kneel" else "prone"
    if who.has(status):
        raise RefusedError(f"{actor} is already {status}", code="rules.incomplete")
    other = "prone" if status == "kneeling" else "kneeling"
    if who.has(other):
        scribe.emit(StatusChanged(actor=actor, status=other, on=False, cause=declaration))
    scribe.emit(StatusChanged(actor=actor, status=status, cause=declaration))
