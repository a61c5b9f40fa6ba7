"""Grenade fuses (Cooking a grenade; Missing with an explosive; Normal and Explosives Damage).

An explosive's sheet gives a fuse delay in rounds (``fuse``, 0 by default: it goes off at
once). ``cook`` (a move action, once a round an explosive) takes 1 off the held grenade's
delay: effect ``cooked`` on the cook, naming the weapon, until the grenade is thrown. A
grenade thrown with a delay left lands where its attack roll and scatter put it and waits:
effect ``grenade`` on the thrower (``duration`` the delay, counted on the thrower) whose
params keep what its blast needs. It counts down at the start of the thrower's turn (the
rulebook is silent on the moment; a round's delay is a full round; one whose thrower is out
counts down at the start of each round) and goes off when the delay runs out: an
``effect_ticked``, the blast as attacks and damage (the attack roll of the throw), an
``effect_expired``. Nobody answers a waiting grenade's throw (no dodge, no block).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from fightlog.errors import RefusedError
from fightlog.events.base import Scalar
from fightlog.events.model import Action, EffectApplied, EffectCountedDown, EffectExpired, EffectTicked
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.card import WeaponCard
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.options import options_of
from fightlog.rules.bleedingsun.planning import Plan
from fightlog.rules.bleedingsun.pools import Pool

COOKED: Final = "cooked"
GRENADE: Final = "grenade"
_PARAM: Final = "p."
"""The prefix of the throw's own params kept on a waiting grenade (cover, lob, caught...)."""


def cooks(state: SceneState, actor: str, weapon: str) -> list[int]:
    """The rounds ``actor`` cooked the held ``weapon`` in (since it was last thrown)."""
    return [int(e.params.get("round", 0)) for e in Fighter(state, actor).effects(COOKED)
            if e.params.get("weapon") == weapon]


def delay_of(state: SceneState, actor: str, weapon: WeaponCard) -> int:
    """The rounds before ``actor``'s held ``weapon`` goes off once thrown."""
    return max(0, weapon.fuse - len(cooks(state, actor, weapon.name)))


