"""Grappling (Grapple; Combat Maneuver Saves: Grapple).

``grapple target=X``, a combat maneuver: the grappler's Strength against the target's better
of Strength and Legerdemain. More hits take control (the other is pinned); a draw grapples
with no one in control; fewer: a target who defended with Strength takes control, one who
defended with Legerdemain resisted. Both in a grapple are 1 easier to hit (the threshold);
one not pinned may attack only with a small weapon, at -4; one pinned may not attack or
move. ``escape`` (a full round action): the pinned one's better of Strength and Legerdemain
against the controller's Strength; more hits break the grapple. A grapple with no one in
control is contested again with ``grapple`` on the partner. It ends when either is out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, EffectApplied, EffectExpired, StatusChanged
from fightlog.kit.table import Scribe
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.pools import roll_pool

GRAPPLE: Final = "grapple"
STATUSES: Final = ("grappled", "pinned", "controlling")
HELD_BACK: Final = frozenset({"move", "sprint", "throw", "trip", "attack", "coup_de_grace"})
"""What a pinned fighter may not do (attack, cast, move)."""


def hold(state: SceneState, actor: str) -> ActiveEffect | None:
    """The grapple ``actor`` is in (either side of it)."""
    for effect in state.effects.values():
        if effect.name == GRAPPLE and actor in (effect.target, effect.source):
            return effect
    return None


def partner(found: ActiveEffect, actor: str) -> str:
    return str(found.source if found.target == actor else found.target)


def better(who: Fighter) -> str:
    """Strength or Legerdemain, the higher (Strength on a tie)."""
    return "legerdemain" if who.attr("legerdemain") > who.attr("strength") else "strength"


def check(state: SceneState, actor: str, actions: Sequence[Action]) -> None:
    """Refuse (``rules.grappled``) what a grapple forbids: a pinned fighter attacking or moving,
    a big weapon in a grapple, grappling someone else while in one, escaping when not pinned."""
    who = Fighter(state, actor)
    found = hold(state, actor)
    for action in actions:
        if action.type == "escape" and not who.has("pinned"):
            raise RefusedError(f"{actor} is not pinned: nothing to escape", code="rules.grappled")
        if found is None:
            continue
        if who.has("pinned") and action.type in HELD_BACK | {"grapple"}:
            raise RefusedError(f"{actor} is pinned by {partner(found, actor)}: no {action.type}", code="rules.grappled")
        if action.type == "grapple" and action.target != partner(found, actor):
            raise RefusedError(f"{actor} is in a grapple with {partner(found, actor)}", code="rules.grappled")
        if action.type == "attack":
            weapon = who.card.weapon(action.weapon)
            if weapon is not None and not weapon.small:
                raise RefusedError(f"in a grapple only a small weapon attacks: the {weapon.name} is not one",
                                   code="rules.grappled")


def penalty(state: SceneState, actor: str) -> int:
    """The dice a grapple takes off its attacks (one not pinned: -4)."""
    return 4 if hold(state, actor) is not None else 0


def grapple(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    if action.target is None or action.target == actor:
        raise RefusedError("grapple: whom (target=ID, not oneself)", code="rules.target")
    target = Fighter(scribe.state, action.target)
    if target.out:
        raise RefusedError(f"{action.target} is out of the fight", code="rules.target")
    found = hold(scribe.state, actor)
    if found is not None and found.params.get("control"):
        raise RefusedError(f"{found.params.get('control')} controls the grapple already", code="rules.grappled")
    who = Fighter(scribe.state, actor)
    options = who.options
    mine = roll_pool(scribe, who.attr("strength") - who.stagger(), options, roller=actor, purpose="grapple",
                     label=f"grapple: strength {who.attr('strength')}", for_seq=cause)
    use = better(target)
    theirs = roll_pool(scribe, target.attr(use) - target.stagger(), options, roller=target.actor, purpose="grapple",
                       label=f"against a grapple: {use} {target.attr(use)}", for_seq=cause)
    if mine.hits > theirs.hits:
        control, what = actor, f"{actor} takes control"
    elif mine.hits == theirs.hits:
        control, what = "", "grappled with no one in control"
    elif use == "strength":
        control, what = target.actor, f"{target.actor} takes control"
    else:
        control, what = None, f"{target.actor} resists (legerdemain)"
    rolls = [s for s in (mine.seq, theirs.seq) if s is not None]
    scribe.emit(AttackResolved(attacker=actor, target=target.actor, hit=control is not None, score=mine.hits,
                               against=theirs.hits, rolls=rolls, declaration=cause, notes=[f"grapple: {what}"]))
    if control is None:
        return
    _set(scribe, actor, target.actor, control, cause)


def _set(scribe: Scribe, one: str, other: str, control: str, cause: int) -> None:
    found = hold(scribe.state, one)
    ident = found.effect if found is not None else f"{GRAPPLE}-{one}-{other}-{cause}"
    scribe.emit(EffectApplied(effect=ident, name=GRAPPLE, target=other, source=one, cause=cause,
                              refreshes=ident if found is not None else None, params={"control": control}))
    for actor in (one, other):
        who = Fighter(scribe.state, actor)
        wanted = {"grappled"} | ({"controlling"} if control == actor else {"pinned"} if control else set())
        for status in STATUSES:
            if status in wanted and not who.has(status):
                scribe.emit(StatusChanged(actor=actor, status=status, cause=cause))
            elif status not in wanted and who.has(status):
                scribe.emit(StatusChanged(actor=actor, status=status, on=False, cause=cause))


def escape(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    found = hold(scribe.state, actor)
    if found is None:
        raise RefusedError(f"{actor} is not in a grapple", code="rules.grappled")
    other = partner(found, actor)
    who, them = Fighter(scribe.state, actor), Fighter(scribe.state, other)
    use = better(who)
    mine = roll_pool(scribe, who.attr(use) - who.stagger(), who.options, roller=actor, purpose="grapple",
                     label=f"escape: {use} {who.attr(use)}", for_seq=cause)
    theirs = roll_pool(scribe, them.attr("strength") - them.stagger(), who.options, roller=other, purpose="grapple",
                       label=f"holding on: strength {them.attr('strength')}", for_seq=cause)
    if mine.hits > theirs.hits:
        end(scribe, actor, cause, f"{actor} broke free")


def end(scribe: Scribe, actor: str, cause: int | None, why: str) -> None:
    """The grapple ``actor`` is in ends (broken free, or one of them out)."""
    found = hold(scribe.state, actor)
    if found is None:
        return
    scribe.emit(EffectExpired(cause=cause, effect=found.effect, target=found.target, reason=why))
    for one in (str(found.source), found.target):
        who = Fighter(scribe.state, one)
        for status in STATUSES:
            if who.has(status):
                scribe.emit(StatusChanged(actor=one, status=status, on=False, cause=cause, note=why))
