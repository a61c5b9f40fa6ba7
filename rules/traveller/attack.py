"""Attacks (Combat: Melee, Ranged and Thrown Attack; Reaction).

``attack`` checks the declared attack before any die (the target, the weapon carried and in
hand, loaded, within reach) and spends the round; a target who can react is then asked
(an ``incoming`` effect on them) and the attack waits for their answer (``reactions``) or
the end of the attacker's turn; one who cannot is attacked at once. ``resolve`` rolls it:
2D + DMs (``modifiers``) >= 8 hits, and damage is the weapon's dice + STR DM (melee) + the
attack's Effect, less armour and cover (ranged and thrown).
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, EffectApplied, EffectExpired, ResourceSpent
from fightlog.kit.fighters import Mods
from fightlog.kit.table import Scribe
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.traveller import harm
from fightlog.rules.traveller.card import UNARMED, WeaponCard, damage_notation
from fightlog.rules.traveller.checks import COVER as COVER_VALUES
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import AIM, ENCOURAGED, INCOMING, Fighter
from fightlog.rules.traveller.holds import may_attack
from fightlog.rules.traveller.modifiers import Reaction, attack_mods, distance, reach


def weapon_of(attacker: Fighter, action: Action) -> WeaponCard:
    """The weapon an attack uses: the one named (carried, not dropped, in hand), else the
    one in hand."""
    if action.weapon is None:
        weapon = attacker.in_hand()
        if weapon is None:
            raise RefusedError(f"{attacker.actor} has no weapon in hand (draw one, or attack weapon=unarmed)")
        return weapon
    weapon = attacker.card.weapon(action.weapon)
    if weapon is None:
        carried = ", ".join(w.name for w in attacker.card.weapons) or "none"
        raise RefusedError(f"{attacker.actor} does not carry {action.weapon!r} (weapons: {carried})",
                           code="rules.not-carried")
    if attacker.dropped(weapon.name):
        raise RefusedError(f"{attacker.actor}'s {weapon.name} was knocked away (pick it up first)")
    held = attacker.in_hand()
    if weapon.name != UNARMED and (held is None or held.name != weapon.name):
        raise RefusedError(f"{weapon.name} is not in {attacker.actor}'s hand (draw it first)")
    return weapon


def checked(scribe: Scribe, actor: str, action: Action) -> tuple[Fighter, Fighter, WeaponCard, int]:
    """An attack's parts, refused when the rules do not allow it."""
    state = scribe.state
    attacker = Fighter(state, actor)
    target = Fighter(state, action.target or "")
    if target.has("dead"):
        raise RefusedError(f"{target.actor} is dead", code="rules.target")
    if target.actor == actor:
        raise RefusedError("an attack needs someone else as its target", code="rules.target")
    may_attack(state, actor, target.actor)
    weapon = weapon_of(attacker, action)
    metres = distance(attacker, target, action)
    reach(attacker, weapon, metres)
    state_weapon = attacker.who.weapons.get(weapon.name)
    if weapon.magazine and state_weapon is not None and state_weapon.fired >= weapon.magazine:
        raise RefusedError(f"{weapon.name} is empty ({weapon.magazine} rounds fired): reload first")
    return attacker, target, weapon, metres


