"""A defender's answer to an attack on them (Melee attack; Roll with it), posted out of turn
(``responds_to``: the attack's post; by default the latest one on them): ``counter
weapon=W`` (a simultaneous counterattack, by one who has not acted this turn: it is their
action), ``take`` or ``ignore`` (Defense 0); ``roll=true`` rolls with a hit (-2 Damage, the
next action lost). The attack is resolved at once with its answer; an attack combined with a
move is answered while the move waits (``responds_to``: the move's post) and resolved with
its answer when the move arrives at the end of the turn (``moves``)."""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted, EffectApplied, StatusChanged
from fightlog.kit.table import Post, Scribe
from fightlog.rules.en51 import attack, moves
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import options_of
from fightlog.rules.en51.plan import combat
from fightlog.rules.en51.ruleset import ANSWERS
from fightlog.rules.en51.turns import answer_to, attack_of, resolve_cut_ins, unanswered


def attacked(scribe: Scribe, who: Fighter, post: Post) -> tuple[attack.Swing, bool]:
    """The attack ``post`` answers (as a swing at ``who``) and whether it waits for a move."""
    state = scribe.state
    waiting = [attack.Swing(p.actor, who.actor, a, p.seq) for p, a in unanswered(state) if a.target == who.actor]
    moving = moves.waiting_attacks(state, who.actor)
    if post.responds_to is None:
        if waiting:
            return waiting[-1], False
        if moving:
            return moving[-1], True
        raise RefusedError(f"no attack on {who.actor} waits for an answer", code="order.out-of-turn")
    swing = next((s for s in moving if s.declaration == post.responds_to), None)
    if swing is not None:
        return swing, True
    found = next((p for p in state.pending if p.seq == post.responds_to), None)
    action = attack_of(found) if found is not None else None
    if found is None or action is None or action.target != who.actor:
        if any(e.name == "answer" and e.params.get("declaration") == post.responds_to for e in state.effects.values()):
            raise RefusedError(f"{who.actor} has answered that attack already", code="order.double-post")
        raise RefusedError(f"responds_to {post.responds_to}: not an attack on {who.actor} this turn",
                           code="order.out-of-turn")
    if answer_to(state, found) is not None:
        raise RefusedError(f"{who.actor} has answered that attack already", code="order.double-post")
    if who.actor in found.resolved:
        raise RefusedError(f"responds_to {found.seq}: its attack on {who.actor} has been resolved", code="order.out-of-turn")
    return attack.Swing(found.actor, who.actor, action, found.seq), False


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
        if who.has("rolling"):
            raise RefusedError(f"{who.actor} has sacrificed their next action rolling with a hit: no counterattack",
                               code="rules.counter")
        if who.acted():
            raise RefusedError(f"{who.actor} has already acted this turn: no counterattack", code="rules.counter")
        if who.weapon(reply.weapon).kind != "melee":
            raise RefusedError("a counterattack is a melee attack", code="rules.refused")


def answer(scribe: Scribe, who: Fighter, post: Post) -> None:
    replies = [a for a in post.actions if a.type in ANSWERS]
    if len(replies) != 1 or len(combat(post.actions)) > 0:
        raise RefusedError("an answer to an attack is one counter, take or ignore", code="rules.refused")
    reply = replies[0]
    swing, moving = attacked(scribe, who, post)
    check(scribe, who, reply, swing)
    seq = scribe.emit(DeclarationPosted(actor=who.actor, text=post.text, actions=list(post.actions),
                                        responds_to=swing.declaration))
    if reply.type == "counter":
        scribe.emit(StatusChanged(actor=who.actor, status="spent", cause=seq, note="counterattacks: this turn's action"))
    if moving:
        scribe.emit(EffectApplied(effect=f"answer-{scribe.next_seq}", name="answer", target=swing.attacker,
                                  source=who.actor, cause=seq, params=moves.kept(reply, swing.declaration, seq)))
        return
    resolve_cut_ins(scribe, swing.declaration)  # a held attack cutting in on it goes first (Waiting)
    attack.resolve(scribe, swing, (seq, reply))
