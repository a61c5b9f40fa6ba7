"""Minor actions (Minor Action): movement, aiming, changing stance, drawing and reloading,
taking cover (Hiding), picking up a dropped weapon.

Movement is 6 m a minor action (half in difficult terrain, a quarter prone), to ``x,y``
when positions are kept (``move x=3 y=4``; ``distance=`` is refused there: it would move
nobody on the map), else ``distance=`` metres; moving leaves cover.
Aiming adds DM+1 to the next attack, cumulative with consecutive aiming up to DM+6.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied, EffectExpired, Moved, StatusChanged, WeaponReloaded
from fightlog.kit.geometry import metres_between, spot_given
from fightlog.kit.table import Scribe
from fightlog.rules.traveller.checks import COVER as COVER_VALUES
from fightlog.rules.traveller.fighters import AIM, DROPPED, HAND, Fighter
from fightlog.rules.traveller.holds import no_moving
from fightlog.rules.traveller.reactions import take_cover

STANCES = {"stand": (), "crouch": ("crouched",), "prone": ("prone",)}


def limit(who: Fighter, action: Action) -> int:
    """How far one minor action moves: 6 m, half in difficult terrain, a quarter prone;
    never under ``movement_min_m`` (1 m: a crawl through rubble still gets somewhere)."""
    metres = who.options.movement_m
    if action.params.get("terrain") == "difficult":
        metres //= 2
    if who.stance == "prone":
        metres //= 4
    return max(metres, who.options.movement_min_m)


def limit_why(who: Fighter, action: Action) -> str:
    """What ``limit`` went by, as a refusal or a finding says it: ``prone, difficult terrain``."""
    return f"{who.stance}{', difficult terrain' if action.params.get('terrain') == 'difficult' else ''}"


far = metres_between
"""Whole metres from ``a`` to ``b`` (rounded up: ``kit.geometry``)."""


def kept(actor: str, what: str) -> str:
    """Why a ``distance=`` is refused where positions are kept."""
    return (f"{what}: {actor}'s position is kept in this scene: give x= y= (where to; distance= would move "
            "nobody on the map)")


def move(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    no_moving(scribe.state, actor, "move")
    relocate(scribe, actor, action, declaration)


def relocate(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A normal movement (``move``, a grapple's escape): to ``x``, ``y`` or ``distance``."""
    who = Fighter(scribe.state, actor)
    spot = spot_given(action, "move")
    x, y = spot if spot is not None else (None, None)
    at = who.position
    if spot is not None and at is not None:
        metres = far(at, spot)
    elif at is not None:
        raise RefusedError(kept(actor, "move"), code="rules.incomplete")
    elif action.distance is not None:
        metres, x, y = action.distance, None, None
    else:
        raise RefusedError("how far? (move distance=METRES, or x= y= with positions)", code="rules.incomplete")
    most = limit(who, action)
    if metres > most:
        raise RefusedError(f"{actor} moves at most {most} m in a minor action ({limit_why(who, action)}); "
                           f"asked {metres} m", code="rules.allowance")
    scribe.emit(Moved(actor=actor, metres=metres, cause=declaration,
                      x=x if isinstance(x, int) else None, y=y if isinstance(y, int) else None))
    cover = who.cover()
    if cover is not None and metres > 0:
        scribe.emit(EffectExpired(cause=declaration, effect=cover.effect, target=actor, reason="moved"))


def aim(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    ident = f"{AIM}-{actor}"
    dm = min(who.aim() + 1, who.options.aim_max)
    scribe.emit(EffectApplied(effect=ident, name=AIM, target=actor, magnitude=dm, cause=declaration,
                              refreshes=ident if ident in scribe.state.effects else None))


def stance(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    wanted = str(action.params.get("to", action.mode or ""))
    if wanted not in STANCES:
        raise RefusedError(f"stance to={wanted or '?'}: one of stand, crouch, prone")
    if wanted == who.stance:
        raise RefusedError(f"{actor} is already {wanted}", code="rules.incomplete")
    for status in ("prone", "crouched"):
        if who.has(status) and status not in STANCES[wanted]:
            scribe.emit(StatusChanged(actor=actor, status=status, on=False, cause=declaration))
    for status in STANCES[wanted]:
        scribe.emit(StatusChanged(actor=actor, status=status, cause=declaration))


def draw(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    weapon = who.card.weapon(action.weapon or "")
    if weapon is None:
        raise RefusedError(f"{actor} does not carry {action.weapon!r}", code="rules.not-carried")
    if who.dropped(weapon.name):
        raise RefusedError(f"{actor}'s {weapon.name} was knocked away (pick it up first)")
    held = who.in_hand()
    if held is not None and held.name == weapon.name:
        raise RefusedError(f"{weapon.name} is in hand already", code="rules.incomplete")
    ident = f"{HAND}-{actor}"
    scribe.emit(EffectApplied(effect=ident, name=HAND, target=actor, cause=declaration, params={"weapon": weapon.name},
                              refreshes=ident if ident in scribe.state.effects else None))


def reload(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    weapon = who.card.weapon(action.weapon) if action.weapon is not None else who.in_hand()
    if weapon is None:
        raise RefusedError(f"{actor} does not carry {action.weapon!r}", code="rules.not-carried")
    fired = who.who.weapons.get(weapon.name)
    if not weapon.magazine or fired is None or fired.fired == 0:
        raise RefusedError(f"{weapon.name} needs no reload", code="rules.incomplete")
    scribe.emit(WeaponReloaded(actor=actor, weapon=weapon.name, cause=declaration))


def cover(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    kind = str(action.params.get("behind", action.mode or ""))
    who = Fighter(scribe.state, actor)
    if kind == "none":
        found = who.cover()
        if found is None:
            raise RefusedError(f"{actor} is in no cover", code="rules.incomplete")
        scribe.emit(EffectExpired(cause=declaration, effect=found.effect, target=actor, reason="left cover"))
        return
    if kind not in COVER_VALUES:
        raise RefusedError(f"cover behind={kind or '?'}: one of {', '.join(COVER_VALUES)} (or none)")
    take_cover(scribe, actor, kind, declaration)


def pick_up(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    wanted = (action.weapon or "").casefold()
    found = [e for e in who.effects(DROPPED) if str(e.params.get("weapon", "")).casefold() == wanted]
    if not found:
        raise RefusedError(f"{actor} has dropped no {action.weapon or 'weapon'}")
    scribe.emit(EffectExpired(cause=declaration, effect=found[0].effect, target=actor, reason="picked up"))
