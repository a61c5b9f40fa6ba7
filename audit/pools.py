"""The pool a damage or a healing names: one its target, a combatant in the fight, has
(``rules.pool``).

A pool comes into being when its combatant joins (``combatant_joined``: ``pools``); the fold
takes damage off, or adds healing to, whatever pool an event names, so a misspelt or made-up
one (``HP`` for ``hp``, a ruling's ``--set pool=...``) would quietly start a pool of its own
and leave the real one untouched. The audit reports it, for every ruleset; ``rule amend`` and
``dispute --set`` refuse to write one (``fightlog.audit.amendment``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import AnyEvent, DamageApplied, HealingApplied
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState, pool_order


def pool_problem(state: SceneState, event: DamageApplied | HealingApplied) -> str | None:
    """What is wrong with the pool ``event`` names, in the state before it: ``None`` when its
    target has that pool; a target not in the fight is named as such (the fold keeps no
    pool for them)."""
    who = state.combatants.get(event.target)
    what = "damage to" if isinstance(event, DamageApplied) else "healing of"
    if who is None:
        return f"{what} {event.target}, who is not in the fight"
    if event.pool in who.pools:
        return None
    has = ", ".join(sorted(who.pools, key=pool_order)) or "none"
    return f"{what} {event.target}'s pool {event.pool!r}, which they do not have (pools: {has})"


def _checked(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
    problem = pool_problem(before, cast(DamageApplied, event))
    if problem is not None:
        view.report("rules.pool", cast(DamageApplied, event), problem, actor=None)


def checks() -> Mapping[type, Check]:
    """The shared pool checks, by event kind (the ``Auditor`` adds them for every ruleset)."""
    return {DamageApplied: _checked, HealingApplied: _checked}
