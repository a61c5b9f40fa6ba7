"""Live play and scripted fights for ``en51``: the ``Table`` (``fightlog.kit.table``).

A post is one of three things: in one's own turn, one combat action or a move with what it
combines with (``plan``); an answer to an attack on the poster (``answers``); or, for one
waiting, the held action cutting in during another's turn (Waiting). Attacks are resolved
when answered or when the turn ends (``turns``); moves at the end of the en5.1 turn
(``moves``). The kit's skeleton refuses what every ruleset refuses before ``play``, and ends
the scene (the aftermath's bleeding is kept with the Wounds: ``harm``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action, CombatantJoined, DeclarationPosted, EffectApplied, EffectExpired, StatusChanged
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.kit.table_base import TableBase
from fightlog.reducers.state import SceneState
from fightlog.rules.en51 import answers, attack, care, harm, moves, params, plan, tactics, turns
from fightlog.rules.en51.aiming import check_melee_reach
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import En51Options, options_of, read_options
from fightlog.rules.en51.ruleset import ACTION_TYPES, FIELDS_READ, PARAMS_READ, ANSWERS, OUT, RULESET_ID

Handler = Callable[[Scribe, str, Action, int], None]

HANDLERS: Final[Mapping[str, Handler]] = {**tactics.TACTICS, "medicine": care.medicine, "recover": care.recover}


def _held(scribe: Scribe, who: Fighter, other: Action | None, move: Action | None) -> None:
    """A waiting combatant's post in another's turn: the held action cuts in; any other
    action waits for the event it reacts to (the open turn's post)."""
    effect = who.effect("waiting")
    if effect is None:
        current = scribe.state.turn.current
        raise RefusedError(f"out of turn: it is {current or 'nobody'}'s turn to post", code="order.out-of-turn")
    if move is not None or other is None:
        raise RefusedError("a waiting combatant cuts in with one action, not a move", code="rules.combined")
    current = scribe.state.turn.current
    posted = any(p.actor == current for p in scribe.state.pending)
    if other.type != effect.params.get("then") and not posted:
        raise RefusedError(f"{other.type} is not the action held ({effect.params.get('then')}): it comes after "
                           f"{current}'s post", code="order.out-of-turn")


def _cut_in(scribe: Scribe, who: Fighter, other: Action | None, post: Post, declaration: int) -> None:
    """The held action taken: when it is the action held and the open turn has a post, it cuts
    in on that post and is resolved before it (effect ``cut_in``: ``turns.in_order``); another
    action comes after what it reacts to, in the order declared (Waiting)."""
    waiting = who.effect("waiting")
    if waiting is None:
        return
    scribe.emit(EffectExpired(cause=declaration, effect=waiting.effect, target=post.actor, reason="the held action taken"))
    cuts = other is not None and other.type == waiting.params.get("then")
    if cuts and any(p.seq == post.responds_to for p in scribe.state.pending):
        scribe.emit(EffectApplied(effect=f"cut_in-{scribe.next_seq}", name="cut_in", target=post.actor,
                                  source=post.actor, cause=declaration,
                                  params={"declaration": declaration, "before": post.responds_to}))


def _own(scribe: Scribe, who: Fighter, actions: Sequence[Action]) -> None:
    if plan.combat(actions) and who.has("spent"):
        raise RefusedError(f"{who.actor}'s action this turn went on a counterattack", code="rules.allowance")
    if plan.combat(actions) and who.has("rolling") and not who.posted():
        raise RefusedError(f"{who.actor}'s action this turn was sacrificed rolling with a hit", code="rules.allowance")
    if plan.combat(actions) and who.posted():
        raise RefusedError(f"{who.actor} has taken this turn's combat action", code="rules.allowance")


class En51Table(TableBase):
    """The kit's table skeleton filled in for en51."""

    id = RULESET_ID
    option_type = En51Options
    action_types = ACTION_TYPES
    params_read = PARAMS_READ
    fields_read = FIELDS_READ
    out = OUT

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> En51Options:
        return read_options(overrides, where=where)

    def awaiting(self, state: SceneState) -> list[tuple[int, str]]:
        """The open turn's attacks a defender may still answer (``counter``, ``take``,
        ``ignore``): those waiting in the turn and those combined with a move."""
        found = [(post.seq, action.target) for post, action in turns.unanswered(state) if action.target is not None]
        for actor in sorted(state.combatants):
            found += [(swing.declaration, actor) for swing in moves.waiting_attacks(state, actor)]
        return list(dict.fromkeys(sorted(found)))

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        from fightlog.rules.en51.roster import joined, load_roster

        return [joined(c) for c in load_roster(path).combatants]

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        harm.marked_at_join(scribe, entrant.actor, seq, options_of(scribe.state))

    def open_fight(self, scribe: Scribe) -> None:
        turns.begin(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        turns.end_turn(scribe)

    def play(self, scribe: Scribe, post: Post) -> None:
        state = scribe.state
        who = Fighter(state, post.actor)
        who.able()
        params.check(post.actions)
        if any(a.type in ANSWERS for a in post.actions):
            answers.answer(scribe, who, post)
            return
        move, other = plan.check(who, post.actions)
        held = state.turn.current != post.actor
        if held:
            _held(scribe, who, other, move)
            if post.responds_to is None:  # what it cuts in on: the open turn's latest post, or the turn itself
                post = replace(post, responds_to=state.pending[-1].seq if state.pending else state.turn.started)
        else:
            _own(scribe, who, post.actions)
        if other is not None and other.type == "attack":
            _, weapon = attack.check(who, other)
            check_melee_reach(weapon, other, options_of(state), move.distance or 0 if move is not None else 0)
        declaration = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                                    responds_to=post.responds_to))
        if held:
            _cut_in(scribe, who, other, post, declaration)
        if other is not None and other.type == "attack" and who.has("hidden"):  # out of hiding to strike
            scribe.emit(StatusChanged(actor=post.actor, status="hidden", on=False, cause=declaration,
                                      note="attacking gives hiding up"))
        if move is not None:
            moves.declare(scribe, post.actor, move, other, declaration)
        elif other is not None and other.type != "attack":
            HANDLERS[other.type](scribe, post.actor, other, declaration)


TABLE: Final = En51Table()
