"""Live play and scripted fights for ``traveller``: the kit's table skeleton
(``fightlog.kit.table_base``) filled in.

A post is one of two things. In one's own turn, a significant action and minor actions
(``allowance``), each played by its handler. Out of turn, a reaction to an attack on the
poster (``reactions``): ``dodge``, ``dive``, ``parry`` or ``take``. An attack on someone
who can react waits for their reaction (or for the end of the attacker's turn); the attacker
posts nothing more until it is rolled. A refusal leaves the scribe as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fightlog.errors import RefusedError
from fightlog.events.model import CombatantJoined, DeclarationPosted, EffectExpired
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.kit.table_base import TableBase
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller import grapple, harm, healing, reactions, turns
from fightlog.rules.traveller.attack import waiting_post
from fightlog.rules.traveller.declared import play_actions
from fightlog.rules.traveller.allowance import KEEPS_AIM, check_allowance, check_not_dived, turn_actions
from fightlog.rules.traveller.fighters import AIM, GRAPPLE_WON, INCOMING, Fighter
from fightlog.rules.traveller.options import RULESET_ID, TravellerOptions, read_options
from fightlog.rules.traveller.ruleset import ACTION_TYPES, FIELDS_READ, PARAMS_READ, OUT, REACTIONS

class TravellerTable(TableBase):
    id = RULESET_ID
    option_type = TravellerOptions
    action_types = ACTION_TYPES
    params_read = PARAMS_READ
    fields_read = FIELDS_READ
    distance_from_map = True
    out = OUT

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> TravellerOptions:
        return read_options(overrides, where=where)

    def awaiting(self, state: SceneState) -> list[tuple[int, str]]:
        """The attacks waiting for their target's reaction (an ``incoming`` effect each, citing
        the attack's post): ``play post`` says so on a ``waiting:`` line."""
        return sorted({(waiting_post(e), e.target) for e in state.effects.values() if e.name == INCOMING})

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        from fightlog.rules.traveller.sheet import joins

        return joins(path)

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        """A sheet with two characteristics at zero joins unconscious (three: dead), as damage
        would leave them (Unconsciousness: ``harm.condition``)."""
        harm.condition(scribe, entrant.actor, seq)

    def open_fight(self, scribe: Scribe) -> None:
        turns.begin(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        turns.end_turn(scribe)

    def play(self, scribe: Scribe, post: Post) -> None:
        state = scribe.state
        who = Fighter(state, post.actor)
        who.able()
        if any(a.type in REACTIONS for a in post.actions):
            reactions.react(scribe, post)
            return
        if who.effects(GRAPPLE_WON) and state.turn.current != post.actor:
            grapple.pick(scribe, post)
            return
        own_turn(scribe, who, post)


def own_turn(scribe: Scribe, who: Fighter, post: Post) -> None:
    """A post in one's own turn: checked, declared, each action played in order."""
    state = scribe.state
    if state.turn.current != post.actor:
        raise RefusedError(f"out of turn: it is {state.turn.current or 'nobody'}'s turn to post "
                           "(a reaction answers an attack)", code="order.out-of-turn")
    check_not_dived(who.who.statuses, post.actor)
    if post.responds_to is not None:
        raise RefusedError("a post in one's own turn answers nothing (responds_to is for reactions)",
                           code="order.out-of-turn")
    waiting = reactions.unanswered(state, post.actor)
    if waiting and post.actions:
        raise RefusedError(f"{post.actor}'s attack on {waiting[0].target} waits for {waiting[0].target}'s reaction "
                           "(or the end of the turn)")
    picking = [e for e in state.effects.values() if e.name == GRAPPLE_WON and e.source == post.actor]
    if picking and post.actions:
        raise RefusedError(f"{picking[0].target} won {post.actor}'s grapple and picks first (or the turn ends)")
    earlier = turn_actions(state, post.actor)
    check_allowance(earlier, post.actions, who.options)
    if not post.recorded:
        healing.check_points(post.actions)
    defer = [a for a in post.actions if a.type == "defer"]
    if defer and (earlier or len(post.actions) > 1 or who.has("delaying") or who.effects("deferred")):
        raise RefusedError("deferring is the whole turn, once a round: nothing else in it")
    declaration = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions)))
    aim = who.effect(AIM)
    if aim is not None and any(a.type not in KEEPS_AIM for a in post.actions):
        scribe.emit(EffectExpired(cause=declaration, effect=aim.effect, target=post.actor, reason="did something else"))
    play_actions(scribe, post.actor, list(post.actions), declaration)
    if defer:
        after = defer[0].target
        if after is not None:
            Fighter(state, after)
        turns.defer(scribe, post.actor, after, declaration)


TABLE: Final = TravellerTable()
