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
from fightlog.kit.checks import AuditView, opened_by_import
from fightlog.kit.resolutions import TurnResolutions
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.fuses import lies_waiting
from fightlog.rules.bleedingsun.planning import ATTACKS, Plan, caught_of, plan

CODE: Final = "rules.unresolved"


class Unresolved:
    """``turn_over``: the check (see the module docstring), on what the turn's resolutions
    cited (``kit.resolutions``: ``resolved``, and ``refused`` for each post the table
    refuses, which owes nothing).

    Not judged in an imported fight (its turns opened by the import: the transcript shows
    rolls, not outcomes), nor in a turn whose resolutions do not cite their posts
    (``declaration``, as the table's do): a hand-kept log written so says nothing of which
    attack each resolved."""

    def __init__(self) -> None:
        self._turn = TurnResolutions()
        self.refused = self._turn.refused
        self.resolved = self._turn.resolved

    def turn_over(self, before: SceneState, view: AuditView) -> None:
        """At a turn's end (``before``: the state it ends): each attack of the turn's posts not
        resolved on a target it owes a resolution."""
        refused, done, uncited = self._turn.closed()
        if uncited:
            return
        for post in before.pending:
            if post.seq not in refused and _maybe_owed(before, post, done) and post.actor in before.combatants \
                    and not Fighter(before, post.actor).out:
                if opened_by_import(before, view):
                    return
                _report(before, post, done, view)


def _report(before: SceneState, post: PendingDeclaration, done: dict[tuple[int, str], int], view: AuditView) -> None:
    try:
        plans = plan(before, post.actor, post.actions).plans
    except FightlogError:
        return  # a plan the table refuses: reported as its refusal
    owed: dict[str, list[Plan]] = {}
    for one in plans:
        for target in _owed(before, post, one):
            owed.setdefault(target, []).append(one)
    declared = view.event(post.seq)
    for target, attacks in owed.items():
        missing = len(attacks) - done.get((post.seq, target), 0)
        if missing > 0 and declared is not None:
            what = _what(attacks[0]) if len(attacks) == 1 else f"{len(attacks)} attacks"
            left = "" if missing == len(attacks) else f" ({missing} of them)"
            verb = "is" if len(attacks) == 1 else "are"
            view.report(CODE, declared, f"{post.actor}'s {what} on {target} (seq {post.seq}) {verb} never resolved"
                        f"{left} by the turn's end: no hit or miss recorded, nor damage", actor=post.actor)


def _maybe_owed(state: SceneState, post: PendingDeclaration, done: dict[tuple[int, str], int]) -> bool:
    """Whether an attack of ``post`` names someone in the fight more often than the turn
    resolved it on them (every name its actions give: more than its plan may owe). The usual
    post's answer is no, with no plan worked out."""
    named: dict[str, int] = {}
    for action in post.actions:
        if action.type not in ATTACKS:
            continue
        if action.targets or "caught" in action.params:  # a spread's or a grenade's names
            try:
                names = [name for name, _ in caught_of(action, action.target or "")]
            except FightlogError:
                return True  # written wrong: the plan says what it owes
        else:
            names = [action.target] if action.target else []
        for name in names:
            if name and name in state.combatants:
                named[name] = named.get(name, 0) + 1
    seq = post.seq
    for name, count in named.items():
        if count > done.get((seq, name), 0):
            return True
    return False


def _owed(state: SceneState, post: PendingDeclaration, one: Plan) -> list[str]:
    """Who ``one`` (an attack of ``post``) owes a resolution to."""
    if lies_waiting(state, post.seq, one.number) or one.action.params.get("lob") is True:
        return []
    names = [name for name, _ in one.caught] if one.kind in ("spread", "blast") else [one.target]
    return [name for name in dict.fromkeys(names)
            if name and name in state.combatants and not Fighter(state, name).out]


def _what(one: Plan) -> str:
    return {"spread": f"{one.weapon.name} spread", "blast": f"{one.weapon.name}"}.get(one.kind,
                                                                                   f"{one.kind} with the {one.weapon.name}")
