"""A defender's answer to an attack on them (Melee attack; Roll with it), posted out of turn
(``responds_to``: the attack's post; by default the latest one on them): ``counter
weapon=W`` (a simultaneous counterattack, by one who has not acted this turn: it is their
action), ``take`` or ``ignore`` (Defense 0); ``roll=true`` rolls with a hit (-2 Damage, the
next action lost). The attack is resolved at once with its answer."""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted, StatusChanged
from fightlog.kit.table import Post, Scribe
from fightlog.reducers.state import PendingDeclaration
from fightlog.rules.en51 import attack
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import options_of
from fightlog.rules.en51.plan import combat
from fightlog.rules.en51.ruleset import ANSWERS
from fightlog.rules.en51.turns import answer_to, attack_of, unanswered


def attacked(scribe: Scribe, who: Fighter, post: Post) -> tuple[PendingDeclaration, Action]:
    """The attack post ``post`` answers, and its attack on ``who``."""
    state = scribe.state
    waiting = [(p, a) for p, a in unanswered(state) if a.target == who.actor]
    if post.responds_to is None:
        if not waiting:
            raise RefusedError(f"no attack on {who.actor} waits for an answer", code="order.out-of-turn")
        return waiting[-1]
    found = next((p for p in state.pending if p.seq == post.responds_to), None)
    action = attack_of(found) if found is not None else None
    if found is None or action is None or action.target != who.actor:
        raise RefusedError(f"responds_to {post.responds_to}: not an attack on {who.actor} this turn",
                           code="order.out-of-turn")
    if answer_to(state, found) is not None:
        raise RefusedError(f"{who.actor} has answered that attack already", code="order.double-post")
    return found, action


def check(scribe: Scribe, who: Fighter, reply: Action, swing: attack.Swing) -> None:
    state = scribe.state
    options = options_of(state)
    if attack.unaware(who, swing.action, options):
        raise RefusedError(f"{who.actor} is unaware of the attack: no answer", code="rules.refused")
    incoming = Fighter(state, swing.attacker).weapon(swing.action.weapon)
    if reply.type in ("counter", "ignore") and incoming.kind != "melee":
        raise RefusedError(f"a ranged attack is not {'countered' if reply.type == 'counter' else 'ignored'} "
                           "(take it, rolling with it or not)", code="rules.refused")
    if reply.type == "counter":
        if who.acted():
            raise RefusedError(f"{who.actor} has already acted this turn: no counterattack", code="rules.counter")
        if who.weapon(reply.weapon).kind != "melee":
            raise RefusedError("a counterattack is a melee attack", code="rules.refused")


def answer(scribe: Scribe, who: Fighter, post: Post) -> None:
    replies = [a for a in post.actions if a.type in ANSWERS]
    if len(replies) != 1 or len(combat(post.actions)) > 0:
        raise RefusedError("an answer to an attack is one counter, take or ignore", code="rules.refused")
    reply = replies[0]
    found, action = attacked(scribe, who, post)
    swing = attack.Swing(found.actor, who.actor, action, found.seq)
    check(scribe, who, reply, swing)
    seq = scribe.emit(DeclarationPosted(actor=who.actor, text=post.text, actions=list(post.actions),
                                        responds_to=found.seq))
    if reply.type == "counter":
        scribe.emit(StatusChanged(actor=who.actor, status="spent", cause=seq, note="counterattacks: this turn's action"))
    attack.resolve(scribe, swing, (seq, reply))
