"""The ``d20-evasion`` audit of the effects a duel's rolls leave (``rules.effect-missing``;
Dodge; Parry; Disarming): a fumbled dodge costs the dodger the movement of their next turn
(``lost_move``), a fumbled parry a penalty on their next attack roll (``parry_fumble``), a parry
that held bars the attacker's next counterattack (``no_counter``), a disarm that succeeded
knocks the weapon away (``disarmed``).

A hand-kept log records the rolls and the outcome but often not these, and then a move after
the fumbled dodge, a counter after the held parry, an attack with the knocked-away weapon all
audited clean: the checks of those read the effects. Owed at the outcome that cites the rolls,
met by the effect in force then, or placed since the roll that owes it (the engine places a
fumble's before the outcome, and a counter of the same answer may spend it before the outcome
too), or placed by the turn's end; reported at the turn's end otherwise. A disarm is owed by
the outcome as recorded (a misjudged one is ``rules.outcome``'s).
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
    "parry_fumble": "a fumbled parry costs {penalty} on the parrier's next attack roll",
    "no_counter": "a parry that held bars the attacker's next counterattack",
    "disarmed": "a disarm that succeeded knocks the weapon away",
}


class OwedEffects:
    """The effects the outcomes of the open turn owe, by (effect name, bearer) -> the
    outcome's ``seq``."""

    def __init__(self) -> None:
        self._owed: dict[tuple[str, str], int] = {}
        self._placed: dict[tuple[str, str], int] = {}
        """(effect name, bearer) -> the ``seq`` of its latest ``effect_applied``."""
        self._penalty = 1

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
        self._penalty = opts.parry_fumble_penalty
        first = rolls[0]
        if first.purpose == "disarm":
            if event.hit:
                self._owe(before, "disarmed", event.target, event.seq, since=event.seq)
            return
        if first.purpose != "attack":
            return
        for roll in rolls[1:]:
            if roll.purpose not in ("dodge", "parry") or roll.roller is None:
                continue
            face = roll.dice[0].face
            if fumbled(face, opts):
                name = "lost_move" if roll.purpose == "dodge" else "parry_fumble"
                self._owe(before, name, roll.roller, event.seq, since=roll.seq)
            elif roll.purpose == "parry" and defended_by(Defence("parry", face, roll.total), first.total, opts):
                self._owe(before, "no_counter", event.attacker, event.seq, since=event.seq)

    def _owe(self, before: SceneState, name: str, bearer: str, seq: int, *, since: int) -> None:
        """``name`` owed by ``bearer`` at the outcome ``seq``, unless in force in ``before`` or
        placed after the roll at ``since`` that owes it."""
        if bearer not in before.combatants or self._placed.get((name, bearer), -1) > since:
            return  # placed since the roll: spent already, perhaps (a counter of the same answer)
        if any(e.name == name and e.target == bearer for e in before.effects.values()):
            return  # in force already (a lost movement still running)
        self._owed.setdefault((name, bearer), seq)

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        self._placed[(event.name, event.target)] = event.seq
        if self._owed:
            self._owed.pop((event.name, event.target), None)

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        if not self._owed:
            return
        for (name, bearer), seq in sorted(self._owed.items(), key=lambda item: (item[1], item[0])):
            why = _WHY[name].format(penalty=self._penalty)
            view.report(CODE, event, f"{bearer} carries no {name} after the outcome at seq {seq}: {why}", actor=bearer)
        self._owed.clear()
