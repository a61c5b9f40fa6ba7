"""The ``traveller`` audit of a combatant's condition against their characteristics
(Unconsciousness): unconscious only with two physical characteristics at zero, dead only
with all three (under ``dead_at_three_zero``), and nobody left standing with two at zero when
a turn ends (one held back by simultaneous action falls when their own turn ends:
``harm.condition``; one who woke by a roll stands whatever their characteristics:
``turns._wake``). A status without a ``cause`` is the GM's word (a blow to the head in the
story), not judged; nor is waking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import StatusChanged, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import Combatant, SceneState
from fightlog.rules.traveller.card import PHYSICAL
from fightlog.rules.traveller.fighters import FALLING, options_of

CODE = "rules.condition"


def _zeroed(who: Combatant) -> list[str]:
    return [name for name in PHYSICAL if who.pools.get(name, 0) <= 0]


def _shown(zero: list[str]) -> str:
    return ", ".join(zero) if zero else "none"


class Condition:
    """The checks of one audited scene, remembering who woke by a roll (Regain
    consciousness: awake whatever their characteristics) until they fall again."""

    def __init__(self) -> None:
        self._woken: set[str] = set()
        self._standing: dict[str, object] = {}
        """Actor -> the pools last found with fewer than two at zero (a turn's end looks again
        only at one whose pools changed since: ``turn_over``)."""

    def checks(self) -> Mapping[type, Check]:
        return {StatusChanged: cast(Check, self.status), TurnEnded: cast(Check, self.turn_over)}

    def status(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """``unconscious`` or ``dead`` set as a consequence (a status with a ``cause``; one
        without is the GM's word): the characteristics must give it."""
        if event.status == "unconscious" and not event.on:
            self._woken.add(event.actor)  # awake: by healing (fewer than two at zero) or by a roll
        elif event.status in ("unconscious", "dead") and event.on:
            self._woken.discard(event.actor)
        if not event.on or event.status not in ("unconscious", "dead") or event.cause is None:
            return
        who = before.combatants.get(event.actor)
        if who is None or not all(name in who.pools for name in PHYSICAL):
            return  # no characteristics to judge by (a sheet the rules cannot read)
        zero = _zeroed(who)
        if event.status == "unconscious" and len(zero) < 2:
            view.report(CODE, event, f"{event.actor} recorded unconscious with {len(zero)} characteristic"
                        f"{'' if len(zero) == 1 else 's'} at zero ({_shown(zero)}): it takes two", actor=event.actor)
        elif event.status == "dead":
            if not options_of(before).dead_at_three_zero:
                view.report(CODE, event, f"{event.actor} recorded dead: under dead_at_three_zero = false nobody "
                            "dies of damage (all three at zero is unconscious)", actor=event.actor)
            elif len(zero) < 3:
                view.report(CODE, event, f"{event.actor} recorded dead with {len(zero)} characteristic"
                            f"{'' if len(zero) == 1 else 's'} at zero ({_shown(zero)}): it takes all three",
                            actor=event.actor)

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        """When a turn ends, whoever has two characteristics at zero is unconscious or dead,
        but one held back by simultaneous action (``falling``) until their own turn ends,
        and one who woke since they last fell."""
        standing = self._standing
        for actor, who in before.combatants.items():  # in the order they joined
            if standing.get(actor) is who.pools or "unconscious" in who.statuses or "dead" in who.statuses \
                    or actor in self._woken or not all(name in who.pools for name in PHYSICAL):
                continue
            zero = _zeroed(who)
            if len(zero) < 2:
                standing[actor] = who.pools
            elif f"{FALLING}-{actor}" not in before.effects:
                view.report(CODE, event, f"{actor} has {len(zero)} characteristics at zero ({_shown(zero)}) and "
                            "is still standing when the turn ends: two at zero is unconscious", actor=actor)
