"""A posting order set by initiative goes highest score first: the check rulesets share
whose order is the initiative scores and nothing else (``roe7``'s ``initiative = "d100"``,
``d20-evasion``'s Initiative; Traveller and Bleeding Sun judge their own, by DEX and by the
sequence's tie-breaks).
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import InitiativeSet
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState


def initiative_set(before: SceneState, event: InitiativeSet, after: SceneState, view: AuditView) -> None:
    """``rules.initiative`` for a posting order said to be by initiative (``reason``
    ``initiative``) that puts someone after one who scored lower."""
    if event.reason != "initiative":
        return
    why = out_of_initiative(before, event.order)
    if why is not None:
        view.report("rules.initiative", event, why)


def out_of_initiative(state: SceneState, order: Sequence[str]) -> str | None:
    """Why ``order`` is not highest score first, in ``state``'s scores, or ``None``: the
    first one placed after someone who scored lower (a tie goes by the tie-breaks when both
    have as many; who has no score is not judged, nor an order naming someone twice: the
    posting-order checks name that)."""
    if len(set(order)) != len(order):
        return None
    scores = state.turn.initiative
    ranked = [(actor, scores[actor]) for actor in order if actor in scores]
    for (first, low), (later, high) in zip(ranked, ranked[1:]):
        if high[0] > low[0] or (high[0] == low[0] and len(high) == len(low) and high > low):
            said = _scores(low, high)
            return f"the posting order puts {first} ({said[0]}) before {later} ({said[1]}): the higher goes first"
    return None


def _scores(low: tuple[int, ...], high: tuple[int, ...]) -> tuple[str, str]:
    """Two initiatives as said: the score, and the tie-breaks where the scores tie."""
    if low[0] != high[0]:
        return f"initiative {low[0]}", f"initiative {high[0]}"
    return (f"initiative {low[0]}, tie-break {', '.join(map(str, low[1:]))}",
            f"initiative {high[0]}, tie-break {', '.join(map(str, high[1:]))}")
