"""Posting-order checks, shared by every ruleset.

Who must post next is derived from the state (``fightlog.reducers.derive.next_to_post``):
the posting order from initiative (or a GM, an ambush, a delay), the combatants the ruleset
takes out of it skipped (defeated, fled, wounded...), those holding or delaying passed over,
arrivals slotted in from the round after they join, called allies after their caller. The
ruleset answers the questions that differ (``out_of_order_statuses``, ``waiting_statuses``,
``arrival_delay``); nothing here knows a ruleset by name.

Two moments are checked: a turn opening (``turn_started``: was it that combatant's turn?) and
a post (``declaration_posted``: was the poster's turn open?). Posts answering another post
(``responds_to``: an interrupt, a duel's defensive turn) and out-of-character posts are the
ruleset's to check. What a poster may do in their turn (stunned, arriving, the allowance) is
the ruleset's too.
"""

from __future__ import annotations

from msgspec.structs import replace

from fightlog.audit.checks import AuditView
from fightlog.events.model import DeclarationPosted, TurnStarted
from fightlog.reducers.derive import next_to_post
from fightlog.reducers.state import SceneState
from fightlog.rules.ruleset import Ruleset


def posted(before: SceneState, event: DeclarationPosted, view: AuditView, rules: Ruleset) -> None:
    """A post: by someone in the fight, in their own turn, not after their turn this round."""
    if event.ooc or event.responds_to is not None:
        return
    actor = event.actor
    turn = before.turn
    if actor == turn.current:
        return
    if turn.current is not None and actor == _rightful(before):
        return  # the wrong turn was opened instead: reported at its turn_started
    who = before.combatants.get(actor)
    if who is None:
        view.report("order.not-in-fight", event, f"{actor} posted but has not joined the fight", actor=actor)
        return
    out = sorted(rules.out_of_order_statuses().intersection(who.statuses))
    if out:
        view.report(
            "order.cannot-act", event,
            f"{actor} posted while {' and '.join(out)}, out of the fight and skipped in the posting order",
            actor=actor,
        )
        return
    if turn.round == 0:
        if event.actions:
            view.report(
                "order.out-of-turn", event,
                f"{actor} declared {_actions(event)} before the fight began (no turn was open)", actor=actor,
            )
        return
    if turn.in_round and actor in turn.acted:
        whose = f"it was {turn.current}'s turn" if turn.current else f"the next turn was {next_to_post(before)}'s"
        view.report(
            "order.double-post", event,
            f"{actor} posted again in round {turn.round} after their turn had ended ({whose})", actor=actor,
        )
        return
    if turn.current is None:
        due = next_to_post(before)
        whose = f"the next turn was {due}'s and had not been opened" if due else "no turn was open"
    else:
        whose = f"it was {turn.current}'s turn"
    view.report("order.out-of-turn", event, f"{actor} posted out of turn in round {turn.round}: {whose}",
                actor=actor)


def turn_opened(before: SceneState, event: TurnStarted, view: AuditView, rules: Ruleset) -> None:
    """A turn opening: it must be the turn of whoever the posting order says is next."""
    actor = event.actor
    due = next_to_post(before)
    if actor == due:
        return
    turn = before.turn
    who = before.combatants.get(actor)
    if who is None:
        view.report("order.not-in-fight", event, f"a turn was opened for {actor}, who has not joined the fight",
                    actor=actor)
        return
    out = sorted(rules.out_of_order_statuses().intersection(who.statuses))
    if out:
        view.report(
            "order.cannot-act", event,
            f"{actor}'s turn was opened in round {event.round} although {actor} is {' and '.join(out)}",
            actor=actor,
        )
        return
    if turn.in_round and actor in turn.acted and event.round == turn.round:
        view.report(
            "order.double-post", event,
            f"{actor} was given a second turn in round {turn.round}"
            + (f"; {due} was next in the posting order" if due else ""),
            actor=actor,
        )
        return
    waiting = sorted(rules.waiting_statuses().intersection(who.statuses))
    if waiting:
        return  # stepping back in from a hold or delay is the ruleset's to judge
    if due is not None:
        view.report(
            "order.skipped", event,
            f"{due} was skipped: {actor}'s turn was opened in round {event.round} before {due} had posted",
            actor=due,
        )


def _rightful(state: SceneState) -> str | None:
    """Whose turn it should be now, had the open turn not been opened."""
    turn = state.turn
    return next_to_post(replace(state, turn=replace(turn, current=None)))


def _actions(event: DeclarationPosted) -> str:
    return ", ".join(a.type for a in event.actions)
