"""The ``bleeding-sun`` audit of Health and Dying (``rules.dying``): a death the HP give (dead
when the negative HP exceed Body; a coup de grace's Grit save is the attack's), a fighter past
that and not dead, a stabilize check's pool (Body, or the healer's Medic, less |HP| and a
stagger; below 1 die no check is rolled) and what it gives (stable on hits at least the
rounds bled, else still bleeding out).
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import (AnyEvent, AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectExpired,
                                   StatusChanged)
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.audit_attacks import COUP, hits, noted
from fightlog.rules.bleedingsun.fighters import BLEEDING, Fighter
from fightlog.rules.bleedingsun.harm import dead_at, stabilize_pool

CODE = "rules.dying"


class Dying:
    """The checks of one audited scene, with what a stabilize check gave until its outcome."""

    def __init__(self) -> None:
        self.checked: dict[str, tuple[int, bool, str]] = {}
        """Patient -> the seq of their last stabilize check, whether it passed, and why."""
        self.past_body: set[str] = set()
        """Those reported past their Body and not dead (once each)."""
        self.read: object = None
        """The combatants (the state's mapping, unchanged since) ``settled`` last read."""

    def rolled(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """A stabilize check: its pool, and whether it passed (judged at its outcome)."""
        if event.purpose != "stabilize":
            return
        patient, skill = _patient(event, view)
        if patient is None:
            return
        bleed = next((e for e in before.effects.values() if e.name == BLEEDING and e.target == patient), None)
        if bleed is None:
            return  # stabilizing someone not bleeding out: the table's refusal (rules.stabilize)
        try:
            roller, hurt = Fighter(before, event.roller), Fighter(before, patient)
            pool = stabilize_pool(roller.attr(skill), hurt.hp) - roller.stagger()
            face = roller.options.hit_face
        except FightlogError:
            return
        rounds = max(1, bleed.ticks)
        shown = hits(event, face)
        why = f"{shown} {'hit' if shown == 1 else 'hits'} against {rounds} {'round' if rounds == 1 else 'rounds'} bled"
        self.checked[patient] = (event.seq, shown >= rounds, why)
        if len(event.dice) != max(0, pool):
            given = f"{pool} dice" if pool >= 1 else f"{pool}: no check to roll"
            view.report(CODE, event, f"{event.roller}'s stabilize check for {patient} rolled {len(event.dice)} "
                        f"{'die' if len(event.dice) == 1 else 'dice'}; "
                        f"{skill} {roller.attr(skill)} less |{hurt.hp}| HP"
                        + (f" less {roller.stagger()} (staggered)" if roller.stagger() else "") + f" gives {given}",
                        actor=event.roller)

    def expired(self, before: SceneState, event: EffectExpired, after: SceneState, view: AuditView) -> None:
        """A bleed ended as stabilized: on a check that passed."""
        found = before.effects.get(event.effect)
        if found is None or found.name != BLEEDING or not event.reason.startswith("stabilized"):
            return
        check = self.checked.pop(found.target, None)
        if check is None:
            view.report(CODE, event, f"{found.target} stopped bleeding out ({event.reason}) with no stabilize check "
                        "rolled", actor=found.target)
        elif not check[1]:
            view.report(CODE, event, f"{found.target} stabilized on a check (seq {check[0]}) of {check[2]}: the "
                        "rules need hits at least the rounds bled", actor=found.target)

    def died(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """A death the HP give, or a coup de grace's failed Grit save (any other save's death is
        judged by the HP)."""
        if event.status != "dead" or not event.on:
            return
        cause = view.event(event.cause or 0)
        if type(cause) is AttackResolved and noted(cause, COUP) and cause.target == event.actor:
            _coup_death(before, event, None, cause, view)  # a Grit below one die: no save rolled
            return
        if type(cause) is DiceRolled and cause.purpose == "save":
            attack = view.event(cause.for_seq or 0)
            if type(attack) is AttackResolved and noted(attack, COUP):
                _coup_death(before, event, cause, attack, view)
                return  # else a save that kills nobody by itself: the HP say
        try:
            who = Fighter(before, event.actor)
            body, hp = who.attr("body"), who.hp
        except FightlogError:
            return
        if not dead_at(body, hp):
            view.report(CODE, event, f"{event.actor} is recorded dead at {hp} HP; death comes when the negative HP "
                        f"exceed Body {body} (at {-body - 1} HP or below)", actor=event.actor)

    def settled(self, before: SceneState, event: AnyEvent, view: AuditView) -> None:
        """At a turn's, a round's or the scene's end: a stabilize check that passed left its
        patient bleeding; anyone past their Body is not dead."""
        if self.checked:  # (most ends: no stabilize check waits)
            for patient, (seq, passed, why) in sorted(self.checked.items()):
                if passed and any(e.name == BLEEDING and e.target == patient for e in before.effects.values()):
                    view.report(CODE, event, f"{patient}'s stabilize check (seq {seq}) shows {why}: stable by the "
                                "rules, still bleeding out", actor=patient)
            self.checked.clear()
        combatants = before.combatants
        if combatants is self.read:  # read at an earlier end: whoever was past Body is reported and in ``past_body``
            return
        self.read = combatants
        for who in combatants.values():
            hp = who.pools.get("hp")
            if hp is None or hp >= 0 or who.actor in self.past_body or "dead" in who.statuses:
                continue
            try:
                body = Fighter(before, who.actor).attr("body")
            except FightlogError:
                continue
            if dead_at(body, hp):
                self.past_body.add(who.actor)
                view.report(CODE, event, f"{who.actor} is at {hp} HP, past -{body} (Body): dead by the rules, not "
                            "recorded dead", actor=who.actor)


def _coup_death(before: SceneState, event: StatusChanged, save: DiceRolled | None, attack: AttackResolved,
                view: AuditView) -> None:
    """A death on a coup de grace's Grit save (``None``: none rolled, a Grit below one die,
    no hits): only when its hits are fewer than the damage the attack dealt (Coup de Gras)."""
    taken = 0
    for seq in range(attack.seq + 1, save.seq if save is not None else event.seq):
        damage = view.event(seq)
        if type(damage) is DamageApplied and damage.cause == attack.seq and damage.target == event.actor:
            taken += damage.taken
    try:
        shown = hits(save, Fighter(before, event.actor).options.hit_face) if save is not None else 0
    except FightlogError:
        return
    if shown >= taken:
        rolled = f" (seq {save.seq})" if save is not None else " (none rolled)"
        view.report(CODE, event, f"{event.actor} is recorded dead on a coup de grace's Grit save{rolled} "
                    f"of {shown} {'hit' if shown == 1 else 'hits'} against the {taken} taken: the victim dies only "
                    "on fewer hits than the damage", actor=event.actor)


def _patient(event: DiceRolled, view: AuditView) -> tuple[str | None, str]:
    """Whose stabilize check ``event`` is, and the skill it rolls: the roller's own Body
    check at a round's start, or a medic's post (``for_seq``) naming the patient."""
    if event.for_seq is None:
        return event.roller, "body"
    post = view.event(event.for_seq)
    if type(post) is not DeclarationPosted:
        return None, "medic"
    for action in post.actions:
        if action.type == "stabilize" and action.target:
            return action.target, "medic"
    return None, "medic"
