"""The audit's ``d20-evasion`` checks: what each logged event should have been under the
d20 evasion rules, recomputed with the engine's own pure functions on the logged inputs.

- ``attack_resolved``: hit or miss and the score needed, from the cited rolls (the attack or
  counter roll, the dodge and parry rolls) and the target's Evasion in the state before it,
  lowered by a counterattack (``attack.outcome``; a disarm: ``attack.disarm_outcome``).
- ``damage_applied``: armour first, the rest off HP, piercing straight to HP
  (``harm.absorb``); a hit's damage from the weapon and the attacker's stat, altered by the
  target's effects and a fumbled counter and rounded (``Fighter.damage``, ``harm.alter``);
  damage from a miss; a tick's damage from its effect.
- ``effect_ticked``: only damage over time ticks, once, at the start of its target's turn,
  while active; a tick missed is reported when the start-of-turn phase ends (the turn's
  first post, or its end).
- ``declaration_posted``: the turn's allowance (``allowance.breach``), a poster out of the
  fight, an answer (``responds_to``) by someone who is neither the defender of that post nor
  holding a turn.

Checks return at once when there is nothing to check; options are read once per scene.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.kit.checks import AuditView, Check
from fightlog.errors import FightlogError
from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    EffectApplied,
    EffectCountedDown,
    EffectTicked,
    InitiativeRolled,
    InitiativeSet,
    TurnEnded,
    TurnStarted,
)
from fightlog.reducers.state import SceneState
from fightlog.kit.countdowns import TurnCountdowns
from fightlog.rules.d20evasion import audit_dying
from fightlog.rules.d20evasion.audit_owed import OwedEffects
from fightlog.rules.d20evasion.audit_sized import sized
from fightlog.rules.d20evasion.audit_bonus import check_bonus, check_dodge
from fightlog.rules.d20evasion.audit_initiative import initiative_rolled
from fightlog.kit.initiative_order import initiative_set
from fightlog.rules.d20evasion.allowance import breach, turn_actions
from fightlog.rules.d20evasion.attack import Defence, disarm_outcome, fumbled, gear_of, outcome
from fightlog.rules.d20evasion.defence import answered, awaiting_in
from fightlog.rules.d20evasion.fighters import Fighter, options_of
from fightlog.rules.d20evasion.harm import absorb, alter, damage_percents, is_dot
from fightlog.rules.d20evasion.options import DEFAULTS, D20Options
from fightlog.rules.d20evasion.plan import plan
from fightlog.rules.d20evasion.ruleset import DEFENSIVE, OUT
from fightlog.rules.d20evasion.declared import check_declaration
from fightlog.kit.declared import Noting, by_table
from fightlog.kit.chained import merged
from fightlog.kit.damage_due import DamageDue
from fightlog.kit.hp_condition import HpCondition

def checks() -> Mapping[type, Check]:
    """A fresh set of checks for one audited scene (``D20Rules.audit_checks``), and the
    mortal wounds against the HP (Mortally Wounded: ``fightlog.kit.hp_condition``)."""
    audit = D20Audit()
    due = DamageDue("a hit deals its weapon's damage",
                    lambda hit: hit.weapon is not None and hit.seq not in audit.misjudged)  # (a disarm names none)
    countdowns = TurnCountdowns(skip=("bleeding_out",))  # a bleed-out counts at a round's end (audit_dying)
    return merged(audit.checks(), HpCondition(OUT, "mortally_wounded", "mortally wounded").checks(), due.checks(),
                  audit_dying.checks(), OwedEffects().checks(), {EffectCountedDown: cast(Check, countdowns.counted)})


class D20Audit:
    """The checks of one audited scene, with the little they remember: the ticks of the
    open turn and whether its start-of-turn phase is over."""

    def __init__(self) -> None:
        self._raw: object = None
        self._opts: D20Options = DEFAULTS
        self._ticked: set[str] = set()
        self._closed = -1
        """``turn.started`` of the turn whose start-of-turn phase is over."""
        self.misjudged: set[int] = set()
        """Outcomes whose hit or score the rolls do not give (reported as ``rules.outcome``)."""
        self.fumbles: dict[str, tuple[int, int]] = {}
        """Who fumbled a parry -> its penalty and the ``seq`` it was placed at (its effect's, or
        the parry roll's when no effect is logged), owed by their next attack or counter roll
        made after it (a counter rolled before the parry, in one answer, owes nothing)."""

    def checks(self) -> Mapping[type, Check]:
        return {
            AttackResolved: cast(Check, self.resolved),
            DamageApplied: cast(Check, self.damaged),
            EffectTicked: cast(Check, self.ticked),
            DeclarationPosted: cast(Check, self.posted),
            TurnStarted: cast(Check, self.turn_started),
            TurnEnded: cast(Check, self.turn_ended),
            EffectApplied: cast(Check, self.applied),
            InitiativeRolled: cast(Check, initiative_rolled),
            InitiativeSet: cast(Check, initiative_set),
        }

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        """A fumbled parry's penalty, owed by its bearer's next attack or counter roll; any other
        effect a hit or a spell leaves, as its sheet says (``audit_sized.sized``)."""
        if event.name == "parry_fumble":
            penalty = event.params.get("penalty")
            owed = penalty if type(penalty) is int else self.options(before).parry_fumble_penalty
            self.fumbles[event.target] = (owed, event.seq)
            return
        sized(before, event, self.options(before), view)

    def options(self, state: SceneState) -> D20Options:
        scene = state.scene
        raw = None if scene is None else scene.options
        if raw is not self._raw:
            self._raw = raw
            self._opts = options_of(state)
        return self._opts

    # ------------------------------------------------------------------ attack_resolved

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        rolls = [r for r in (view.event(s) for s in event.rolls) if isinstance(r, DiceRolled)]
        if not rolls or event.target not in before.combatants or event.attacker not in before.combatants:
            return
        opts = self.options(before)
        first = rolls[0]
        owed = 0
        fumble = self.fumbles.get(event.attacker) if first.purpose in ("attack", "counter") else None
        if fumble is not None and fumble[1] < first.seq:
            owed = self.fumbles.pop(event.attacker)[0]
        check_bonus(before, event, first, opts, view, owed)
        for defence in rolls[1:]:
            check_dodge(before, defence, opts, view)
            if defence.purpose == "parry" and defence.roller is not None and defence.dice \
                    and fumbled(defence.dice[0].face, opts):
                self.fumbles.setdefault(defence.roller, (opts.parry_fumble_penalty, defence.seq))  # an effect logged came first
        face, total = first.dice[0].face if first.dice else 0, first.total
        target = Fighter(before, event.target, opts)
        try:
            if first.purpose == "disarm":
                hit, against, _ = disarm_outcome(face, total, target.evasion(), opts)
                critical = None
            else:
                defences = [Defence(r.purpose, r.dice[0].face, r.total) for r in rolls[1:]
                            if r.purpose in ("dodge", "parry") and r.dice]
                lowered = self._lowered(before, event, rolls, opts) if first.purpose == "attack" else 0
                judged = outcome(face, total, target.evasion(lowered=lowered), defences, opts)
                hit, against, critical = judged.hit, judged.against, judged.critical
        except FightlogError:
            return  # a sheet the rules cannot read: nothing to recompute against
        if event.score != total or event.hit != hit:
            self.misjudged.add(event.seq)  # its damage, or its absence, follows the rolls: not reported again
        if event.score != total:
            view.report("rules.outcome", event,
                        f"{event.attacker}'s score is recorded as {event.score}, the roll at seq {first.seq} gives {total}",
                        actor=event.attacker)
        elif event.hit != hit or event.against != against or event.critical != critical:
            said = "a hit" if event.hit else "a miss"
            parts = []
            if event.hit != hit:
                parts.append(f"recorded as {said}; the rules give {'a hit' if hit else 'a miss'} ({total}, where "
                             f"{against} or more hits)")
            elif event.against != against:
                parts.append(f"recorded as needing {event.against}; the rules need {against} ({said} either way)")
            if event.critical != critical:
                parts.append(f"recorded as {_critical(event.critical)}; the rules give {_critical(critical)}")
            view.report("rules.outcome", event,
                        f"{event.attacker}'s {first.purpose} roll of {total} against {event.target}: {'; '.join(parts)}",
                        actor=event.attacker)

    def _lowered(self, before: SceneState, event: AttackResolved, rolls: list[DiceRolled], opts: D20Options) -> int:
        """What a counterattack lowered the target's Evasion by for this attack."""
        if any(r.purpose == "counter" for r in rolls[1:]):
            return opts.counter_evasion_penalty
        if opts.counter_penalty_scope != "defensive-turn" or event.declaration is None:
            return 0
        for post in before.pending:
            if post.actor == event.target and post.responds_to == event.declaration:
                if any(a.type == "counter" for a in post.actions):
                    return opts.counter_evasion_penalty
        return 0

    # ------------------------------------------------------------------ damage_applied

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        cause = view.event(event.cause) if event.cause is not None else None
        target = before.combatants.get(event.target)
        if target is None or cause is None:
            return
        opts = self.options(before)
        if event.taken > event.raw or event.reduced_by:
            view.report("rules.damage", event,
                        f"{event.target} took {event.taken} of {event.raw} with {event.reduced_by} reduced: armour absorbs "
                        "damage, it does not reduce it", actor=event.target)
            return
        who = Fighter(before, event.target, opts)
        if isinstance(cause, (DiceRolled, DeclarationPosted)):  # a hand-kept log's: the attack's roll, or its post
            cause = _outcome_on(cause, event, view) or cause
        if isinstance(cause, AttackResolved):
            if not cause.hit:
                view.report("rules.damage", event,
                            f"{event.target} took damage from {cause.attacker}'s attack at seq {cause.seq}, which missed",
                            actor=event.target)
                return
            expected, piercing = self._hit_damage(before, cause, view, opts)
            if expected is None:
                return
            self._split(event, who, expected, piercing, before, view, f"{cause.attacker}'s hit at seq {cause.seq}")
        elif isinstance(cause, EffectTicked):
            effect = before.effects.get(cause.effect)
            if effect is None:
                return
            expected = alter(effect.magnitude or 0, damage_percents(who), opts)
            self._split(event, who, expected, opts.dot_bypasses_armour, before, view,
                        f"{effect.name}'s tick at seq {cause.seq}", code="rules.tick-wrong")

    def _hit_damage(self, before: SceneState, cause: AttackResolved, view: AuditView,
                    opts: D20Options) -> tuple[int | None, bool]:
        if cause.attacker not in before.combatants or cause.target not in before.combatants:
            return None, False
        try:
            attacker = Fighter(before, cause.attacker, opts)
            gear = gear_of(attacker, cause.weapon)
        except FightlogError:
            return None, False
        extra = []
        for seq in cause.rolls[1:]:
            roll = view.event(seq)
            if isinstance(roll, DiceRolled) and roll.purpose == "counter" and roll.dice and fumbled(roll.dice[0].face, opts):
                extra.append(opts.counter_fumble_damage_percent)
        target = Fighter(before, cause.target, opts)
        return alter(attacker.damage(gear), damage_percents(target) + extra, opts), gear.piercing

    def _split(self, event: DamageApplied, who: Fighter, expected: int, piercing: bool, before: SceneState,
               view: AuditView, what: str, *, code: str = "rules.damage") -> None:
        """The pools ``expected`` damage should come off: armour first (unless piercing),
        then HP."""
        previous = view.event(event.seq - 1)
        continued = (
            isinstance(previous, DamageApplied) and previous.cause == event.cause and previous.target == event.target
            and previous.pool == "armour" and event.pool == "hp"
        )
        if continued:
            assert isinstance(previous, DamageApplied)
            raw = previous.raw - previous.taken
            if event.raw != raw or event.taken != raw:
                view.report(code, event,
                            f"{event.target} should take the {raw} the armour did not absorb off HP ({what}), not {event.taken}",
                            actor=event.target)
            return
        from_armour, from_hp = absorb(expected, who.armour, piercing)
        if event.pool == "armour":
            if event.raw != expected or event.taken != from_armour:
                view.report(code, event,
                            f"{event.target}'s armour ({who.armour}) should absorb {from_armour} of {expected} ({what}), "
                            f"not {event.taken} of {event.raw}", actor=event.target)
        elif event.pool == "hp":
            if from_armour:
                view.report(code, event,
                            f"{event.target} took {event.taken} straight off HP ({what}), but armour ({who.armour}) takes "
                            "damage first", actor=event.target)
            elif event.raw != expected or event.taken != from_hp:
                view.report(code, event, f"{event.target} should take {expected} ({what}), not {event.taken}",
                            actor=event.target)

    # ------------------------------------------------------------------ effect ticks

    def turn_started(self, before: SceneState, event: TurnStarted, after: SceneState, view: AuditView) -> None:
        self._ticked = set()

    def ticked(self, before: SceneState, event: EffectTicked, after: SceneState, view: AuditView) -> None:
        effect = before.effects.get(event.effect)
        if effect is None:
            view.report("rules.expired-effect", event, f"{event.effect} ticked on {event.target}, but it is no longer active",
                        actor=event.target)
            return
        turn = before.turn
        why = ""
        if not is_dot(effect):
            why = f"{effect.name} deals no damage over time"
        elif turn.current != effect.target:
            why = f"it is not {effect.target}'s turn"
        elif self._closed == turn.started:
            why = f"{effect.target} has already posted this turn: ongoing damage comes at the start of the turn"
        elif event.effect in self._ticked:
            why = "it has ticked already this turn"
        elif effect.applied > turn.started:
            why = "it was put on during this turn"
        if why:
            view.report("rules.tick-extra", event, f"{effect.name} ticked on {effect.target}: {why}", actor=effect.target)
        self._ticked.add(event.effect)

    def _close(self, state: SceneState, event: DeclarationPosted | TurnEnded, view: AuditView) -> None:
        """The start-of-turn phase is over: every damage-over-time effect on the actor that
        was in place at the turn's start must have ticked (unless the actor is out)."""
        turn = state.turn
        if turn.current is None or self._closed == turn.started:
            return
        self._closed = turn.started
        actor = turn.current
        who = state.combatants.get(actor)
        if who is None or not OUT.isdisjoint(who.statuses):
            return
        for effect in sorted(state.effects.values(), key=lambda e: e.effect):
            if effect.target == actor and is_dot(effect) and effect.applied < turn.started and effect.effect not in self._ticked:
                view.report("rules.tick-missing", event,
                            f"{effect.name} on {actor} did not take its damage at the start of {actor}'s turn",
                            actor=actor)

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        self._close(before, event, view)

    # ------------------------------------------------------------------ declarations

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        """The checks below; then, for a post the table did not make, what the table refuses
        in it beyond what they said (``table.check_declaration``): an unknown action type, a
        weapon, spell or item not carried, a target not in the fight or out of range..."""
        if by_table(before, event):
            self._posted(before, event, view)
            return
        noting = Noting(view)
        self._posted(before, event, noting, planned=True)
        found = check_declaration(before, event)
        if found is not None and found.code not in noting.codes:
            view.report(found.code, event, f"the rules refuse {event.actor}'s post: {found.message}", actor=event.actor)

    def _posted(self, before: SceneState, event: DeclarationPosted, view: AuditView, *, planned: bool = False) -> None:
        """``planned``: a post the table did not make: its allowance judged as recorded, and
        as the table reads it (``plan``: a move's cost from the bands, which a hand-run post
        does not say)."""
        if event.ooc:
            if event.actions:
                view.report("rules.refused", event, f"{event.actor}'s out-of-character post carries actions",
                            actor=event.actor)
            return
        actor = event.actor
        if actor == before.turn.current and event.responds_to is None:
            self._close(before, event, view)
        who_state = before.combatants.get(actor)
        if who_state is None or before.turn.round == 0:
            return  # the shared posting-order checks report these
        opts = self.options(before)
        if not OUT.isdisjoint(who_state.statuses):
            if actor == before.turn.current or event.responds_to is not None:
                gone = ", ".join(s.replace("_", " ") for s in who_state.statuses if s in OUT)
                view.report("order.cannot-act", event, f"{actor} posted while {gone}: no actions", actor=actor)
            return
        types = {a.type for a in event.actions}
        if event.responds_to is not None:
            if types & DEFENSIVE:
                self._answer(before, event, view)
                return
            if "holding" not in who_state.statuses:
                view.report("order.out-of-turn", event,
                            f"{actor} answered seq {event.responds_to} with a turn of their own without holding one",
                            actor=actor)
                return
        elif actor != before.turn.current:
            return  # the shared posting-order checks report it
        if types & DEFENSIVE:
            view.report("rules.refused", event, f"{actor} declared a defensive response without answering an attack",
                        actor=actor)
            return
        try:
            who = Fighter(before, actor, opts)
            earlier = turn_actions(before, actor, event.responds_to)
            found = breach(who, earlier, event.actions)  # as recorded (the points a post says it spent)
            if found is None and planned:
                try:  # and as the table reads it: a move's cost from the bands
                    found = breach(who, earlier, plan(before, who, event.actions, earlier))
                except FightlogError:
                    pass  # refused as the table reads it: ``check_declaration`` says so
        except FightlogError:
            return
        if found is not None:
            view.report(found.code, event, found.message, actor=actor)

    def _answer(self, before: SceneState, event: DeclarationPosted, view: AuditView) -> None:
        post = next((p for p in before.pending if p.seq == event.responds_to), None)
        if post is None or not awaiting_in(before, post, event.actor):
            view.report("order.out-of-turn", event,
                        f"{event.actor}'s defensive turn answers seq {event.responds_to}, which attacked nobody waiting "
                        "for it this turn", actor=event.actor)
        elif answered(before, post.seq, event.actor):
            view.report("order.double-post", event, f"{event.actor} answered seq {post.seq} a second time",
                        actor=event.actor)


def _critical(critical: str | None) -> str:
    """``a critical success``, ``no critical``: what a resolution's ``critical`` says."""
    return "no critical" if critical is None else f"a critical {critical}"



def _outcome_on(cited: DiceRolled | DeclarationPosted, event: DamageApplied, view: AuditView) -> AttackResolved | None:
    """The outcome on ``event``'s target that a damage citing a roll or a post stands on: the
    one that read that roll, or resolved that post, between it and the damage."""
    for seq in range(event.seq - 1, cited.seq, -1):
        found = view.event(seq)
        if type(found) is AttackResolved and found.target == event.target and (
                cited.seq in found.rolls if type(cited) is DiceRolled else found.declaration == cited.seq):
            return found
    return None
