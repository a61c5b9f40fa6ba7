"""The ``bleeding-sun`` audit of attacks declared and never resolved (``rules.unresolved``;
Attacking; Shotguns and Flamers; Normal and Explosives Damage): by the end of its turn every
attack a post declares is resolved on its target, a spread on everyone it names (they are hit
automatically), a grenade on everyone its post says it caught, as the table resolves them
(at the answer, or at the turn's end undefended). A hand-run fight that drops an attack, or
one target's share of a spread or a blast, loses its damage silently.

Not owed: a grenade lying with its fuse burning (``fuses.lies_waiting``: it goes off later), a
target out of the fight by the turn's end (an earlier attack of the post took them down), an
attacker out by then (an attack of opportunity took them down before their attack went off),
anyone a lob catches (a lob lands at a hex: who it catches is the landing's), and a post the
table refuses (the refusal is the finding: ``fightlog.kit.declared``).
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import FightlogError
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.fuses import lies_waiting
from fightlog.rules.bleedingsun.planning import ATTACKS, Plan, caught_of, plan

CODE: Final = "rules.unresolved"


class Unresolved:
    """``turn_over``: the check (see the module docstring); ``refused``: told of each post the
    table refuses, which owes nothing."""

    def __init__(self) -> None:
        self._refused: set[int] = set()

    def refused(self, seq: int) -> None:
        self._refused.add(seq)

    def turn_over(self, before: SceneState, view: AuditView) -> None:
        """At a turn's end (``before``: the state it ends): each attack of the turn's posts not
        resolved on a target it owes a resolution."""
        refused = self._refused
        if refused:
            self._refused = set()
        for post in before.pending:
            if post.seq not in refused and _maybe_owed(before, post) and post.actor in before.combatants \
                    and not Fighter(before, post.actor).out:
                _report(before, post, view)


def _report(before: SceneState, post: PendingDeclaration, view: AuditView) -> None:
    try:
        plans = plan(before, post.actor, post.actions).plans
    except FightlogError:
        return  # a plan the table refuses: reported as its refusal
    for one in plans:
        for target in _owed(before, post, one):
            declared = view.event(post.seq)
            if declared is not None:
                view.report(CODE, declared, f"{post.actor}'s {_what(one)} on {target} (seq {post.seq}) is never "
                            "resolved by the turn's end: no roll, no hit or miss, no damage", actor=post.actor)


def _maybe_owed(state: SceneState, post: PendingDeclaration) -> bool:
    """Whether an attack of ``post`` names someone in the fight it has not been resolved on
    (every name its action gives: more than its plan may owe). The usual post's answer is no,
    with no plan worked out."""
    for action in post.actions:
        if action.type in ATTACKS:
            try:
                names = caught_of(action, action.target or "")
            except FightlogError:
                return True  # written wrong: the plan says what it owes
            if any(name and name not in post.resolved and name in state.combatants for name, _ in names):
                return True
    return False


def _owed(state: SceneState, post: PendingDeclaration, one: Plan) -> list[str]:
    """Who ``one`` (an attack of ``post``) still owes a resolution to."""
    if lies_waiting(state, post.seq, one.number) or one.action.params.get("lob") is True:
        return []
    names = [name for name, _ in one.caught] if one.kind in ("spread", "blast") else [one.target]
    owed = []
    for name in dict.fromkeys(names):
        if not name or name in post.resolved or name not in state.combatants:
            continue
        if Fighter(state, name).out:
            continue
        owed.append(name)
    return owed


def _what(one: Plan) -> str:
    return {"spread": f"{one.weapon.name} spread", "blast": f"{one.weapon.name}"}.get(one.kind,
                                                                                   f"{one.kind} with the {one.weapon.name}")
