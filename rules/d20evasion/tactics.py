"""The rest of a turn's choices (Holding a Turn; Assisting; Skills).

Holding: the whole turn is kept for later in the round; the holder acts by answering any
post of the round (``responds_to``), and interrupts an enemy's turn when that enemy has moved
but not yet attacked. A held turn not taken by the round's end is lost. Assisting takes the
turn too (its bonus is the GM's call); a skill used as an action costs one action, both
(``actions=2``) or the whole turn with its movement (``full=true``), as its description says.
"""

from __future__ import annotations

from fightlog.events.model import Action, StatusChanged
from fightlog.kit.table import Scribe


def hold(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    scribe.emit(StatusChanged(actor=actor, status="holding", cause=declaration,
                              note="acts later this round, answering a post"))


def recorded(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """An action whose effect is the GM's call (a skill, assisting): the declaration is its
    record."""
