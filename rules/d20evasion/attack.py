"""Attacks and spells cast at an enemy (Attacking; Casting Spells; Damage).

An attack roll is 1d20 plus the to-hit bonus; it hits when it is at least the target's
Evasion. There are no damage rolls: a hit deals the weapon's full damage (stat base plus
the weapon's own), armour first unless the weapon pierces, and leaves the weapon's damage
over time. In a duel the target answers with a defensive turn before anything is rolled
(``defence``); otherwise the attack is rolled and resolved at once.

``outcome`` and ``disarm_outcome`` are pure: the audit judges logged rolls with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from fightlog.events.model import Action, AttackResolved
from fightlog.errors import RefusedError
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion import conditions, harm
from fightlog.rules.d20evasion.card import SpellCard, WeaponCard
from fightlog.rules.d20evasion.fighters import Fighter, Mods, sum_mods
from fightlog.rules.d20evasion.options import D20Options
from fightlog.kit.table import Scribe

Gear = WeaponCard | SpellCard


class Defence(NamedTuple):
    """A defensive roll against an attack: ``dodge`` or ``parry``, its natural face and total."""

    kind: str
    face: int
    total: int


class Outcome(NamedTuple):
    hit: bool
    against: int
    critical: Literal["success", "failure"] | None
    notes: tuple[str, ...]


def fumbled(face: int, options: D20Options) -> bool:
    """A critical failure: the natural face ``critical_failure_face`` (1)."""
    return face == options.critical_failure_face


def stands_against(defence: Defence, options: D20Options) -> int | None:
    """What an attack roll must reach to get past ``defence`` (``None``: the defence does
    not count, a critical failure that fails). The defence must be higher than the attack
    roll; a tie goes to the attacker unless ``defence_tie`` says otherwise."""
    if fumbled(defence.face, options) and options.critical_failure_fails:
        return None
    return defence.total + (1 if options.defence_tie == "defender" else 0)


def defended_by(defence: Defence, total: int, options: D20Options) -> bool:
    """Whether ``defence`` stopped an attack roll of ``total``."""
    needed = stands_against(defence, options)
    return needed is not None and total < needed


def outcome(face: int, total: int, evasion: int, defences: Sequence[Defence], options: D20Options) -> Outcome:
    """An attack roll's outcome (Attacking; Defensive Turns): it hits when it is at least
    the target's Evasion and, against a dodge or parry, higher than the defence roll.
    ``against`` is the score it needed."""
    notes = [f"Evasion {evasion}"]
    against = evasion
    past_defences = True
    for defence in defences:
        needed = stands_against(defence, options)
        if needed is None:
            notes.append(f"{defence.kind} {defence.total}: critical failure")
            continue
        notes.append(f"{defence.kind} {defence.total}")
        against = max(against, needed)
        past_defences = past_defences and total >= needed
    beats_evasion = total >= evasion or (options.natural_20_hits and face == 20)
    critical: Literal["success", "failure"] | None = None
    if options.natural_1_misses and face == 1:
        critical = "failure"
        hit = False
    else:
        hit = beats_evasion and past_defences
        if options.natural_20_hits and face == 20 and hit:
            critical = "success"
    return Outcome(hit, against, critical, tuple(notes))


def disarm_outcome(face: int, total: int, evasion: int, options: D20Options) -> tuple[bool, int, bool]:
    """A disarm (Disarming): a STR/LVL roll against Evasion + 3; a natural 20 throws the
    weapon (and so succeeds). ``(success, difficulty, thrown)``."""
    difficulty = evasion + options.disarm_difficulty_bonus
    thrown = face == options.disarm_throw_face
    return thrown or total >= difficulty, difficulty, thrown


def gear_of(who: Fighter, name: str | None) -> Gear:
    """What an attack used, by the name logged: a weapon, else a spell."""
    try:
        return who.weapon(name)
    except RefusedError:
        if name is not None:
            for spell in who.card.spells:
                if spell.name == name:
                    return spell
        raise


def defended(state: SceneState, target: Fighter) -> bool:
    """Whether an attack on ``target`` waits for their defensive turn: in a duel (or a quest
    whose GM calls for them), against someone still in the fight."""
    opts = target.options
    return (opts.mode == "duel" or opts.quest_defensive_turns) and not target.out


def attack_roll(scribe: Scribe, who: Fighter, gear: Gear, *, purpose: str, for_seq: int | None) -> tuple[int, int, int]:
    """Roll 1d20 + the to-hit bonus; a fumbled parry's penalty is spent. ``(face, total, seq)``."""
    mods: Mods = who.to_hit_mods(gear)
    rolled, seq = scribe.roll("1d20", roller=who.actor, purpose=purpose, modifiers=mods, for_seq=for_seq)
    fumble = who.effect("parry_fumble")
    if fumble is not None:
        conditions.expire(scribe, fumble, "used")
    return rolled.dice[0].face, rolled.total, seq


