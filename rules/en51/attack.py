"""Attacks (Melee attack; Ranged attack; Ammunition; Damage; Armor): checking one before it
is declared, and resolving it with the black and white roll, the defender's answer (a
counterattack, taking it, rolling with it, ignoring it) and the hits' Wounds.

A counterattack is simultaneous with the attack it answers: both are rolled before either
hit is marked, so both are resolved even when one of them kills. An attacker who declared
``roll=true`` on the attack rolls with a counterattack's hit (Roll with it). Automatic fire is two
attacks; after the first turn of a fresh magazine, each attack's black die above the A-type
empties the magazine, and an empty magazine gives no second attack.
"""

from __future__ import annotations

from typing import NamedTuple

from fightlog.errors import RefusedError, SeedUnavailableError
from fightlog.events.model import Action, AttackResolved, EffectApplied, EffectExpired, ResourceSpent, StatusChanged
from fightlog.kit.fighters import absent
from fightlog.kit.table import Scribe
from fightlog.rules.en51 import harm
from fightlog.rules.en51.aiming import Aim, check_reach, distance_step, flag, melee_aim, ranged_aim
from fightlog.rules.en51.bw import NOTATION, Faces, faces_of, damage, damage_die, hits, success
from fightlog.rules.en51.card import WeaponCard
from fightlog.rules.en51.declared import about_to_strike
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import En51Options, options_of


class Swing(NamedTuple):
    """One attack to resolve: who, at whom, with what, the declaration it resolves."""

    attacker: str
    target: str
    action: Action
    declaration: int


class Struck(NamedTuple):
    swing: Swing
    weapon: WeaponCard
    aim: Aim
    faces: Faces
    roll: int


def check(who: Fighter, action: Action) -> tuple[Fighter, WeaponCard]:
    """Refuse an attack the rules do not allow before it is declared: the target, the
    weapon, its ammunition, its reach, the line of sight."""
    state = who.state
    if action.target is None:
        raise RefusedError("an attack names its target (target=ID)", code="rules.target")
    if action.target not in state.combatants:
        raise absent(state, action.target)
    if action.target == who.actor:
        raise RefusedError(f"{who.actor} cannot attack themselves (target={action.target})", code="rules.target")
    target = Fighter(state, action.target)
    if target.out:
        raise RefusedError(f"{target.actor} is out of the fight", code="rules.target")
    weapon = who.weapon(action.weapon)
    auto = action.mode == "auto"
    if auto and weapon.auto == 0:
        raise RefusedError(f"{weapon.name} has no automatic fire (an A-type)", code="rules.refused")
    if weapon.kind == "ranged":
        check_reach(weapon, distance_step(action, options_of(state)))
        if target.has("hidden"):
            raise RefusedError(f"{target.actor} is hiding: no line of sight", code="rules.target")
        if who.has("hidden"):
            raise RefusedError(f"{who.actor} is hiding: take Cover first to shoot", code="rules.refused")
    empty = loaded_problem(who, weapon)
    if empty is not None:
        raise RefusedError(empty, code="rules.ammo")
    return target, weapon


def loaded_problem(who: Fighter, weapon: WeaponCard) -> str | None:
    """Why ``weapon`` cannot fire now (type C fired to capacity; an empty magazine)."""
    fired = who.who.weapons.get(weapon.name)
    if weapon.capacity and fired is not None and fired.fired >= weapon.capacity:
        return f"{weapon.name} (C{weapon.capacity}) is empty: reload it first"
    if weapon.auto and who.weapon_effect("empty", weapon.name) is not None:
        return f"{weapon.name}'s magazine is empty: reload it first"
    return None


