"""Reactions (Reaction): answers to an incoming attack, posted by its target out of turn.

``dodge`` (any attack: a negative DM of max(DEX DM, Athletics)), ``parry`` (melee: the Melee
skill as a negative DM), ``dive`` for cover (ranged and thrown: up to 1.5 m, to ``x= y=``
where positions are kept, prone, the next turn lost; the attacker's DM-2 into cover, DM-1
without), or ``take`` (no reaction). Each
reaction but ``take`` puts a DM-1 (``reaction_dm``) on the reactor's next set of actions:
an effect cleared when their next turn ends (``turns``). An attack nobody answers is rolled
when the attacker's turn ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.errors import InputError, RefusedError
from fightlog.events.model import Action, DeclarationPosted, EffectApplied, EffectExpired, Moved, StatusChanged
from fightlog.kit.table import Post, Scribe
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.traveller import attack
from fightlog.rules.traveller.checks import COVER as COVER_VALUES
from fightlog.rules.traveller.fighters import AIM, COVER, INCOMING, REACTED, Fighter
from fightlog.rules.traveller.holds import no_moving
from fightlog.kit.geometry import spot_given
from fightlog.rules.traveller.modifiers import Reaction
from fightlog.rules.traveller.ruleset import REACTIONS


def incoming(state: SceneState, actor: str, responds_to: int | None) -> ActiveEffect:
    """The attack on ``actor`` a reaction answers (``responds_to``: its declaration; else
    the latest); refused when there is none."""
    waiting = sorted((e for e in state.effects.values() if e.name == INCOMING and e.target == actor),
                     key=lambda e: e.applied)
    if responds_to is not None:
        waiting = [e for e in waiting if e.effect == f"{INCOMING}-{responds_to}"]
    if not waiting:
        what = f"the post at seq {responds_to}" if responds_to is not None else "any post"
        raise RefusedError(f"a reaction answers an attack on the reactor: {actor} is not attacked by {what}",
                           code="rules.reaction")
    return waiting[-1]


def check(state: SceneState, actor: str, actions: Sequence[Action], responds_to: int | None) -> str:
    """The kind of attack (melee, ranged, thrown) a reaction post answers, refused unless it
    is one reaction that suits it."""
    if len(actions) != 1 or actions[0].type not in REACTIONS:
        raise RefusedError("a reaction is one of dodge, dive, parry or take, alone", code="rules.reaction")
    who = Fighter(state, actor)
    if who.out:
        raise RefusedError(f"{actor} cannot act ({', '.join(who.who.statuses)})", code="order.cannot-act")
    if responds_to is not None and any(p.actor == actor and p.responds_to == responds_to and len(p.actions) == 1
                                       and p.actions[0].type in REACTIONS for p in state.pending):  # one played
        raise RefusedError(f"{actor} has reacted to the attack at seq {responds_to} already", code="rules.reaction")
    kind, action = _kind(state, actor, responds_to), actions[0]
    if action.type == "parry" and kind != "melee":
        raise RefusedError("a parry answers a melee attack", code="rules.reaction")
    if action.type == "dive" and kind == "melee":
        raise RefusedError("a dive for cover answers a ranged or thrown attack", code="rules.reaction")
    if action.type == "dive":
        no_moving(state, actor, "dive")
        _dive_spot(who, action)
    cover = action.params.get("cover")
    if action.type == "dive" and cover is not None and cover not in COVER_VALUES:
        raise RefusedError(f"cover {cover!r}: one of {', '.join(COVER_VALUES)}")
    return kind


def _dive_spot(who: Fighter, action: Action) -> tuple[int, int] | None:
    """Where a dive lands where positions are kept (``x= y=``, up to ``dive_m`` tiles away, a
    diagonal tile one tile; ``distance=`` refused there: it would move nobody on the map), else
    ``None``."""
    at = who.position
    if at is None:
        return None
    spot = spot_given(action, "dive")
    if spot is None:
        raise RefusedError(f"dive: {who.actor}'s position is kept in this scene: give x= y= (where to, up to "
                           f"{who.options.dive_m} m; distance= would move nobody on the map)", code="rules.incomplete")
    x, y = spot
    tiles = max(abs(x - at[0]), abs(y - at[1]))  # "1.5m (1 tile)": a diagonal tile (1.41 m) is one tile
    if tiles > who.options.dive_m:
        raise RefusedError(f"a dive goes up to {who.options.dive_m} m ({who.options.dive_m} tile"
                           f"{'s' if who.options.dive_m != 1 else ''}, a diagonal one too): ({x}, {y}) is further",
                           code="rules.allowance")
    return x, y


def _kind(state: SceneState, actor: str, responds_to: int | None) -> str:
    """The kind of the attack answered: from the table's ``incoming`` effect, or (a log the
    table did not play) from the attack declared in the post answered."""
    try:
        return str(incoming(state, actor, responds_to).params.get("kind"))
    except RefusedError:
        post = next((p for p in state.pending if p.seq == responds_to), None)
        attack_on = [a for a in post.actions if a.type == "attack" and a.target == actor] if post else []
        if not attack_on or post is None:
            raise
        named = attack_on[0].weapon  # none named: the one the post draws, as the table reads it, else the first
        named = named or next((a.weapon for a in post.actions if a.type == "draw" and a.weapon), None)
        weapon = Fighter(state, post.actor).card.weapon(named)
        return "ranged" if weapon is None else weapon.kind


def react(scribe: Scribe, post: Post) -> None:
    check(scribe.state, post.actor, post.actions, post.responds_to)
    found = incoming(scribe.state, post.actor, post.responds_to)
    action = post.actions[0]
    declared = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                             responds_to=_declaration(found)))
    reactor = Fighter(scribe.state, post.actor)
    reaction = None
    if action.type != "take":
        reaction = Reaction(action.type, cover=str(action.params.get("cover") or ""))
        scribe.emit(EffectApplied(effect=f"{REACTED}-{declared}", name=REACTED, target=post.actor, cause=declared,
                                  magnitude=reactor.options.reaction_dm, params={"reaction": action.type}))
        aim = reactor.effect(AIM)
        if aim is not None:
            scribe.emit(EffectExpired(cause=declared, effect=aim.effect, target=post.actor, reason="reacted"))
    roll(scribe, found, reaction)
    if reaction is not None and reaction.kind == "dive":
        _dived(scribe, post.actor, action, declared)


def _declaration(found: ActiveEffect) -> int:
    """The attack's declaration, as the table named the effect (``incoming-SEQ``)."""
    declared = found.effect.rsplit("-", 1)[-1]
    if not (declared.isascii() and declared.isdecimal() and len(declared) <= 18):  # a seq, as ``int`` reads it
        raise InputError(f"the attack waiting for {found.target}'s reaction is {found.effect!r}, not "
                         "incoming-SEQ: the log was edited", line=found.applied)
    return int(declared)


