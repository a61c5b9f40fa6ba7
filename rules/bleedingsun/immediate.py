"""Posts out of one's own turn (Immediate Action; Drop in Initiative; Physical Defense;
Attacks of Opportunity; Holding an Aim; Talking).

An answer to an attack on the poster: ``dodge`` or ``block`` (an attack or a blast),
``resist`` (a combat maneuver), ``take`` (no defense, nothing spent). ``aoo``: an attack of
opportunity on the one whose turn it is, provoked by their ranged attack, reload, move or
sprint, once per provoking post. ``stop_aim``: stop holding an aim. ``jump``: jump on a
waiting grenade within 1 hex (``distance=N``, the poster's word; ``grenade=ID`` else the
latest thrown) and take its whole blast (``fuses.jump``). Actions readied in one's turn
(``readying``) are taken here too, with no immediate action and no drop. Each is the round's
immediate action (once a round, back at the start of one's turn) and drops its maker in the
sequence; total defense makes dodge, block and resist free; talking (``say``) costs nothing
here and drops nobody.
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted, EffectApplied, EffectExpired, InitiativeSet, StatusChanged
from fightlog.kit.declared import hand_kept
from fightlog.kit.table import Post, Scribe
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.bleedingsun import fuses, readying, resolve, sequence
from fightlog.rules.bleedingsun.economy import NO_DROP
from fightlog.rules.bleedingsun.fighters import AIM, IMMEDIATE, INCOMING, Fighter
from fightlog.rules.bleedingsun.planning import ATTACKS, plan
from fightlog.rules.bleedingsun.post_params import check_said
from fightlog.rules.bleedingsun.ruleset import ANSWERS

PROVOKING: Final = frozenset({"reload", "move", "sprint", "cook"})
OUT_OF_TURN: Final = frozenset({*ANSWERS, "aoo", "stop_aim", "say", "undelay", "jump"})


def incoming(state: SceneState, actor: str, responds_to: int | None) -> ActiveEffect:
    """The attack on ``actor`` an answer answers: of the post at ``responds_to`` (else the
    latest post waiting), the first of its attacks on ``actor`` still waiting (a post's
    attacks on one target resolve in its order: ``resolve.answers``); refused when there is
    none."""
    waiting = [e for e in state.effects.values() if e.name == INCOMING and e.target == actor]
    if responds_to is not None:
        waiting = [e for e in waiting if e.params.get("declaration") == responds_to]
    if not waiting:
        raise RefusedError(f"{actor} is not attacked by {'the post at seq ' + str(responds_to) if responds_to else 'any post'}"
                           " waiting for an answer", code="rules.answer")
    latest = max(int(e.params.get("declaration", 0)) for e in waiting)
    return min((e for e in waiting if int(e.params.get("declaration", 0)) == latest),
               key=lambda e: int(e.params.get("index", 0)))


def check(state: SceneState, post: Post) -> None:
    """Refuse an out-of-turn post the rules do not allow (before anything is written)."""
    actions = post.actions
    if not post.recorded:
        check_said(actions, ATTACKS)
    if _takes_readied(state, post):
        readying.check_taking(state, post.actor, actions)
        plan(state, post.actor, actions, strict=not post.recorded)
        return
    if len(actions) != 1 or actions[0].type not in OUT_OF_TURN:
        raise RefusedError(f"out of turn: it is {state.turn.current or 'nobody'}'s turn; one immediate action "
                           f"({', '.join(sorted(OUT_OF_TURN))}) may be posted", code="order.out-of-turn")
    action = actions[0]
    who = Fighter(state, post.actor)
    if action.type == "undelay":
        if not who.has("delaying"):
            raise RefusedError(f"{post.actor} is not delaying: nothing to come out of")
        return
    if action.type == "say" or action.type == "take":
        if action.type == "take":
            _answered_kind(state, post)
        return
    if who.flat_footed():
        raise RefusedError(f"{post.actor} is flat-footed (has not acted yet): no immediate actions",
                           code="rules.immediate")
    free = action.type in ("dodge", "block", "resist") and who.defending()
    if who.immediate_spent() and not free:
        raise RefusedError(f"{post.actor} has spent the immediate action this round", code="rules.immediate")
    if action.type in ANSWERS:
        kind = _answered_kind(state, post)
        if kind is None:
            return
        if action.type == "resist" and kind != "trip":
            raise RefusedError("resist answers a combat maneuver (dodge or block an attack)", code="rules.answer")
        if action.type in ("dodge", "block") and kind == "trip":
            raise RefusedError("a combat maneuver is resisted (resist)", code="rules.answer")
        if action.type == "block" and kind == "blast":
            raise RefusedError("an explosive is dodged, not blocked", code="rules.answer")
    elif action.type == "aoo":
        _provoker(state, post)
    elif action.type == "stop_aim" and not who.aim_held():
        raise RefusedError(f"{post.actor} holds no aim", code="rules.aim")
    elif action.type == "jump":
        fuses.jumped_on(state, post.actor, action)


def _answered_kind(state: SceneState, post: Post) -> str | None:
    """The kind of the attack an answer answers (``incoming``); ``None`` for an answer in a
    log the table did not play (an import, a hand-kept log: no dice commitment, and no attack
    marked as waiting) whose post at ``responds_to`` attacks the answerer, of a kind not known."""
    try:
        return str(incoming(state, post.actor, post.responds_to).params.get("kind"))
    except RefusedError:
        if not hand_kept(state):
            raise
        attacked = next((p for p in state.pending if p.seq == post.responds_to), None)
        aimed = 0 if attacked is None else sum(
            a.type in ATTACKS and (a.target == post.actor or post.actor in a.targets) for a in attacked.actions)
        if not aimed:
            raise
        answered = sum(p.actor == post.actor and p.responds_to == post.responds_to and len(p.actions) == 1
                       and p.actions[0].type in ANSWERS for p in state.pending)  # answers as the table plays them
        if answered >= aimed:  # one answer an attack (Physical Defense)
            raise RefusedError(f"{post.actor} has answered the attack{'s' if aimed > 1 else ''} of the post at seq "
                               f"{post.responds_to} already", code="rules.answer") from None
        return None


def _provoker(state: SceneState, post: Post) -> int:
    """The provoking post an attack of opportunity answers (``responds_to``, else the latest
    provoking post of the turn)."""
    action = post.actions[0]
    current = state.turn.current
    if action.target != current or current is None:
        raise RefusedError(f"an attack of opportunity is made on the one acting ({current or 'nobody'})",
                           code="rules.aoo")
    provoking = [p for p in state.pending if p.actor == current and p.responds_to is None
                 and any(provokes(state, current, a) for a in p.actions)]
    if post.responds_to is not None:
        provoking = [p for p in provoking if p.seq == post.responds_to]
    if not provoking:
        raise RefusedError(f"{current} has done nothing that provokes an attack of opportunity this turn",
                           code="rules.aoo")
    target = provoking[-1].seq
    if any(p.actor == post.actor and p.responds_to == target and any(a.type == "aoo" for a in p.actions)
           for p in state.pending):
        raise RefusedError("a single action provokes one attack of opportunity", code="rules.aoo")
    plan(state, post.actor, post.actions, strict=not post.recorded)
    return target


def provokes(state: SceneState, actor: str, action: Action) -> bool:
    """Whether ``action`` provokes an attack of opportunity: a ranged attack (a grenade thrown
    or lobbed is one: an attack roll at range), reloading, moving (not cautiously), sprinting,
    cooking a grenade."""
    if action.type == "throw":
        return True
    if action.type == "attack":
        weapon = Fighter(state, actor).card.weapon(action.weapon)
        return weapon is not None and weapon.kind == "ranged"
    if action.type == "move" and action.params.get("cautious") is True:
        return False
    return action.type in PROVOKING


def _comes_back(scribe: Scribe, actor: str, cause: int) -> None:
    """Out of the delay: the turn comes at the end of the one going on, and one's place in
    the sequence is right after its maker from then on."""
    current = scribe.state.turn.current
    scribe.emit(StatusChanged(actor=actor, status="delaying", on=False, cause=cause, note=f"comes back after {current}"))
    order = [a for a in scribe.state.turn.order if a != actor]
    order.insert(order.index(current) + 1 if current in order else len(order), actor)
    scribe.emit(InitiativeSet(order=order, reason=f"delay: {actor} comes back after {current}"))


def _takes_readied(state: SceneState, post: Post) -> bool:
    """Whether an out-of-turn post takes readied actions: one who readied some posts an
    action that is neither an answer nor an immediate action."""
    return any(a.type not in OUT_OF_TURN for a in post.actions) and bool(
        Fighter(state, post.actor).effects(readying.READIED))


def _take_readied(scribe: Scribe, post: Post) -> None:
    """Readied actions taken in another's turn: no drop; attacks resolve at once."""
    from fightlog.rules.bleedingsun.tactics import HANDLERS

    state = scribe.state
    responds = post.responds_to if post.responds_to is not None else (
        state.pending[-1].seq if state.pending else state.turn.started)
    declaration = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                                responds_to=responds))
    readying.end(scribe, post.actor, "taken")
    for action in post.actions:
        handler = HANDLERS.get(action.type)
        if handler is not None:
            handler(scribe, post.actor, action, declaration)
    resolve.declare(scribe, post.actor, declaration, plan(scribe.state, post.actor, post.actions).plans, answered=False)


