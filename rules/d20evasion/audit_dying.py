"""The ``d20-evasion`` audit of dying (``rules.condition``; Mortally Wounded): a death a hit
causes ("killed outright") only at ``killed_at_hp`` or below, and one a damage takes there
dead by the turn's end (``Overkill``: recorded only mortally wounded, they bled out over rounds
the rule does not give); a bleed-out counted down one
round at a time, at a round's end, from the round after the wound (``harm.end_of_round``),
so no one bleeds out before ``bleed_out_rounds`` full rounds.

A death citing no cause is the GM's word (the engine's own bleed-out death cites none: it
follows the bleed-out's end, which the countdown check has judged).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import DamageApplied, EffectCountedDown, StatusChanged, TurnEnded
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


class Overkill:
    """One a damage takes to ``killed_at_hp`` or below is dead by the end of that turn (the
    engine kills at once; a hand-kept log may record the death later in the turn)."""

    def __init__(self) -> None:
        self._due: dict[str, int] = {}
        """Who a damage took to the kill line, not dead -> that damage's ``seq``."""

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        who = after.combatants.get(event.target)
        if who is None or "dead" in who.statuses or event.target in self._due:
            return
        if who.pools.get("hp", 0) <= options_of(after).killed_at_hp:
            self._due[event.target] = event.seq

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        if not self._due:
            return
        limit = options_of(before).killed_at_hp
        for actor, since in sorted(self._due.items()):
            who = before.combatants.get(actor)
            hp = None if who is None else who.pools.get("hp")
            if who is not None and hp is not None and hp <= limit and "dead" not in who.statuses:
                view.report(CODE, event, f"{actor} is at {hp} HP (since seq {since}) and not dead when the turn ends: "
                            f"one reduced to {limit} HP or below is killed outright, with no rounds to be treated",
                            actor=actor)
        self._due.clear()


def checks() -> Mapping[type, Check]:
    overkill = Overkill()
    return {StatusChanged: cast(Check, killed), EffectCountedDown: cast(Check, Countdowns().counted_down),
            DamageApplied: cast(Check, overkill.damaged), TurnEnded: cast(Check, overkill.turn_ended)}
