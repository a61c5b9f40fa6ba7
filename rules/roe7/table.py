"""Live play and scripted fights for ``roe7``: the ``Table`` (see ``fightlog.kit.table``).

The kit's skeleton (``fightlog.kit.table_base``) refuses what every ruleset refuses; ``post``
is where roe7's rules refuse a declaration: out of turn, no action or movement left, an
arrival acting in their arrival post, a stunned combatant acting; the action handlers refuse
the rest (a weapon that needs a reload, a target out of range, a missing combatant or weapon).
A refusal leaves the scribe as it was: nothing of the post is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action, CombatantJoined, DeclarationPosted, StatusChanged
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.kit.declared import refusal, unknown_action
from fightlog.kit.table_base import TableBase
from fightlog.rules.roe7 import attack, escape, explosives, moves, tactics, turns
from fightlog.rules.roe7.attack_shots import band_off_the_map
from fightlog.rules.roe7.fighters import Breach, Fighter, ran_out
from fightlog.rules.roe7.options import Roe7Options, read_options
from fightlog.rules.roe7.ruleset import ACTION_TYPES, FIELDS_READ, PARAMS_READ, OUT, RULES
from fightlog.kit.table import Entrant, Post, Scribe

Handler = Callable[[Scribe, str, Action, int], None]

HANDLERS: Final[Mapping[str, Handler]] = {
    "attack": attack.attack,
    "move": moves.move,
    "sprint": moves.sprint,
    "kneel": moves.stance,
    "prone": moves.stance,
    "stand": moves.stance,
    "reload": tactics.reload,
    "aim": tactics.aim,
    "hide": tactics.hide,
    "skill": tactics.skill,
    "draw": tactics.draw,
    "extinguish": tactics.extinguish,
    "flee": escape.flee,
    "com_call": escape.com_call,
    "throw": explosives.throw,
    "cook": explosives.cook,
}

ARRIVAL_ACTIONS: Final = frozenset({"say", "draw"})

class Roe7Table(TableBase):
    """The kit's table skeleton (``fightlog.kit.table_base``) filled in for roe7."""

    id = "roe7"
    option_type = Roe7Options
    action_types = ACTION_TYPES
    params_read = PARAMS_READ
    fields_read = FIELDS_READ
    distance_from_map = True
    out = OUT

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> Roe7Options:
        """Every option with ``overrides`` applied (the fold reads the token options from
        ``scene_started`` too, through ``Roe7Rules.with_options``)."""
        return read_options(overrides, where=where)

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        from fightlog.rules.roe7.roster import load_roster

        return [c.joined() for c in load_roster(path).combatants]

    def placed(self, state: SceneState, actor: str) -> bool:
        return actor in state.turn.order or actor in state.combatants

    def reserve_refused(self, joined: CombatantJoined) -> str | None:
        return None  # a com call brings a reserve in (Calling for Aid)

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        if reserve:
            scribe.emit(StatusChanged(actor=entrant.actor, status="reserve", cause=seq, note="waiting for a com call"))
        elif arrival:
            scribe.emit(StatusChanged(actor=entrant.actor, status="arriving", cause=seq, note="first post is the arrival only"))

    def open_fight(self, scribe: Scribe) -> None:
        turns.begin(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        turns.end_turn(scribe)

    def play(self, scribe: Scribe, post: Post) -> None:
        """A post past the kit's shared checks (``TableBase.post``): who may act, whose turn it
        is, the allowance, then each action."""
        state = scribe.state
        who = Fighter(state, post.actor)
        if who.out or who.has("reserve"):
            raise RefusedError(
                f"{post.actor} is out of the fight ({', '.join(s for s in who.who.statuses if s in OUT)})",
                code="order.cannot-act",
            )
        interrupting = any(a.type == "interrupt" for a in post.actions) and all(
            a.type in ("interrupt", "say") for a in post.actions
        )
        responds_to = post.responds_to
        if not interrupting and any(a.type == "interrupt" for a in post.actions):
            raise RefusedError("an interrupt is a post of its own (interrupt, and say if wanted)")
        caller: str | None = None
        if interrupting:
            call = escape.pending_call(scribe, responds_to)
            responds_to, caller = call.seq, call.actor
        elif state.turn.current != post.actor:
            current = state.turn.current or "nobody's (end the turn to open the next)"
            raise RefusedError(f"out of turn: it is {current} turn to post" if state.turn.current is None
                               else f"out of turn: it is {current}'s turn to post", code="order.out-of-turn")
        else:
            _check_allowance(scribe, who, post.actions)
        if not post.recorded:
            band_off_the_map(state, post, caller)
        actions = list(post.actions) if interrupting else free_costs(who, post.actions)
        declaration = scribe.emit(
            DeclarationPosted(actor=post.actor, text=post.text, actions=actions, responds_to=responds_to)
        )
        _play(scribe, post.actor, actions, declaration, responds_to)


def _play(scribe: Scribe, actor: str, actions: Sequence[Action], declaration: int, responds_to: int | None) -> None:
    """Each action of the declaration at seq ``declaration``, by its handler (an interrupt
    by ``escape.interrupt``)."""
    for action in actions:
        if action.type == "say":
            continue
        if action.type == "interrupt":
            assert responds_to is not None
            escape.interrupt(scribe, actor, action, declaration, responds_to)
            continue
        HANDLERS[action.type](scribe, actor, action, declaration)


def check_declaration(state: SceneState, declaration: DeclarationPosted) -> RefusedError | None:
    """What the table refuses in a logged ``declaration`` (``state``: before it) beyond whose
    turn it is, who may act and the allowance (the audit's order and allowance checks): an
    action type roe7 does not have, then each action as its handler checks it, up to the
    first die (``fightlog.kit.declared.refusal``). An interrupt is the audit's
    ``escape.interrupt_breach``; ``None`` for a poster not in the fight or out of it, and
    before the fight begins (the posting-order checks report those)."""
    actions = declaration.actions
    found = unknown_action(actions, ACTION_TYPES)
    if found is not None or declaration.ooc or state.turn.round == 0:
        return found
    who = state.combatants.get(declaration.actor)
    if who is None or not OUT.isdisjoint(who.statuses) or "reserve" in who.statuses:
        return None
    played = [a for a in actions if a.type not in ("say", "interrupt")]
    if not played:
        return None

    def resolve(scribe: Scribe) -> None:
        _play(scribe, declaration.actor, played, scribe.emit(declaration), None)

    return refusal(resolve, state)


def free_costs(who: Fighter, actions: Sequence[Action]) -> list[Action]:
    """Actions that cost nothing in this turn, marked ``cost="free"`` (so the fold does not
    count them): a draw on one's first turn not stunned (Changing Weapons), standing up from
    a knee (Changing Stance)."""
    out: list[Action] = []
    free_draw: bool | None = None  # read once, and only for a draw
    for action in actions:
        if action.cost is None:
            if action.type == "draw":
                if free_draw is None:
                    free_draw = turns.free_draw(who)
                if free_draw:
                    action = replace(action, cost="free")
            elif action.type == "stand" and who.has("kneeling") and not who.has("prone"):
                action = replace(action, cost="free")
        out.append(action)
    return out


def _check_allowance(scribe: Scribe, who: Fighter, actions: Sequence[Action]) -> None:
    found = breach(who, scribe.state.turn.spent, actions)
    if found is not None:
        raise RefusedError(found.message, code=found.code)


def breach(who: Fighter, spent: Mapping[str, int], actions: Sequence[Action]) -> Breach | None:
    """Whether ``actions``, posted by ``who`` in their open turn after what it has ``spent``
    (by cost type), break the turn's allowance (see ``over_allowance``); an arrival's post is
    the arrival only (Entering a Combat in Progress). Pure: the table refuses what this
    names, and the audit reports it on a logged post."""
    found = arrival_breach(who, actions)
    if found is not None:
        return found
    used = dict(spent)
    for action in free_costs(who, actions):
        cost = RULES.action_cost(action)
        if cost is not None:
            used[cost] = used.get(cost, 0) + 1
    return over_allowance(who, used)


def arrival_breach(who: Fighter, actions: Sequence[Action]) -> Breach | None:
    """An arrival's first post is the arrival only: speech, and a draw."""
    if not who.has("arriving"):
        return None
    extra = sorted({a.type for a in actions} - ARRIVAL_ACTIONS)
    if not extra:
        return None
    return Breach(
        "order.arrival-acted",
        f"{who.actor} is arriving: the first post is the arrival only (say, draw), not {', '.join(extra)}",
    )


RESTRICTING: Final = frozenset({"stun", "lost_turn", "lost_action"})
"""The effects that take away a turn's action or movement."""


def over_allowance(
    who: Fighter, used: Mapping[str, int], restricting: Sequence[ActiveEffect] | None = None
) -> Breach | None:
    """Whether a turn that has ``used`` so much (by cost type, the post included) is beyond
    ``who``'s allowance: one movement phase and one action (Parts of a Turn); a full-turn
    action needs both; stunned or a lost action: no action; a lost turn: nothing.
    ``restricting``: the ``RESTRICTING`` effects on ``who``, when the caller has them (with
    none, ``turn_breach`` needs no ``Fighter``)."""
    full = used.get("full", 0)
    if not used.get("action", 0) + full and not used.get("move", 0) + full:
        return None  # nothing that a turn limits (speech, free actions)
    stunned = lost_turn = lost_action = False
    for effect in who.effects() if restricting is None else restricting:
        # a stun however recent; a lost action or turn in place at the turn's start; none run out
        if ran_out(effect):
            continue
        name = effect.name
        if name == "stun":
            stunned = True
        elif name == "lost_turn":
            lost_turn = lost_turn or who.at_turn_start(effect)
        elif name == "lost_action":
            lost_action = lost_action or who.at_turn_start(effect)
    return turn_breach(who.actor, used, stunned=stunned, lost_turn=lost_turn, lost_action=lost_action)


def turn_breach(
    actor: str, used: Mapping[str, int], *, stunned: bool = False, lost_turn: bool = False, lost_action: bool = False
) -> Breach | None:
    """``over_allowance`` once the restricting effects are read: whether ``used`` is beyond
    ``actor``'s allowance when ``stunned``, having lost the turn or the action (all ``False``:
    the plain allowance, one movement phase and one action)."""
    full = used.get("full", 0)
    actions_used = used.get("action", 0) + full
    moves_used = used.get("move", 0) + full
    if actions_used <= 1 and moves_used <= 1 and not full and not (lost_turn or stunned or lost_action):
        return None  # within the plain allowance (or nothing a turn limits: speech, free actions)
    action_limit, move_limit = 1, 1
    why, code = "", "rules.allowance"
    if lost_turn:
        action_limit, move_limit, why, code = 0, 0, "loses this whole turn (critical)", "order.cannot-act"
    elif stunned:
        action_limit, why, code = 0, "is stunned: no action this turn", "order.cannot-act"
    elif lost_action:
        action_limit, why = 0, "lost this turn's action"
    if full and (used.get("action", 0) or used.get("move", 0) or full > 1):
        return Breach("rules.allowance", f"{actor}: fleeing and extinguishing take the whole turn (movement and action)")
    if actions_used > action_limit:
        reason = why or "has no action left this turn (one action per turn)"
        return Breach(code, f"{actor} {reason}")
    if moves_used > move_limit:
        if move_limit == 0:
            return Breach(code, f"{actor} loses this whole turn (critical)")
        return Breach("rules.allowance", f"{actor} has used this turn's movement phase")
    return None


TABLE: Final = Roe7Table()
