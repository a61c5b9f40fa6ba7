"""The ``example`` audit: each attack's outcome against the roll it cites."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import AttackResolved, DiceRolled
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog_example.table import hit, options_of


def resolved(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
    for seq in event.rolls:
        rolled = view.event(seq)
        if isinstance(rolled, DiceRolled) and hit(rolled.total, options_of(before)) != event.hit:
            view.report("rules.outcome", event, f"{event.attacker}'s {rolled.total} recorded as a "
                        f"{'hit' if event.hit else 'miss'}", actor=event.attacker)


def checks() -> Mapping[type, Check]:
    return {AttackResolved: cast(Check, resolved)}
