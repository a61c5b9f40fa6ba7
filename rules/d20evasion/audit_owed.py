"""The ``d20-evasion`` audit of the effects a duel's rolls leave (``rules.effect-missing``;
Dodge; Parry; Disarming): a fumbled dodge costs the dodger the movement of their next turn
(``lost_move``), a fumbled parry a penalty on their next attack roll (``parry_fumble``), a parry
that held bars the attacker's next counterattack (``no_counter``), a disarm that succeeded
knocks the weapon away (``disarmed``).

A hand-kept log records the rolls and the outcome but often not these, and then a move after
the fumbled dodge, a counter after the held parry, an attack with the knocked-away weapon all
audited clean: the checks of those read the effects. Owed at the outcome that cites the rolls,
met by the effect in force then (the engine places a fumble's before the outcome) or placed
by the turn's end, reported at the turn's end otherwise. A disarm is owed by the outcome as
recorded (a misjudged one is ``rules.outcome``'s).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, cast

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DiceRolled, EffectApplied, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.attack import Defence, defended_by, fumbled
from fightlog.rules.d20evasion.fighters import options_of

CODE: Final = "rules.effect-missing"

_WHY: Final[Mapping[str, str]] = {
    "lost_move": "a fumbled dodge costs the movement of the dodger's next turn",
    "parry_fumble": "a fumbled parry costs 1 on the parrier's next attack roll",
    "no_counter": "a parry that held bars the attacker's next counterattack",
    "disarmed": "a disarm that succeeded knocks the weapon away",
}


class OwedEffects:
    """The effects the outcomes of the open turn owe, by (effect name, bearer) -> the
    outcome's ``seq``."""

    def __init__(self) -> None:
        self._owed: dict[tuple[str, str], int] = {}

    def checks(self) -> Mapping[type, Check]:
        return {AttackResolved: cast(Check, self.resolved), EffectApplied: cast(Check, self.applied),
                TurnEnded: cast(Check, self.turn_ended)}

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        rolls = [r for r in (view.event(s) for s in event.rolls) if isinstance(r, DiceRolled) and r.dice]
        if not rolls:
            return
        try:
            opts = options_of(before)
        except FightlogError:
            return
        first = rolls[0]
        if first.purpose == "disarm":
            if event.hit:
                self._owe(before, "disarmed", event.target, event.seq)
            return
        if first.purpose != "attack":
            return
        for roll in rolls[1:]:
            if roll.purpose not in ("dodge", "parry") or roll.roller is None:
                continue
            face = roll.dice[0].face
            if fumbled(face, opts):
                self._owe(before, "lost_move" if roll.purpose == "dodge" else "parry_fumble", roll.roller, event.seq)
            elif roll.purpose == "parry" and defended_by(Defence("parry", face, roll.total), first.total, opts):
                self._owe(before, "no_counter", event.attacker, event.seq)

    def _owe(self, before: SceneState, name: str, bearer: str, seq: int) -> None:
        if bearer not in before.combatants:
            return
        if any(e.name == name and e.target == bearer for e in before.effects.values()):
            return  # in force already: placed by the roll (a fumble's), or still running
        self._owed.setdefault((name, bearer), seq)

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if self._owed:
            self._owed.pop((event.name, event.target), None)

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        if not self._owed:
            return
        for (name, bearer), seq in sorted(self._owed.items(), key=lambda item: (item[1], item[0])):
            view.report(CODE, event, f"{bearer} carries no {name} after the outcome at seq {seq}: {_WHY[name]}",
                        actor=bearer)
        self._owed.clear()