def defense(defender: Fighter, answer: Action | None, unaware: bool) -> tuple[int, str]:
    """The Defense a melee attack must beat: 0 when unaware or ignored; the counterattack's
    weapon's; the Defense of the melee attack made this turn, or of the one declared and about
    to be made (``declared``); else Unarmed Defense."""
    if unaware or (answer is not None and answer.type == "ignore"):
        return 0, "unaware" if unaware else "ignored"
    if answer is not None and answer.type == "counter":
        weapon = defender.weapon(answer.weapon)
        return weapon.defense, f"Defense of {weapon.name} (counterattacking)"
    guard = defender.effect("guard")
    if guard is not None:
        return guard.magnitude or 0, f"Defense of {guard.params.get('weapon')} (attacked this turn)"
    coming = about_to_strike(defender.state, defender.actor, defender.card)
    if coming is not None:
        return coming.defense, f"Defense of {coming.name} (about to attack this turn)"
    return defender.card.unarmed_defense, "Unarmed Defense"


def unaware(state_target: Fighter, action: Action, options: En51Options) -> bool:
    return flag(action, "unaware") or (options.ambush_unaware and state_target.has("surprised"))


def strike(scribe: Scribe, swing: Swing, weapon: WeaponCard, aim: Aim) -> Struck:
    rolled, seq = scribe.roll(NOTATION, roller=swing.attacker, purpose="attack", for_seq=swing.declaration,
                              label=f"{weapon.name} at {swing.target}")
    faces = faces_of(rolled.dice)
    return Struck(swing, weapon, aim, faces, seq)


def outcome(scribe: Scribe, struck: Struck, notes: list[str]) -> tuple[int, bool]:
    """Emit ``attack_resolved`` for ``struck``; its seq and whether it hit."""
    options = options_of(scribe.state)
    aim, faces = struck.aim, struck.faces
    best = success(faces, aim.skill, options.die_succeeds)
    landed = hits(faces, aim.skill, aim.against, options.die_succeeds)
    seq = scribe.emit(AttackResolved(
        attacker=struck.swing.attacker, target=struck.swing.target, hit=landed, score=best or 0, against=aim.against,
        rolls=[struck.roll], weapon=struck.weapon.name, declaration=struck.swing.declaration,
        notes=[aim.note(), *notes]))
    return seq, landed


def wound(scribe: Scribe, struck: Struck, cause: int, rolled: bool) -> None:
    """The hit's Damage through the target's armour, onto the Wounds track."""
    options = options_of(scribe.state)
    aim, faces = struck.aim, struck.faces
    raw = damage(faces, aim.skill, aim.against, options.die_succeeds, struck.weapon.damage)
    target = Fighter(scribe.state, struck.swing.target)
    hurt = harm.harm(raw, faces.white, target.card.armour, options.roll_with_it if rolled else 0)
    if rolled:
        harm.roll_with_it(scribe, target.actor, cause, options.roll_with_it)
    harm.wound(scribe, target.actor, hurt, cause, struck.weapon.name, options)


def notes_for(struck: Struck, scribe: Scribe) -> list[str]:
    options = options_of(scribe.state)
    aim, faces = struck.aim, struck.faces
    if not hits(faces, aim.skill, aim.against, options.die_succeeds):
        return [f"black {faces.black}, white {faces.white}"]
    die = damage_die(faces, aim.skill, aim.against, options.die_succeeds)
    return [f"black {faces.black}, white {faces.white}; Damage from the {die} die"]


def on_guard(scribe: Scribe, actor: str, weapon: WeaponCard, cause: int) -> None:
    """The Defense of a melee attack made this turn (what attacks on the maker must beat)."""
    if Fighter(scribe.state, actor).effect("guard") is None:
        scribe.emit(EffectApplied(effect=f"guard-{scribe.next_seq}", name="guard", target=actor, source=actor,
                                  magnitude=weapon.defense, cause=cause, params={"weapon": weapon.name}))


