"""Grenades (Explosives): prime and throw, or prime and cook and throw next turn; the blast at
the end of the thrower's second turn of use; everyone in the radius dodges against the
thrower's 1d100 (with the thrower's tech-disposable modifiers; a tie goes to the one dodging
unless ``explosive_tie_to_dodger`` is off).

A grenade is an effect counting on the thrower (``grenade``) whose ``params`` hold the item,
where it lies (``x``/``y``, absent while cooking in hand), its die and radius. It explodes at
the end of the thrower's turn after the one it was primed in; a cooked grenade not thrown by
then goes off in the thrower's hand. A thrower out of the fight by then takes no turn: the
grenade explodes when the posting order passes their slot (``turns._slot_passed``).
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, EffectCountedDown, ResourceSpent, Scalar
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.geometry import Point, distance
from fightlog.rules.roe7.harm import blast_dodge, dodged, take
from fightlog.kit.table import Scribe

THROW_RANGE_M = 20
"""Thrown weapons reach 20 m (Throwing Weapons)."""


def _spot(scribe: Scribe, who: Fighter, action: Action) -> Point:
    params = action.params
    x, y = params.get("x"), params.get("y")
    if isinstance(x, int) and isinstance(y, int):
        spot = (x, y)
    elif action.target is not None:
        target = Fighter(scribe.state, action.target)
        if target.position is None:
            raise RefusedError(f"{action.target} has no position to throw at", code="rules.incomplete")
        spot = target.position
    else:
        raise RefusedError("a throw needs target=ID or x= and y=", code="rules.incomplete")
    if who.position is None:
        raise RefusedError(f"{who.actor} has no position: grenades need positions", code="rules.incomplete")
    if distance(who.position, spot) > THROW_RANGE_M:
        raise RefusedError(f"out of range: a grenade is thrown at most {THROW_RANGE_M} m", code="rules.range")
    return spot


def _grenade(who: Fighter, action: Action) -> tuple[str, int, int]:
    name = action.item
    if name is None:
        carried = sorted({g.name for g in who.sheet.grenades})
        if len(carried) != 1:
            raise RefusedError(f"name the grenade: item=NAME (carries {', '.join(carried) or 'none'})", code="rules.incomplete")
        name = carried[0]
    found = [g for g in who.sheet.grenades if g.name == name]
    if not found:
        raise RefusedError(f"{who.actor} carries no grenade {name!r}", code="rules.not-carried")
    if who.grenades_left(name) <= 0:
        raise RefusedError(f"{who.actor} has no {name} left", code="rules.not-carried")
    opts = who.options
    return name, found[0].damage_die or opts.grenade_die, found[0].radius_m or opts.grenade_radius_m


def throw(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Prime and throw, or throw the grenade cooked last turn (its fuse keeps burning)."""
    who = Fighter(scribe.state, actor)
    cooking = [g for g in who.effects(on=False) if g.name == "grenade" and "x" not in g.params]
    if cooking and action.item in (None, cooking[0].params.get("item")):
        spot = _spot(scribe, who, action)
        held = cooking[0]
        _prime(scribe, actor, declaration, {**held.params, "x": spot[0], "y": spot[1]}, held.remaining)
        conditions.expire(scribe, held, "thrown", cause=declaration)
        return
    name, die, radius = _grenade(who, action)
    spot = _spot(scribe, who, action)
    scribe.emit(ResourceSpent(actor=actor, resource=name, cause=declaration))
    params: dict[str, Scalar] = {"item": name, "die": die, "radius": radius, "x": spot[0], "y": spot[1]}
    _prime(scribe, actor, declaration, {**params, "primed": scribe.state.turn.started}, _fuse(who))


def cook(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Prime and hold: thrown as an action next turn, or it goes off in hand."""
    who = Fighter(scribe.state, actor)
    name, die, radius = _grenade(who, action)
    scribe.emit(ResourceSpent(actor=actor, resource=name, cause=declaration))
    params: dict[str, Scalar] = {"item": name, "die": die, "radius": radius, "primed": scribe.state.turn.started}
    _prime(scribe, actor, declaration, params, _fuse(who))


def _fuse(who: Fighter) -> int:
    """Turns of the thrower's left after the priming turn before the blast (1: it goes off
    at the end of the second turn of use)."""
    return who.options.grenade_fuse_turns - 1


def _prime(scribe: Scribe, actor: str, declaration: int, params: dict[str, Scalar], left: int | None) -> None:
    conditions.apply(
        scribe, "grenade", actor, source=actor, duration=left, counts_on=actor, cause=declaration, params=params,
        refresh=False,
    )


def fuses(scribe: Scribe, actor: str) -> None:
    """End of ``actor``'s turn: the fuses of grenades primed in an earlier turn burn down by a
    turn; those that reach the end explode."""
    started = scribe.state.turn.started
    for grenade in Fighter(scribe.state, actor).effects(on=False):
        if grenade.name != "grenade" or int(str(grenade.params.get("primed", started))) >= started:
            continue
        left = grenade.remaining
        if left is not None and left > 1:
            scribe.emit(EffectCountedDown(effect=grenade.effect, target=grenade.target, remaining=left - 1))
            continue
        explode(scribe, actor, grenade)


def explode(scribe: Scribe, thrower: str, grenade: ActiveEffect) -> None:
    who = Fighter(scribe.state, thrower)
    opts = who.options
    params = grenade.params
    x, y = params.get("x"), params.get("y")
    in_hand = not (isinstance(x, int) and isinstance(y, int))
    centre = who.position if in_hand else (int(str(x)), int(str(y)))
    conditions.expire(scribe, grenade, "exploded in hand" if in_hand else "exploded")
    if centre is None:
        return
    label = f"{params.get('item')} explodes" + (" in hand" if in_hand else "")
    blast, blast_seq = scribe.roll(
        "1d100", roller=thrower, purpose="explosive", label=label,
        modifiers=capped(who.mods("tech_disposables"), opts.modifier_cap),
    )
    radius = int(str(params.get("radius", opts.grenade_radius_m)))
    die = int(str(params.get("die", opts.grenade_die)))
    for actor in sorted(scribe.state.combatants):
        target = Fighter(scribe.state, actor)
        if target.out or target.has("reserve") or target.has("fled") or target.position is None:
            continue
        if distance(centre, target.position) > radius:
            continue
        dodge, dodge_seq = blast_dodge(scribe, target, for_seq=blast_seq)
        hit = not dodged(dodge, blast.total, opts.explosive_tie_to_dodger)
        resolved = scribe.emit(
            AttackResolved(
                attacker=thrower, target=actor, hit=hit, score=blast.total, against=dodge.total,
                rolls=[blast_seq, dodge_seq], weapon=str(params.get("item")), notes=[label],
            )
        )
        if not hit:
            continue
        damage, dmg_seq = scribe.roll(
            f"1d{die}", roller=thrower, purpose="damage",
            modifiers=capped(who.damage_mods("explosive"), opts.modifier_cap), for_seq=resolved,
        )
        take(
            scribe, actor, max(0, damage.total), target.dr("explosive"), damage_type="explosive",
            source=str(params.get("item")), cause=dmg_seq, attacker=thrower,
        )
