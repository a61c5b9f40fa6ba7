"""The RoE audit's checks of ``attack_resolved`` (``audit.Roe7Audit``): hit or miss and the
critical from the cited rolls (``attack_rolls.outcome``, ``attack_rolls.stray_hit``,
``harm.blast_dodged``, ``tactics.skill_won``; Basic Contested Roll; Critical Success or
Failure); a tie given to the attacker; the lost action a natural 1 costs (owed here,
checked when the turn ends: ``EffectChecks._settle``); a weapon fired while it needs a
reload or is cooling down."""

from __future__ import annotations

from fightlog.events.model import AttackResolved, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState, WeaponState
from fightlog.rules.roe7.attack_rolls import Outcome, band_of_die, can_crit, outcome, stray_hit
from fightlog.rules.roe7.audit_damage import DamageChecks
from fightlog.rules.roe7.audit_turn_rolls import attack_in, contest_before, post_of
from fightlog.rules.roe7.escape import INTERRUPTIBLE
from fightlog.rules.roe7.harm import blast_dodged
from fightlog.rules.roe7.options import Roe7Options
from fightlog.rules.roe7.tactics import skill_won


class AttackChecks(DamageChecks):
    """The checks of ``attack_resolved`` (``resolved``; beside the fold, ``attack_clear``)."""

    def __init__(self) -> None:
        super().__init__()
        self._fired: tuple[int | None, str] | None = None
        """The last (declaration, weapon) reported as fired while not ready."""
        self._reloads: set[int | None] = set()
        """Recent posts reported as firing a weapon that needs a reload (``_refused``): their
        shots are not reported again."""

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        """The outcome from the rolls it cites; a weapon fired while not ready; a hit's damage
        due (``damage_due``)."""
        self.damage_due(event)
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

    def damage_rolled(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        """Basic Contested Roll: an imported fight's damage roll after the attack roll it
        follows missed its target's dodge (a tie to the defender; the natural faces as
        ``attack_rolls.outcome`` reads them). Judged only where the turn holds, since the
        roller's post, one attack roll of theirs and one dodge by another, and no outcome."""
        found = contest_before(before, event, view)
        if found is None:
            return
        att, dodge = found
        opts = self.options(before)
        post = post_of(before, att, view)
        action = None if post is None else attack_in(post)
        natural, sides = att.dice[0].face, att.dice[0].sides
        allowed = self._crit_allowed(action.weapon if action is not None else None, sides, opts, before, att.roller)
        result = outcome(natural, att.total, sides, allowed, (dodge.total, dodge.dice[0].face), opts)
        if not result.hit:
            tie = " (a tie goes to the defender)" if att.total == dodge.total else ""
            view.report("rules.damage", event, f"{event.roller} rolled damage after their attack missed: {att.total} "
                        f"(seq {att.seq}) against {dodge.roller}'s dodge of {dodge.total} (seq {dodge.seq}){tie}",
                        actor=event.roller)

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
        allowed = self._crits.get((event.weapon, sides, event.attacker))
        if allowed is None:
            allowed = self._crit_allowed(event.weapon, sides, opts, before, event.attacker)
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

    def _crit_allowed(self, weapon: str | None, sides: int, opts: Roe7Options, state: SceneState,
                      attacker: str | None) -> bool:
        """Whether a natural ``sides`` on the attack die crits (``attack.can_crit`` at the band
        that die is rolled at); without a known weapon, only on a d100 (close range)."""
        key = (weapon, sides, attacker)
        allowed = self._crits.get(key)
        if allowed is None:
            read = self.weapon(weapon, opts, state, attacker)
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
        if event.score != score or event.against != against or event.hit != hit:
            if len(self._misjudged) >= 4096:
                self._misjudged.clear()
            self._misjudged.add(event.seq)
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
