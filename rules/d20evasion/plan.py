"""Reading a post before anything happens: each action checked against the state and
written as the log will keep it.

``plan`` walks the actions in order, as the table will play them, with the positions each
move leaves: a move gets its cost in movement points (``points``), an attack or spell the
band it is made at (``range``) and the weapon's full name, an attack on someone who gets a
defensive turn the mark ``defensive_turn``, an item or a long cast its cost (``both``), a
draw with load-bearing equipment ``free``. Whatever the rules refuse (an unknown target or
weapon, a target out of the weapon's ranges, too little MP, a spell cooling down, an item
used up, a disarm beyond melee range) is a ``RefusedError`` here, before anything is emitted.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action, Scalar
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.attack import defended
from fightlog.rules.d20evasion.bands import BANDS, Band, Point, band_between, is_band, within
from fightlog.rules.d20evasion.card import SpellCard, WeaponCard
from fightlog.rules.d20evasion.disarm import knocked
from fightlog.rules.d20evasion.fighters import Fighter, absent
from fightlog.rules.d20evasion.moves import plan_move
from fightlog.rules.d20evasion.ruleset import ACTION_TYPES, DEFENSIVE
from fightlog.rules.d20evasion.spells import spell_name
from fightlog.kit.actions import value_written
from fightlog.kit.declared import unknown_action


class _Walk:
    """The state of the post as it is read: positions after each move, MP and items
    spent, spells cast, whether the poster has moved."""

    def __init__(self, state: SceneState, who: Fighter, earlier: Sequence[Action]) -> None:
        self.state = state
        self.who = who
        self.spots: dict[str, Point | None] = {a: c.position for a, c in state.combatants.items()}
        self.mp = who.mp
        self.used: dict[str, int] = {}
        self.cast: set[str] = set()
        self.moved = any(a.type == "move" for a in earlier)
        self.dropped = who.dropped() if not any(a.type in ("pick_up", "draw") for a in earlier) else None


def plan(state: SceneState, who: Fighter, actions: Sequence[Action], earlier: Sequence[Action] = ()) -> list[Action]:
    """``actions`` as they will be logged (see the module docstring)."""
    walk = _Walk(state, who, earlier)
    out: list[Action] = []
    for action in actions:
        kind = action.type
        unknown = unknown_action((action,), ACTION_TYPES)
        if unknown is not None:
            raise unknown
        if kind in DEFENSIVE:
            raise RefusedError(f"{kind} is a defensive response: a post of its own answering the attack post "
                               "(responds_to), in a duel")
        out.append(_READ.get(kind, _as_is)(walk, action))
    return out


def _as_is(walk: _Walk, action: Action) -> Action:
    return action


def _target(walk: _Walk, action: Action, *, self_ok: bool = False) -> Fighter:
    name = action.target
    if name is None:
        raise RefusedError(f"{action.type} needs a target (target=ID)", code="rules.target")
    if name not in walk.state.combatants:
        raise absent(walk.state, name)
    if name == walk.who.actor and not self_ok:
        raise RefusedError(f"{walk.who.actor} cannot {action.type} themselves", code="rules.target")
    target = Fighter(walk.state, name, walk.who.options)
    if target.has("dead"):
        raise RefusedError(f"{name} is dead", code="rules.target")
    if target.has("reserve") or target.has("summoned"):
        raise RefusedError(f"{name} is not in the fight yet", code="rules.target")
    return target


def _band(walk: _Walk, action: Action, target: Fighter) -> Band:
    """The band between the poster (where the post has taken them) and ``target``; without
    positions, the band the action states (``range=``: the GM's ballpark)."""
    here, there = walk.spots.get(walk.who.actor), walk.spots.get(target.actor)
    declared = action.range
    if declared is not None and not is_band(declared):
        raise RefusedError(f"range={declared!r} is no band (bands: {', '.join(BANDS)})")
    if here is None or there is None:
        if declared is None:
            raise RefusedError(f"no positions for {walk.who.actor} and {target.actor}: give the band (range=BAND)", code="rules.incomplete")
        return declared  # type: ignore[return-value]
    band = band_between(here, there, walk.who.options)
    if declared is not None and declared != band:
        raise RefusedError(f"{target.actor} is at {band} range, not {declared}", code="rules.range")
    return band


def _reach(gear: WeaponCard | SpellCard, band: Band, target: str) -> None:
    if band not in gear.ranges:
        raise RefusedError(f"{target} is at {band} range: {gear.name} reaches {', '.join(gear.ranges) or 'nobody'}",
                           code="rules.range")


def _with(action: Action, **params: Scalar) -> dict[str, Scalar]:
    return {**action.params, **params}


def _move(walk: _Walk, action: Action) -> Action:
    me = walk.spots.get(walk.who.actor)
    other = None
    if action.target is not None:
        other = _target(walk, action).position if action.target in walk.state.combatants else None
        other = walk.spots.get(action.target, other)
    step = plan_move(action, me, other, walk.who.options)
    walk.spots[walk.who.actor] = step.spot
    walk.moved = True
    return replace(action, params=_with(action, points=step.points))


def _attack(walk: _Walk, action: Action) -> Action:
    target = _target(walk, action)
    weapon = walk.who.weapon(action.weapon)
    if walk.dropped is not None and not weapon.hand:
        raise RefusedError(f"{walk.who.actor} was disarmed: pick up the weapon or draw another first")
    band = _band(walk, action, target)
    _reach(weapon, band, target.actor)
    params = _with(action, defensive_turn=True) if defended(walk.state, target) else action.params
    return replace(action, weapon=weapon.name, range=band, params=params)


def _cast(walk: _Walk, action: Action) -> Action:
    who = walk.who
    spell = who.spell(spell_name(action))
    if spell.name in walk.cast or any(e.params.get("spell") == spell.name for e in who.effects("cooldown")):
        raise RefusedError(f"{spell.name} is cooling down ({spell.cooldown} round{'s' if spell.cooldown != 1 else ''})")
    if spell.mp > walk.mp:
        raise RefusedError(f"{who.actor} has {walk.mp} MP, {spell.name} costs {spell.mp}")
    walk.mp -= spell.mp
    if spell.cooldown:
        walk.cast.add(spell.name)
    params = _with(action, spell=spell.name)
    cost = "both" if spell.long else action.cost
    if spell.target == "enemy":
        target = _target(walk, action)
        band = _band(walk, action, target)
        _reach(spell, band, target.actor)
        if defended(walk.state, target):
            params = {**params, "defensive_turn": True}
        return replace(action, range=band, params=params, cost=cost)
    if spell.target == "self":
        if action.target not in (None, who.actor):
            raise RefusedError(f"{spell.name} is cast on its caster", code="rules.target")
        target_id = who.actor
    else:
        target_id = _target(walk, action, self_ok=True).actor if action.target is not None else who.actor
        if spell.ranges and target_id != who.actor:
            band = _band(walk, replace(action, target=target_id), Fighter(walk.state, target_id, who.options))
            _reach(spell, band, target_id)
    if spell.summons is not None:
        minion = walk.state.combatants.get(spell.summons)
        if minion is None or "reserve" not in minion.statuses:
            raise RefusedError(f"{spell.summons} is not waiting to be summoned (join them as a reserve)")
    return replace(action, target=target_id, params=params, cost=cost)


def _disarm(walk: _Walk, action: Action) -> Action:
    target = _target(walk, action)
    band = _band(walk, action, target)
    reach = walk.who.options.melee_reach
    if not within(band, reach):
        raise RefusedError(f"a disarm needs melee range ({reach} or nearer): {target.actor} is at {band}", code="rules.range")
    if target.dropped() is not None:
        raise RefusedError(f"{target.actor} has been disarmed already")
    weapon = knocked(target, action)
    if not weapon or weapon not in {w.name for w in target.card.weapons}:
        raise RefusedError(f"{target.actor} holds no weapon {weapon!r} to knock away" if weapon
                           else f"{target.actor} holds no weapon to knock away")
    return replace(action, range=band, params=_with(action, knock=weapon))


def _draw(walk: _Walk, action: Action) -> Action:
    weapon = walk.who.weapon(action.weapon)
    dropped = walk.dropped
    if dropped is not None and dropped.params.get("weapon") == weapon.name:
        raise RefusedError(f"{weapon.name} is on the ground: pick it up (pick_up)")
    walk.dropped = None
    free = walk.who.card.lbe > 0 and walk.who.options.draw_free_with_lbe and action.cost is None
    return replace(action, weapon=weapon.name, cost="free" if free else action.cost)


def _pick_up(walk: _Walk, action: Action) -> Action:
    dropped = walk.dropped
    if dropped is None:
        raise RefusedError(f"{walk.who.actor} has nothing on the ground to pick up")
    walk.dropped = None
    thrown = dropped.params.get("thrown_ft")
    if isinstance(thrown, int) and thrown > 0 and not walk.moved:
        raise RefusedError(f"the weapon was thrown {thrown} ft away: move to it first")
    weapon = str(dropped.params.get("weapon"))
    if action.weapon is not None and action.weapon.casefold() != weapon.casefold():
        raise RefusedError(f"what is on the ground is {walk.who.actor}'s {weapon}, not {action.weapon}", code="rules.target")
    return replace(action, weapon=weapon)


def _use_item(walk: _Walk, action: Action) -> Action:
    who = walk.who
    item = who.item(action.item)
    used = walk.used.get(item.name, 0)
    if who.items_left(item) - used <= 0:
        raise RefusedError(f"{who.actor} has no {item.name} left", code="rules.not-carried")
    walk.used[item.name] = used + 1
    target_id = who.actor
    if action.target is not None and action.target != who.actor:
        target = _target(walk, action)
        reach = who.options.item_reach
        band = _band(walk, action, target)
        if not within(band, reach):
            raise RefusedError(f"{target.actor} is at {band} range: items are used on others at {reach} range or nearer",
                               code="rules.range")
        target_id = target.actor
    cost = "action" if who.options.item_use_actions == 1 else "both"
    return replace(action, item=item.name, target=target_id, cost=action.cost or cost)


def _skill(walk: _Walk, action: Action) -> Action:
    full, actions = action.params.get("full"), action.params.get("actions")
    if full is not None and not isinstance(full, bool):
        raise RefusedError(f"full={value_written(full)}: write full=true (the whole turn) or leave it out",
                           code="rules.incomplete")
    if actions is not None and (isinstance(actions, bool) or actions not in (1, 2)):
        raise RefusedError(f"actions={value_written(actions)}: a skill takes actions=1 or actions=2",
                           code="rules.incomplete")
    if action.cost is not None:
        return action
    if action.params.get("full") is True:
        return replace(action, cost="full")
    if action.params.get("actions") == 2:
        return replace(action, cost="both")
    return action


def _assist(walk: _Walk, action: Action) -> Action:
    _target(walk, action)
    return action


_READ = {
    "move": _move,
    "attack": _attack,
    "cast": _cast,
    "disarm": _disarm,
    "draw": _draw,
    "pick_up": _pick_up,
    "use_item": _use_item,
    "skill": _skill,
    "assist": _assist,
}
