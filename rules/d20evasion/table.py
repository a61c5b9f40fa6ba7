"""Live play and scripted fights for ``d20-evasion``: the ``Table`` (see
``fightlog.kit.table``).

A post is one of three things. In one's own turn, movement and actions (``plan`` reads them,
``allowance`` bounds them, a handler per action type plays them). In a duel, a defensive
turn: an answer (``responds_to``) to the post that attacked the poster, with ``dodge``,
``counter``, ``parry`` or ``take`` per attack (``defence``). For one holding their turn, the
held turn, answering any post of the round (an interrupt, when it answers an enemy who has
moved but not attacked). A defensive or held turn that names no post answers the latest one
it can (the attack post waiting for the defender; the open turn's last post). A refusal
leaves the scribe as it was. The kit's skeleton (``fightlog.kit.table_base``) refuses what
every ruleset refuses before ``play`` is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action, CombatantJoined, DeclarationPosted, StatusChanged
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.d20evasion import attack, defence, disarm, items, moves, spells, tactics, turns
from fightlog.rules.d20evasion.allowance import breach, turn_actions
from fightlog.rules.d20evasion.declared import check_defence, check_interrupt, pending
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options, read_options
from fightlog.rules.d20evasion.plan import plan
from fightlog.rules.d20evasion.ruleset import ACTION_TYPES, FIELDS_READ, PARAMS_READ, DEFENSIVE, OUT, RULESET_ID
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.kit.table_base import TableBase

Handler = Callable[[Scribe, str, Action, int], None]

HANDLERS: Final[Mapping[str, Handler]] = {
    "move": moves.move,
    "sprint": moves.sprint,
    "attack": attack.attack,
    "cast": spells.cast,
    "disarm": disarm.disarm,
    "draw": disarm.draw,
    "pick_up": disarm.pick_up,
    "use_item": items.use_item,
    "hold": tactics.hold,
    "skill": tactics.recorded,
    "assist": tactics.recorded,
}


class D20Table(TableBase):
    """The kit's table skeleton (``fightlog.kit.table_base``) filled in for d20-evasion."""

    id = RULESET_ID
    option_type = D20Options
    action_types = ACTION_TYPES
    params_read = PARAMS_READ
    fields_read = FIELDS_READ
    out = OUT

    def awaiting(self, state: SceneState) -> list[tuple[int, str]]:
        from fightlog.rules.d20evasion.defence import unanswered

        return [(post.seq, defender) for post, defender in unanswered(state)]

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> D20Options:
        return read_options(overrides, where=where)

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        from fightlog.rules.d20evasion.roster import load_roster

        roster = load_roster(path)
        return [roster.joined(c) for c in roster.combatants]

    def reserve_refused(self, joined: CombatantJoined) -> str | None:
        if joined.owner is not None:
            return None  # a summon brings its minion in (Minions)
        return ("in d20-evasion only a minion (a combatant with an owner) waits in reserve, until a summon "
                "brings it in: join others when they come (an arrival)")

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        if reserve:
            note = "a minion waiting to be summoned"
            scribe.emit(StatusChanged(actor=entrant.actor, status="reserve", cause=seq, note=note))

    def open_fight(self, scribe: Scribe) -> None:
        turns.begin(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        turns.end_turn(scribe)

    def play(self, scribe: Scribe, post: Post) -> None:
        """A post past the kit's shared checks (``TableBase.post``): a defensive turn, a held
        turn, or one's own turn."""
        state = scribe.state
        who = Fighter(state, post.actor)
        who.able()
        types = {a.type for a in post.actions}
        if types & DEFENSIVE:
            _respond(scribe, who, post)
            return
        held = post.responds_to is not None or state.turn.current != post.actor
        if held and not who.has("holding"):
            current = state.turn.current
            if current == post.actor:
                raise RefusedError("a post in one's own turn answers nothing (responds_to is for defensive turns and "
                                   "held turns)", code="order.out-of-turn")
            raise RefusedError(f"out of turn: it is {current or 'nobody'}'s turn to post", code="order.out-of-turn")
        if held:
            if post.responds_to is None and state.pending:  # the open turn's latest post
                post = replace(post, responds_to=state.pending[-1].seq)
            check_interrupt(state, post.actor, post.responds_to)
        earlier = turn_actions(state, post.actor, post.responds_to)
        actions = plan(state, who, post.actions, earlier)
        found = breach(who, earlier, actions)
        if found is not None:
            raise RefusedError(found.message, code=found.code)
        if held and any(a.type == "hold" for a in actions):
            raise RefusedError("a held turn cannot be held again")
        declaration = scribe.emit(
            DeclarationPosted(actor=post.actor, text=post.text, actions=actions, responds_to=post.responds_to)
        )
        if held:
            scribe.emit(StatusChanged(actor=post.actor, status="holding", on=False, cause=declaration,
                                      note="takes the held turn"))
        for action in actions:
            handler = HANDLERS.get(action.type)
            if handler is not None:
                handler(scribe, post.actor, action, declaration)


def _respond(scribe: Scribe, who: Fighter, post: Post) -> None:
    state = scribe.state
    check_defence(who, post.actions)
    seq = post.responds_to
    if seq is None:  # the latest post still waiting for this defender
        waiting = [p.seq for p, d in defence.unanswered(state) if d == who.actor]
        seq = waiting[-1] if waiting else None
    attacked = pending(state, seq)
    if attacked is None:
        raise RefusedError("a defensive turn answers the post that attacked (responds_to=SEQ of this turn)",
                           code="order.out-of-turn")
    if defence.answered(state, attacked.seq, who.actor):
        raise RefusedError(f"{who.actor} has answered that post already", code="order.double-post")
    gone = defence.lapsed(state, attacked, who.actor)
    if gone is not None:
        raise RefusedError(f"responds_to {attacked.seq}: nothing to answer: {gone}", code="order.out-of-turn")
    if who.actor in attacked.resolved:
        raise RefusedError(f"responds_to {attacked.seq}: its attacks on {who.actor} have been resolved",
                           code="order.out-of-turn")
    actions = defence.check_response(state, who, attacked, post.actions)
    declaration = scribe.emit(
        DeclarationPosted(actor=who.actor, text=post.text, actions=actions, responds_to=attacked.seq)
    )
    response = PendingDeclaration(seq=declaration, actor=who.actor, actions=tuple(actions), responds_to=attacked.seq)
    defence.resolve(scribe, attacked, who.actor, response)


TABLE: Final = D20Table()
