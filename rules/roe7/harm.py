"""Damage taken, and what it leads to: defeat (Wounded), the mortal-wound save (Mortal
Wound), a downed flamer user's explosion (Weapon Special Rules, Flamers); dodging a blast
(Explosives); and the damage debuffs deal at the start of the victim's turn (Steps of a
Combat Turn; Bleed; Chemical Burn).

Every function decides through the ``Scribe``: it emits the events and folds them, so what
follows sees the new HP.
"""

from __future__ import annotations


from fightlog.events.model import DamageApplied, EffectTicked, HealingApplied, StatusChanged
from fightlog.reducers.state import ActiveEffect
from fightlog.dice import RollResult
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.geometry import within
from fightlog.rules.roe7.ruleset import DAMAGING as DAMAGING  # also the ruleset's harm_period
from fightlog.kit.table import Scribe


def take(
    scribe: Scribe,
    target: str,
    raw: int,
    reduced_by: int,
    *,
    damage_type: str | None,
    source: str,
    cause: int | None,
    attacker: str | None = None,
    mortal: bool = True,
) -> int:
    """Apply ``raw`` damage less ``reduced_by`` to ``target``'s HP; then defeat and the
    mortal-wound save (not for ``mortal=False``: unarmed blows, which the rulebook names as
    the way to fight without that risk). Returns the HP taken."""
    who = Fighter(scribe.state, target)
    before = who.hp
    reduced, taken = reduce_damage(raw, reduced_by)
    seq = scribe.emit(
        DamageApplied(
            target=target, raw=raw, reduced_by=reduced, taken=taken, damage_type=damage_type, source=source, cause=cause
        )
    )
    after = before - taken
    if before > 0 and after <= 0:
        downed(scribe, target, cause=seq, struck=taken if mortal else 0, before=before, attacker=attacker)
    return taken


def reduce_damage(raw: int, reduced_by: int) -> tuple[int, int]:
    """Armor: DR comes off the tallied damage, never below 0: ``(reduced_by, taken)`` as
    ``damage_applied`` records them (DR beyond the damage counts only up to it)."""
    reduced = min(reduced_by, raw)
    return reduced, raw - reduced


def downed(scribe: Scribe, target: str, *, cause: int, struck: int, before: int, attacker: str | None) -> None:
    """``target`` reached 0 HP: defeated and wounded; the mortal-wound save when struck for
    double the HP they had (or more); a flamer user's 1d100 for the tank exploding."""
    who = Fighter(scribe.state, target)
    opts = who.options
    hours = 2 if who.racial == "amorphous-form" else opts.wound_hours
    scribe.emit(StatusChanged(actor=target, status="defeated", cause=cause))
    scribe.emit(
        StatusChanged(
            actor=target, status="wounded", cause=cause, note=f"out of combat for {hours} real hours"
        )
    )
    if struck >= 2 * before:
        result, seq = scribe.roll(
            "1d100", roller=target, purpose="save", label="mortal wound save", for_seq=cause
        )
        if result.total <= opts.mortal_wound_save:
            scribe.emit(
                StatusChanged(
                    actor=target,
                    status="mortally_wounded",
                    cause=seq,
                    note=f"struck for {struck} with {before} HP left; saved {result.total}, needed more than {opts.mortal_wound_save}",
                )
            )
    _flamer_explodes(scribe, who, cause)


def _flamer_explodes(scribe: Scribe, who: Fighter, cause: int) -> None:
    """A downed flamer user: 1d100, 25 or lower and the tank explodes for 1d50 explosive
    damage: on the user without a dodge (their explosive DR applies), and on everyone else
    within the 5 m diameter, who may dodge (see ``flamer_blast_difficulty``)."""
    chemical = [w for w in who.sheet.weapons if who.read(w).chemical]
    if not chemical:
        return
    opts = who.options
    result, seq = scribe.roll("1d100", roller=who.actor, purpose="save", label="fuel tank", for_seq=cause)
    if result.total > opts.flamer_explosion_chance:
        return
    blast, blast_seq = scribe.roll(
        f"1d{opts.flamer_explosion_die}", roller=who.actor, purpose="damage", label="fuel tank explosion", for_seq=seq
    )
    take(
        scribe, who.actor, blast.total, who.dr("explosive"), damage_type="explosive", source="fuel tank explosion",
        cause=blast_seq,
    )
    centre = who.position
    if centre is None:
        return
    near = [
        actor
        for actor in sorted(scribe.state.combatants)
        if actor != who.actor and _in_blast(Fighter(scribe.state, actor), centre, opts.flamer_explosion_diameter_m)
    ]
    if not near:
        return
    difficulty, difficulty_seq = blast.total, blast_seq
    if opts.flamer_blast_difficulty == "d100":
        rolled, difficulty_seq = scribe.roll(
            "1d100", roller=who.actor, purpose="explosive", label="fuel tank explosion", for_seq=blast_seq
        )
        difficulty = rolled.total
    for actor in near:
        other = Fighter(scribe.state, actor)
        dodge, dodge_seq = blast_dodge(scribe, other, for_seq=difficulty_seq)
        if dodged(dodge, difficulty, opts.explosive_tie_to_dodger):
            continue
        take(
            scribe, actor, blast.total, other.dr("explosive"), damage_type="explosive",
            source="fuel tank explosion", cause=dodge_seq,
        )


