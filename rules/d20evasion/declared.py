"""What the ``d20-evasion`` table refuses in a logged declaration, for the audit (and the
checks of a defensive turn the table makes with it); see ``fightlog.kit.declared``.

Apart from the table (``table``), so that folding and auditing a log never load it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.d20evasion import defence
from fightlog.rules.d20evasion.allowance import turn_actions
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.plan import plan
from fightlog.rules.d20evasion.ruleset import ACTION_TYPES, DEFENSIVE, OUT
from fightlog.kit.declared import judged, unknown_action


ATTACKING: Final = frozenset({"attack", "cast", "disarm"})
"""What a held turn may no longer interrupt once the enemy has declared it."""


def check_interrupt(state: SceneState, actor: str, responds_to: int | None) -> None:
    """A held turn answers a post of the open turn; an enemy's turn is interrupted only
    before that enemy attacks."""
    answered = pending(state, responds_to)
    if answered is None:
        raise RefusedError("a held turn is taken by answering a post of this turn (responds_to=SEQ)",
                           code="order.out-of-turn")
    current = state.turn.current
    attacked = [p for p in state.pending if p.actor == current and any(a.type in ATTACKING for a in p.actions)]
    if current is not None and attacked:
        if Fighter(state, current).side != Fighter(state, actor).side:
            raise RefusedError(f"{current} has attacked already: a held turn interrupts after the move, before the "
                               "attack", code="order.out-of-turn")


def pending(state: SceneState, seq: int | None) -> PendingDeclaration | None:
    """The post of the open turn at ``seq``."""
    if seq is None:
        return None
    return next((p for p in state.pending if p.seq == seq), None)


def check_defence(who: Fighter, actions: Sequence[Action]) -> None:
    """A defensive turn holds only responses (and speech), in a duel (or a quest that
    allows them)."""
    extra = sorted({a.type for a in actions} - DEFENSIVE - {"say"})
    if extra:
        raise RefusedError(f"a defensive turn is dodge, counter, parry or take (and say), not {', '.join(extra)}")
    opts = who.options
    if opts.mode != "duel" and not opts.quest_defensive_turns:
        raise RefusedError("defensive turns are for duels (or a quest whose GM calls for them: quest_defensive_turns)")


def check_declaration(state: SceneState, declaration: DeclarationPosted) -> RefusedError | None:
    """What the table refuses in a logged ``declaration`` (``state``: before it) beyond whose
    turn it is, who may act and the allowance (the audit's order and allowance checks): an
    action type d20-evasion does not have, then the post read as the table reads it (a
    held turn: ``check_interrupt``; ``plan``; a defensive turn: ``defence.check_response``
    against the post it answers).
    ``None`` for a poster not in the fight or out of it, before the fight begins, and for
    an answer to a post that attacked nobody waiting for it (the order checks)."""
    actions = declaration.actions
    found = unknown_action(actions, ACTION_TYPES)
    if found is not None or declaration.ooc or state.turn.round == 0:
        return found
    who_state = state.combatants.get(declaration.actor)
    if who_state is None or not OUT.isdisjoint(who_state.statuses):
        return None

    def check() -> None:
        who = Fighter(state, declaration.actor)
        if {a.type for a in actions} & DEFENSIVE:
            attacked = pending(state, declaration.responds_to)
            if attacked is not None and defence.awaiting_in(state, attacked, who.actor):
                check_defence(who, actions)
                defence.check_response(state, who, attacked, actions)
            return
        responds_to = declaration.responds_to
        held = (responds_to is not None or state.turn.current != who.actor) and who.has("holding")
        if held:
            if responds_to is None and state.pending:  # the open turn's latest post, as the table reads it
                responds_to = state.pending[-1].seq
            check_interrupt(state, who.actor, responds_to)
            if any(a.type == "hold" for a in actions):
                raise RefusedError("a held turn cannot be held again")
        plan(state, who, actions, turn_actions(state, who.actor, responds_to))

    return judged(state, declaration, check)
