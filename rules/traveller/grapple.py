"""Grappling (Unarmed Combat or Grappling).

``grapple target=ID choice=C``: both make an opposed Melee (unarmed) check, 2D + Melee +
STR or DEX DM; the higher total wins (a tie: nothing happens). An attacker who wins holds
the target (a ``grapple`` effect) and takes the choice: ``prone`` (force the opponent
prone), ``disarm`` (Effect 6+: take the weapon), ``throw`` (1D metres, 1D damage, ends the
grapple), ``damage`` (2 + Effect), ``escape`` (a normal movement away, ``x= y=`` or
``metres=``, ending the grapple), ``drag`` (``metres=`` up to ``drag_m``, 3 by default;
``x= y=`` with positions: both go there), ``continue``. Where positions are kept, an escape
or a drag names the spot (``x= y=``; ``metres=`` is refused) and a throw lands the loser
straight away from the thrower. A defender who wins (in a grapple already) picks too
(``grapple_defender_choice``: ``picks``): they post ``grapple choice=C`` out of turn
(``pick``) before the attacker's turn ends, else the grapple continues. What a grapple
forbids while it lasts is ``holds``'s.
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import (Action, AttackResolved, DeclarationPosted, EffectApplied, EffectExpired, Moved,
                                   StatusChanged)
from fightlog.kit.fighters import Mods
from fightlog.kit.geometry import spot_given
from fightlog.kit.table import Post, Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller import harm
from fightlog.rules.traveller.attack import used_up
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import DROPPED, GRAPPLE, GRAPPLE_WON, Fighter
from fightlog.rules.traveller.holds import may_attack
from fightlog.rules.traveller.minor import far, kept, limit, relocate
from fightlog.rules.traveller.modifiers import distance

CHOICES: Final = ("prone", "disarm", "throw", "damage", "escape", "drag", "continue")


def melee_mods(who: Fighter) -> Mods:
    mods: Mods = [who.skill("melee")]
    if who.options.melee_characteristic == "better":
        dm, name = who.best("STR", "DEX")
    else:
        name = who.options.melee_characteristic
        dm = who.dm(name)
    mods.append((dm, f"{name} DM"))
    return [m for m in mods if m[0]]


def grapple(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    state = scribe.state
    attacker, target = Fighter(state, actor), Fighter(state, action.target or "")
    choice = str(action.params.get("choice", action.mode or "continue"))
    if choice not in CHOICES:
        raise RefusedError(f"grapple choice={choice}: one of {', '.join(CHOICES)}")
    if target.actor == actor or target.has("dead"):
        raise RefusedError(f"{target.actor} cannot be grappled", code="rules.target")
    may_attack(state, actor, target.actor)
    if distance(attacker, target, action) > attacker.options.melee_reach_m:
        raise RefusedError(f"{target.actor} is out of reach for a grapple", code="rules.range")
    _check_choice(attacker, choice, action)
    mine, seq = scribe.roll("2d6", roller=actor, purpose="grapple",
                            modifiers=[*melee_mods(attacker), *attacker.check_mods()], for_seq=declaration)
    if target.out:  # no check to oppose it with (unconscious): the attacker's holds
        theirs_total, rolls, notes = 0, [seq], [f"choice: {choice}", f"{target.actor} cannot resist (out of the fight)"]
    else:
        theirs, their_seq = scribe.roll("2d6", roller=target.actor, purpose="grapple",
                                        modifiers=[*melee_mods(target), *target.check_mods()], for_seq=declaration)
        theirs_total, rolls, notes = theirs.total, [seq, their_seq], [f"choice: {choice}"]
        used_up(scribe, Fighter(scribe.state, target.actor), declaration)  # the leader's DM+1 spent on it too
    used_up(scribe, Fighter(scribe.state, actor), declaration)
    won = target.out or mine.total > theirs_total
    resolved = scribe.emit(AttackResolved(attacker=actor, target=target.actor, hit=won, score=mine.total,
                                          against=theirs_total, margin=mine.total - theirs_total,
                                          rolls=rolls, weapon="unarmed", declaration=declaration, notes=notes))
    ident = held_by(scribe, actor, target.actor) or f"{GRAPPLE}-{actor}-{target.actor}"
    held = ident in scribe.state.effects
    if won:
        if not held and choice != "escape":
            scribe.emit(EffectApplied(effect=ident, name=GRAPPLE, target=target.actor, source=actor, cause=resolved))
        winner_choice(scribe, actor, target.actor, choice, effect(mine.total, attacker.options), resolved, ident,
                      action)
    elif theirs_total > mine.total and held:
        _defender_won(scribe, target, actor, ident, effect(theirs_total, target.options), resolved, declaration)


def _defender_won(scribe: Scribe, defender: Fighter, attacker: str, ident: str, margin: int, resolved: int,
                  declaration: int) -> None:
    """The defender in a grapple won: they pick (``picks``: a ``grapple_won`` effect waits
    for their post, ``pick``), or the house rule's fixed choice is made."""
    rule = defender.options.grapple_defender_choice
    if rule == "picks":
        scribe.emit(EffectApplied(effect=f"{GRAPPLE_WON}-{declaration}", name=GRAPPLE_WON, target=defender.actor,
                                  source=attacker, cause=resolved,
                                  params={"margin": margin, "grapple": ident, "declaration": declaration}))
    else:
        winner_choice(scribe, defender.actor, attacker, rule, margin, resolved, ident, Action(type="grapple"))


