"""The RoE audit's checks of ``declaration_posted`` and ``turn_ended`` (``audit.Roe7Audit``):
the turn's allowance (``table.breach``; Parts of a Turn), interrupts
(``escape.interrupt_breach``), a poster out of the fight, the flee limit
(``escape.flees_left``; Fleeing), and, for a post the table did not make, what the table
refuses in it; at the turn's end, the lost actions natural 1s owe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from msgspec.structs import replace

from fightlog.events.model import Action, DeclarationPosted, TurnEnded
from fightlog.kit.checks import AuditView
from fightlog.kit.declared import Noting, by_table
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.roe7.audit_attacks import AttackChecks
from fightlog.rules.roe7.escape import flees_left, interrupt_breach
from fightlog.rules.roe7.fighters import Fighter
from fightlog.rules.roe7.ruleset import OUT, RULES
from fightlog.rules.roe7.table import (
    arrival_breach,
    breach,
    check_declaration,
    free_costs,
    over_allowance,
    turn_breach,
)

_NONE: Final[tuple[ActiveEffect, ...]] = ()


class PostChecks(AttackChecks):
    """The checks of posts (``posted``) and of a turn's end (``turn_ended``)."""

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        """The turn's allowance, interrupts, the flee limit, a poster out of the fight; then,
        for a post the table did not make, what the table refuses in it (``_refused``)."""
        if by_table(before, event):
            self._posted(before, event, after, view)
            return
        noting = Noting(view)
        if self._posted(before, event, after, noting):
            self._refused(before, event, view, noting.codes)

    def _refused(self, before: SceneState, event: DeclarationPosted, view: AuditView, said: set[str]) -> None:
        """What the table refuses in a post it did not make (``table.check_declaration``)
        beyond what the checks above said of it: an unknown action type, a weapon not
        carried, a target not in the fight or out of range, a reload needed... (the flee
        limit is ``_flee``'s; a reload reported here is not reported again at the shot)."""
        found = check_declaration(before, event)
        if found is None or found.code in said:
            return
        if found.code == "rules.flee-limit" or (found.code == "rules.allowance" and "rules.allowance" in said):
            return
        if found.code == "rules.reload":
            if len(self._reloads) > 64:
                self._reloads.clear()
            self._reloads.add(event.seq)  # reported here, not again at the shot (``_ready``)
        view.report(found.code, event, f"the rules refuse {event.actor}'s post: {found.message}", actor=event.actor)

    def _posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> bool:
        """``posted``'s own checks; whether the post is one the table would go on to play
        (by someone in the fight and able to act, with actions)."""
        turn = before.turn
        if self._closed != turn.started:
            self._close(before, event, view)
        actor = event.actor
        actions = event.actions
        if event.ooc:
            if actions:
                view.report(
                    "rules.refused", event,
                    f"{actor}'s out-of-character post declares {_listed(actions)}: an OOC post carries no actions",
                    actor=actor,
                )
            return False
        if event.responds_to is not None:
            return self._interrupting(before, event, view)
        who = before.combatants.get(actor)
        if actor != turn.current:
            # the shared posting-order checks report it
            return who is not None and OUT.isdisjoint(who.statuses) and bool(actions)
        if who is None:
            return False
        statuses = who.statuses
        if statuses and not OUT.isdisjoint(statuses):
            if not _was_out(view.turn_start, actor, turn.started):  # else its opening was reported
                gone = " and ".join(s.replace("_", " ") for s in statuses if s in OUT)
                view.report("order.cannot-act", event, f"{actor} posted while {gone}, out of the fight", actor=actor)
            return False
        if not actions:
            return False
        self._allowance(before, event, after, statuses, view)
        return True

    def _allowance(
        self, before: SceneState, event: DeclarationPosted, after: SceneState, statuses: tuple[str, ...],
        view: AuditView,
    ) -> None:
        """``_posted``'s allowance, for a post with actions by the turn's actor, in the fight:
        a flee beyond the limit, an action claimed free, what the turn has used (this post
        included) beyond what the rules allow (``table.breach``, ``over_allowance``,
        ``arrival_breach``)."""
        actor, actions, turn = event.actor, event.actions, before.turn
        fighter: Fighter | None = None  # built only when a rule below needs more than the counts
        checked: Sequence[Action] = actions
        for action in actions:
            if action.type == "flee":
                fighter = fighter or Fighter(before, actor)
                self._flee(fighter, event, view)
            if action.cost == "free" and checked is actions:
                fighter = fighter or Fighter(before, actor)
                checked = self._free(fighter, event, view)
        # What the turn has used, this post included: the fold's count (``rules.action_cost``
        # of every action, as the table counts them), unless someone else posted in the turn
        # or an action claims to be free without being so.
        spent: Mapping[str, int]
        own = checked is actions
        if own:
            for post in before.pending:  # only ``actor`` has posted actions in the open turn
                if post.actor != actor:
                    own = False
                    break
        if own:
            spent = turn.spent
            found = arrival_breach(fighter or Fighter(before, actor), actions) if "arriving" in statuses else None
            if found is None:
                restricting = self._restricting_on(before, actor) if self._restricting.get(actor) else _NONE
                if restricting:
                    found = over_allowance(fighter or Fighter(before, actor), after.turn.spent, restricting)
                else:  # ``over_allowance`` with no restricting effect: no ``Fighter`` needed
                    found = turn_breach(actor, after.turn.spent)
        else:
            spent = RULES.turn_spent(before, actor)  # their own posts: not another's answer in their turn
            found = breach(fighter or Fighter(before, actor), spent, checked)
        if found is not None:
            earlier = ", ".join(f"{n} {cost}" for cost, n in sorted(spent.items()) if n)
            view.report(
                found.code, event,
                f"{found.message}: the post declares {_listed(actions)}"
                + (f" after {earlier} spent earlier in the turn" if earlier else ""),
                actor=actor,
            )

    def _flee(self, who: Fighter, event: DeclarationPosted, view: AuditView) -> None:
        """A flee declared with no attempt left: those the log spends (``resource_spent``), or
        the flee rolls a hand-kept log made, whichever are more."""
        rolled = self.flee_rolls.get(who.actor, 0)
        if flees_left(who) > 0 and who.options.flee_attempts > rolled:
            return
        limit = who.options.flee_attempts
        used = max(who.who.spent.get("flee_attempts", 0), rolled)
        view.report(
            "rules.flee-limit", event,
            f"{who.actor} declared a flee with none left: {limit} attempt{'s' if limit != 1 else ''} per combat, "
            f"{used} used",
            actor=who.actor,
        )

    def _free(self, who: Fighter, event: DeclarationPosted, view: AuditView) -> list[Action]:
        """Actions marked free (``cost: free``) that the rules make free: a first-turn draw,
        standing from a knee (``table.free_costs``); the others cost what their kind costs."""
        out: list[Action] = []
        for action in event.actions:
            if action.cost == "free":
                plain = replace(action, cost=None)
                if free_costs(who, [plain])[0].cost != "free":
                    view.report(
                        "rules.allowance", event,
                        f"{who.actor}'s {action.type} is marked free, but it costs the turn's "
                        f"{RULES.action_cost(plain) or 'nothing'} here",
                        actor=who.actor,
                    )
                    action = plain
            out.append(action)
        return out

    def _interrupting(self, before: SceneState, event: DeclarationPosted, view: AuditView) -> bool:
        """An interrupt (answering a flee or com call): by someone in the fight, not arriving,
        whose next action is not lost already (``escape.interrupt_breach``). Whether the
        post is one the table would go on to play."""
        actor = event.actor
        if not any(a.type == "interrupt" for a in event.actions):
            return actor in before.combatants and bool(event.actions)
        who = before.combatants.get(actor)
        if who is None:
            view.report("order.not-in-fight", event, f"{actor} interrupted but has not joined the fight", actor=actor)
            return False
        gone = OUT.intersection(who.statuses)
        if gone:
            view.report(
                "order.cannot-act", event,
                f"{actor} interrupted while {' and '.join(sorted(gone))}, out of the fight", actor=actor,
            )
            return False
        call = view.event(event.responds_to) if event.responds_to is not None else None
        caller = call.actor if type(call) is DeclarationPosted else None
        found = interrupt_breach(Fighter(before, actor), caller)
        if found is not None:
            view.report(found.code, event, found.message, actor=actor)
        return True

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        turn = before.turn
        if self._closed != turn.started:
            self._close(before, event, view)
        if self.stun_ended and self.stun_ended.get(event.actor, turn.started) != turn.started:
            del self.stun_ended[event.actor]  # the turn after the one the stun ended in: immune no more
        if self._owed:
            self._settle(before, view)
        elif self._lost:
            self._lost.clear()
        if self._undamaged:
            self.undamaged(view)


def _was_out(start: SceneState, actor: str, started: int) -> bool:
    """Whether ``actor`` was already out of the fight when their open turn was opened (the
    shared posting-order check reports that turn's opening)."""
    who = start.combatants.get(actor)
    return start.turn.started == started and who is not None and not OUT.isdisjoint(who.statuses)


def _listed(actions: Sequence[Action]) -> str:
    kinds = [a.type for a in actions]
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