def roll(scribe: Scribe, found: ActiveEffect, reaction: Reaction | None) -> None:
    """Roll the attack ``found`` waits for, with the target's reaction. The table wrote what
    it needs into the ``incoming`` effect; one edited so that it no longer says (a weapon the
    attacker does not carry, a distance that is no whole number) is refused, at its line."""
    source = found.source or ""
    weapon = Fighter(scribe.state, source).card.weapon(str(found.params.get("weapon")))
    metres = attack.waiting_metres(found)
    if weapon is None or metres is None:
        what = f"no weapon {source!r} carries" if weapon is None else "no distance in whole metres"
        raise InputError(f"the attack waiting for {found.target}'s reaction ({found.effect}) names {what}: "
                         "the log was edited", line=found.applied)
    attack.resolve(scribe, source, found.target, weapon, metres, _declaration(found), reaction)


def unanswered(state: SceneState, attacker: str) -> list[ActiveEffect]:
    """``attacker``'s attacks still waiting for a reaction, oldest first."""
    return sorted((e for e in state.effects.values() if e.name == INCOMING and e.source == attacker),
                  key=lambda e: e.applied)


def _dived(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    spot = _dive_spot(who, action)
    if spot is not None and who.position is not None:
        squared = (spot[0] - who.position[0]) ** 2 + (spot[1] - who.position[1]) ** 2
        metres = 0 if squared == 0 else who.options.dive_m
        scribe.emit(Moved(actor=actor, metres=metres, cause=cause, x=spot[0], y=spot[1]))
    else:
        metres = min(action.distance if action.distance is not None else who.options.dive_m, who.options.dive_m)
        scribe.emit(Moved(actor=actor, metres=metres, cause=cause))
    if who.has("crouched"):
        scribe.emit(StatusChanged(actor=actor, status="crouched", on=False, cause=cause))
    if not who.has("prone"):
        scribe.emit(StatusChanged(actor=actor, status="prone", cause=cause, note="dived for cover"))
    scribe.emit(StatusChanged(actor=actor, status="dived", cause=cause, note="loses the next turn"))
    cover = action.params.get("cover")
    if cover is not None:
        take_cover(scribe, actor, str(cover), cause)


def take_cover(scribe: Scribe, actor: str, kind: str, cause: int) -> None:
    ident = f"{COVER}-{actor}"
    scribe.emit(EffectApplied(effect=ident, name=COVER, target=actor, magnitude=COVER_VALUES[kind], cause=cause,
                              refreshes=ident if ident in scribe.state.effects else None, params={"kind": kind}))