def post_out_of_turn(scribe: Scribe, post: Post) -> None:
    check(scribe.state, post)
    if _takes_readied(scribe.state, post):
        _take_readied(scribe, post)
        return
    action = post.actions[0]
    state = scribe.state
    who = Fighter(state, post.actor)
    if action.type in ANSWERS:
        found = incoming(state, post.actor, post.responds_to)
        responds = int(found.params.get("declaration", 0))
    elif action.type == "aoo":
        responds = _provoker(state, post)
    else:
        responds = post.responds_to if post.responds_to is not None else (
            state.pending[-1].seq if state.pending else state.turn.started)
    free = action.type in ("dodge", "block", "resist") and who.defending()
    declaration = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions),
                                                responds_to=responds))
    if action.type == "undelay":
        _comes_back(scribe, post.actor, declaration)
        return
    if action.type not in NO_DROP and not free:
        scribe.emit(EffectApplied(effect=f"{IMMEDIATE}-{post.actor}", name=IMMEDIATE, target=post.actor,
                                  cause=declaration, params={"action": action.type}))
        sequence.dropped(scribe, post.actor, action.type, declaration)
    if action.type in ANSWERS:
        found = incoming(scribe.state, post.actor, responds)
        index = int(found.params.get("index", 0))
        # no cause: the attack's resolution (which follows from the attack, not the answer) is
        # what ends the wait for good; a void of the answer must not set the attack waiting again
        scribe.emit(EffectExpired(effect=found.effect, target=post.actor, reason=f"answered: {action.type}"))
        left = [e for e in scribe.state.effects.values() if e.name == INCOMING
                and e.params.get("declaration") == responds and e.params.get("index") == index]
        if not left:
            resolve.resolve(scribe, responds, index)
    elif action.type == "aoo":
        resolve.resolve(scribe, declaration, 0)
    elif action.type == "jump":
        fuses.jump(scribe, post.actor, action, declaration)
    elif action.type == "stop_aim":
        for aim in who.effects(AIM):
            scribe.emit(EffectExpired(cause=declaration, effect=aim.effect, target=post.actor, reason="stopped holding the aim"))
