"""The audit's ``roe7`` checks: what each logged event should have been under the RoE rules.

``Roe7Rules.audit_checks`` builds one ``Roe7Audit`` per audited scene (imported lazily: this
module reads sheets, so it loads pydantic, which the fold must not). Each check recomputes,
with the engine's own rule functions, what an event should say from the logged inputs (the
rolls an outcome cites, the folded state before it) and reports where the log differs:

- ``dice_rolled``: the +30 cap on modifiers (``fighters.capped``); a modifier from an effect
  that is no longer on the roller (suppressed, magika surge).
- ``attack_resolved``: hit or miss and the critical from the cited rolls (``attack.outcome``,
  ``attack.stray_hit``, ``harm.blast_dodged``, ``tactics.skill_won``); a tie given to the
  attacker; the lost action a natural 1 costs (checked when the turn ends); a weapon fired
  while it needs a reload or is cooling down.
- ``damage_applied``: ``taken`` from ``raw`` and ``reduced_by`` (``harm.reduce_damage``), the
  DR cap, ``raw`` against the damage roll it cites, a tick's damage (``harm.bleed_damage``,
  ``harm.burn_notation``).
- ``effect_ticked`` / ``effect_counted_down``: ticks only for damaging debuffs
  (``harm.DAMAGING``), once, at the start of the victim's turn, of an effect still active;
  a tick missed is reported when the start-of-turn phase ends (the turn's first post, or its
  end).
- ``declaration_posted``: the turn's allowance (``table.breach``), interrupts
  (``escape.interrupt_breach``), a poster out of the fight, the flee limit
  (``escape.flees_left``).

Checks run for every event of their kind, so each returns at once when there is nothing to
check, and the most common paths (a post in one's own turn, a rolled damage) are written
out rather than split into helpers: the audit's throughput rests on them
(``bench/bench_audit.py``). On a big log the commonest outcome, an attack against a dodge, is
checked beside the fold, in the audit's second process (``split_checks``), and so is a
rolled hit's damage. Options are read once per scene, sheets only when a check
needs them (a DR once per sheet snapshot), and messages are written only for findings. The
few facts a check needs from earlier events that the state does not keep (when an effect
ended, the lost actions applied, whether the start-of-turn phase is over) are remembered
here, bounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, cast

from msgspec.structs import replace

from fightlog.kit.checks import AuditView, Check, Clear, RecordSplit
from fightlog.errors import FightlogError, InputError
from fightlog.events.model import (
    Action,
    AttackResolved,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    Event,
    StatusChanged,
    TurnEnded,
)
from fightlog.reducers.state import ActiveEffect, SceneState, WeaponState
from fightlog.rules.roe7.attack import Outcome, band_of_die, can_crit, outcome, stray_hit
from fightlog.rules.roe7.escape import INTERRUPTIBLE, flees_left, interrupt_breach
from fightlog.rules.roe7.fighters import UNARMED, UNARMED_TOKEN, Fighter, options_of
from fightlog.rules.roe7.harm import DAMAGING, blast_dodged, bleed_damage, burn_notation, reduce_damage
from fightlog.rules.roe7.options import DEFAULTS, Roe7Options
from fightlog.rules.roe7.ruleset import OUT, RULES, token
from fightlog.rules.roe7.table import (
    RESTRICTING,
    arrival_breach,
    breach,
    check_declaration,
    free_costs,
    over_allowance,
    turn_breach,
)
from fightlog.kit.declared import Noting, by_table
from fightlog.rules.roe7.tactics import skill_won
from fightlog.rules.roe7.terms import DamageType
from fightlog.rules.roe7.tokens import WeaponToken

EFFECT_MODIFIERS: Final[Mapping[str, str]] = {"suppressed": "suppressed", "magika surge": "magika_surge"}
"""Modifier source -> the effect on the roller that grants it (``attack.accuracy``,
``Fighter.damage_mods``)."""

LOST: Final = frozenset({"lost_action", "lost_turn"})
"""The effects a natural 1 leaves (``conditions.lose_action``)."""

LOST_STATUSES: Final = frozenset({"lost_action", "lost_turn", "action_lost"})
"""The same written as a status, as hand-kept logs do."""

_NONE: Final[tuple[ActiveEffect, ...]] = ()

_MEMORY: Final = 4096
"""How many ended effects are remembered for messages (the oldest half is dropped beyond)."""


def checks() -> Mapping[type, Check]:
    """A fresh set of checks for one audited scene (``Roe7Rules.audit_checks``)."""
    return Roe7Audit().checks()


def split_checks() -> RecordSplit:
    """``checks()`` split for the audit on two processes (``Roe7Rules.audit_record_checks``):
    the modifier cap reads only the roll and the scene's options, so it moves beside the fold
    whole; an attack's outcome against the dodge it cites needs only the two rolls and the
    options, so ``attack_clear`` runs there for it (keeping the recent rolls), and the state
    check of an attack the test clears is left with the weapon's readiness; damage from a
    rolled hit needs only its own numbers, the roll and the outcome the roll is for, so
    ``damage_clear`` runs there for it, and a damage the test clears is not checked again.
    Together they report what ``checks()`` reports."""
    beside = Roe7Audit()
    return RecordSplit(
        state=Roe7Audit(split=True).checks(),
        record={DiceRolled: cast(Check, beside.capped)},
        kept=frozenset({DiceRolled, AttackResolved}),
        clears={AttackResolved: cast(Clear, beside.attack_clear), DamageApplied: cast(Clear, beside.damage_clear)},
    )


class Roe7Audit:
    """The checks of one audited scene, with the little they remember (see the module
    docstring)."""

    def __init__(self, *, split: bool = False) -> None:
        self._split = split
        """``dice_rolled``'s modifier cap is checked elsewhere (``split_checks``)."""
        self._raw: object = None
        self._opts: Roe7Options = DEFAULTS
        self._tokens: dict[str, WeaponToken | None] = {}
        self._crits: dict[tuple[str | None, int], bool] = {}
        self._closed = -1
        """``turn.started`` of the turn whose start-of-turn phase is over."""
        self._ended: dict[str, tuple[int, str]] = {}
        """Effect id -> (seq, why) it ended (expired, removed or replaced)."""
        self._lost: set[str] = set()
        """Who lost an action (an effect, or a status in a hand-kept log) this turn."""
        self._owed: dict[str, tuple[AttackResolved, str, tuple[object, ...]]] = {}
        """Who owes a lost action this turn -> the outcome whose natural 1 costs it, and why
        (a template and its values, see ``_owe``)."""
        self._restricting: dict[str, dict[str, None]] = {}
        """Victim -> the stuns and lost actions or turns applied to them (effect ids), pruned
        once they end."""
        self._damaging: dict[str, dict[str, None]] = {}
        """Victim -> the damaging debuffs applied to them (effect ids), pruned once they end."""
        self._flagged: set[int] = set()
        """Ticks already reported as of an effect no longer active (their damage is not)."""
        self._drs: dict[tuple[str, str], tuple[object, object, int | None]] = {}
        """(actor, damage type) -> (the sheet snapshot and options it was read from, the DR)."""
        self._fired: tuple[int | None, str] | None = None
        """The last (declaration, weapon) reported as fired while not ready."""
        self._reloads: set[int | None] = set()
        """Recent posts reported as firing a weapon that needs a reload (``_refused``): their
        shots are not reported again."""

    def checks(self) -> Mapping[type, Check]:
        return {
            DiceRolled: cast(Check, self.granted if self._split else self.rolled),
            AttackResolved: cast(Check, self.resolved),
            DamageApplied: cast(Check, self.damaged),
            EffectApplied: cast(Check, self.applied),
            StatusChanged: cast(Check, self.status),
            EffectTicked: cast(Check, self.ticked),
            EffectCountedDown: cast(Check, self.counted_down),
            EffectExpired: cast(Check, self.expired),
            DeclarationPosted: cast(Check, self.posted),
            TurnEnded: cast(Check, self.turn_ended),
        }

    # ------------------------------------------------------------------ scene facts

    def options(self, state: SceneState) -> Roe7Options:
        """The scene's options (read again only when the scene's options object changes)."""
        scene = state.scene
        raw = None if scene is None else scene.options
        if raw is not self._raw:
            self._raw = raw
            try:
                self._opts = options_of(state)
            except InputError:
                self._opts = DEFAULTS  # a log with bad options still folds and audits
            self._tokens.clear()
            self._crits.clear()
        return self._opts

    def weapon(self, text: str | None, opts: Roe7Options) -> WeaponToken | None:
        """The token a logged weapon text reads as (``None``: none, or not a weapon)."""
        if text is None:
            return None
        found = self._tokens.get(text, False)
        if found is False:
            found = UNARMED_TOKEN if text == UNARMED else token(text, opts.tokens)
            self._tokens[text] = found
        return found  # type: ignore[return-value]

    # ------------------------------------------------------------------ dice_rolled

    def rolled(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """Modifiers beyond the cap (Modifiers); a modifier an effect no longer grants."""
        mods = event.modifiers
        if not mods:
            return
        if len(mods) == 1:  # the most common case with modifiers
            only = mods[0]
            total = only.value
            granted = only.source in EFFECT_MODIFIERS
        else:
            total = 0
            granted = False
            sources = EFFECT_MODIFIERS
            for m in mods:
                total += m.value
                if m.source in sources:
                    granted = True
        if granted:
            self._granted(before, event, view)
        if total <= 0:
            return
        scene = before.scene
        cap = (self._opts if scene is not None and scene.options is self._raw else self.options(before)).modifier_cap
        if total > cap:
            self._over_cap(event, total, cap, view)

    def granted(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """``rolled`` without the modifier cap (``split_checks``): a modifier an effect no
        longer grants."""
        mods = event.modifiers
        if not mods:
            return
        sources = EFFECT_MODIFIERS
        for m in mods:
            if m.source in sources:
                self._granted(before, event, view)
                return

    def capped(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """``rolled``'s modifier cap alone (``split_checks``): it reads only ``event`` and the
        scene's options."""
        mods = event.modifiers
        if not mods:
            return
        total = 0
        for m in mods:
            total += m.value
        if total <= 0:
            return
        scene = before.scene
        cap = (self._opts if scene is not None and scene.options is self._raw else self.options(before)).modifier_cap
        if total > cap:
            self._over_cap(event, total, cap, view)

    def _over_cap(self, event: DiceRolled, total: int, cap: int, view: AuditView) -> None:
        parts = ", ".join(f"{m.source} {m.value:+d}" for m in event.modifiers)
        view.report(
            "rules.modifier-cap", event,
            f"{event.roller}'s {event.purpose} roll carries {total:+d} in modifiers ({parts}): the cap is +{cap}",
            actor=event.roller,
        )

    def _granted(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        roller = event.roller
        for m in event.modifiers:
            name = EFFECT_MODIFIERS.get(m.source)
            if name is None:
                continue
            if any(e.target == roller and e.name == name for e in before.effects.values()):
                continue
            view.report(
                "rules.expired-effect", event,
                f"{roller}'s {event.purpose} roll counts {m.source} {m.value:+d}, but no {name.replace('_', ' ')} "
                f"effect is on {roller} any more",
                actor=roller,
            )

    # ------------------------------------------------------------------ attack_resolved

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        """The outcome from the rolls it cites; a weapon fired while not ready."""
        weapon = event.weapon
        if weapon is not None:
            who = before.combatants.get(event.attacker)
            if who is not None:
                state = who.weapons.get(weapon)
                if state is not None and (state.needs_reload or state.cooldown > 0):
                    self._ready(event, weapon, state, view)
        if view.cleared(event.seq):
            return  # its outcome was checked beside the fold (``attack_clear``): as the rules give it
        rolls = event.rolls
        count = len(rolls)
        if count == 2:
            lookup = view.event
            first = lookup(rolls[0])
            second = lookup(rolls[1])
            if type(first) is not DiceRolled or type(second) is not DiceRolled or not first.dice or not second.dice:
                return
            purpose, other = first.purpose, second.purpose
            if purpose == "attack":
                if other == "dodge":
                    self._attack(before, event, first, second, view)
            elif purpose == "explosive":
                if other == "dodge":
                    self._blast(before, event, first, second, view)
            elif purpose == "stealth":
                if other == "perception":
                    self._contest(event, first, second, view)
            elif purpose == "skill" and other == "skill":
                self._skill(before, event, first, second, view)
        elif count == 1:
            first = view.event(rolls[0])
            if type(first) is not DiceRolled or not first.dice:
                return
            purpose = first.purpose
            if purpose == "attack":
                escape = self._escape_roll(event, first, view)
                if escape is not None:
                    self._attack(before, event, first, escape, view)
            elif purpose == "dodge":
                self._stray(event, first, view)
            elif purpose == "skill":
                self._skill(before, event, first, None, view)

    def _ready(self, event: AttackResolved, weapon: str, state: WeaponState, view: AuditView) -> None:
        """A weapon fired while it needs a reload or is cooling down (reported once a post)."""
        key = (event.declaration, weapon)
        if self._fired == key or event.declaration in self._reloads:
            return
        self._fired = key
        if state.needs_reload:
            why = f"it needs a reload after {state.fired} round{'s' if state.fired != 1 else ''} fired"
        else:
            why = f"it is still cooling down ({state.cooldown} more turn{'s' if state.cooldown > 1 else ''} of its owner)"
        post = f" (post at seq {event.declaration})" if event.declaration is not None else ""
        view.report(
            "rules.reload", event, f"{event.attacker} fired {weapon}{post} although {why}", actor=event.attacker
        )

    def attack_clear(self, before: SceneState, event: AttackResolved, view: AuditView) -> bool:
        """The outcome part of ``resolved`` has nothing to report: the attack against the
        dodge it cites, recorded as the rules give it, with no natural 1 on either die (the
        common case). A ``Clear`` test (``split_checks``): it reads the two rolls and the
        scene's options only."""
        rolls = event.rolls
        if len(rolls) != 2:
            return False
        first = view.event(rolls[0])
        second = view.event(rolls[1])
        if type(first) is not DiceRolled or type(second) is not DiceRolled or not first.dice or not second.dice:
            return False
        if first.purpose != "attack" or second.purpose != "dodge":
            return False
        return self._attack_outcome(before, event, first, second) is None

    def _attack(
        self, before: SceneState, event: AttackResolved, att: DiceRolled, dfn: DiceRolled, view: AuditView
    ) -> None:
        """A weapon attack against the dodge it cites, or an interrupt's strike against the
        flee or call roll it had to beat (``attack.outcome``)."""
        found = self._attack_outcome(before, event, att, dfn)
        if found is not None:
            self._attack_judged(event, att, dfn, *found, view)

    def _attack_outcome(
        self, before: SceneState, event: AttackResolved, att: DiceRolled, dfn: DiceRolled
    ) -> tuple[Outcome, bool, Roe7Options] | None:
        """``None`` when the log records the outcome the rules give and neither die shows a
        natural 1 (the common case); else the rules' outcome, whether the attack die may
        crit, and the options, for ``_attack_judged``."""
        scene = before.scene
        opts = self._opts if scene is not None and scene.options is self._raw else self.options(before)
        die = att.dice[0]
        natural, sides = die.face, die.sides
        allowed = self._crits.get((event.weapon, sides))
        if allowed is None:
            allowed = self._crit_allowed(event.weapon, sides, opts)
        score, against = att.total, dfn.total
        natural_def = dfn.dice[0].face
        result = outcome(natural, score, sides, allowed, (against, natural_def), opts)
        if (
            event.hit == result.hit and event.critical == result.critical and event.score == score
            and event.against == against and not result.fumble and natural_def != 1
        ):
            return None  # as the rules give it
        return result, allowed, opts

    def _attack_judged(
        self,
        event: AttackResolved,
        att: DiceRolled,
        dfn: DiceRolled,
        result: Outcome,
        allowed: bool,
        opts: Roe7Options,
        view: AuditView,
    ) -> None:
        """``_attack`` past the common case: ``result`` differs from the log, or a natural 1
        was rolled."""
        critical = result.critical
        natural = att.dice[0].face
        natural_def = dfn.dice[0].face
        attacker, target = event.attacker, event.target
        if result.fumble and len(event.rolls) == 2:  # an interrupt's natural 1 costs nothing more
            self._owe(attacker, event, "{} rolled a natural 1 on the attack (seq {})", attacker, att.seq)
        if natural_def == 1:
            self._owe(target, event, "{} rolled a natural 1 against it (seq {})", target, dfn.seq)
        decided = result.crit or natural == 1 or natural_def in (1, 100)
        if event.critical != critical or (event.hit != result.hit and decided):
            why = _natural_reason(result, opts, attacker, target, att, dfn, allowed)
            view.report(
                "rules.critical", event,
                f"{why}: the attack is {_verdict(result.hit, critical)}, but the log records "
                f"{_verdict(event.hit, event.critical)}",
                actor=attacker,
            )
            return
        self._judge(event, result.hit, att.total, dfn.total, view, tie="the defender")

    def _crit_allowed(self, weapon: str | None, sides: int, opts: Roe7Options) -> bool:
        """Whether a natural ``sides`` on the attack die crits (``attack.can_crit`` at the band
        that die is rolled at); without a known weapon, only on a d100 (close range)."""
        key = (weapon, sides)
        allowed = self._crits.get(key)
        if allowed is None:
            read = self.weapon(weapon, opts)
            where = None if read is None else band_of_die(read, sides)
            allowed = can_crit(read, where) if read is not None and where is not None else sides == 100
            self._crits[key] = allowed
        return allowed

    def _blast(
        self, before: SceneState, event: AttackResolved, blast: DiceRolled, dodge: DiceRolled, view: AuditView
    ) -> None:
        """Explosives: the thrower's 1d100 against a dodge (``harm.blast_dodged``)."""
        opts = self.options(before)
        face = dodge.dice[0].face
        hit = not blast_dodged(face, dodge.total, blast.total, opts.explosive_tie_to_dodger)
        target = event.target
        if face == 1:
            self._owe(target, event, "{} rolled a natural 1 dodging the blast (seq {})", target, dodge.seq)
        if event.hit != hit and face in (1, 100):
            why = "a critical dodge" if face == 100 else "a critical failure: caught by the blast"
            view.report(
                "rules.critical", event,
                f"{target} rolled a natural {face} dodging {event.attacker}'s blast (seq {dodge.seq}), {why}, "
                f"but the log records {'a hit' if event.hit else 'a dodge'}",
                actor=event.attacker,
            )
            return
        tie = "the one dodging (explosive_tie_to_dodger)" if opts.explosive_tie_to_dodger else None
        self._judge(event, hit, blast.total, dodge.total, view, tie=tie)

    def _contest(self, event: AttackResolved, first: DiceRolled, second: DiceRolled, view: AuditView) -> None:
        """A sneak attack's stealth against the target's perception (ties to the target)."""
        self._judge(event, first.total > second.total, first.total, second.total, view, tie="the target")

    def _skill(
        self, before: SceneState, event: AttackResolved, mine: DiceRolled, theirs: DiceRolled | None, view: AuditView
    ) -> None:
        """Skill Rolls (``tactics.skill_won``): against the target number, or an opposing roll."""
        opts = self.options(before)
        natural = mine.dice[0].face
        if theirs is None:
            against, other = opts.unopposed_target, None
        else:
            against, other = theirs.total, theirs.dice[0].face
        won = skill_won(natural, mine.total, against, other)
        if natural == 1:
            self._owe(
                event.attacker, event, "{} rolled a natural 1 on the {} roll (seq {})",
                event.attacker, mine.label or "skill", mine.seq,
            )
        if theirs is not None and other == 1:
            self._owe(event.target, event, "{} rolled a natural 1 opposing it (seq {})", event.target, theirs.seq)
        if event.hit != won and (natural in (1, 100) or other in (1, 100)):
            who, face = (event.attacker, natural) if natural in (1, 100) else (event.target, other)
            view.report(
                "rules.critical", event,
                f"{who}'s natural {face} decides the {mine.label or 'skill'} roll: {event.attacker} "
                f"{'succeeds' if won else 'fails'}, but the log records {'a success' if event.hit else 'a failure'}",
                actor=event.attacker,
            )
            return
        self._judge(event, won, mine.total, against, view, tie=None if theirs is None else "the one opposing")

    def _stray(self, event: AttackResolved, dodge: DiceRolled, view: AuditView) -> None:
        """Firing into Melee: a missed shot at an ally in the way, or automatic fire at someone
        beside the target, against their dodge (``attack.stray_hit``)."""
        face = dodge.dice[0].face
        hit = stray_hit(event.score, dodge.total, face)
        if event.hit and face == 100:
            view.report(
                "rules.critical", event,
                f"{event.target} dodged {event.attacker}'s fire with a natural 100 (seq {dodge.seq}), a critical "
                "dodge, but the log records a hit",
                actor=event.attacker,
            )
            return
        self._judge(event, hit, event.score, dodge.total, view, tie="the one dodging")

    def _escape_roll(self, event: AttackResolved, strike: DiceRolled, view: AuditView) -> DiceRolled | None:
        """The flee or com-call roll an interrupt's strike had to beat: the target's last one
        before the strike, this turn."""
        first = view.turn_start.seq
        seq = strike.seq - 1
        while seq > first and strike.seq - seq < 256:
            found = view.event(seq)
            if type(found) is DiceRolled and found.roller == event.target and found.purpose in INTERRUPTIBLE and found.dice:
                return found
            seq -= 1
        return None

    def _judge(self, event: AttackResolved, hit: bool, score: int, against: int, view: AuditView, *, tie: str | None) -> None:
        """The recorded result against what the cited rolls give; a tie goes to ``tie``
        (``None``: reaching the number is enough, or a tie goes to the attacker by option)."""
        attacker, target = event.attacker, event.target
        if event.score != score or event.against != against:
            view.report(
                "rules.outcome", event,
                f"{attacker}'s result against {target} records {event.score} against {event.against}, but the rolls "
                f"it cites give {score} against {against}",
                actor=attacker,
            )
            return
        if event.hit == hit:
            return
        if event.hit and tie is not None and score == against:
            view.report(
                "rules.tie-to-attacker", event,
                f"{attacker} hit with {score} against {target}'s {against}: a tie goes to {tie}", actor=attacker,
            )
            return
        view.report(
            "rules.outcome", event,
            f"{attacker}'s {score} against {target}'s {against} is {'a hit' if hit else 'a miss'}, but the log "
            f"records {'a hit' if event.hit else 'a miss'}",
            actor=attacker,
        )

    # ------------------------------------------------------------------ lost actions

    def _owe(self, actor: str, event: AttackResolved, why: str, *args: object) -> None:
        """A natural 1 costs ``actor`` their next action: a lost action must follow before the
        turn ends (checked by ``turn_ended``). ``why`` is a ``str.format`` template of
        ``args``, written out only if a finding needs it."""
        owed = self._owed
        if actor not in owed:
            owed[actor] = (event, why, args)

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if event.refreshes is not None:
            self._end(event.refreshes, event.seq, f"replaced by {event.effect}")
        name = event.name
        if name in RESTRICTING:
            self._restricting.setdefault(event.target, {})[event.effect] = None
            if name in LOST:
                self._lost.add(event.target)
        elif name in DAMAGING:
            self._damaging.setdefault(event.target, {})[event.effect] = None

    def status(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """A lost action written as a status (hand-kept logs) settles a natural 1 too."""
        if event.on and event.status in LOST_STATUSES:
            self._lost.add(event.actor)

    def _settle(self, before: SceneState, view: AuditView) -> None:
        for actor, (event, why_format, args) in self._owed.items():
            if actor in self._lost:
                continue
            who = before.combatants.get(actor)
            if who is None or OUT.intersection(who.statuses):
                continue  # no debuff lands on someone out of the fight
            why = why_format.format(*args)
            view.report(
                "rules.critical", event,
                f"{why}, which costs {actor} their next action, but no lost action followed", actor=actor,
            )
        self._owed.clear()
        self._lost.clear()

    # ------------------------------------------------------------------ damage_applied

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

    # ------------------------------------------------------------------ effects

    def ticked(self, before: SceneState, event: EffectTicked, after: SceneState, view: AuditView) -> None:
        """A tick: of an active damaging debuff, once, at the start of its victim's turn."""
        victim = event.target
        effect = before.effects.get(event.effect)
        if effect is None:
            self._flag(event.seq)
            view.report(
                "rules.expired-effect", event, f"{event.effect} ticked on {victim} {self._gone(event.effect)}",
                actor=victim,
            )
            return
        name = effect.name
        if name not in DAMAGING:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked on {victim}, but only damaging debuffs tick "
                "(bleed, chemical burn)",
                actor=victim,
            )
            return
        if effect.target != victim:
            view.report(
                "rules.tick-wrong", event, f"the tick names {victim}, but {event.effect} is on {effect.target}",
                actor=victim,
            )
            return
        turn = before.turn
        if turn.current != victim or self._closed == turn.started:
            when = (
                f"after {victim}'s turn had begun (ticks come before the post)" if turn.current == victim
                else f"in {turn.current}'s turn" if turn.current is not None else "between turns"
            )
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked on {victim} {when}: it ticks at the start of "
                f"{victim}'s turn",
                actor=victim,
            )
            return
        if effect.applied > turn.started:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} was applied at seq {effect.applied}, after {victim}'s turn began: it first ticks "
                f"at the start of {victim}'s next turn",
                actor=victim,
            )
            return
        start = view.turn_start.effects.get(event.effect)
        if start is not None and effect.ticks > start.ticks:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked twice at the start of {victim}'s turn "
                f"(round {turn.round}): once a turn",
                actor=victim,
            )
            return
        who = before.combatants.get(victim)
        if who is not None:
            gone = OUT.intersection(who.statuses)
            if gone:
                view.report(
                    "rules.tick-extra", event,
                    f"{event.effect} ticked on {victim}, who is out of the fight ({', '.join(sorted(gone))}): "
                    "ticks stop",
                    actor=victim,
                )
                return
        if event.remaining is not None and event.remaining != effect.remaining:
            view.report(
                "rules.tick-wrong", event,
                f"the tick of {event.effect} on {victim} records {event.remaining} turn{'s' if event.remaining != 1 else ''} left; it has "
                f"{effect.remaining}",
                actor=victim,
            )

    def counted_down(self, before: SceneState, event: EffectCountedDown, after: SceneState, view: AuditView) -> None:
        if event.effect in before.effects:
            return
        view.report(
            "rules.expired-effect", event,
            f"{event.effect} on {event.target} was counted down {self._gone(event.effect)}", actor=event.target,
        )

    def expired(self, before: SceneState, event: EffectExpired, after: SceneState, view: AuditView) -> None:
        ended = self._ended  # ``_end``, written out
        if len(ended) >= _MEMORY:
            for old in list(ended)[: _MEMORY // 2]:
                del ended[old]
        ended[event.effect] = (event.seq, event.reason)

    def _end(self, effect: str, seq: int, why: str) -> None:
        ended = self._ended
        if len(ended) >= _MEMORY:
            for old in list(ended)[: _MEMORY // 2]:
                del ended[old]
        ended[effect] = (seq, why)

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

    def _gone(self, effect: str) -> str:
        ended = self._ended.get(effect)
        if ended is None:
            return "although it is not active (never applied, or ended long before)"
        return f"after it had ended at seq {ended[0]} ({ended[1]})"

    def _flag(self, seq: int) -> None:
        if len(self._flagged) > 64:
            self._flagged.clear()
        self._flagged.add(seq)

    def _close(self, before: SceneState, event: Event, view: AuditView) -> None:
        """The start-of-turn phase is over (the turn's first post, or its end): every damaging
        debuff on the actor at the turn's start must have ticked by now. (The callers write
        out the common case: no damaging debuff applied to the actor.)"""
        turn = before.turn
        self._closed = turn.started
        actor = turn.current
        if actor is None:
            return
        damaging = self._damaging.get(actor)
        if not damaging:
            return
        start = view.turn_start
        if start.turn.started != turn.started:
            return
        for eid in list(damaging):
            now = before.effects.get(eid)
            if now is None or now.name not in DAMAGING or now.target != actor:
                del damaging[eid]  # ended
                continue
            effect = start.effects.get(eid)
            if effect is None or now.ticks > effect.ticks:
                continue
            who = before.combatants.get(actor)
            if who is None or OUT.intersection(who.statuses):
                return  # ticks stop once the victim is out
            view.report(
                "rules.tick-missing", event,
                f"{eid} ({effect.name.replace('_', ' ')}) on {actor} did not tick at the start of {actor}'s turn "
                f"(round {turn.round}, seq {turn.started}): its damage comes before the post",
                actor=actor,
            )

    # ------------------------------------------------------------------ declarations

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        """The turn's allowance, interrupts, the flee limit, a poster out of the fight; then,
        for a post the table did not make, what the table refuses in it (``_refused``)."""
        if by_table(before, event):
            self._posted(before, event, after, view)
            return
        noting = Noting(view)
        if self._posted(before, event, after, noting):
            self._refused(before, event, view, noting.codes)

    def _refused(self, before: SceneState, event: DeclarationPosted, view: AuditView, said: set[str]) -> None:
        """What the table refuses in a post it did not make (``table.check_declaration``)
        beyond what the checks above said of it: an unknown action type, a weapon not
        carried, a target not in the fight or out of range, a reload needed... (the flee
        limit is ``_flee``'s; a reload reported here is not reported again at the shot)."""
        found = check_declaration(before, event)
        if found is None or found.code in said:
            return
        if found.code == "rules.flee-limit" or (found.code == "rules.allowance" and "rules.allowance" in said):
            return
        if found.code == "rules.reload":
            if len(self._reloads) > 64:
                self._reloads.clear()
            self._reloads.add(event.seq)  # reported here, not again at the shot (``_ready``)
        view.report(found.code, event, f"the table refuses {event.actor}'s post: {found.message}", actor=event.actor)

    def _posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> bool:
        """``posted``'s own checks; whether the post is one the table would go on to play
        (by someone in the fight and able to act, with actions)."""
        turn = before.turn
        if self._closed != turn.started:
            current = turn.current
            if current is not None and self._damaging.get(current):
                self._close(before, event, view)
            else:
                self._closed = turn.started
        actor = event.actor
        actions = event.actions
        if event.ooc:
            if actions:
                view.report(
                    "rules.refused", event,
                    f"{actor}'s out-of-character post declares {_listed(actions)}: an OOC post carries no actions",
                    actor=actor,
                )
            return False
        if event.responds_to is not None:
            return self._interrupting(before, event, view)
        who = before.combatants.get(actor)
        if actor != turn.current:
            # the shared posting-order checks report it
            return who is not None and OUT.isdisjoint(who.statuses) and bool(actions)
        if who is None:
            return False
        statuses = who.statuses
        if statuses and not OUT.isdisjoint(statuses):
            if not _was_out(view.turn_start, actor, turn.started):  # else its opening was reported
                gone = " and ".join(s for s in statuses if s in OUT)
                view.report("order.cannot-act", event, f"{actor} posted while {gone}, out of the fight", actor=actor)
            return False
        if not actions:
            return False
        fighter: Fighter | None = None  # built only when a rule below needs more than the counts
        checked: Sequence[Action] = actions
        for action in actions:
            if action.type == "flee":
                fighter = fighter or Fighter(before, actor)
                self._flee(fighter, event, view)
            if action.cost == "free" and checked is actions:
                fighter = fighter or Fighter(before, actor)
                checked = self._free(fighter, event, view)
        # What the turn has used, this post included: the fold's count (``rules.action_cost``
        # of every action, as the table counts them), unless someone else posted in the turn
        # or an action claims to be free without being so.
        spent: Mapping[str, int]
        own = checked is actions
        if own:
            for post in before.pending:  # only ``actor`` has posted actions in the open turn
                if post.actor != actor:
                    own = False
                    break
        if own:
            spent = turn.spent
            found = arrival_breach(fighter or Fighter(before, actor), actions) if "arriving" in statuses else None
            if found is None:
                restricting = self._restricting_on(before, actor) if self._restricting.get(actor) else _NONE
                if restricting:
                    found = over_allowance(fighter or Fighter(before, actor), after.turn.spent, restricting)
                else:  # ``over_allowance`` with no restricting effect: no ``Fighter`` needed
                    found = turn_breach(actor, after.turn.spent)
        else:
            spent = _spent_by(before, actor)
            found = breach(fighter or Fighter(before, actor), spent, checked)
        if found is not None:
            earlier = ", ".join(f"{n} {cost}" for cost, n in sorted(spent.items()) if n)
            view.report(
                found.code, event,
                f"{found.message}: the post declares {_listed(actions)}"
                + (f" after {earlier} spent earlier in the turn" if earlier else ""),
                actor=actor,
            )
        return True

    def _restricting_on(self, state: SceneState, actor: str) -> list[ActiveEffect]:
        """The ``RESTRICTING`` effects on ``actor`` (stun, a lost action or turn), by id, from
        those applied in the scene (pruned once they end)."""
        memo = self._restricting.get(actor)
        if not memo:
            return []
        found: list[ActiveEffect] = []
        effects = state.effects
        for eid in list(memo):
            effect = effects.get(eid)
            if effect is None or effect.name not in RESTRICTING or effect.target != actor:
                del memo[eid]  # ended
            else:
                found.append(effect)
        if len(found) > 1:
            found.sort(key=_effect_id)
        return found

    def _flee(self, who: Fighter, event: DeclarationPosted, view: AuditView) -> None:
        if flees_left(who) > 0:
            return
        limit = who.options.flee_attempts
        view.report(
            "rules.flee-limit", event,
            f"{who.actor} declared a flee with none left: {limit} attempt{'s' if limit != 1 else ''} per combat, "
            f"{who.who.spent.get('flee_attempts', 0)} used",
            actor=who.actor,
        )

    def _free(self, who: Fighter, event: DeclarationPosted, view: AuditView) -> list[Action]:
        """Actions marked free (``cost: free``) that the rules make free: a first-turn draw,
        standing from a knee (``table.free_costs``); the others cost what their kind costs."""
        out: list[Action] = []
        for action in event.actions:
            if action.cost == "free":
                plain = replace(action, cost=None)
                if free_costs(who, [plain])[0].cost != "free":
                    view.report(
                        "rules.allowance", event,
                        f"{who.actor}'s {action.type} is marked free, but it costs the turn's "
                        f"{RULES.action_cost(plain) or 'nothing'} here",
                        actor=who.actor,
                    )
                    action = plain
            out.append(action)
        return out

    def _interrupting(self, before: SceneState, event: DeclarationPosted, view: AuditView) -> bool:
        """An interrupt (answering a flee or com call): by someone in the fight, not arriving,
        whose next action is not lost already (``escape.interrupt_breach``). Whether the
        post is one the table would go on to play."""
        actor = event.actor
        if not any(a.type == "interrupt" for a in event.actions):
            return actor in before.combatants and bool(event.actions)
        who = before.combatants.get(actor)
        if who is None:
            view.report("order.not-in-fight", event, f"{actor} interrupted but has not joined the fight", actor=actor)
            return False
        gone = OUT.intersection(who.statuses)
        if gone:
            view.report(
                "order.cannot-act", event,
                f"{actor} interrupted while {' and '.join(sorted(gone))}, out of the fight", actor=actor,
            )
            return False
        call = view.event(event.responds_to) if event.responds_to is not None else None
        caller = call.actor if type(call) is DeclarationPosted else None
        found = interrupt_breach(Fighter(before, actor), caller)
        if found is not None:
            view.report(found.code, event, found.message, actor=actor)
        return True

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        turn = before.turn
        if self._closed != turn.started:
            current = turn.current
            if current is not None and self._damaging.get(current):
                self._close(before, event, view)
            else:
                self._closed = turn.started
        if self._owed:
            self._settle(before, view)
        elif self._lost:
            self._lost.clear()


def _effect_id(effect: ActiveEffect) -> str:
    return effect.effect


def _was_out(start: SceneState, actor: str, started: int) -> bool:
    """Whether ``actor`` was already out of the fight when their open turn was opened (the
    shared posting-order check reports that turn's opening)."""
    who = start.combatants.get(actor)
    return start.turn.started == started and who is not None and not OUT.isdisjoint(who.statuses)


def _spent_by(state: SceneState, actor: str) -> Mapping[str, int]:
    """What ``actor`` has spent in their open turn: the fold's ``turn.spent``, unless someone
    else posted actions in it (out of turn), which must not count against ``actor``."""
    pending = state.pending
    if not pending or all(p.actor == actor for p in pending):
        return state.turn.spent
    spent: dict[str, int] = {}
    for post in pending:
        if post.actor != actor:
            continue
        for action in post.actions:
            cost = RULES.action_cost(action)
            if cost is not None:
                spent[cost] = spent.get(cost, 0) + 1
    return spent


def _listed(actions: Sequence[Action]) -> str:
    kinds = [a.type for a in actions]
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]


def _verdict(hit: bool, critical: str | None) -> str:
    if critical == "success":
        return "a critical hit" if hit else "a miss marked a critical success"
    if critical == "failure":
        return f"{'a hit' if hit else 'a miss'} and a critical failure"
    return "a hit" if hit else "a miss"


def _natural_reason(
    result: Outcome, opts: Roe7Options, attacker: str, target: str, att: DiceRolled, dfn: DiceRolled, allowed: bool
) -> str:
    """Which natural face decides an attack (Critical Success or Failure), in words."""
    natural, sides = att.dice[0].face, att.dice[0].sides
    natural_def = dfn.dice[0].face
    if natural == 1 and natural_def == 1 and opts.both_natural_ones == "hit":
        return (f"{attacker} and {target} both rolled a natural 1 (seq {att.seq}, {dfn.seq}): the defender's is hit "
                "(both_natural_ones), and the attacker's still a critical failure")
    if natural == 1:
        return f"{attacker} rolled a natural 1 (seq {att.seq}): a critical failure"
    if natural_def == 100:
        return f"{target} rolled a natural 100 (seq {dfn.seq}): a critical dodge"
    if result.crit:
        return f"{attacker} rolled a natural {sides} on a d{sides} (seq {att.seq}): a critical, which only a natural 100 stops"
    if natural_def == 1:
        return f"{target} rolled a natural 1 (seq {dfn.seq}): the defender is hit"
    if natural == sides and not allowed:
        return f"{attacker}'s natural {sides} on a d{sides} (seq {att.seq}) is no critical at that range without a sniper weapon"
    return f"neither {attacker}'s {natural} (seq {att.seq}) nor {target}'s {natural_def} (seq {dfn.seq}) is a natural 1 or a critical"


def _dr(state: SceneState, actor: str, damage_type: DamageType) -> int | None:
    """``actor``'s DR against ``damage_type`` from their sheet, or ``None`` when the sheet
    cannot be read (a hand-kept log's sheet in another format)."""
    try:
        return Fighter(state, actor).dr(damage_type)
    except (FightlogError, ValueError):
        return None
