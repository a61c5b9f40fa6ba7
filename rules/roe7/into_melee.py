"""Firing into Melee: an ally directly in the line of fire dodges every shot that missed;
automatic fire (or a shotgun beyond 10 m) hits others near the target for half the dice."""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import AttackResolved
from fightlog.rules.roe7.attack_hits import Hits, deal, suppress
from fightlog.rules.roe7.attack_rolls import stray_hit
from fightlog.rules.roe7.attack_shots import Shot
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.geometry import distance
from fightlog.kit.table import Scribe


def stray(scribe: Scribe, a: Fighter, shot: Shot, score: int, ally: str, declaration: int) -> None:
    """Firing into Melee: an ally directly in the way dodges every shot that missed."""
    if ally not in scribe.state.combatants:
        raise RefusedError(f"through={ally}: {ally} is not in the fight", code="rules.target")
    who = Fighter(scribe.state, ally)
    if who.out:
        return
    rolled, seq = scribe.roll(
        "1d100",
        roller=ally,
        purpose="dodge",
        modifiers=capped(who.dodge_mods(against="firearm"), a.options.modifier_cap),
        for_seq=declaration,
        label="in the line of fire",
    )
    hit = stray_hit(score, rolled.total, rolled.dice[0].face)
    resolved = scribe.emit(
        AttackResolved(
            attacker=a.actor,
            target=ally,
            hit=hit,
            score=score,
            against=rolled.total,
            rolls=[seq],
            weapon=shot.token.text,
            declaration=declaration,
            notes=["a missed shot at the ally in the line of fire"],
        )
    )
    if hit:
        landed = Hits(dice=[(shot.token, shot.damage_sides, 1)], cause=resolved)
        deal(scribe, a, ally, landed, ignore_armour=False)


def bystanders(
    scribe: Scribe, a: Fighter, shots: list[Shot], names: str, declaration: int, *, suppressive: bool
) -> None:
    """Automatic fire into a melee: everyone else within 3 m of the primary target (or in the
    line of fire) dodges at +15 and takes half of the dice that hit them, with the full
    damage modifier. Each secondary rolls the dice of the shots that hit them."""
    opts = a.options
    primary = Fighter(scribe.state, shots[0].target)
    results = [
        e for e in scribe.events
        if isinstance(e, AttackResolved) and e.declaration == declaration and e.target == primary.actor and e.weapon
    ]
    for name in [n for n in names.split(",") if n]:
        if name not in scribe.state.combatants:
            raise RefusedError(f"secondaries: {name} is not in the fight", code="rules.target")
        who = Fighter(scribe.state, name)
        if who.out or name in (a.actor, primary.actor):
            continue
        if primary.position is not None and who.position is not None:
            if distance(primary.position, who.position) > opts.melee_bystander_range_m:
                raise RefusedError(
                    f"secondaries: {name} is not within {opts.melee_bystander_range_m} m of {primary.actor}"
                )
        mods = [*who.dodge_mods(against="firearm"), (opts.cover_bonus, "caught in a melee")]
        rolled, seq = scribe.roll(
            "1d100", roller=name, purpose="dodge", modifiers=capped(mods, opts.modifier_cap), for_seq=declaration
        )
        landed = Hits()
        for shot, result in zip(shots, results):
            if stray_hit(result.score, rolled.total, rolled.dice[0].face):
                landed.dice.append((shot.token, shot.damage_sides, 1))
        resolved = scribe.emit(
            AttackResolved(
                attacker=a.actor,
                target=name,
                hit=bool(landed.dice),
                score=max((r.score for r in results), default=0),
                against=rolled.total,
                rolls=[seq],
                weapon=shots[0].token.text,
                declaration=declaration,
                notes=[f"caught in automatic fire at {primary.actor}: {len(landed.dice)} of {len(results)} shots, half damage"],
            )
        )
        if landed.dice:
            landed.cause = resolved
            deal(scribe, a, name, landed, ignore_armour=False, half=True)
        if suppressive:
            suppress(scribe, a, name, declaration)