def _in_blast(other: Fighter, centre: tuple[int, int], diameter: int) -> bool:
    spot = other.position
    return not other.out and spot is not None and within(centre, spot, diameter)


def dodged(dodge: RollResult, difficulty: int, tie_to_dodger: bool) -> bool:
    """Whether a dodge roll avoids an explosion of ``difficulty`` (Explosives): a natural
    100 always does, a natural 1 never does (Critical Success or Failure); a tie does when
    ``tie_to_dodger``."""
    return blast_dodged(dodge.dice[0].face, dodge.total, difficulty, tie_to_dodger)


def blast_dodged(face: int, total: int, difficulty: int, tie_to_dodger: bool) -> bool:
    """``dodged`` on a dodge's natural ``face`` and ``total``."""
    if face in (1, 100):
        return face == 100
    return total > difficulty or (tie_to_dodger and total == difficulty)


def blast_dodge(scribe: Scribe, who: Fighter, *, for_seq: int) -> tuple[RollResult, int]:
    """A 1d100 dodge against an explosion (cover and prone count); a natural 1 costs the
    next action as well."""
    opts = who.options
    rolled, seq = scribe.roll(
        "1d100", roller=who.actor, purpose="dodge", modifiers=capped(who.dodge_mods(against="explosive"), opts.modifier_cap),
        for_seq=for_seq,
    )
    if rolled.dice[0].face == 1:
        conditions.lose_action(scribe, who.actor, whole_turn=who.racial == "advanced-prosthetics",
                               source="critical failure on defence", cause=seq)
    return rolled, seq


def bleed_damage(effect: ActiveEffect) -> int:
    """A bleed tick's damage (5 by default), which ignores DR."""
    return effect.magnitude or 0


def burn_notation(effect: ActiveEffect) -> str:
    """A chemical burn tick's roll: its die once per stack (1d10 a stack by default)."""
    return f"{effect.stacks}d{(effect.dice or '1d10').split('d')[1]}"


def start_of_turn(scribe: Scribe, actor: str) -> None:
    """Debuffs that deal damage take it now (Steps of a Combat Turn, first step); Healing
    Factor's 2 HP a round."""
    for effect in Fighter(scribe.state, actor).effects():
        if effect.name not in DAMAGING:
            continue
        if Fighter(scribe.state, actor).out:
            return
        tick = scribe.emit(EffectTicked(effect=effect.effect, target=actor, remaining=effect.remaining))
        victim = Fighter(scribe.state, actor)
        if effect.name == "bleed":
            take(scribe, actor, bleed_damage(effect), 0, damage_type=None, source="bleed", cause=tick)
            continue
        rolled, roll_seq = scribe.roll(
            burn_notation(effect),
            roller=effect.source or actor,
            purpose="damage",
            label="chemical burn",
            for_seq=tick,
        )
        dr = 0 if victim.options.burn_ignores_dr else victim.dr("explosive")
        take(scribe, actor, rolled.total, dr, damage_type="explosive", source="chemical burn", cause=roll_seq)
    who = Fighter(scribe.state, actor)
    if who.racial == "healing-factor" and not who.out:
        ceiling = who.who.pool_max.get("hp", who.hp)
        amount = min(2, ceiling - who.hp)
        if amount > 0:
            scribe.emit(HealingApplied(target=actor, amount=amount, source="Healing Factor"))
