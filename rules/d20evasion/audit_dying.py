"""The ``d20-evasion`` audit of dying (``rules.condition``; Mortally Wounded): a death a hit
causes ("killed outright") only at ``killed_at_hp`` or below; a bleed-out counted down one
round at a time, at a round's end, from the round after the wound (``harm.end_of_round``),
so no one bleeds out before ``bleed_out_rounds`` full rounds.

A death citing no cause is the GM's word (the engine's own bleed-out death cites none: it
follows the bleed-out's end, which the countdown check has judged).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import DamageApplied, EffectCountedDown, StatusChanged
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.fighters import options_of

CODE = "rules.condition"


def killed(before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
    """A death a damage causes: only at ``killed_at_hp`` or below."""
    if event.status != "dead" or not event.on or event.cause is None:
        return
    if type(view.event(event.cause)) is not DamageApplied:
        return
    who = before.combatants.get(event.actor)
    if who is None or "hp" not in who.pools:
        return
    hp, limit = who.pools["hp"], options_of(before).killed_at_hp
    if hp > limit:
        view.report(CODE, event, f"{event.actor} is dead at {hp} HP, killed outright; a hit kills outright only at "
                    f"{limit} HP or below (else mortally wounded, with rounds to be treated)", actor=event.actor)


class Countdowns:
    """A bleed-out counts down one round at a time: each count one less than the last, and
    one count a round (two at one round's end took a round from the wounded)."""

    def __init__(self) -> None:
        self._last: dict[str, int] = {}
        """Bleed-out effect -> the round of its last count."""

    def counted_down(self, before: SceneState, event: EffectCountedDown, after: SceneState, view: AuditView) -> None:
        found = before.effects.get(event.effect)
        if found is None or found.name != "bleeding_out" or found.remaining is None:
            return
        want = max(0, found.remaining - 1)
        if event.remaining != want:
            view.report(CODE, event, f"{event.target}'s bleed-out counts down from {found.remaining} to "
                        f"{event.remaining} rounds left; a round's end takes one (to {want})", actor=event.target)
        now = before.turn.round
        if self._last.get(event.effect) == now:
            view.report(CODE, event, f"{event.target}'s bleed-out is counted down a second time in round {now}: a "
                        "round's end takes one round", actor=event.target)
        self._last[event.effect] = now


def checks() -> Mapping[type, Check]:
    return {StatusChanged: cast(Check, killed), EffectCountedDown: cast(Check, Countdowns().counted_down)}
