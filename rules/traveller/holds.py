"""Who holds whom (Unarmed Combat or Grappling): the grapple between two combatants and
what it forbids them. Apart from ``grapple`` so that moving, attacking, reacting and
falling can ask without a cycle.

While grappled (either side) a combatant moves only through the grapple's escape choice
(or a drag, which moves both); the option ``grappled_attacks`` says whom else they may
attack (``partner``, the default: only the one they grapple with). A grapple ends whenever
the two are no longer together: thrown, escaped, or one taken out (``release``).
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import EffectExpired
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.fighters import GRAPPLE, options_of


def partner(state: SceneState, actor: str) -> tuple[str, str] | None:
    """The grapple ``actor`` is in (either side), as (effect id, the other one)."""
    for found in state.effects.values():
        if found.name != GRAPPLE:
            continue
        if found.target == actor:
            return found.effect, found.source or ""
        if found.source == actor:
            return found.effect, found.target
    return None


def no_moving(state: SceneState, actor: str, what: str) -> None:
    """Refuse ``what`` (a move, a dive) to one in a grapple."""
    held = partner(state, actor)
    if held is not None:
        raise RefusedError(f"{actor} is in a grapple with {held[1]}: no {what} away except by winning the grapple "
                           "and choosing escape", code="rules.grappled")


def may_attack(state: SceneState, actor: str, target: str) -> None:
    """Refuse an attack (or grapple) by one in a grapple on anyone but the partner
    (``grappled_attacks``: ``partner``; ``any`` allows them)."""
    held = partner(state, actor)
    if held is None or held[1] == target:
        return
    if options_of(state).grappled_attacks == "partner":
        raise RefusedError(f"{actor} is in a grapple with {held[1]}: attacks only {held[1]} "
                           "(grappled_attacks=partner)", code="rules.grappled")


def release(scribe: Scribe, actor: str, reason: str) -> None:
    """End any grapple ``actor`` is in."""
    held = partner(scribe.state, actor)
    while held is not None:
        found = scribe.state.effects[held[0]]
        scribe.emit(EffectExpired(effect=found.effect, target=found.target, reason=reason))
        held = partner(scribe.state, actor)