def check_pick(state: SceneState, actor: str, action: Action) -> str:
    """The choice a defender's pick post makes, refused unless it is one of the seven (and
    an escape or drag the defender can make)."""
    choice = str(action.params.get("choice", action.mode or ""))
    if choice not in CHOICES:
        raise RefusedError(f"grapple choice={choice or '?'}: the winner picks one of {', '.join(CHOICES)}")
    _check_choice(Fighter(state, actor), choice, action)
    return choice


def pick(scribe: Scribe, post: Post) -> None:
    """The defender who won posts their choice, out of turn (``grapple choice=C``)."""
    waiting = Fighter(scribe.state, post.actor).effects(GRAPPLE_WON)
    if len(post.actions) != 1 or post.actions[0].type != "grapple" or not waiting:
        raise RefusedError(f"{post.actor} has no grapple won to pick a choice for", code="order.out-of-turn")
    found, action = waiting[-1], post.actions[0]
    choice = check_pick(scribe.state, post.actor, action)
    declared = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                             responds_to=int(str(found.params.get("declaration")))))
    scribe.emit(EffectExpired(cause=declared, effect=found.effect, target=post.actor, reason="picked"))
    ident = str(found.params.get("grapple"))
    if ident in scribe.state.effects:
        winner_choice(scribe, post.actor, found.source or "", choice, int(str(found.params.get("margin", 0))),
                      declared, ident, action)


def unpicked(scribe: Scribe, attacker: str) -> None:
    """The attacker's turn ends: a defender's pick not posted is ``continue``."""
    for found in sorted(scribe.state.effects.values(), key=lambda e: e.effect):
        if found.name == GRAPPLE_WON and found.source == attacker:
            scribe.emit(EffectExpired(effect=found.effect, target=found.target,
                                      reason="no choice posted: the grapple continues"))


def _check_choice(attacker: Fighter, choice: str, action: Action) -> None:
    """Refuse, before any die, an escape or drag the winner could not make: beyond a
    movement (escape) or ``drag_m`` (drag), or by ``metres=`` where positions are kept."""
    if choice not in ("drag", "escape"):
        return
    metres = action.params.get("metres")
    if metres is not None and (not isinstance(metres, int) or metres < 0):
        raise RefusedError(f"grapple metres={metres}: whole metres, 0 or more")
    spot = spot_given(action, f"grapple choice={choice}")
    at = attacker.position
    if at is not None and metres is not None:
        raise RefusedError(kept(attacker.actor, f"grapple choice={choice}"), code="rules.incomplete")
    if at is not None and spot is not None:
        metres = far(at, spot)
    most = attacker.options.drag_m if choice == "drag" else limit(attacker, action)
    if isinstance(metres, int) and metres > most:
        raise RefusedError(f"a {choice} goes at most {most} m; asked {metres} m", code="rules.allowance")
    if choice == "drag" and at is not None and spot is None:
        raise RefusedError(kept(attacker.actor, "grapple choice=drag"), code="rules.incomplete")


def held_by(scribe: Scribe, one: str, other: str) -> str | None:
    """The grapple between the two, whoever holds whom."""
    for ident in (f"{GRAPPLE}-{one}-{other}", f"{GRAPPLE}-{other}-{one}"):
        if ident in scribe.state.effects:
            return ident
    return None


