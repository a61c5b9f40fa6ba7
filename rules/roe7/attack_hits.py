"""What the hits of one attack action do (Steps of a Combat Turn; Weapon Special Rules;
Multiple/Automatic Shots; Suppressive Fire; Armor): the damage dice of every hit on a
target tallied, the damage modifiers once, then DR once; the melee, magika and chemical
effects the hits trigger, once per action; suppression."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from fightlog.events.model import StatusChanged
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.attack_shots import Shot
from fightlog.rules.roe7.fighters import UNARMED, Fighter, Mods, capped, sum_mods
from fightlog.rules.roe7.harm import take
from fightlog.rules.roe7.options import Roe7Options
from fightlog.rules.roe7.terms import DamageType
from fightlog.rules.roe7.tokens import WeaponToken
from fightlog.kit.table import Scribe


@dataclass
class Hits:
    """What landed on one target in one action."""

    dice: list[tuple[WeaponToken, int, int]] = field(default_factory=list)  # token, sides, multiplier
    pierce: bool = False
    cause: int | None = None


@dataclass
class Triggered:
    """Effects the hits of one action triggered, each at most once per action (melee
    effects do not stack across hits): ``(kind, target, cause)`` in the order rolled."""

    kinds: set[str] = field(default_factory=set)
    debuffs: list[tuple[str, str, int]] = field(default_factory=list)
    surge: int | None = None


EFFECT_OF: Final = {"blunt": "stun", "slash": "bleed", "whip": "prone", "magika": "magika_surge",
                    "burn": "chemical_burn"}
"""The effect (or status) each kind a hit earns leaves (``debuffs``; pierce leaves none: it
goes through armour)."""


def earned_kinds(token: WeaponToken, natural: int, total: int, opts: Roe7Options) -> tuple[str, ...]:
    """The effect kinds a successful roll with ``token`` earns (Weapon Special Rules): a
    chemical weapon's burn at ``burn_threshold`` (the unmodified die, or the total with
    ``burn_threshold_natural`` off); a melee or magika weapon's damage kinds on an unmodified
    die at the size's threshold (70/75/80). Pure: the audit judges an effect by it too."""
    if token.chemical:
        reached = natural if opts.burn_threshold_natural else total
        return ("burn",) if reached >= opts.burn_threshold else ()
    if token.family == "firearm" or not token.damage_kinds or natural < opts.effect_threshold(token.size):
        return ()
    return tuple(token.damage_kinds)


def trigger(a: Fighter, shot: Shot, natural: int, total: int, landed: Hits, triggered: Triggered, cause: int) -> None:
    """Melee and magika effects on the unmodified die of a successful roll (70/75/80 by
    size), once per action; a chemical weapon's burn on 60+ (``earned_kinds``)."""
    for kind in earned_kinds(shot.token, natural, total, a.options):
        if kind in triggered.kinds:
            continue
        triggered.kinds.add(kind)
        if kind == "pierce":
            landed.pierce = True
        elif kind == "magika":
            triggered.surge = cause
        else:
            triggered.debuffs.append((kind, shot.target, cause))


def debuffs(scribe: Scribe, a: Fighter, triggered: Triggered) -> None:
    """The triggered effects, after the damage: blunt stuns, slash bleeds, a whip knocks
    prone, a flamer burns; none lands on someone the damage took out of the fight."""
    for kind, target, cause in triggered.debuffs:
        if Fighter(scribe.state, target).out:
            continue
        if kind == "blunt":
            conditions.stun(scribe, target, source=a.actor, cause=cause)
        elif kind == "slash":
            conditions.bleed(scribe, target, source=a.actor, cause=cause)
        elif kind == "burn":
            conditions.burn(scribe, target, source=a.actor, cause=cause)
        elif kind == "whip" and not Fighter(scribe.state, target).has("prone"):
            scribe.emit(StatusChanged(actor=target, status="prone", cause=cause, note="knocked prone by a whip"))


def suppress(scribe: Scribe, a: Fighter, target: str, declaration: int) -> None:
    """Suppressive Fire: -15 accuracy until the end of the target's next turn."""
    opts = a.options
    conditions.apply(
        scribe, "suppressed", target, source=a.actor, duration=1, magnitude=-opts.suppression_penalty, cause=declaration
    )


def deal(scribe: Scribe, a: Fighter, target: str, landed: Hits, *, ignore_armour: bool, half: bool = False) -> None:
    """Damage dice of every hit on ``target`` summed, then the damage modifiers once, then DR
    once (Multiple/Automatic Shots; Armor; Dual Wielding for several damage types)."""
    opts = a.options
    t = Fighter(scribe.state, target)
    terms = [f"1d{sides}*{mult}" if mult > 1 else f"1d{sides}" for _, sides, mult in landed.dice]
    notation = " + ".join(terms)
    if half:
        notation = f"({notation}) // 2"
    types: list[DamageType] = sorted({tok.damage_type for tok, _, _ in landed.dice})
    if t.racial == "environmental-suit" and any(
        tok.damage_type == "ballistic" or "pierce" in tok.damage_kinds for tok, _, _ in landed.dice
    ):
        notation = f"{notation} + 1d10"
    mods = mixed([a.damage_mods(kind) for kind in types], opts.modifier_cap)
    rolled, seq = scribe.roll(notation, roller=a.actor, purpose="damage", modifiers=mods, for_seq=landed.cause)
    raw = max(0, rolled.total)
    drs = sorted((t.dr(kind, ignore_armour=ignore_armour) for kind in types), reverse=True)
    dr = min(opts.dr_cap, drs[0] + sum(d // 2 for d in drs[1:]))
    source = " + ".join(sorted({tok.text for tok, _, _ in landed.dice}))
    kind = types[0] if len(types) == 1 else "+".join(types)
    unarmed = all(tok.text == UNARMED for tok, _, _ in landed.dice)
    take(scribe, target, raw, dr, damage_type=kind, source=source, cause=seq, attacker=a.actor, mortal=not unarmed)


def mixed(by_type: list[Mods], cap: int) -> Mods:
    """Damage modifiers of one action: one type's, capped; several types: the largest
    total, plus half of each other (rounded down), to the cap."""
    if len(by_type) == 1:
        return capped(by_type[0], cap)
    totals = sorted(((sum_mods(m), i) for i, m in enumerate(by_type)), reverse=True)
    out: Mods = list(by_type[totals[0][1]])
    for total, i in totals[1:]:
        if total:
            out.append((total // 2, "half of another damage type's modifiers"))
    return capped(out, cap)


