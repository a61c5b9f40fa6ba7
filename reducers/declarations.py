"""The pending-declarations slice: posts of the open turn, cleared when it ends or when a
new turn or round starts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fightlog.events.model import DeclarationPosted, RoundEnded, RoundStarted, TurnEnded, TurnStarted
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import PendingDeclaration

Pending = tuple[PendingDeclaration, ...]


def _posted(pending: Pending, event: DeclarationPosted, rules: FoldRules) -> Pending:
    if event.ooc:
        return pending
    post = PendingDeclaration(
        seq=event.seq, actor=event.actor, actions=tuple(event.actions), responds_to=event.responds_to
    )
    return (*pending, post)


def _closed(pending: Pending, event: TurnEnded | RoundEnded | TurnStarted | RoundStarted, rules: FoldRules) -> Pending:
    """Posts belong to the turn they were made in: a turn or round ending, or a new one
    starting (after posts made outside any turn), closes them."""
    return () if pending else pending


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    DeclarationPosted: _posted,
    TurnEnded: _closed,
    RoundEnded: _closed,
    TurnStarted: _closed,
    RoundStarted: _closed,
}
