"""The ``bleeding-sun`` audit of the saves a hit's weapon owes (``rules.effect-wrong``; Status
Affect Saves; Knockdown): damage from an attack whose weapon has knockdown or kickers gives
its target, while still in the fight and not immune, a save against each (knockdown first,
then the kickers as the sheet lists them), citing the attack, as ``resolve.kick`` rolls them
(none where the save has no die to roll: its attribute less a stagger below 1); a save citing
an attack whose weapon has no such kicker is a save nobody owed.

The saves follow the damage; what a hit still owes is judged when its post is over (the next
post, a turn's, round's or scene's end), so a hand-run fight that rolls every damage of a
blast before the saves is read as well as the table's order. A coup de grace and a grenade
jumped on kick nothing (``resolve._coup``, ``resolve._smothered``).
"""

from __future__ import annotations

import re
from typing import Final

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.audit_attacks import COUP, noted
from fightlog.rules.bleedingsun.card import WeaponCard
from fightlog.rules.bleedingsun.fighters import IMMUNE, Fighter
from fightlog.rules.bleedingsun.resolve import JUMPED
from fightlog.rules.bleedingsun.statuses import SAVES

CODE: Final = "rules.effect-wrong"
_STATUS: Final = re.compile(r"^(\w+) save: ")


def kickers_of(weapon: WeaponCard) -> list[str]:
    """The saves a hit of ``weapon`` gives, in the order the table rolls them."""
    return (["knockdown"] if weapon.knockdown else []) + [k.status for k in weapon.kickers]


def _weapon(state: SceneState, attack: AttackResolved) -> WeaponCard | None:
    """The weapon of ``attack`` on its attacker's sheet; ``None`` where it cannot be read."""
    try:
        return Fighter(state, attack.attacker).card.weapon(attack.weapon)
    except FightlogError:
        return None


class Kickers:
    """The saves the hits of the post being resolved still owe, by (attack, target)."""

    def __init__(self) -> None:
        self.owed: dict[tuple[int, str], tuple[DamageApplied, str, list[str]]] = {}

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        attack = view.event(event.cause or 0)
        if not isinstance(attack, AttackResolved) or noted(attack, COUP) or noted(attack, JUMPED):
            return
        weapon = _weapon(before, attack)
        if weapon is None:
            return
        want = kickers_of(weapon)
        target = event.target
        if not want or target not in after.combatants:
            return
        who = Fighter(after, target)
        if who.out:
            return
        immune = {e.params.get("status") for e in who.effects(IMMUNE)}
        want = [status for status in want if status not in immune]
        if want and (attack.seq, target) not in self.owed:
            self.owed[(attack.seq, target)] = (event, weapon.name, want)

    def rolled(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        if event.purpose != "save" or event.for_seq is None or event.roller is None:
            return
        found = _STATUS.match(event.label or "")
        if found is None:
            return
        status = found.group(1)
        owed = self.owed.get((event.for_seq, event.roller))
        if owed is not None and status in owed[2]:
            owed[2].remove(status)
            return
        attack = view.event(event.for_seq)
        if not isinstance(attack, AttackResolved):
            return
        weapon = _weapon(before, attack)
        if weapon is not None and status not in kickers_of(weapon):
            view.report(CODE, event, f"{event.roller} saves against {status} for {attack.attacker}'s attack at seq "
                        f"{attack.seq}; the {weapon.name} has no {status} kicker", actor=event.roller)

    def settle(self, state: SceneState, view: AuditView) -> None:
        """The post is over: every save a hit owes has been rolled, unless its target is out."""
        if not self.owed:
            return
        owed, self.owed = self.owed, {}
        for (attack, target), (damage, weapon, left) in sorted(owed.items()):
            if not left or target not in state.combatants or Fighter(state, target).out:
                continue
            left = [status for status in left if not _no_dice(state, target, status)]
            if not left:
                continue
            saves = " and ".join(left)
            view.report(CODE, damage, f"{target} took the hit of the {weapon} (attack at seq {attack}) and rolled "
                        f"no {saves} save (the weapon's {'kickers' if len(left) > 1 else 'kicker'})", actor=target)


def _no_dice(state: SceneState, target: str, status: str) -> bool:
    """Whether ``target``'s save against ``status`` has no die to roll (its attribute less a
    stagger below 1: ``statuses.save`` rolls nothing and the save fails), as far as
    ``state`` shows (a blast's bonus dice aside)."""
    try:
        return Fighter(state, target).check_pool(SAVES[status].attribute) < 1
    except (FightlogError, KeyError):
        return False
