"""The rulings slice: the GM rulings in force, in log order.

What a ruling does to the event it targets is applied by the fold (``fightlog.reducers.fold``),
which folds history as if the ruling had always been there; this slice records which rulings
are in force. A ``withdraw`` takes its target ruling out (and stays listed itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fightlog.events.model import RulingMade
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import AppliedRuling

Rulings = tuple[AppliedRuling, ...]


def _ruled(rulings: Rulings, event: RulingMade, rules: FoldRules) -> Rulings:
    kept = rulings
    if event.action == "withdraw" or (event.action == "void" and any(r.seq == event.target for r in rulings)):
        kept = tuple(r for r in rulings if r.seq != event.target)
    applied = AppliedRuling(
        seq=event.seq,
        action=event.action,
        target=event.target,
        by=event.by,
        reason=event.reason,
        finding=event.finding,
        changes=event.changes,
    )
    return (*kept, applied)


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {RulingMade: _ruled}
