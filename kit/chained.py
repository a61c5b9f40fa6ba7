"""Several checks of one event kind run one after the other, as one check: the fold's hook
for that kind (``Auditor._bind``), and a ruleset's families of checks made one mapping
(``merged``). A module of its own so the compiled build compiles it (``setup.py``:
``HOT_MODULES``): the audit calls it for most checked events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fightlog.events.model import AnyEvent
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState


def chained(checks: Sequence[Check]) -> Check:
    """``checks`` run one after the other, as one check."""
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks

        def both(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
            first(before, event, after, view)
            second(before, event, after, view)

        return both
    run = tuple(checks)

    def each(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        for check in run:
            check(before, event, after, view)

    return each


def merged(*families: Mapping[type, Check]) -> dict[type, Check]:
    """Families of checks by event kind, as one mapping: where several check one kind, they
    run one after the other (``chained``), in the order given."""
    found: dict[type, list[Check]] = {}
    for family in families:
        for kind, check in family.items():
            found.setdefault(kind, []).append(check)
    return {kind: chained(checks) for kind, checks in found.items()}