def attack(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    attacker, target, weapon, metres = checked(scribe, actor, action)
    if weapon.magazine:
        scribe.emit(ResourceSpent(actor=actor, resource=weapon.name, cause=declaration))
    if not target.out:
        scribe.emit(EffectApplied(effect=f"{INCOMING}-{declaration}", name=INCOMING, target=target.actor,
                                  source=actor, cause=declaration,
                                  params={"weapon": weapon.name, "kind": weapon.kind, "metres": metres}))
        return
    resolve(scribe, actor, target.actor, weapon, metres, declaration, None)


def waiting_post(incoming: ActiveEffect) -> int:
    """The ``seq`` of the attack's post an ``incoming`` effect waits on (``attack`` names the
    effect after it: ``incoming-SEQ``); 0 for one named otherwise (a hand-kept log's)."""
    tail = incoming.effect.rpartition("-")[2]
    return int(tail) if tail.isascii() and tail.isdigit() else 0


def waiting_metres(incoming: ActiveEffect) -> int | None:
    """The distance an ``incoming`` effect keeps (``attack`` writes it when the attack is
    declared); ``None`` when it is no whole number of metres (a log edited by hand)."""
    metres = incoming.params.get("metres", 0)
    return metres if type(metres) is int and metres >= 0 else None


def resolve(scribe: Scribe, actor: str, target_id: str, weapon: WeaponCard, metres: int, declaration: int,
            reaction: Reaction | None) -> None:
    """Roll the attack, and its damage on a hit; the aim and encouragement it used end."""
    state = scribe.state
    attacker, target = Fighter.two(state, actor, target_id)
    options = attacker.options
    mods = attack_mods(attacker, target, weapon, metres, reaction)
    rolled, seq = scribe.roll("2d6", roller=actor, purpose="attack", modifiers=mods, for_seq=declaration)
    margin = effect(rolled.total, options)
    landed = rolled.total >= options.target
    resolved = scribe.emit(AttackResolved(attacker=actor, target=target_id, hit=landed, score=rolled.total,
                                          against=options.target, margin=margin, rolls=[seq], weapon=weapon.name,
                                          declaration=declaration))
    _used(scribe, attacker, declaration)
    incoming = f"{INCOMING}-{declaration}"
    if incoming in scribe.state.effects:
        scribe.emit(EffectExpired(cause=declaration, effect=incoming, target=target_id, reason="resolved"))
    if landed:
        hurt(scribe, actor, target_id, weapon, margin, resolved, reaction)


def hurt(scribe: Scribe, actor: str, target_id: str, weapon: WeaponCard, margin: int, resolved: int,
         reaction: Reaction | None = None) -> None:
    """Damage of a hit: the dice + STR DM (melee) + Effect, less armour and cover (the
    cover dived into, too: ``protection``)."""
    attacker, target = Fighter(scribe.state, actor), Fighter(scribe.state, target_id)
    mods: Mods = []
    if weapon.kind == "melee":
        mods.append((attacker.dm("STR"), "STR DM"))
    mods.append((margin, "Effect"))
    rolled, _ = scribe.roll(damage_notation(weapon.damage), roller=actor, purpose="damage",
                            modifiers=[m for m in mods if m[0]], for_seq=resolved)
    harm.damage(scribe, target_id, rolled.total, protection(target, weapon, reaction), resolved, weapon.name)


def protection(target: Fighter, weapon: WeaponCard, reaction: Reaction | None = None) -> int:
    """Armour, plus cover against ranged and thrown attacks: the cover the target dived
    into against this very attack (``dive_cover_armour``) in place of any cover held."""
    if weapon.kind == "melee":
        return target.card.armour
    if reaction is not None and reaction.kind == "dive" and reaction.cover in COVER_VALUES \
            and target.options.dive_cover_armour:
        return target.card.armour + COVER_VALUES[reaction.cover]
    cover = target.cover()
    return target.card.armour + (cover.magnitude or 0 if cover is not None else 0)


def _used(scribe: Scribe, attacker: Fighter, declaration: int) -> None:
    aim = attacker.effect(AIM)
    if aim is not None:
        scribe.emit(EffectExpired(cause=declaration, effect=aim.effect, target=attacker.actor, reason="used"))
    used_up(scribe, attacker, declaration)


def used_up(scribe: Scribe, who: Fighter, declaration: int) -> None:
    """A check took the leader's DM+1: one encouragement ends (the check's post its cause)."""
    encouraged = who.effects(ENCOURAGED)
    if encouraged:
        scribe.emit(EffectExpired(cause=declaration, effect=encouraged[0].effect, target=who.actor, reason="used"))
