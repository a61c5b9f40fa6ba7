"""A post in one's own turn, checked and played (the table plays with these; the audit
checks a logged post with them, on a scribe that stops at the first die:
``fightlog.kit.declared``). Apart from the table, so that auditing a log never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted
from fightlog.kit.declared import refusal, unknown_action
from fightlog.kit.table import Post, Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun import economy, grapple, immediate, resolve
from fightlog.rules.bleedingsun.fighters import INCOMING, STUNNED, Fighter
from fightlog.rules.bleedingsun.planning import ATTACKS, Planned, plan
from fightlog.rules.bleedingsun.post_params import check_said
from fightlog.rules.bleedingsun.ruleset import ACTION_TYPES, ANSWERS
from fightlog.rules.bleedingsun.tactics import HANDLERS


def check_own(state: SceneState, actor: str, actions: Sequence[Action], *, strict: bool = False) -> Planned:
    """Refuse a post in ``actor``'s own turn the rules do not allow; its attacks planned.
    ``strict``: a post asked for now, refused a param its action does not read too
    (``post_params``; a recorded post, which it changed nothing in, is let through)."""
    who = Fighter(state, actor)
    waiting = [e for e in state.effects.values() if e.name == INCOMING and e.source == actor]
    if waiting:
        raise RefusedError(f"{actor}'s attack on {waiting[0].target} waits for {waiting[0].target}'s answer "
                           "(or the end of the turn)", code="rules.answer")
    if strict:
        check_said(actions, ATTACKS)
    grapple.check(state, actor, actions)
    earlier = economy.own_actions(state, actor)
    if any(a.type in economy.IMMEDIATE or a.type in ANSWERS for a in actions):
        raise RefusedError("an immediate action or answer is posted in another's turn", code="rules.immediate")
    since = who.frozen_since()
    economy.check(economy.marked(state, actor, since), actions, pace=who.pace(), stance=who.stance,
                  maneuver_cost=who.options.maneuver_cost, stunned=bool(who.effects(STUNNED)),
                  frozen_now=since is not None)
    if any(a.type == "attack" for a in earlier) and any(a.type == "attack" for a in actions):
        raise RefusedError("the round's attacks are one standard action: split the pool in one post",
                           code="rules.allowance")
    planned = plan(state, actor, actions, earlier, strict=strict)
    for found in planned.plans:
        if found.kind == "blast" and who.card.grenades:
            thrown = who.who.spent.get("grenade", 0)
            if thrown >= who.card.grenades:
                raise RefusedError(f"{actor} has thrown all {who.card.grenades} grenades", code="rules.allowance")
        if found.kind == "coup_de_grace":
            helpless = Fighter(state, found.target)
            if helpless.has("dead"):
                raise RefusedError(f"{found.target} is dead already: a coup de grace is for the helpless living",
                                   code="rules.coup")
            if not helpless.helpless():
                raise RefusedError(f"a coup de grace needs a helpless target: {found.target} is not",
                                   code="rules.coup")
            if (found.action.distance or 1) > 1:
                raise RefusedError("a coup de grace is delivered within 1 hex", code="rules.range")
        elif found.kind not in ("blast",):
            for target, _ in found.caught:
                if Fighter(state, target).out and found.kind != "spread":
                    raise RefusedError(f"{target} is out of the fight ({', '.join(Fighter(state, target).who.statuses)})"
                                       ": a coup de grace, not an attack", code="rules.target")
    return planned


def play_own(scribe: Scribe, actor: str, actions: list[Action], declaration: int, planned: Planned) -> None:
    for action in actions:
        handler = HANDLERS.get(action.type)
        if handler is not None:
            handler(scribe, actor, action, declaration)
    if planned.plans:
        resolve.declare(scribe, actor, declaration, planned.plans)


def check_declaration(state: SceneState, declaration: DeclarationPosted) -> RefusedError | None:
    """The table's refusal of a logged ``declaration`` (``state``: before it), or ``None``."""
    actions = declaration.actions
    found = unknown_action(actions, ACTION_TYPES)
    if found is not None or declaration.ooc or state.turn.round == 0 or not actions:
        return found
    if state.combatants.get(declaration.actor) is None:
        return None
    actor = declaration.actor

    if state.turn.current != actor and declaration.responds_to is None \
            and actions[0].type not in immediate.OUT_OF_TURN:
        return None  # a post out of turn: the shared posting-order checks report it

    def run(scribe: Scribe) -> None:
        Fighter(scribe.state, actor).able()
        if scribe.state.turn.current != actor:
            immediate.check(scribe.state, Post(actor=actor, actions=tuple(actions),
                                               responds_to=declaration.responds_to))
            return
        planned = check_own(scribe.state, actor, actions)
        seq = scribe.emit(DeclarationPosted(actor=actor, text=declaration.text, actions=list(actions)))
        play_own(scribe, actor, list(actions), seq, planned)

    return refusal(run, state)
