"""Where the recorded history stops fitting a fork.

A fork keeps the log as recorded up to the fact changed and re-derives the rest, request by
request, from the recorded declarations, ends of turn, joins and rulings (and the recorded
external rolls). Where a recorded request no longer fits the fork, the dispute says so, with
the ``seq`` in the original and, where the reason dates from an event of the fork, that
event's ``seq`` too:

- ``Dropped``: a request the fork's rules refuse (the actor down since an event of the fork,
  out of turn, a target gone), an end of turn whose turn is not open, a ruling whose target
  is gone; nothing of it is kept.
- ``Divergence``: a recorded roll the fork has no use for (``roll``: the attack now misses,
  so its damage roll is never asked for), a roll the fork needs and the log does not record
  (``stand-in``: in a log with no seed, drawn by the dispute and marked so), a recorded turn
  opening the fork does not make (``opening``), a request the rules cannot play at all
  (``kept``: they refuse it on the recorded log too; it is kept as recorded, where it still
  folds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from msgspec import Struct

from fightlog.audit.requests import RequestKind
from fightlog.events.model import AnyEvent, StatusChanged
from fightlog.reducers.state import SceneState

DivergenceKind = Literal["roll", "stand-in", "opening", "kept"]


class Dropped(Struct, frozen=True, kw_only=True):
    """A request of the original the fork no longer allows: its first event's ``seq`` in the
    original, its kind, whose it was and why; ``statuses`` the actor has in the fork and not
    in the original at that point, ``since`` the fork's event that gave the first of them;
    ``unchanged`` when the fork of the unchanged log drops it too (the recorded log, not the
    change, is what the rules refuse)."""

    seq: int
    request: RequestKind
    actor: str | None
    reason: str
    statuses: tuple[str, ...] = ()
    since: int | None = None
    unchanged: bool = False


class Divergence(Struct, frozen=True, kw_only=True):
    """Another place where the recorded history and the fork part (see the module
    docstring): ``seq`` in the original, ``kind``, whose, what; ``unchanged`` as for
    ``Dropped``."""

    seq: int
    kind: DivergenceKind
    actor: str | None
    text: str
    unchanged: bool = False


def down_since(
    fork: Sequence[AnyEvent], actor: str, before: SceneState, now: SceneState
) -> tuple[tuple[str, ...], int | None]:
    """The statuses ``actor`` has in the fork (``now``) and not in the recorded log at the
    same point (``before``), and the ``seq`` of the fork's event that gave the first of them
    (of the last ``status_changed`` turning each on, the earliest)."""
    theirs = before.combatants.get(actor)
    ours = now.combatants.get(actor)
    if ours is None:
        return (), None
    gained = tuple(sorted(set(ours.statuses) - set(theirs.statuses if theirs else ())))
    if not gained:
        return (), None
    latest: dict[str, int] = {}
    for event in fork:
        if isinstance(event, StatusChanged) and event.actor == actor and event.on and event.status in gained:
            latest[event.status] = event.seq
    return gained, min(latest.values(), default=None)