def melee(scribe: Scribe, swing: Swing, answer: tuple[int, Action] | None) -> None:
    """A melee attack and the answer to it, simultaneous: both rolled, then both marked."""
    state = scribe.state
    options = options_of(state)
    attacker, defender = Fighter(state, swing.attacker), Fighter(state, swing.target)
    weapon = attacker.weapon(swing.action.weapon)
    reply = answer[1] if answer is not None else None
    against, why = defense(defender, reply, unaware(defender, swing.action, options))
    first = strike(scribe, swing, weapon, melee_aim(attacker, weapon, swing.action, against))
    second: Struck | None = None
    if answer is not None and reply is not None and reply.type == "counter":
        back = defender.weapon(reply.weapon)
        counter = Swing(swing.target, swing.attacker, reply, answer[0])
        second = strike(scribe, counter, back, melee_aim(defender, back, reply, weapon.defense))
    rolled = reply is not None and flag(reply, "roll")
    seq, landed = outcome(scribe, first, [f"against {why}", *notes_for(first, scribe)])
    later = outcome(scribe, second, [f"against Defense of {weapon.name} (simultaneous counterattack)",
                                     *notes_for(second, scribe)]) if second is not None else None
    on_guard(scribe, swing.attacker, weapon, swing.declaration)
    if second is not None:
        on_guard(scribe, swing.target, second.weapon, second.swing.declaration)
    if landed:
        wound(scribe, first, seq, rolled)
    if second is not None and later is not None and later[1]:
        wound(scribe, second, later[0], flag(swing.action, "roll"))  # ``roll=true`` on the attack: rolls with a counter


def ranged(scribe: Scribe, swing: Swing, answer: tuple[int, Action] | None, *, moved: bool = False) -> None:
    """A ranged attack (two with automatic fire), each hit marked as it lands."""
    state = scribe.state
    options = options_of(state)
    shooter, target = Fighter(state, swing.attacker), Fighter(state, swing.target)
    weapon = shooter.weapon(swing.action.weapon)
    aim = ranged_aim(shooter, target, weapon, swing.action, options, moved=moved)
    for effect in shooter.effects("aim"):
        if effect.params.get("round", 0) < state.turn.round:
            scribe.emit(EffectExpired(cause=swing.declaration, effect=effect.effect, target=shooter.actor, reason="used"))
    auto = swing.action.mode == "auto"
    fired = shooter.who.weapons.get(weapon.name)
    fresh = fired is None or fired.fired == 0
    if weapon.capacity or auto:
        scribe.emit(ResourceSpent(actor=shooter.actor, resource=weapon.name, amount=1, cause=swing.declaration))
    rolled = answer is not None and flag(answer[1], "roll")
    for number in range(2 if auto else 1):
        if number and Fighter(scribe.state, swing.target).out:
            break  # the first attack put the target out: no second attack at them (as no new attack)
        struck = strike(scribe, swing, weapon, aim)
        notes = notes_for(struck, scribe)
        dry = auto and not fresh and struck.faces.black > weapon.auto
        if auto:
            notes.append(f"auto attack {number + 1}: " + ("a fresh magazine, no ammo check" if fresh else
                         f"ammo check black {struck.faces.black} {'>' if dry else '<='} A{weapon.auto}"))
        seq, landed = outcome(scribe, struck, notes)
        if landed:
            wound(scribe, struck, seq, rolled)
        if dry:
            scribe.emit(EffectApplied(effect=f"empty-{scribe.next_seq}", name="empty", target=shooter.actor,
                                      source=shooter.actor, cause=seq, params={"weapon": weapon.name}))
            break


def resolve(scribe: Scribe, swing: Swing, answer: tuple[int, Action] | None, *, moved: bool = False) -> None:
    """Resolve a declared attack (the target still in the fight, else nothing happens)."""
    state = scribe.state
    if swing.target not in state.combatants or swing.attacker not in state.combatants:
        return
    if Fighter(state, swing.attacker).out:
        return
    try:
        with scribe.attempt():  # a logged attack the table would have refused resolves to nothing
            _, weapon = check(Fighter(state, swing.attacker), swing.action)
            if weapon.kind == "melee":
                melee(scribe, swing, answer)
            else:
                ranged(scribe, swing, answer, moved=moved)
    except SeedUnavailableError:
        raise  # not a refusal of the attack: the turn cannot end without its roll
    except RefusedError:
        return