def winner_choice(scribe: Scribe, winner: str, loser: str, choice: str, margin: int, cause: int, ident: str,
                  action: Action) -> None:
    if choice == "prone" and not Fighter(scribe.state, loser).has("prone"):
        if Fighter(scribe.state, loser).has("crouched"):
            scribe.emit(StatusChanged(actor=loser, status="crouched", on=False, cause=cause))
        scribe.emit(StatusChanged(actor=loser, status="prone", cause=cause, note=f"forced down by {winner}"))
    elif choice == "disarm":
        weapon = Fighter(scribe.state, loser).in_hand()
        if weapon is not None and weapon.name != "unarmed":
            scribe.emit(EffectApplied(effect=f"{DROPPED}-{loser}-{cause}", name=DROPPED, target=loser, source=winner,
                                      cause=cause, params={"weapon": weapon.name, "taken": margin >= 6}))
    elif choice == "throw":
        metres, _ = scribe.roll("1d6", roller=winner, purpose="throw", for_seq=cause)
        lands = thrown_to(Fighter(scribe.state, winner), Fighter(scribe.state, loser), metres.total)
        scribe.emit(Moved(actor=loser, metres=metres.total, cause=cause, x=lands[0] if lands else None,
                          y=lands[1] if lands else None))
        hurt, _ = scribe.roll("1d6", roller=winner, purpose="damage", for_seq=cause)
        scribe.emit(EffectExpired(cause=cause, effect=ident, target=scribe.state.effects[ident].target, reason="thrown"))
        harm.damage(scribe, loser, hurt.total, Fighter(scribe.state, loser).card.armour, cause, "throw")
    elif choice == "damage":
        harm.damage(scribe, loser, max(0, 2 + margin), Fighter(scribe.state, loser).card.armour, cause, "grapple")
    elif choice == "escape":
        if ident in scribe.state.effects:
            scribe.emit(EffectExpired(cause=cause, effect=ident, target=scribe.state.effects[ident].target, reason="escaped"))
        _escape(scribe, winner, action, cause)
    elif choice == "drag":
        _drag(scribe, winner, loser, action, cause)


def _escape(scribe: Scribe, winner: str, action: Action, cause: int) -> None:
    """Move away as a normal movement (``x= y=``, or ``metres=`` without positions; none:
    only let go)."""
    metres = action.params.get("metres")
    x, y = action.params.get("x"), action.params.get("y")
    if Fighter(scribe.state, winner).position is not None:
        if isinstance(x, int) and isinstance(y, int):
            relocate(scribe, winner, Action(type="move", params={"x": x, "y": y}), cause)
    elif isinstance(metres, int):
        relocate(scribe, winner, Action(type="move", distance=metres), cause)


def _drag(scribe: Scribe, winner: str, loser: str, action: Action, cause: int) -> None:
    """Both go ``metres=`` (up to ``drag_m``, all of it by default); with positions, to
    ``x= y=`` (the dragged keeps their place beside the dragger). Checked before the dice
    (``_check_choice``)."""
    who = Fighter(scribe.state, winner)
    x, y = action.params.get("x"), action.params.get("y")
    at = who.position
    if isinstance(x, int) and isinstance(y, int) and at is not None:
        metres = far(at, (x, y))
        other = Fighter(scribe.state, loser).position or at
        dx, dy = x - at[0], y - at[1]
        scribe.emit(Moved(actor=loser, metres=metres, cause=cause, x=other[0] + dx, y=other[1] + dy))
        scribe.emit(Moved(actor=winner, metres=metres, cause=cause, x=x, y=y))
        return
    given = action.params.get("metres")
    metres = given if isinstance(given, int) else who.options.drag_m
    scribe.emit(Moved(actor=loser, metres=metres, cause=cause))
    scribe.emit(Moved(actor=winner, metres=metres, cause=cause))


def thrown_to(thrower: Fighter, loser: Fighter, metres: int) -> tuple[int, int] | None:
    """Where a throw of ``metres`` lands the loser, straight away from the thrower (along
    +x when they share a spot), or ``None`` without positions."""
    a, b = thrower.position, loser.position
    if a is None or b is None:
        return None
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        dx = 1
    length = (dx * dx + dy * dy) ** 0.5
    return b[0] + round(dx * metres / length), b[1] + round(dy * metres / length)
