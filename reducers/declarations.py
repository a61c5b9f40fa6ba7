"""The pending-declarations slice: posts of the open turn, cleared when it ends or when a
new turn or round starts; a post whose attacks have been resolved names their targets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from fightlog.events.model import AttackResolved, DeclarationPosted, RoundEnded, RoundStarted, TurnEnded, TurnStarted
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


def _resolved(pending: Pending, event: AttackResolved, rules: FoldRules) -> Pending:
    """The post an attack's resolution cites (``declaration``): its target resolved."""
    declaration = event.declaration
    if declaration is None or not pending:
        return pending
    last = pending[-1]
    if last.seq == declaration:  # the usual case: the turn's latest post (cheap: every resolution passes here)
        if event.target in last.resolved:
            return pending
        return pending[:-1] + (replace(last, resolved=last.resolved + (event.target,)),)
    for at, post in enumerate(pending):
        if post.seq == declaration:
            if event.target in post.resolved:
                return pending
            return pending[:at] + (replace(post, resolved=post.resolved + (event.target,)),) + pending[at + 1 :]
    return pending


def _closed(pending: Pending, event: TurnEnded | RoundEnded | TurnStarted | RoundStarted, rules: FoldRules) -> Pending:
    """Posts belong to the turn they were made in: a turn or round ending, or a new one
    starting (after posts made outside any turn), closes them."""
    return () if pending else pending


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    DeclarationPosted: _posted,
    AttackResolved: _resolved,
    TurnEnded: _closed,
    RoundEnded: _closed,
    TurnStarted: _closed,
    RoundStarted: _closed,
}
