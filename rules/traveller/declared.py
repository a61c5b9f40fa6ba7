"""What the ``traveller`` table refuses in a logged declaration, for the audit (see
``fightlog.kit.declared``): an action type Traveller does not have, then the post played
by the table's own checks and handlers on a scribe that stops at the first die (a reaction:
``reactions.check``; one's own turn: the allowance, then each action's handler).

Apart from the table (``table``), so that auditing a log never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, DeclarationPosted
from fightlog.kit.declared import refusal, unknown_action
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller import attack, extended, grapple, healing, leadership, minor, reactions
from fightlog.rules.traveller.allowance import check_allowance, check_not_dived, turn_actions
from fightlog.rules.traveller.fighters import options_of
from fightlog.rules.traveller.ruleset import ACTION_TYPES, OUT, REACTIONS

Handler = Callable[[Scribe, str, Action, int], None]

HANDLERS: Final[Mapping[str, Handler]] = {
    "attack": attack.attack,
    "leadership": leadership.lead,
    "encourage": leadership.encourage,
    "first_aid": healing.first_aid,
    "grapple": grapple.grapple,
    "task": extended.task,
    "move": minor.move,
    "aim": minor.aim,
    "stance": minor.stance,
    "draw": minor.draw,
    "reload": minor.reload,
    "cover": minor.cover,
    "pick_up": minor.pick_up,
}
"""Each action type's handler: the table plays with these, the audit checks with them."""


def play_actions(scribe: Scribe, actor: str, actions: list[Action], declaration: int) -> None:
    for action in actions:
        handler = HANDLERS.get(action.type)
        if handler is not None:
            handler(scribe, actor, action, declaration)


def check_declaration(state: SceneState, declaration: DeclarationPosted) -> RefusedError | None:
    """The table's refusal of a logged ``declaration`` (``state``: before it), or ``None``
    (also for a poster not in the fight or out of it, and before the fight: the order
    checks report those)."""
    actions = declaration.actions
    found = unknown_action(actions, ACTION_TYPES)
    if found is not None or declaration.ooc or state.turn.round == 0 or not actions:
        return found
    who = state.combatants.get(declaration.actor)
    if who is None or not OUT.isdisjoint(who.statuses):
        return None
    actor = declaration.actor

    def resolve(scribe: Scribe) -> None:
        if any(a.type in REACTIONS for a in actions):
            reactions.check(scribe.state, actor, actions, declaration.responds_to)
            return
        if declaration.responds_to is not None and [a.type for a in actions] == ["grapple"]:
            grapple.check_pick(scribe.state, actor, actions[0])  # a defender's pick
            return
        check_not_dived(who.statuses, actor)
        check_allowance(turn_actions(scribe.state, actor), actions, options_of(scribe.state))
        seq = scribe.emit(DeclarationPosted(actor=actor, text=declaration.text, actions=list(actions)))
        play_actions(scribe, actor, list(actions), seq)

    return refusal(resolve, state)
