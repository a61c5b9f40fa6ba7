"""The RoE audit's checks of ``damage_applied`` (``audit.Roe7Audit``): ``taken`` from ``raw``
and ``reduced_by`` (``harm.reduce_damage``; Armor), the DR cap, ``raw`` against the damage
roll it cites, a tick's damage (``harm.bleed_damage``, ``harm.burn_notation``; Bleed;
Chemical Burn)."""

from __future__ import annotations

from typing import cast

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled, EffectTicked
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.audit_effects import EffectChecks
from fightlog.rules.roe7.fighters import Fighter
from fightlog.rules.roe7.harm import bleed_damage, burn_notation, reduce_damage
from fightlog.rules.roe7.terms import DamageType


class DamageChecks(EffectChecks):
    """The checks of ``damage_applied`` (``damaged``; beside the fold, ``damage_clear``), and
    the DRs read for them."""

    def __init__(self) -> None:
        super().__init__()
        self._drs: dict[tuple[str, str], tuple[object, object, int | None]] = {}
        """(actor, damage type) -> (the sheet snapshot and options it was read from, the DR)."""

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        """Damage less DR (Armor), the DR cap, the roll or tick it cites."""
        if view.cleared(event.seq):
            return  # checked beside the fold (``damage_clear``): as the rules give it
        raw, reduced, target = event.raw, event.reduced_by, event.target
        taken = reduce_damage(raw, reduced)[1]
        if event.taken != taken:
            view.report(
                "rules.damage", event,
                f"{target} took {event.taken} from {raw} damage less {reduced} DR: that leaves {taken}", actor=target,
            )
        if reduced > 0:
            scene = before.scene
            cap = (self._opts if scene is not None and scene.options is self._raw else self.options(before)).dr_cap
            if reduced > cap:
                view.report(
                    "rules.dr-cap", event, f"{target}'s DR took {reduced} off {raw} damage: DR caps at {cap}",
                    actor=target,
                )
        cause = event.cause
        if cause is None:
            return
        source = view.event(cause)
        kind = type(source)
        if kind is DiceRolled:
            roll = cast(DiceRolled, source)
            if roll.purpose != "damage":
                return
            total = roll.total
            if raw != (total if total > 0 else 0):
                self._raw_differs(event, roll, view)
            if roll.for_seq is not None and self._closed != before.turn.started:  # ticks come before the post
                tick = view.event(roll.for_seq)
                if type(tick) is EffectTicked:
                    self._tick_damage(before, event, tick, roll, view)
        elif kind is EffectTicked:
            self._tick_damage(before, event, cast(EffectTicked, source), None, view)

    def damage_clear(self, before: SceneState, event: DamageApplied, view: AuditView) -> bool:
        """``damaged`` has nothing to report: ``taken`` and the DR as the rules give them, and
        the cause, if any, a roll of another purpose, or a damage roll that comes to ``raw``
        and is for an attack's outcome (not a tick). A ``Clear`` test (``split_checks``): it
        reads the cited roll, the outcome that roll is for and the scene's options only. A
        tick's damage, or a cause not among the recent rolls, is left to ``damaged``."""
        raw, reduced = event.raw, event.reduced_by
        if event.taken != reduce_damage(raw, reduced)[1] or (reduced > 0 and reduced > self.options(before).dr_cap):
            return False
        cause = event.cause
        if cause is None:
            return True
        roll = view.event(cause)
        if type(roll) is not DiceRolled:
            return False
        if roll.purpose != "damage":
            return True
        total = roll.total
        if raw != (total if total > 0 else 0):
            return False
        for_seq = roll.for_seq
        return for_seq is None or type(view.event(for_seq)) is AttackResolved

    def _raw_differs(self, event: DamageApplied, roll: DiceRolled, view: AuditView) -> None:
        raw = max(0, roll.total)
        view.report(
            "rules.damage", event,
            f"{event.target}'s damage records {event.raw} before DR, but the damage roll it cites "
            f"(seq {roll.seq}, {roll.notation}) comes to {raw}",
            actor=event.target,
        )

    def _tick_damage(
        self, before: SceneState, event: DamageApplied, tick: EffectTicked, roll: DiceRolled | None, view: AuditView
    ) -> None:
        """A tick's damage: of an effect still active; a bleed's amount without DR; a burn's
        dice by stacks, and its DR (Bleed; Chemical Burn)."""
        target = event.target
        effect = before.effects.get(tick.effect)
        if effect is None:
            if tick.seq not in self._flagged:
                view.report(
                    "rules.expired-effect", event,
                    f"{target} took damage from {tick.effect} (tick at seq {tick.seq}) {self._gone(tick.effect)}",
                    actor=target,
                )
            return
        if effect.name == "bleed" and roll is None:
            amount = bleed_damage(effect)
            if event.raw != amount or event.reduced_by != 0:
                view.report(
                    "rules.tick-wrong", event,
                    f"{target}'s bleed tick deals {event.raw} less {event.reduced_by} DR; a bleed deals {amount} and "
                    "ignores DR",
                    actor=target,
                )
        elif effect.name == "chemical_burn" and roll is not None:
            notation = burn_notation(effect)
            if roll.notation != notation or roll.modifiers:
                view.report(
                    "rules.tick-wrong", roll,
                    f"{target}'s chemical burn tick rolls {roll.notation}"
                    + (" with modifiers" if roll.modifiers else "")
                    + f"; {effect.stacks} stack{'s' if effect.stacks > 1 else ''} roll {notation}",
                    actor=target,
                )
            opts = self.options(before)
            dr = 0 if opts.burn_ignores_dr else self._dr(before, target, "explosive")
            if dr is not None and event.reduced_by != reduce_damage(event.raw, dr)[0]:
                view.report(
                    "rules.tick-wrong", event,
                    f"{target}'s chemical burn damage is reduced by {event.reduced_by}; {target}'s explosive DR is {dr}"
                    + (" (burn_ignores_dr)" if opts.burn_ignores_dr else ""),
                    actor=target,
                )

    def _dr(self, state: SceneState, actor: str, damage_type: DamageType) -> int | None:
        """``_dr`` (``actor``'s DR against ``damage_type`` from their sheet), read again only
        when the combatant's sheet snapshot or the scene's options change."""
        who = state.combatants.get(actor)
        scene = state.scene
        if who is None or scene is None:
            return _dr(state, actor, damage_type)
        key = (actor, damage_type)
        known = self._drs.get(key)
        sheet, options = who.sheet, scene.options
        if known is not None and known[0] is sheet and known[1] is options:
            return known[2]
        dr = _dr(state, actor, damage_type)
        self._drs[key] = (sheet, options, dr)
        return dr


def _dr(state: SceneState, actor: str, damage_type: DamageType) -> int | None:
    """``actor``'s DR against ``damage_type`` from their sheet, or ``None`` when the sheet
    cannot be read (a hand-kept log's sheet in another format)."""
    try:
        return Fighter(state, actor).dr(damage_type)
    except (FightlogError, ValueError):
        return None