def cook(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Cooking a grenade: 1 off the delay, once a round an explosive."""
    state = scribe.state
    weapon = Fighter(state, actor).weapon(action.weapon)
    if weapon.kind != "explosive":
        raise RefusedError(f"the {weapon.name} is not an explosive to cook", code="rules.cook")
    if delay_of(state, actor, weapon) < 1:
        raise RefusedError(f"the {weapon.name} has no delay left to cook (fuse {weapon.fuse})", code="rules.cook")
    if state.turn.round in cooks(state, actor, weapon.name):
        raise RefusedError(f"{actor} cooked the {weapon.name} this round already (once a round)", code="rules.cook")
    scribe.emit(EffectApplied(effect=f"{COOKED}-{actor}-{cause}", name=COOKED, target=actor, source=actor,
                              cause=cause, params={"weapon": weapon.name, "round": state.turn.round}))


def thrown(scribe: Scribe, actor: str, weapon: str, why: str) -> None:
    """The cooks of a thrown ``weapon`` end with the throw."""
    for found in Fighter(scribe.state, actor).effects(COOKED):
        if found.params.get("weapon") == weapon:
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason=why))


def wait(scribe: Scribe, actor: str, declaration: int, planned: Plan, rolled: Pool, delay: int, shift: int,
         aimed: tuple[int, int] | None) -> None:
    """A thrown grenade with ``delay`` rounds left lands and waits (see the module docstring),
    ``shift`` hexes off the aimed one (the scatter of its throw: where it lies); ``aimed``: the
    aimed target's threshold at the throw and what net hits count from, which its hit, critical
    and net hits are judged on when it goes off (``kept_threshold``)."""
    caught = ",".join(f"{t}:{h}" for t, h in planned.caught)
    params: dict[str, Scalar] = {
        "declaration": declaration, "index": planned.number, "weapon": planned.weapon.name,
        "aimed": planned.target, "caught": caught, "band": planned.bands[0] if planned.bands else "short",
        "dice": rolled.dice, "hits": rolled.hits, "sixes": rolled.sixes, "ones": rolled.ones,
        "roll": rolled.seq, "round": scribe.state.turn.round, "shift": shift}
    if aimed is not None:
        params["threshold"], params["net_from"] = aimed
    params.update({_PARAM + k: v for k, v in planned.action.params.items()})
    thrown(scribe, actor, planned.weapon.name, "thrown")
    scribe.emit(EffectApplied(effect=f"{GRENADE}-{declaration}-{planned.number}", name=GRENADE, target=actor,
                              source=actor, duration=delay, counts_on=actor, cause=declaration, params=params))


def kept_threshold(params: Mapping[str, Any]) -> tuple[int, int] | None:
    """The aimed target's threshold at the throw, and what net hits count from, as a waiting
    grenade keeps them (``wait``); ``None`` for a lobbed one, or one of a log from before."""
    threshold, base = params.get("threshold"), params.get("net_from")
    return (threshold, base) if type(threshold) is int and type(base) is int else None


def waiting(state: SceneState) -> list[str]:
    """The ids of the grenades waiting in the scene."""
    return sorted(e.effect for e in state.effects.values() if e.name == GRENADE)


def lies_waiting(state: SceneState, declaration: int, number: int) -> bool:
    """Whether attack ``number`` of the post at ``declaration`` is a grenade lying with its
    fuse burning (``wait``)."""
    return f"{GRENADE}-{declaration}-{number}" in state.effects


def going_off(state: SceneState, attacker: str, planned: Plan) -> bool:
    """Whether ``planned`` is a waiting grenade of ``attacker``'s going off (not thrown now)."""
    return any(e.name == GRENADE and e.source == attacker and e.params.get("weapon") == planned.weapon.name
               and e.params.get("aimed") == planned.target for e in state.effects.values())


def plan_of(state: SceneState, effect: str) -> tuple[Plan, Pool, int]:
    """The plan, the attack pool and the declaration of the waiting grenade ``effect``."""
    found = state.effects[effect]
    p = found.params
    who = Fighter(state, found.source or found.target)
    weapon = who.weapon(str(p["weapon"]))
    caught = tuple((part.split(":")[0], int(part.split(":")[1])) for part in str(p["caught"]).split(",") if part)
    own = {k[len(_PARAM):]: v for k, v in p.items() if k.startswith(_PARAM)}
    aimed = str(p.get("aimed") or "")
    action = Action(type="throw", weapon=weapon.name, target=aimed or None, params=own)
    plan = Plan(int(p["index"] or 0), "blast", weapon, "", aimed, caught, (str(p["band"]),), int(p["dice"] or 0),
                (f"went off: thrown in round {p['round']}",), False, None, action)
    roll = p.get("roll")
    pool = Pool(int(p["dice"] or 0), int(p["hits"] or 0), int(p["sixes"] or 0), int(p["ones"] or 0),
                int(roll) if isinstance(roll, int) else None)
    return plan, pool, int(p["declaration"] or 0)


def jumped_on(state: SceneState, actor: str, action: Action) -> str:
    """The waiting grenade ``actor`` jumps on (Jumping on a Grenade: within 1 hex, the
    poster's ``distance=``; ``grenade=ID``, else the latest thrown); refused when there is
    none, it is further, or someone covers it already."""
    found = waiting(state)
    named = action.params.get("grenade")
    if named is not None:
        found = [e for e in found if e == str(named)]
    if not found:
        raise RefusedError(f"{actor} jumps on a grenade: " + (f"no grenade {named} is waiting" if named is not None
                           else "no grenade is waiting"), code="rules.jump")
    if action.distance is None:
        raise RefusedError(f"{actor} jumps on a grenade: state how far it is (distance=HEXES)", code="rules.jump")
    if action.distance > 1:
        raise RefusedError(f"{actor} is {action.distance} hexes from the grenade: one jumps on a grenade within 1 hex",
                           code="rules.jump")
    effect = max(found, key=lambda e: state.effects[e].applied)
    if state.effects[effect].params.get("jumped"):
        raise RefusedError(f"{state.effects[effect].params['jumped']} covers that grenade already", code="rules.jump")
    return effect


def jump(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """``actor`` covers the grenade with their body: it keeps its delay, and takes the whole
    blast when it goes off (``resolve.go_off``)."""
    effect = jumped_on(scribe.state, actor, action)
    found = scribe.state.effects[effect]
    scribe.emit(EffectApplied(effect=effect, name=GRENADE, target=found.target, source=found.source,
                              duration=found.remaining, counts_on=found.counts_on, cause=cause, refreshes=effect,
                              params={**found.params, "jumped": actor}))


def count_down(scribe: Scribe, effects: list[str]) -> None:
    """Each of ``effects`` (waiting grenades) a round nearer: it goes off at 0."""
    from fightlog.rules.bleedingsun.resolve import go_off

    for effect in effects:
        found = scribe.state.effects.get(effect)
        if found is None:
            continue
        left = (found.remaining or 1) - 1
        if left > 0:
            scribe.emit(EffectCountedDown(effect=effect, target=found.target, remaining=left))
            continue
        tick = scribe.emit(EffectTicked(effect=effect, target=found.target, remaining=0))
        go_off(scribe, effect, tick)
        scribe.emit(EffectExpired(effect=effect, target=found.target, reason="went off"))


def turn_started(scribe: Scribe, actor: str) -> None:
    """At the start of ``actor``'s turn: their waiting grenades count down (option
    ``fuse_countdown = "thrower_turn"``, the default)."""
    if options_of(scribe.state).fuse_countdown == "thrower_turn":
        count_down(scribe, [e for e in waiting(scribe.state) if scribe.state.effects[e].source == actor])


def round_started(scribe: Scribe) -> None:
    """At the start of a round: every waiting grenade counts down (``fuse_countdown =
    "round_start"``), or, by default, each whose thrower is out of the fight (no turn of
    theirs comes)."""
    state = scribe.state
    every = options_of(state).fuse_countdown == "round_start"
    count_down(scribe, [e for e in waiting(state)
                        if every or Fighter(state, state.effects[e].source or state.effects[e].target).out])
