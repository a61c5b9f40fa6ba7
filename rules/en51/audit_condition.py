"""The ``en51`` audit of a combatant's condition against their Wounds (The Immediate
Effects): incapacitated only with a Wound above Toughness, dead (under
``irreversible_death``) only with one more than 5 above it (``harm.condition``), and nobody
left in the fight with a Wound above Toughness (a damage's, or the sheet's), nor short of
dead with one more than 5 above it, nor without the bleeding the Wounds give (The aftermath),
when a turn ends. A status without a
``cause`` is the GM's word (a blow to the head in the story), not judged; nor is the end of
one (care and recovery lower the Wounds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.errors import FightlogError
from fightlog.events.model import CombatantJoined, DamageApplied, StatusChanged, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.card import TRACK, wound_pool
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.harm import BLEEDING, bleeding_of, condition
from fightlog.rules.en51.options import options_of

CODE = "rules.condition"
_RANK = {None: 0, "incapacitated": 1, "dead": 2}
_HIGHEST_FIRST = tuple((circle, wound_pool(circle)) for circle in range(TRACK, 0, -1))
"""The Wounds track's circles and their pools, the highest first."""


class Condition:
    """The checks of one audited scene, with each fighter's Toughness read once a sheet."""

    def __init__(self) -> None:
        self._toughness: dict[str, tuple[object, int | None]] = {}
        self._owed: dict[str, int] = {}
        """Actor -> the highest Damage left that the track could not show (above its last
        circle, or with no circle free: 0 when none), for whoever a damage left with a Wound
        above Toughness while still in the fight (a turn's end looks only at them: ``turn_over``)."""
        self._bleeds: set[str] = set()
        """Whoever a damage (or a sheet) left with Wounds that give a bleeding not recorded
        (a turn's end looks at them again: ``turn_over``)."""

    def checks(self) -> Mapping[type, Check]:
        return {DamageApplied: cast(Check, self.damaged), CombatantJoined: cast(Check, self.joined),
                StatusChanged: cast(Check, self.status), TurnEnded: cast(Check, self.turn_over)}

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        """The Wound is the Damage left, even above the track's last circle (``harm.wound``)."""
        self._look(after, event.target, event.seq, event.raw - event.reduced_by)
        if _unbled(after, event.target) is not None:
            self._bleeds.add(event.target)

    def joined(self, before: SceneState, event: CombatantJoined, after: SceneState, view: AuditView) -> None:
        """A sheet's Wounds count as a damage's (The Immediate Effects; ``harm.marked_at_join``)."""
        self._look(after, event.actor, event.seq)
        if _unbled(after, event.actor) is not None:
            self._bleeds.add(event.actor)

    def _look(self, state: SceneState, actor: str, seq: int, left: int = 0) -> None:
        who = state.combatants.get(actor)
        if who is None or "dead" in who.statuses:
            return
        beyond = max(left if left > TRACK else 0, self._owed.get(actor, 0))
        if _RANK[_given(state, _with(self._worst(state, actor), beyond))] > _RANK[_held(who.statuses)]:
            self._owed[actor] = beyond

    def _worst(self, state: SceneState, actor: str) -> tuple[int, int] | None:
        """``actor``'s highest Wound and their Toughness; ``None`` with no Wound marked, or
        a sheet that does not read."""
        who = state.combatants.get(actor)
        if who is None:
            return None
        pools = who.pools
        wound = 0
        for circle, name in _HIGHEST_FIRST:
            if pools.get(name, 1) <= 0:
                wound = circle
                break
        if not wound:
            return None
        known = self._toughness.get(actor)
        if known is None or known[0] is not who.sheet:
            try:
                known = (who.sheet, Fighter(state, actor).card.toughness)
            except FightlogError:
                known = (who.sheet, None)
            self._toughness[actor] = known
        return None if known[1] is None else (wound, known[1])

    def status(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """``incapacitated`` or ``dead`` set as a consequence: the Wounds must give it, and
        no less (incapacitated with a Wound that gives death)."""
        if event.on and event.status in BLEEDING and event.cause is not None:
            if _bleeding(before, event, view):
                self._bleeds.discard(event.actor)  # said of this status: not again at the turn's end
            return
        if not event.on or event.status not in ("incapacitated", "dead"):
            return
        self._owed.pop(event.actor, None)
        if event.cause is None:
            return
        who = before.combatants.get(event.actor)
        if who is None:
            return
        found = self._worst(before, event.actor)
        if found is None:
            try:
                found = (0, Fighter(before, event.actor).card.toughness)
            except FightlogError:
                return
        wound, toughness = found
        if wound == TRACK:  # the Damage left, above the last circle or with none free, is the Wound (``harm.wound``)
            for seq in range(event.seq - 1, max(0, event.seq - 4), -1):
                prior = view.event(seq)
                if isinstance(prior, DamageApplied) and prior.target == event.actor:
                    wound = max(wound, prior.raw - prior.reduced_by)
                    break
        given = condition(wound, toughness, options_of(before)) if wound else None
        if _RANK[given] < _RANK[event.status]:
            why = f"Wound {wound}" if wound else "no Wound"
            rule = ("a Wound above Toughness incapacitates" if event.status == "incapacitated"
                    else "death takes a Wound more than 5 above Toughness (irreversible_death)")
            view.report(CODE, event, f"{event.actor} recorded {event.status} with {why} against Toughness "
                        f"{toughness}: {rule}", actor=event.actor)
        elif _RANK[given] > _RANK[event.status]:  # short of it: dead recorded as incapacitated
            view.report(CODE, event, f"{event.actor} recorded {event.status} with Wound {wound} against Toughness "
                        f"{toughness}: a Wound more than 5 above Toughness is death (irreversible_death)",
                        actor=event.actor)

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        """When a turn ends, whoever a damage left with a Wound above Toughness is out of the
        fight (care or a Recovery since may have lowered it), and whoever it left with Wounds
        that bleed is recorded bleeding (Medicine since may have stopped it)."""
        for actor in sorted(self._bleeds):
            unbled = _unbled(before, actor)
            if unbled is not None:
                bleeds, wounds, toughness = unbled
                view.report(CODE, event, f"{actor} has Wounds {', '.join(map(str, sorted(wounds, reverse=True)))} "
                            f"against Toughness {toughness} and is not recorded {bleeds.replace('_', ' ')} when the "
                            "turn ends (equal to Toughness: slowly; above it: badly)", actor=actor)
        self._bleeds.clear()
        if not self._owed:
            return
        for actor in sorted(self._owed):
            who = before.combatants.get(actor)
            if who is None:
                continue
            found = _with(self._worst(before, actor), self._owed[actor])
            given, held = _given(before, found), _held(who.statuses)
            if found is None or _RANK[given] <= _RANK[held]:
                continue
            if held is None:
                view.report(CODE, event, f"{actor} has Wound {found[0]} against Toughness {found[1]} and is still "
                            "in the fight when the turn ends: a Wound above Toughness incapacitates", actor=actor)
            else:
                view.report(CODE, event, f"{actor} has Wound {found[0]} against Toughness {found[1]} and is recorded "
                            f"{held}, not dead, when the turn ends: a Wound more than 5 above Toughness is death "
                            "(irreversible_death)", actor=actor)
        self._owed.clear()


def _held(statuses: tuple[str, ...]) -> str | None:
    """The condition a fighter is recorded in: ``dead``, ``incapacitated`` or none."""
    return "dead" if "dead" in statuses else "incapacitated" if "incapacitated" in statuses else None


def _with(found: tuple[int, int] | None, beyond: int) -> tuple[int, int] | None:
    """``found`` (the highest circle marked, Toughness) with its Wound raised to ``beyond``, a
    Damage the track could not show."""
    return (beyond, found[1]) if found is not None and beyond > found[0] else found


def _given(state: SceneState, found: tuple[int, int] | None) -> str | None:
    """The condition a Wound against Toughness gives (``harm.condition``), under the scene's
    options; none when there is no Wound or no sheet to read."""
    if found is None:
        return None
    try:
        return condition(found[0], found[1], options_of(state))
    except FightlogError:
        return None


_BLEED_RANK = {None: 0, "bleeding_slowly": 1, "bleeding_badly": 2}


def _unbled(state: SceneState, actor: str) -> tuple[str, list[int], int] | None:
    """The bleeding ``actor``'s Wounds give and none as bad recorded (with the Wounds and
    Toughness): ``None`` when recorded, dead, stopped by Medicine, or a sheet not read."""
    who = state.combatants.get(actor)
    if who is None or "dead" in who.statuses:
        return None
    try:
        fighter = Fighter(state, actor)
        wounds, toughness, given = fighter.wounds(), fighter.card.toughness, bleeding_of(fighter)
    except FightlogError:
        return None
    held = max((_BLEED_RANK[s] for s in BLEEDING if s in who.statuses), default=0)
    return None if given is None or _BLEED_RANK[given] <= held else (given, list(wounds), toughness)


def _bleeding(before: SceneState, event: StatusChanged, view: AuditView) -> bool:
    """A bleeding set as a consequence is no milder than the Wounds give (The aftermath: a
    Wound equal to Toughness bleeds slowly, one above it badly; none once Medicine stopped
    it): a worse one follows a damage recorded too low, which the damage's check names.
    Whether it reported one."""
    try:
        who = Fighter(before, event.actor)
        wounds, toughness, given = who.wounds(), who.card.toughness, bleeding_of(who)
    except FightlogError:
        return False
    if _BLEED_RANK[given] > _BLEED_RANK[event.status]:  # (one worse than the Wounds give follows a damage judged there)
        said = "no bleeding" if given is None else given.replace("_", " ")
        view.report(CODE, event, f"{event.actor} recorded {event.status.replace('_', ' ')} with Wounds "
                    f"{', '.join(map(str, sorted(wounds, reverse=True))) or 'none'} against Toughness {toughness}: "
                    f"the Wounds give {said} (equal to Toughness: slowly; above it: badly)", actor=event.actor)
        return True
    return False
