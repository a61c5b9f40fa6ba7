"""The RoE audit's checks of ``damage_applied`` (``audit.Roe7Audit``): ``taken`` from ``raw``
and ``reduced_by`` (``harm.reduce_damage``; Armor), the DR cap, ``raw`` against the damage
roll it cites, a tick's damage (``harm.bleed_damage``, ``harm.burn_notation``; Bleed;
Chemical Burn). An attack's damage (``attack_damage``: one citing a damage roll made for an
``attack_resolved``, or the outcome itself) comes after a hit, less the target's DR against
its damage type (``attack_hits.deal``: with or without armour, as an aimed or piercing shot
goes through it), and every hit's damage is applied by the turn's end; that it lands on the
attack's target, once, is the shared check's (``fightlog.audit.attack_damage``)."""

from __future__ import annotations

from typing import cast

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled, EffectTicked
from fightlog.kit.checks import REFERENCE_CODE, AuditView, no_earlier_event
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.audit_effects import EffectChecks
from fightlog.rules.roe7.fighters import Fighter
from fightlog.rules.roe7.harm import bleed_damage, burn_notation, reduce_damage
from fightlog.rules.roe7.terms import DAMAGE_TYPES, DamageType


class DamageChecks(EffectChecks):
    """The checks of ``damage_applied`` (``damaged``; beside the fold, ``damage_clear``), and
    the DRs read for them."""

    def __init__(self) -> None:
        super().__init__()
        self._drs: dict[tuple[str, str], tuple[object, object, int | None]] = {}
        """(actor, damage type) -> (the sheet snapshot and options it was read from, the DR)."""
        self._attack_dr_known: dict[tuple[str, str], tuple[object, object, tuple[int, int, int] | None]] = {}
        """(actor, damage type) -> (the sheet snapshot and options read, ``_attack_drs``)."""
        self._undamaged: dict[tuple[int | None, str], AttackResolved] = {}
        """(post, target) -> the first hit of a weapon attack in this turn with no damage
        applied yet (``damage_due``, ``undamaged``)."""
        self._misjudged: set[int] = set()
        """Attacks whose hit or miss is reported against the rolls (``rules.outcome``): their
        damage, or its absence, follows the rolls and is not reported again."""

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        """Damage less DR (Armor), the DR cap, the roll or tick it cites."""
        self.attack_damage(before, event, view)
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

    def attack_damage(self, before: SceneState, event: DamageApplied, view: AuditView) -> None:
        """The damage of an attack (citing a damage roll made for an ``attack_resolved``, or,
        in a hand-kept log, the ``attack_resolved`` itself): after a hit, and its DR the
        target's against the damage type, with or without armour (Armor;
        ``attack_hits.deal``); the hit's damage paid (``damage_due``). On the attack's target,
        once a pool: the shared check (``fightlog.audit.attack_damage``). Run for every damage,
        cleared or not: the child's ``Clear`` test does not see sheets."""
        cause = event.cause
        if self._undamaged and cause is None:  # a hand-kept damage citing nothing: it pays what its target is owed
            self._paid(event.target)
        source = view.event(cause) if cause is not None else None
        kind = type(source)
        if kind is DiceRolled:  # the engine's way: the damage roll, made for the outcome
            roll = cast(DiceRolled, source)
            for_seq = roll.for_seq
            if for_seq is not None and not 0 < for_seq < roll.seq:  # names no earlier event: nothing to follow
                view.report(REFERENCE_CODE, roll, no_earlier_event(roll.seq, "for_seq", for_seq), actor=None)
                self._paid(event.target)  # (reported here: not again as a hit without damage)
                return
            attack = view.event(for_seq) if roll.purpose == "damage" and for_seq is not None else None
            if type(attack) is not AttackResolved:
                return
        elif kind is AttackResolved:  # a hand-kept log's way: the outcome itself
            attack = source
        else:
            return
        target = event.target
        hit = cast(AttackResolved, attack)
        if self._undamaged:
            self._undamaged.pop((hit.declaration, hit.target), None)
        if target != hit.target:
            return  # the shared check's (``fightlog.audit.attack_damage``: outcome.damage)
        if not hit.hit and hit.seq not in self._misjudged:
            view.report("rules.damage", event, f"{target} takes damage from {hit.attacker}'s attack at seq {hit.seq}, "
                        "which missed", actor=hit.attacker)
        elif event.damage_type is not None:
            self._attack_dr(before, event, view)

    def damage_due(self, event: AttackResolved) -> None:
        """Remember a hit of a weapon attack: its damage is due by the end of the turn (every
        hit deals its weapon's damage; an interrupt's hit on a com call stops the call and
        deals none). Several hits of one post on one target share one damage."""
        if not event.hit or event.weapon is None:
            return
        notes = event.notes
        if notes and notes[0].startswith("interrupting ") and not notes[0].endswith(" flee"):
            return
        self._undamaged.setdefault((event.declaration, event.target), event)

    def _paid(self, target: str) -> None:
        """What ``target`` is owed, paid by a damage that does not say which hit it is for."""
        for key in [key for key in self._undamaged if key[1] == target]:
            del self._undamaged[key]

    def undamaged(self, view: AuditView) -> None:
        """At a turn's end: the hits of the turn whose damage was never applied (Steps of a
        Combat Turn: a hit rolls its damage); a hit the rolls do not give is reported as
        that (``rules.outcome``), not again here."""
        for hit in sorted(self._undamaged.values(), key=lambda found: found.seq):
            if hit.seq in self._misjudged:
                continue
            view.report("rules.damage", hit, f"{hit.attacker}'s hit on {hit.target} has no damage applied by the end "
                        "of the turn", actor=hit.attacker)
        self._undamaged.clear()

    def _attack_dr(self, before: SceneState, event: DamageApplied, view: AuditView) -> None:
        """DR of an attack's damage: what the target's DR against its damage type takes off,
        with or without armour (``_attack_drs``)."""
        drs = self._attack_drs(before, event.target, cast(str, event.damage_type))
        if drs is None:
            return
        raw, reduced = event.raw, event.reduced_by
        full, bare = min(raw, drs[0]), min(raw, drs[1])
        if reduced != full and reduced != bare and reduced <= drs[2]:  # beyond the cap: rules.dr-cap
            ways = f"{full}" if full == bare else f"{full} (or {bare} through armour, aimed or piercing)"
            view.report("rules.armour", event, f"{event.target}'s DR takes {reduced} off {raw} {event.damage_type} "
                        f"damage; {event.target}'s DR against it takes {ways}", actor=event.target)

    def _attack_drs(self, state: SceneState, actor: str, damage_type: str) -> tuple[int, int, int] | None:
        """``actor``'s DR against ``damage_type`` (several types joined by ``+``: the highest,
        plus half of each other, to the cap), with and without armour, and the cap; ``None``
        for a type RoE does not have or a sheet that does not read. Read again only when the
        sheet snapshot or the scene's options change."""
        who = state.combatants.get(actor)
        scene = state.scene
        if who is None or scene is None:
            return None
        key = (actor, damage_type)
        known = self._attack_dr_known.get(key)
        if known is not None and known[0] is who.sheet and known[1] is scene.options:
            return known[2]
        kinds = damage_type.split("+")
        found: tuple[int, int, int] | None = None
        if all(kind in DAMAGE_TYPES for kind in kinds):
            cap = self.options(state).dr_cap
            both: list[int] = []
            for bare in (False, True):
                drs = [_dr(state, actor, cast(DamageType, kind), bare) for kind in kinds]
                ranked = sorted((dr for dr in drs if dr is not None), reverse=True)
                if len(ranked) != len(drs):
                    break
                both.append(min(cap, ranked[0] + sum(d // 2 for d in ranked[1:])))
            else:
                found = (both[0], both[1], cap)
        self._attack_dr_known[key] = (who.sheet, scene.options, found)
        return found

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


def _dr(state: SceneState, actor: str, damage_type: DamageType, bare: bool = False) -> int | None:
    """``actor``'s DR against ``damage_type`` from their sheet (without armour when ``bare``),
    or ``None`` when the sheet cannot be read (a hand-kept log's sheet in another format, or
    no such combatant)."""
    try:
        return Fighter(state, actor).dr(damage_type, ignore_armour=bare)
    except (FightlogError, ValueError, KeyError):
        return None
