"""The audit's ``en51`` checks: what each logged event should have been, recomputed from the
black and white faces with the engine's own pure functions (``bw``, ``harm``).

- ``attack_resolved``: the Success is a face (or 0 for none), the hit is a Success higher
  than what it had to beat, and that is what the rules give (``audit_against``:
  ``rules.outcome``); no attack from a magazine emptied earlier in the same automatic fire
  (``rules.ammo``).
- ``damage_applied`` of a hit: the Damage read from the die that missed (both hit: the black)
  plus the weapon's (``rules.damage``); the Protection of exactly the layers the white die
  struck, and rolling with it, off it (``rules.armour``); the circle marked, and none when
  the armour took it all or no circle is free (``rules.wound``). No damage from a miss, and
  every hit of a weapon attack with its damage applied by the turn's end (``rules.damage``).
- ``resource_spent``: no shot from a type C weapon fired to capacity, or from an empty
  magazine (``rules.ammo``).
- ``declaration_posted`` not made by the table: what the table would refuse
  (``fightlog.kit.declared``).

Which die succeeded is recomputed from the faces and the attacker's skill: the Attack (or the
Defense, when the attack's note says the Defense was used) of the weapon on the sheet
snapshot, plus the modifiers the attack's note records, under ``die_succeeds``; of a shot's
note, the base and the penalty beyond Range must be what the declaration gives
(``audit_against.shot_problem``). The recorded Success, hit and Damage die must be what those
give (``rules.outcome``, ``rules.damage``).
An attack without its ``skill N (...)`` note is checked from the Success alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import cast

from fightlog.events.model import (AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectApplied,
                                   ResourceSpent, StatusChanged, TurnEnded, WeaponReloaded)
from fightlog.kit.chained import merged
from fightlog.kit.damage_due import DamageDue
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.declared import by_table, refusal
from fightlog.kit.table import Post
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.audit_care import checks as care_checks
from fightlog.rules.en51.audit_condition import Condition
from fightlog.rules.en51.audit_moves import Moves
from fightlog.rules.en51.audit_counters import Counters
from fightlog.rules.en51.audit_rolls import RollUse
from fightlog.rules.en51 import harm
from fightlog.rules.en51.audit_against import (card_of, expected_against, noted_problem, shot_problem, weapon_of,
                                              weapon_used)
from fightlog.rules.en51.aiming import flag
from fightlog.rules.en51.bw import NOTATION, Faces, damage_die, faces_of, last_digit, success
from fightlog.rules.en51.card import TRACK, WOUND_POOLS, WeaponCard, wound_pool
from fightlog.rules.en51.options import DEFAULTS, En51Options, options_of
from fightlog.rules.en51.plan import combat
from fightlog.rules.en51.turns import LOST


def checks() -> Mapping[type, Check]:
    return En51Audit().checks()


def hit_by(face: int, score: int, against: int) -> bool:
    """Whether a die hit, from the Success: it succeeded (at most the Success) and beat
    ``against``."""
    return 0 < score and face <= score and face > against


def missed_die(faces: Faces, score: int, against: int) -> str:
    if hit_by(faces.black, score, against) and not hit_by(faces.white, score, against):
        return "white"
    return "black"


SKILL_NOTE = re.compile(r"^skill -?\d+ \((?P<base>Attack|Defense)[^,]*?-?\d+(?P<mods>(?:, [^,]* [+-]\d+)*)\)$")
"""The attack's ``skill N (Attack 13, cover -2, ...)`` note. A modifier's source holds no comma
(``aiming.Aim.note``), so each ``, source +n`` part is read in one way only: a hand-edited
note cannot make the match backtrack exponentially (``, .* [+-]N`` repeated did: a
note of 30 parts and no closing bracket would hold the audit for minutes)."""


def skill_of(event: AttackResolved, weapon: WeaponCard | None) -> int | None:
    """The skill the attack was rolled under: the sheet's Attack or Defense of ``weapon`` (as
    the note names it) plus the modifiers the note records; ``None`` without a note."""
    read = None if weapon is None else note_of(event)
    if weapon is None or read is None:
        return None
    base, mods = read
    return (weapon.defense if base == "Defense" else weapon.attack) + sum(mods.values())


def note_of(event: AttackResolved) -> tuple[str, dict[str, int]] | None:
    """The attack's ``skill N (...)`` note as its base (``Attack`` or ``Defense``) and its
    modifiers summed by source; ``None`` without one."""
    for note in event.notes:
        read = _NOTES[note] if note in _NOTES else _read_note(note)
        if read is not None:
            return read
    return None


_NOTES: dict[str, tuple[str, dict[str, int]] | None] = {}
"""Notes read by ``_read_note`` (a fight writes the same few notes again and again)."""


def _read_note(note: str) -> tuple[str, dict[str, int]] | None:
    """A ``skill N (...)`` note as the skill it starts from (``Attack`` or ``Defense``) and its
    modifiers summed by source; ``None`` for another note."""
    found = SKILL_NOTE.match(note)
    read: tuple[str, dict[str, int]] | None = None
    if found is not None:
        mods: dict[str, int] = {}
        for part in found["mods"].split(", ")[1:]:
            source, value = part.rsplit(" ", 1)
            mods[source] = mods.get(source, 0) + int(value)
        read = (found["base"], mods)
    if len(_NOTES) >= 4096:
        _NOTES.clear()
    _NOTES[note] = read
    return read


class En51Audit:
    """The checks of one audited scene; ``_dry`` the automatic fire whose magazine ran dry."""

    def __init__(self) -> None:
        self._dry: set[int] = set()
        self._raw: object = None
        self._options: En51Options = DEFAULTS
        self._weapons: dict[tuple[str, str | None], tuple[object, WeaponCard | None]] = {}
        self._last: tuple[AttackResolved, Faces, int | None] | None = None
        """The last attack checked, its faces and skill (its damage, next, reads them again)."""
        self._due = DamageDue("a hit deals the die's last digit and the weapon's Damage")
        """The hits of weapon attacks this turn with no damage applied yet."""
        self._missed: set[int] = set()
        """The misses of weapon attacks this turn (a damage citing one is wrong)."""
        self._empty: dict[tuple[str, str], int] = {}
        """(Attacker, weapon) -> the automatic fire whose ammo check emptied it, until a reload;
        ``_told``: the posts fired from it after, named."""
        self._told: set[int] = set()
        self._counters = Counters()
        """Counterattacks left unresolved (``audit_counters``), told of the posts refused."""
        self._gone: dict[str, tuple[int, int, str]] = {}
        """Who spent their action this round answering another's attack: the round, the answer's seq, how."""

    def _answered(self, before: SceneState, event: DeclarationPosted) -> None:
        """A counterattack takes the turn's action (Melee attack): noted, as the table's
        ``spent`` is, for a log that records no such status, or lifts it and acts anyway.
        (Rolling with a hit takes the next action unless a move it replaces was pending: judged
        from the ``rolling`` the log lifts, ``lifted``.)"""
        if event.responds_to is None or event.actor == before.turn.current:
            return
        if any(action.type == "counter" for action in event.actions):
            self._gone[event.actor] = (before.turn.round, event.seq, "went on a counterattack")

    def lifted(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """The turn's action taken away as the turn opens (``spent`` or ``rolling`` lifted by
        its start, as the table lifts them): the turn has no action left to post."""
        turn = before.turn
        if not event.on and event.status in LOST and event.actor == turn.current and event.cause == turn.started:
            how = "went on a counterattack" if event.status == "spent" else "was sacrificed rolling with a hit"
            self._gone[event.actor] = (turn.round, event.seq, how)

    def weapon(self, state: SceneState, actor: str, name: str | None) -> WeaponCard | None:
        """``actor``'s weapon ``name``, read from the sheet once (while the sheet is the same)."""
        who = state.combatants.get(actor)
        if who is None:
            return None
        key = (actor, name)
        known = self._weapons.get(key)
        if known is not None and known[0] is who.sheet:
            return known[1]
        weapon = weapon_of(state, actor, name)
        self._weapons[key] = (who.sheet, weapon)
        return weapon

    def options(self, state: SceneState) -> En51Options:
        """The scene's options, read again only when the scene's options change."""
        raw = None if state.scene is None else state.scene.options
        if raw is not self._raw:
            self._raw = raw
            self._options = options_of(state)
        return self._options

    def checks(self) -> Mapping[type, Check]:
        own: dict[type, Check] = {
            AttackResolved: cast(Check, self.resolved),
            DamageApplied: cast(Check, self.damaged),
            ResourceSpent: cast(Check, self.spent),
            DeclarationPosted: cast(Check, self.posted),
            TurnEnded: cast(Check, self.turn_over),
            StatusChanged: cast(Check, self.lifted),
            WeaponReloaded: cast(Check, self.reloaded),
        }
        # each fighter's condition; every hit's damage; each attack roll deciding one attack; each move
        return merged(own, Condition().checks(), self._due.checks(), RollUse().checks(), care_checks(),
                      self._counters.checks(), Moves().checks())

    @staticmethod
    def _roll(event: AttackResolved, view: AuditView) -> DiceRolled | None:
        if not event.rolls:
            return None
        rolled = view.event(event.rolls[0])
        if isinstance(rolled, DiceRolled) and rolled.notation == NOTATION and rolled.purpose == "attack":
            return rolled
        return None

    def resolved(self, before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        rolled = view.event(event.rolls[0]) if event.rolls else None
        if not isinstance(rolled, DiceRolled) or rolled.notation != NOTATION or rolled.purpose != "attack":
            if event.weapon is not None:  # an attack (a Medicine, Recovery or Sneaking check names no weapon)
                view.report("rules.outcome", event, f"{event.attacker}'s attack on {event.target} cites no "
                            f"black-and-white attack roll ({NOTATION}, for the attack): its Success, the armour and "
                            "the Damage, which that one roll gives, cannot be checked", actor=event.attacker)
            return
        faces = faces_of(rolled.dice)
        found = view.event(event.declaration) if event.declaration is not None else None
        posted = found if isinstance(found, DeclarationPosted) else None
        weapon = self.weapon(before, event.attacker, event.weapon)
        if event.weapon is not None:
            weapon_used(before, event, weapon, posted, view)
        skill = skill_of(event, weapon)
        self._last = (event, faces, skill)
        rule = self.options(before).die_succeeds
        expected = None if skill is None else success(faces, skill, rule) or 0
        note = note_of(event)
        aimed = shot_problem(event, posted, weapon, note, self.options(before)) or \
            noted_problem(before, event, posted, note, view)
        if aimed is not None:  # the skill itself is wrong: what follows from it is judged no further
            view.report("rules.outcome", event, aimed, actor=event.attacker)
        elif expected is not None and event.score != expected:
            view.report("rules.outcome", event, f"{event.attacker}'s Success is recorded as {event.score}; black "
                        f"{faces.black}, white {faces.white} under skill {skill} give {expected or 'none'}",
                        actor=event.attacker)
        elif event.score not in (0, faces.black, faces.white):
            view.report("rules.outcome", event, f"{event.attacker}'s Success is recorded as {event.score}, but the dice "
                        f"are black {faces.black}, white {faces.white}", actor=event.attacker)
        elif event.hit != (event.score > event.against):
            said, should = ("a hit", "a miss") if event.hit else ("a miss", "a hit")
            view.report("rules.outcome", event, f"{event.attacker}'s Success {event.score} against {event.against} is "
                        f"recorded as {said}; it is {should}", actor=event.attacker)
        else:
            against = expected_against(before, event, posted, weapon, self.options(before), view)
            if against is not None and against != event.against:
                view.report("rules.outcome", event, f"{event.attacker}'s attack on {event.target} is recorded against "
                            f"{event.against}; the rules give {against}", actor=event.attacker)
            elif event.weapon is not None:  # a hit or miss as the rules give it: its damage is due, or none
                if event.hit:
                    self._due.owe(event)
                else:
                    self._missed.add(event.seq)
        self._ammo(before, event, faces, posted, weapon, view)

    def _ammo(self, before: SceneState, event: AttackResolved, faces: Faces, posted: DeclarationPosted | None,
              weapon: WeaponCard | None, view: AuditView) -> None:
        declaration = event.declaration
        if declaration is None:
            return
        if declaration in self._dry:
            view.report("rules.ammo", event, f"{event.attacker} fires {event.weapon} again after its magazine ran "
                        "dry in this automatic fire", actor=event.attacker)
            return
        who = before.combatants.get(event.attacker)
        if weapon is None or who is None or not weapon.auto:
            return
        key = (event.attacker, weapon.name)
        emptied = self._empty.get(key)
        if emptied is not None and emptied != declaration and declaration not in self._told and not any(
                e.name == "empty" and e.target == event.attacker and e.params.get("weapon") == weapon.name
                for e in before.effects.values()):  # (an ``empty`` the log keeps: ``spent`` names the shot)
            view.report("rules.ammo", event, f"{event.attacker} fires {weapon.name} after its magazine ran dry at "
                        f"seq {emptied}, with no reload since", actor=event.attacker)
            self._told.add(declaration)  # (once a post)
            return
        if posted is None or not any(a.mode == "auto" for a in posted.actions):
            return
        state = who.weapons.get(weapon.name)
        fresh = state is None or state.fired <= 1
        if not fresh and faces.black > weapon.auto:
            self._dry.add(declaration)
            self._empty[key] = declaration

    def damaged(self, before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        cause = view.event(event.cause) if event.cause is not None else None
        if not isinstance(cause, AttackResolved):
            return
        if cause.seq in self._missed:  # a miss the rules give (one recorded against them is reported there)
            view.report("rules.damage", event, f"{event.target} takes Damage from {cause.attacker}'s attack at seq "
                        f"{cause.seq}, which missed: a miss deals none", actor=cause.attacker)
            return
        rolled = self._roll(cause, view)
        weapon = self.weapon(before, cause.attacker, cause.weapon)
        card = card_of(before, event.target)
        if rolled is None or weapon is None or card is None:
            return
        last = self._last
        if last is not None and last[0] is cause:
            faces, skill = last[1], last[2]
        else:
            faces, skill = faces_of(rolled.dice), skill_of(cause, weapon)
        rule = self.options(before).die_succeeds
        die = (missed_die(faces, cause.score, cause.against) if skill is None
               else damage_die(faces, skill, cause.against, rule))
        raw = last_digit(faces.white if die == "white" else faces.black) + weapon.damage
        if event.raw != raw:
            view.report("rules.damage", event, f"{event.target}'s Damage is recorded as {event.raw}; the {die} die "
                        f"(black {faces.black}, white {faces.white}) and {weapon.name}'s Damage {weapon.damage} give "
                        f"{raw}", actor=cause.attacker)
            return
        target = before.combatants.get(event.target)
        rolled_with = _rolls_with(cause, event.target, view) or (target is not None and "rolling" in target.statuses and any(
            (isinstance(e, StatusChanged) and e.status == "rolling" and e.on) or
            (isinstance(e, EffectApplied) and e.name == harm.OWED)  # a second roll: the action after the next
            for e in (view.event(s) for s in range(cause.seq + 1, event.seq))
            if getattr(e, "cause", None) == cause.seq))
        hurt = harm.harm(raw, faces.white, card.armour, self.options(before).roll_with_it if rolled_with else 0)
        if event.reduced_by != raw - hurt.left:
            struck = ", ".join(hurt.struck) or "no layer"
            view.report("rules.armour", event, f"{event.target}'s Damage {raw} is reduced by {event.reduced_by}; the "
                        f"white die {faces.white} strikes {struck} (Protection {hurt.protection})"
                        + (f" and rolling with it takes {hurt.rolled}" if hurt.rolled else "")
                        + f": the reduction is {raw - hurt.left}", actor=cause.attacker)
            return
        self._wound(before, event, hurt, view)

    @staticmethod
    def _wound(before: SceneState, event: DamageApplied, hurt: harm.Harm, view: AuditView) -> None:
        who = before.combatants.get(event.target)
        if who is None:
            return
        if hurt.left <= 0:
            if event.taken:
                view.report("rules.wound", event, f"{event.target}'s Damage {hurt.raw} is all taken off (by "
                            f"{hurt.raw - hurt.left}): no Wound is marked, not {event.pool}", actor=event.target)
            return
        pools = who.pools
        circle = None
        for c in range(min(hurt.left, TRACK), TRACK + 1):
            if pools.get(WOUND_POOLS[c - 1], 1) > 0:
                circle = c
                break
        if circle is not None and (event.pool != wound_pool(circle) or event.taken != 1):
            view.report("rules.wound", event, f"{event.target}'s Wound of {hurt.left} marks circle {circle}, "
                        f"not {event.pool}", actor=event.target)
        elif circle is None and event.taken:
            view.report("rules.wound", event, f"{event.target}'s Wound of {hurt.left} finds no circle free from "
                        f"{min(hurt.left, TRACK)} on: none is marked, not {event.pool}", actor=event.target)

    def reloaded(self, before: SceneState, event: WeaponReloaded, after: SceneState, view: AuditView) -> None:
        self._empty.pop((event.actor, event.weapon), None)

    def turn_over(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        """The turn's misses are forgotten (a damage citing one is judged in its turn)."""
        self._missed.clear()

    def spent(self, before: SceneState, event: ResourceSpent, after: SceneState, view: AuditView) -> None:
        weapon = self.weapon(before, event.actor, event.resource)
        who = before.combatants.get(event.actor)
        if weapon is None or who is None:
            return
        fired = who.weapons.get(weapon.name)
        if weapon.capacity and fired is not None and fired.fired >= weapon.capacity:
            view.report("rules.ammo", event, f"{event.actor} fires {weapon.name} (C{weapon.capacity}) with no round "
                        "left: it needed a reload", actor=event.actor)
        elif weapon.auto and any(e.name == "empty" and e.target == event.actor and e.params.get("weapon") == weapon.name
                                 for e in before.effects.values()):
            view.report("rules.ammo", event, f"{event.actor} fires {weapon.name} with an empty magazine: it needed a "
                        "reload", actor=event.actor)

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        if event.ooc:
            return
        gone = self._gone.get(event.actor)
        self._answered(before, event)
        if by_table(before, event):
            return
        from fightlog.rules.en51.table import TABLE

        post = Post(actor=event.actor, text=event.text, actions=tuple(event.actions), responds_to=event.responds_to)
        refused = refusal(lambda scribe: TABLE.post(scribe, post), before)
        if refused is not None:
            self._counters.refused(event.seq)
        if refused is None and gone is not None and gone[0] == before.turn.round and event.responds_to is None \
                and event.actor == before.turn.current and combat(event.actions):
            view.report("rules.allowance", event, f"the rules refuse {event.actor}'s post: {event.actor}'s action "
                        f"this turn {gone[2]} (seq {gone[1]})", actor=event.actor)
        if refused is None:
            return
        if refused.code.startswith("order.") and event.responds_to is None and event.actor != before.turn.current:
            return  # the shared posting-order checks report a post out of its turn
        view.report(refused.code, event, f"the rules refuse {event.actor}'s post: {refused.message}", actor=event.actor)



def _rolls_with(cause: AttackResolved, target: str, view: AuditView) -> bool:
    """Whether ``target`` rolls with the hit of ``cause`` as the posts say (Roll with it), as
    the table reads them (``attack.melee``): the answer to an attack saying ``roll=true``;
    for a counterattack's hit, the attack it answered saying so."""
    post = view.event(cause.declaration or 0)
    if type(post) is not DeclarationPosted:
        return False
    if post.responds_to is not None and any(a.type == "counter" for a in post.actions):  # the attack it answered
        answered = view.event(post.responds_to)
        return type(answered) is DeclarationPosted and any(flag(a, "roll") for a in answered.actions)
    for seq in range(post.seq + 1, cause.seq):
        answer = view.event(seq)
        if type(answer) is DeclarationPosted and answer.actor == target and answer.responds_to == post.seq:
            return any(flag(a, "roll") for a in answer.actions)
    return False