def land(
    scribe: Scribe,
    attacker: Fighter,
    target: str,
    gear: Gear,
    *,
    face: int,
    total: int,
    rolls: list[int],
    declaration: int | None,
    defences: Sequence[Defence] = (),
    lowered: int = 0,
    extra: Sequence[int] = (),
    notes: Sequence[str] = (),
) -> tuple[int, bool]:
    """Judge a rolled attack on ``target`` and apply what it does: the outcome, then the
    damage (altered by the target's effects and ``extra``), then its damage over time.
    ``(seq of the attack_resolved, hit)``."""
    victim = Fighter(scribe.state, target)
    evasion = victim.evasion(lowered=lowered)
    judged = outcome(face, total, evasion, defences, victim.options)
    damage = attacker.damage(gear)
    amount, percents = harm.dealt(victim, damage, extra)
    more = list(notes)
    if lowered:
        more.append(f"Evasion lowered by {lowered} (counterattack)")
    if judged.hit and percents:
        more.append(f"{damage} damage altered by {' x '.join(f'{p}%' for p in percents)}: {amount}")
    resolved = scribe.emit(
        AttackResolved(
            attacker=attacker.actor,
            target=target,
            hit=judged.hit,
            score=total,
            against=judged.against,
            margin=total - judged.against,
            critical=judged.critical,
            rolls=rolls,
            weapon=gear.name,
            declaration=declaration,
            notes=[*judged.notes, *more],
        )
    )
    if judged.hit:
        harm.take(scribe, target, amount, piercing=gear.piercing, source=attacker.actor, cause=resolved)
        over = gear.effect
        if over is not None and not Fighter(scribe.state, target).out:
            conditions.apply(scribe, over.name, target, source=attacker.actor, duration=over.rounds,
                             magnitude=over.damage, cause=resolved, params={"dot": True})
    return resolved, judged.hit


def attack(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """An attack action: rolled and resolved now, unless the target gets a defensive turn
    (then ``defence.resolve`` does it when they answer, or when the turn ends), or is dead
    already (an earlier attack of the post killed them: not rolled; one mortally wounded is
    still finished off)."""
    if action.params.get("defensive_turn") is True:
        return
    assert action.target is not None
    victim = scribe.state.combatants.get(action.target)
    if victim is not None and "dead" in victim.statuses:
        return  # an earlier attack of the post killed them: nothing left to roll at
    who = Fighter(scribe.state, actor)
    gear = who.weapon(action.weapon)
    strike(scribe, who, action.target, gear, declaration)


def strike(scribe: Scribe, who: Fighter, target: str, gear: Gear, declaration: int) -> None:
    """Roll and resolve one attack without a defence."""
    face, total, seq = attack_roll(scribe, who, gear, purpose="attack", for_seq=declaration)
    land(scribe, Fighter(scribe.state, who.actor), target, gear, face=face, total=total, rolls=[seq],
         declaration=declaration)


def to_hit(who: Fighter, gear: Gear) -> int:
    return sum_mods(who.to_hit_mods(gear))
