"""The other combat actions (Ranged attack: aiming, readying; Ammunition: reloading; Hiding and
Cover; Waiting; Sneaking)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, EffectApplied, EffectExpired, Moved, StatusChanged, WeaponReloaded
from fightlog.kit.actions import value_written
from fightlog.kit.fighters import absent
from fightlog.kit.table import Scribe
from fightlog.rules.en51.aiming import param
from fightlog.rules.en51.bw import NOTATION, faces_of, success
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import options_of
from fightlog.rules.en51.ranges import step
from fightlog.rules.en51.ruleset import ACTION_TYPES

Tactic = Callable[[Scribe, str, Action, int], None]

STILL: Final = -5
"""The second Perception roll against a sneaker who stays still."""


def _round(scribe: Scribe) -> int:
    return scribe.state.turn.round


def aim(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """+2 to Attack next turn (steady ground; nothing else this turn)."""
    scribe.emit(EffectApplied(effect=f"aim-{scribe.next_seq}", name="aim", target=actor, source=actor, magnitude=2,
                              cause=declaration, params={"round": _round(scribe)}))


def ready(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A weapon readied: next turn it fires using Defense."""
    weapon = Fighter(scribe.state, actor).weapon(action.weapon)
    scribe.emit(EffectApplied(effect=f"readied-{scribe.next_seq}", name="readied", target=actor, source=actor,
                              cause=declaration, params={"round": _round(scribe), "weapon": weapon.name}))


def reload(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """One action: the weapon full again (a fresh magazine: no ammo check its first Auto turn)."""
    who = Fighter(scribe.state, actor)
    weapon = who.weapon(action.weapon)
    if not weapon.capacity and not weapon.auto:
        raise RefusedError(f"{weapon.name} is neither type C nor an A-type: nothing to reload", code="rules.incomplete")
    scribe.emit(WeaponReloaded(actor=actor, weapon=weapon.name, cause=declaration))
    empty = who.weapon_effect("empty", weapon.name)
    if empty is not None:
        scribe.emit(EffectExpired(cause=declaration, effect=empty.effect, target=actor, reason="reloaded"))


def leave_cover(scribe: Scribe, actor: str, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    for effect in who.effects("cover"):
        scribe.emit(EffectExpired(cause=cause, effect=effect.effect, target=actor, reason="left"))
    if who.has("hidden"):
        scribe.emit(StatusChanged(actor=actor, status="hidden", on=False, cause=cause))


def hide(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """No line of sight: no ranged attack on or by the hider."""
    leave_cover(scribe, actor, declaration)
    scribe.emit(StatusChanged(actor=actor, status="hidden", cause=declaration))


def cover(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A firing position worth ``value`` (the penalty to shots at the one in it)."""
    given = action.params.get("value")
    value = param(action, "value")
    if value < 1:
        said = "" if given is None else f" (value={value_written(given)} is not a penalty of 1 or more)"
        raise RefusedError(f"Cover names its penalty (value=N, from the Tables){said}", code="rules.incomplete")
    leave_cover(scribe, actor, declaration)
    scribe.emit(EffectApplied(effect=f"cover-{scribe.next_seq}", name="cover", target=actor, source=actor,
                              magnitude=value, cause=declaration))


def wait(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Pass, holding one declared action that may cut in later this turn."""
    then = action.params.get("then")
    if not isinstance(then, str) or ACTION_TYPES.get(then) != "action" or then == "wait":
        held = sorted(kind for kind, cost in ACTION_TYPES.items() if cost == "action" and kind != "wait")
        said = "" if then is None else f": then={value_written(then)} is not one of {', '.join(held)}"
        raise RefusedError(f"waiting declares the one action it holds (then=attack, then=hide...){said}",
                           code="rules.incomplete")
    scribe.emit(EffectApplied(effect=f"waiting-{scribe.next_seq}", name="waiting", target=actor, source=actor,
                              cause=declaration, params={"then": then}))


def sneak(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Moving unseen: the observer's Perception less Stealth against the distance; if it is
    higher, a second Perception roll (-5 on one who stays still) locates the sneaker."""
    state = scribe.state
    if action.target is None:
        raise RefusedError("sneaking names the observer (target=ID)", code="rules.target")
    if action.target not in state.combatants:
        raise absent(state, action.target)
    if action.target == actor:
        raise RefusedError(f"{actor} cannot sneak past themselves (target={actor})", code="rules.target")
    if action.distance is None:
        raise RefusedError("sneaking names the distance to the observer (distance=N)", code="rules.incomplete")
    metres = param(action, "metres")
    if metres < 0:
        raise RefusedError(f"metres={metres}: the metres moved are 0 (staying still) or more", code="rules.incomplete")
    if metres > action.distance:
        raise RefusedError(f"a sneaker moves no faster than the distance to the observer ({action.distance} m)",
                           code="rules.combined")
    options = options_of(state)
    observer, sneaker = Fighter(state, action.target), Fighter(state, actor)
    at = step(action.distance - metres, options.range_scale)
    skill = observer.card.perception - sneaker.card.stealth
    rolled, first = scribe.roll(NOTATION, roller=observer.actor, purpose="perception", for_seq=declaration,
                                label=f"{observer.actor} watching for {actor}")
    seen = (success(faces_of(rolled.dice), skill, options.die_succeeds) or 0) > at
    rolls, located, best = [first], False, 0
    if seen:
        still = STILL if metres == 0 else 0
        again, second = scribe.roll(NOTATION, roller=observer.actor, purpose="perception", for_seq=declaration,
                                    label=f"{observer.actor} locating {actor}")
        rolls.append(second)
        best = success(faces_of(again.dice), observer.card.perception + still,
                       options.die_succeeds) or 0
        located = best > 0
    notes = [f"Perception {observer.card.perception} - Stealth {sneaker.card.stealth} against step {at}",
             "movement seen" if seen else "nothing seen"]
    scribe.emit(AttackResolved(attacker=observer.actor, target=actor, hit=located, score=best, against=0,
                               rolls=rolls, declaration=declaration, notes=notes))
    if metres:
        scribe.emit(Moved(actor=actor, metres=metres, relative_to=observer.actor, cause=declaration))
    if located and sneaker.has("hidden"):
        scribe.emit(StatusChanged(actor=actor, status="hidden", on=False, cause=declaration, note="located"))


TACTICS: Final[Mapping[str, Tactic]] = {
    "aim": aim, "ready": ready, "reload": reload, "hide": hide, "cover": cover, "wait": wait, "sneak": sneak,
}
