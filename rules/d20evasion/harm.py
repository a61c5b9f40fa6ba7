"""Damage and what it leads to (Damage; Mortally Wounded).

Armour takes damage first; once its points are gone the rest comes off base HP; piercing
damage goes straight to HP. Damage a spell or item alters (halved, amplified, a fumbled
counter's +50%) is rounded to the nearest 5 (``round_to``, halves by ``round_halves``).
Damage over time is taken at the start of its target's turn. At 0 HP a combatant is
mortally wounded: no actions, a d20 injury roll, and two full rounds to be treated before
they die; reduced to -75 HP they are killed outright.

``alter``, ``absorb`` and ``injury_for`` are pure; the rest decide through the ``Scribe``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from fightlog.events.model import DamageApplied, EffectCountedDown, EffectTicked, HealingApplied, StatusChanged
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.d20evasion import conditions
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options
from fightlog.kit.table import Scribe

PIERCING: Final = "piercing"
"""The ``damage_type`` of damage that bypassed armour."""


class Injury(NamedTuple):
    """An injury from the d20 roll at a mortal wound: its kind and the roll penalty."""

    kind: str
    penalty: int
    note: str


def injury_for(face: int, options: D20Options) -> Injury:
    """The injury a d20 face gives (Mortally Wounded: the table lists the injuries from the
    worst; the faces each covers are options, four faces each by default)."""
    if face <= options.injury_mangled_max:
        return Injury("mangled", 0, "a mangled or severed body part: cannot move under their own power")
    if face <= options.injury_disabled_max:
        return Injury("disabled", 0, "a disabled limb: penalties at the GM's discretion")
    if face <= options.injury_concussion_max:
        return Injury("concussion", options.concussion_penalty, f"concussion: -{options.concussion_penalty} to all rolls")
    if face <= options.injury_tear_max:
        return Injury("muscle tear", options.tear_penalty, f"muscle tear or fracture: -{options.tear_penalty} to rolls")
    return Injury("scars", 0, "cool scars, no impairment")


def alter(damage: int, percents: Sequence[int], options: D20Options) -> int:
    """``damage`` times each percentage, rounded once to the nearest ``round_to`` (a half
    rounds up, or down by option). Unaltered damage (no percentages) is not rounded."""
    if not percents:
        return damage
    numerator = damage
    denominator = 1
    for percent in percents:
        numerator *= percent
        denominator *= 100
    unit = options.round_to * denominator
    steps, remainder = divmod(numerator, unit)
    twice = 2 * remainder
    if twice > unit or (twice == unit and options.round_halves == "up"):
        steps += 1
    return steps * options.round_to


def absorb(damage: int, armour: int, piercing: bool) -> tuple[int, int]:
    """``(from armour, from HP)``: armour takes what it can, the rest comes off HP;
    piercing damage bypasses armour."""
    if piercing or armour <= 0:
        return 0, damage
    taken = min(damage, armour)
    return taken, damage - taken


def damage_percents(who: Fighter) -> list[int]:
    """The changes to the damage ``who`` takes, from the effects on them (Protect halves:
    50; Amplify Damage: 150), in effect-id order."""
    return [int(e.params["damage_percent"]) for e in who.effects() if isinstance(e.params.get("damage_percent"), int)]


def dealt(who: Fighter, damage: int, extra: Iterable[int] = ()) -> tuple[int, list[int]]:
    """The damage ``who`` takes from a hit of ``damage``: altered by their effects and
    ``extra`` percentages (a fumbled counter's); with the percentages applied."""
    percents = damage_percents(who) + list(extra)
    return alter(damage, percents, who.options), percents


def take(
    scribe: Scribe,
    target: str,
    damage: int,
    *,
    piercing: bool,
    source: str,
    cause: int | None,
) -> int:
    """``target`` takes ``damage`` (already altered): armour first, unless piercing; one
    ``damage_applied`` per pool. Then a mortal wound or death. The HP taken."""
    who = Fighter(scribe.state, target)
    from_armour, from_hp = absorb(damage, who.armour, piercing)
    last = cause
    if from_armour:
        last = scribe.emit(
            DamageApplied(target=target, raw=damage, taken=from_armour, pool="armour", source=source, cause=cause)
        )
    if from_hp or not from_armour:
        last = scribe.emit(
            DamageApplied(
                target=target,
                raw=from_hp,
                taken=from_hp,
                damage_type=PIERCING if piercing and who.armour > 0 else None,
                source=source,
                cause=cause,
            )
        )
    if from_hp:
        consequences(scribe, target, cause=last)
    return from_hp


def consequences(scribe: Scribe, target: str, *, cause: int | None) -> None:
    """After damage: killed outright at ``killed_at_hp``; mortally wounded at 0 HP."""
    who = Fighter(scribe.state, target)
    if who.has("dead"):
        return
    if who.hp <= who.options.killed_at_hp:
        kill(scribe, who, cause=cause, note=f"reduced to {who.hp} HP: killed outright")
    elif who.hp <= 0 and not who.has("mortally_wounded"):
        mortally_wound(scribe, who, cause=cause)


def mortally_wound(scribe: Scribe, who: Fighter, *, cause: int | None) -> None:
    """0 HP: mortally wounded (no actions), the d20 injury roll, two rounds to bleed out."""
    opts = who.options
    target = who.actor
    scribe.emit(StatusChanged(actor=target, status="mortally_wounded", cause=cause,
                              note=f"{who.hp} HP: {opts.bleed_out_rounds} rounds to be treated"))
    rolled, seq = scribe.roll("1d20", roller=target, purpose="injury", label="injury roll", for_seq=cause)
    injury = injury_for(rolled.dice[0].face, opts)
    conditions.apply(scribe, "injury", target, source="mortal wound", cause=seq,
                     params={"kind": injury.kind, "penalty": injury.penalty, "note": injury.note}, refresh=False)
    conditions.apply(scribe, "bleeding_out", target, source="mortal wound", duration=opts.bleed_out_rounds,
                     cause=cause, params={"round": scribe.state.turn.round}, counts=False)


def kill(scribe: Scribe, who: Fighter, *, cause: int | None, note: str) -> None:
    if who.has("mortally_wounded"):
        scribe.emit(StatusChanged(actor=who.actor, status="mortally_wounded", on=False, cause=cause))
    for effect in who.effects("bleeding_out"):
        conditions.expire(scribe, effect, "died", cause)
    scribe.emit(StatusChanged(actor=who.actor, status="dead", cause=cause, note=note))


def heal(scribe: Scribe, target: str, amount: int, *, pool: str, source: str, cause: int | None) -> None:
    """Restore ``amount`` to a pool. Healing treats a mortal wound: the countdown stops, and
    back above 0 HP the combatant is back in the fight (the injury stays). What is healed
    beyond the pool's maximum is lost."""
    who = Fighter(scribe.state, target)
    ceiling = who.who.pool_max.get(pool)
    if ceiling is not None:
        amount = max(0, min(amount, ceiling - who.who.pools.get(pool, 0)))
    seq = scribe.emit(HealingApplied(target=target, amount=amount, pool=pool, source=source, cause=cause))
    if pool != "hp":
        return
    who = Fighter(scribe.state, target)
    if not who.has("mortally_wounded"):
        return
    for effect in who.effects("bleeding_out"):
        conditions.expire(scribe, effect, "treated", cause=seq)
    if who.hp > 0:
        scribe.emit(StatusChanged(actor=target, status="mortally_wounded", on=False, cause=seq,
                                  note="treated: back in the fight, the injury stays"))


def is_dot(effect: ActiveEffect) -> bool:
    return effect.params.get("dot") is True


def start_of_turn(scribe: Scribe, actor: str) -> None:
    """Damage over time is taken at the start of its target's turn, each effect once, in
    effect-id order, until the target is out."""
    for effect in Fighter(scribe.state, actor).effects():
        if not is_dot(effect):
            continue
        if Fighter(scribe.state, actor).out:
            return
        tick = scribe.emit(EffectTicked(effect=effect.effect, target=actor, remaining=effect.remaining))
        victim = Fighter(scribe.state, actor)
        amount, _ = dealt(victim, effect.magnitude or 0)
        take(scribe, actor, amount, piercing=victim.options.dot_bypasses_armour, source=effect.name, cause=tick)


def end_of_round(scribe: Scribe) -> None:
    """The round is over: each mortal wound from an earlier round counts down; at 0 the
    combatant has bled out."""
    round_ = scribe.state.turn.round
    bleeding = [e for e in scribe.state.effects.values() if e.name == "bleeding_out"]
    for effect in sorted(bleeding, key=lambda e: e.effect):
        started = effect.params.get("round")
        if not isinstance(started, int) or started >= round_ or effect.remaining is None:
            continue
        remaining = max(0, effect.remaining - 1)
        scribe.emit(EffectCountedDown(effect=effect.effect, target=effect.target, remaining=remaining))
        if remaining == 0:
            who = Fighter(scribe.state, effect.target)
            conditions.expire(scribe, effect, "duration")
            scribe.emit(StatusChanged(actor=who.actor, status="mortally_wounded", on=False))
            scribe.emit(StatusChanged(actor=who.actor, status="dead", note="bled out: not treated in time"))
