"""The ``traveller`` audit: each attack's DMs, outcome and damage recomputed with the
table's own functions, aims held to the cap, and declarations the table did not make
played by its checks (``declared``).

A check runs for every event of its kind (``fightlog.kit.checks``) and returns at once when
there is nothing to judge: a roll or sheet it cannot read is no finding here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from fightlog.errors import FightlogError
from fightlog.events.model import (AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectApplied,
                                   HealingApplied, InitiativeRolled, InitiativeSet, Moved, StatusChanged)
from fightlog.kit.chained import merged
from fightlog.kit.damage_due import DamageDue
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.declared import report_refusal
from fightlog.kit.fighters import Mods
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.attack import protection, waiting_metres
from fightlog.rules.traveller.card import WeaponCard
from fightlog.rules.traveller.checks import COVER as COVER_VALUES
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.declared import check_declaration
from fightlog.rules.traveller import audit_moves
from fightlog.rules.traveller.audit_condition import Condition
from fightlog.rules.traveller.audit_healing import healed
from fightlog.rules.traveller.audit_reactions import UnmarkedReactions
from fightlog.rules.traveller.audit_initiative import ordered, rolled
from fightlog.rules.traveller.fighters import AIM, COVER, INCOMING, REACTED, Fighter, options_of
from fightlog.rules.traveller.harm import split
from fightlog.rules.traveller.modifiers import Reaction, attack_mods, distance


def checks() -> Mapping[type, Check]:
    """A fresh set of checks for one audited scene, with each fighter's condition against the
    characteristics and every hit's damage (``DamageDue``: a hit whose outcome or DMs are
    reported as wrong aside, and a grapple's, which deals none unless its winner chooses it)."""
    misjudged: set[int] = set()
    reactions = UnmarkedReactions()

    def judged(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        if resolved(before, event, after, view, reactions.mods(before, event.attacker)):
            misjudged.add(event.seq)

    def owes(hit: AttackResolved) -> bool:
        return hit.weapon is not None and len(hit.rolls) == 1 and hit.seq not in misjudged

    own: dict[type, Check] = {
        AttackResolved: cast(Check, judged),
        DamageApplied: cast(Check, damaged),
        EffectApplied: cast(Check, applied),
        HealingApplied: cast(Check, healed),
        InitiativeRolled: cast(Check, rolled),
        InitiativeSet: cast(Check, ordered),
        DeclarationPosted: cast(Check, posted),
        Moved: cast(Check, audit_moves.moved),
    }
    due = DamageDue("a hit's damage is its dice and its Effect, less armour", owes)
    return merged(own, Condition().checks(), due.checks(), reactions.checks())


def _roll(view: AuditView, seq: int) -> DiceRolled | None:
    found = view.event(seq)
    return found if isinstance(found, DiceRolled) else None


def resolved(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView,
             unmarked: Sequence[tuple[int, str]] = ()) -> bool:
    """An attack: its roll's DMs (``modifiers.attack_mods``), hit on 8+, Effect; whether its
    outcome or its roll's DMs are not the rules' (reported: ``rules.outcome``,
    ``rules.attack-dm``): then whether it hit is not known, nor the damage it owes.
    ``unmarked``: the DMs of the attacker's reactions a hand-kept log did not mark
    (``audit_reactions``)."""
    if len(event.rolls) == 2:
        _opposed(event, view)
        return False
    if len(event.rolls) != 1 or event.declaration is None:
        return False
    roll = _roll(view, event.rolls[0])
    if roll is None or roll.purpose != "attack":
        return False
    wrong_dms = False
    try:  # the DMs read both cards (a skill, a DEX DM, a dodge's athletics): not judged when one does not read
        attacker, target = Fighter.two(before, event.attacker, event.target)
        weapon = attacker.card.weapon(event.weapon)
        if weapon is not None:
            metres = _metres(before, event, attacker, target, view)
            expected = attack_mods(attacker, target, weapon, metres, _reaction(before, event))
            wrong_dms = _dms(event, roll, [*expected, *unmarked], view)
    except FightlogError:
        pass
    options = options_of(before)
    if event.hit != (roll.total >= options.target) or event.score != roll.total or (
            event.margin is not None and event.margin != effect(roll.total, options)):
        view.report("rules.outcome", event, f"{event.attacker}'s {roll.total} recorded as a "
                    f"{'hit' if event.hit else 'miss'} with Effect {event.margin} (8+ hits; Effect = total - 8)",
                    actor=event.attacker)
        return True
    return wrong_dms  # the roll's total itself is not the rules': so is whether it hit


def _dms(event: AttackResolved, roll: DiceRolled, expected: Mods, view: AuditView) -> bool:
    """Report the roll's DMs when they are not the rules'; whether they were not."""
    got = _dm_of(roll)
    want = 0
    for value, _ in expected:
        want += value
    if got != want:
        shown = ", ".join(f"{v:+d} {s}" for v, s in expected) or "none"
        view.report("rules.attack-dm", event, f"{event.attacker}'s attack on {event.target} was rolled with DM "
                    f"{got:+d}; the rules give {want:+d} ({shown})", actor=event.attacker)
        return True
    return False


def _dm_of(roll: DiceRolled) -> int:
    """The DMs a roll was rolled with, summed."""
    total = 0
    for modifier in roll.modifiers:
        total += modifier.value
    return total


def _opposed(event: AttackResolved, view: AuditView) -> None:
    """A grapple: the higher total wins (a tie: nobody)."""
    mine, theirs = _roll(view, event.rolls[0]), _roll(view, event.rolls[1])
    if mine is None or theirs is None or mine.purpose != "grapple" or theirs.purpose != "grapple":
        return
    if (event.score, event.against) != (mine.total, theirs.total) or event.hit != (mine.total > theirs.total):
        view.report("rules.outcome", event, f"{event.attacker}'s grapple: {mine.total} against {event.target}'s "
                    f"{theirs.total} recorded as {event.score} against {event.against}, "
                    f"{'won' if event.hit else 'lost'} (the higher total wins)", actor=event.attacker)


def _metres(before: SceneState, event: AttackResolved, attacker: Fighter, target: Fighter, view: AuditView) -> int:
    waiting = before.effects.get(f"{INCOMING}-{event.declaration}")
    metres = None if waiting is None else waiting_metres(waiting)
    if metres is not None:
        return metres  # the distance when declared (else, an edited one: the declaration's, below)
    declared = view.event(event.declaration or 0)
    if isinstance(declared, DeclarationPosted):
        for action in declared.actions:
            if action.type == "attack" and action.target == event.target:
                return distance(attacker, target, action)
    return 0


def _reaction(before: SceneState, event: AttackResolved) -> Reaction | None:
    for post in reversed(before.pending):
        if post.responds_to == event.declaration and post.actor == event.target and post.actions:
            action = post.actions[0]
            if action.type in ("dodge", "parry", "dive"):
                return Reaction(action.type, cover=str(action.params.get("cover") or ""))
            return None
    return None


def damaged(before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
    """Damage of an attack: the roll's DMs (STR DM in melee, the Effect), armour and cover,
    END first."""
    cause = view.event(event.cause or 0)
    if not isinstance(cause, AttackResolved):
        return
    if not cause.hit and not (event.target == cause.attacker and len(cause.rolls) == 2):  # A5: a miss does nothing
        # (a grapple the defender won may hurt its attacker: Unarmed Combat or Grappling)
        view.report("rules.damage", event, f"{event.target} takes damage from {cause.attacker}'s attack at seq "
                    f"{cause.seq}, which missed: a miss does nothing", actor=cause.attacker)
        return
    if len(cause.rolls) == 2 and event.source == "grapple":
        _grappled(before, event, cause, view)
    if len(cause.rolls) != 1:
        return
    who = before.combatants.get(event.target)
    if who is None:
        return
    roll = _roll(view, event.seq - 1)
    if roll is not None and roll.purpose == "damage" and roll.for_seq == event.cause:
        try:  # a sheet that does not read (the attacker's weapon, the target's armour): nothing to judge
            target, attacker = Fighter.two(before, event.target, cause.attacker)
            weapon = attacker.card.weapon(cause.weapon)
            if weapon is not None:
                _first(before, event, cause, roll, target, attacker, weapon, view)
        except FightlogError:
            pass
        return
    try:
        options = options_of(before)
    except FightlogError:
        return
    want = [(p, t) for p, t in split(who.pools, event.raw, options) if t][:1]
    if want and want[0] != (event.pool, event.taken):
        view.report("rules.damage", event, f"{event.target} took {event.taken} from {event.pool}; the rules take "
                    f"{want[0][1]} from {want[0][0]} (END first, then the higher of STR and DEX)", actor=cause.attacker)


def _grappled(before: SceneState, event: DamageApplied, cause: AttackResolved, view: AuditView) -> None:
    """A grapple's winner choosing damage (G5): 2 + the Effect of the winner's check, less
    the loser's armour (the first of its damage events; later ones carry what is left)."""
    winner_total = cause.score if cause.hit else cause.against
    loser = cause.target if cause.hit else cause.attacker
    if event.target != loser:
        return  # the shared check's, or the audit of the outcome's
    try:
        won_by = effect(winner_total, options_of(before))
        armour = Fighter(before, loser).card.armour
    except FightlogError:
        return
    earlier = view.event(event.seq - 1)
    if isinstance(earlier, DamageApplied) and earlier.cause == event.cause and earlier.target == event.target:
        return  # a later pool of the same damage (``harm.damage`` splits it)
    want = max(0, 2 + won_by)
    if event.raw != want or event.reduced_by != min(armour, want):
        view.report("rules.damage", event, f"{loser}'s grapple damage is recorded as {event.raw} less {event.reduced_by}; "
                    f"2 + the winner's Effect {won_by} gives {want}, less armour {min(armour, want)}",
                    actor=cause.attacker)


def _first(before: SceneState, event: DamageApplied, cause: AttackResolved, roll: DiceRolled, target: Fighter,
           attacker: Fighter, weapon: WeaponCard, view: AuditView) -> None:
    dms = (attacker.dm("STR") if weapon.kind == "melee" else 0) + (cause.margin or 0)
    got = _dm_of(roll)
    problems = []
    if got != dms:
        problems.append(f"the damage roll's DMs are {got:+d}, the rules give {dms:+d} (STR DM in melee + Effect)")
    try:
        armour: int | None = protection(target, weapon, _reaction(before, cause))
    except FightlogError:
        armour = None  # the target's sheet does not read: what its armour stops is not judged
    if armour is not None:
        if event.raw != roll.total or event.reduced_by != min(armour, roll.total):
            problems.append(f"{roll.total} less protection {armour}, recorded as {event.raw} less {event.reduced_by}")
        want = split(target.who.pools, max(0, roll.total - armour), target.options)[0]
        if (event.pool, event.taken) != want:
            problems.append(f"{event.taken} from {event.pool}, the rules take {want[1]} from {want[0]} first")
    if problems:
        view.report("rules.damage", event, f"{cause.attacker}'s hit on {event.target}: " + "; ".join(problems),
                    actor=cause.attacker)


def applied(before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
    """An aim (DM+1 more than the aim it renews, up to the cap); a reaction's DM-1; cover of
    the chart's value for its kind (Weapon Range and Cover: W4)."""
    name = event.name
    if name == REACTED:
        _reacted(before, event, view)
        return
    if name == COVER:
        kind = event.params.get("kind")
        want = COVER_VALUES.get(kind) if isinstance(kind, str) else None
        if want is not None and event.magnitude != want:
            view.report("rules.damage", event, f"{event.target}'s cover ({kind}) is recorded as {event.magnitude}; the "
                        f"chart gives {want}", actor=event.target)
        return
    if name != AIM or event.target not in before.combatants:
        return
    try:
        who = Fighter(before, event.target)
    except FightlogError:
        return
    earlier = before.effects.get(event.refreshes or "")
    want = min((earlier.magnitude or 0) + 1 if earlier is not None else 1, who.options.aim_max)
    if event.magnitude != want:
        view.report("rules.aim", event, f"{event.target}'s aim is DM{event.magnitude or 0:+d}; consecutive aiming "
                    f"gives DM{want:+d} (DM+1 each, at most DM+{who.options.aim_max})", actor=event.target)


def _reacted(before: SceneState, event: EffectApplied, view: AuditView) -> None:
    if event.target not in before.combatants:
        return
    try:
        want = options_of(before).reaction_dm  # the scene's options: the reactor's sheet is not read
    except FightlogError:
        return
    if event.magnitude != want:
        view.report("rules.reaction", event, f"{event.target}'s reaction costs DM{event.magnitude or 0:+d} on the "
                    f"next actions; the rules give DM{want:+d}", actor=event.target)


def posted(before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
    """A post the table did not make, played by the table's checks; an own-turn post in a
    turn a dive lost (its ``dived`` status ended at the turn's opening, which the table
    closes at once: Reaction, Dive for cover)."""
    own = event.responds_to is None and event.actions and before.turn.current == event.actor
    if own and _lost(before, event, view):
        view.report("rules.allowance", event, f"{event.actor} posts in the turn lost to the dive for cover",
                    actor=event.actor)
        return
    report_refusal(before, event, view, check_declaration)


def _lost(before: SceneState, event: DeclarationPosted, view: AuditView) -> bool:
    """Whether this turn of ``event``'s poster was lost to a dive (its ``dived`` ended in it)."""
    for seq in range(before.turn.started + 1, event.seq):
        found = view.event(seq)
        if type(found) is StatusChanged and found.actor == event.actor and found.status == "dived" and not found.on:
            return True
    return False

