"""Health and Dying: HP lost; at 0 unconscious with a level of fatigue; below 0 bleeding out
(``bleed_out`` a round) with a Body check each round to stabilize (Body - |HP| against the
rounds bled); a medic's stabilize (Medic - |HP| against the same); dead when the negative HP
exceeds Body.
"""

from __future__ import annotations

from fightlog.events.model import DamageApplied, EffectApplied, EffectExpired, EffectTicked, StatusChanged
from fightlog.kit.table import Scribe
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.bleedingsun import grapple
from fightlog.rules.bleedingsun.fighters import BLEEDING, FATIGUE, Fighter
from fightlog.rules.bleedingsun.pools import roll_pool


def fatigue(scribe: Scribe, actor: str, cause: int | None, kind: str, why: str) -> None:
    """A level of fatigue (``temporary`` or ``short``): one effect a kind, its magnitude the
    levels taken."""
    ident = f"{FATIGUE}-{actor}-{kind}"
    had = scribe.state.effects.get(ident)
    levels = (had.magnitude or 0) + 1 if had is not None else 1
    scribe.emit(EffectApplied(effect=ident, name=FATIGUE, target=actor, cause=cause, magnitude=levels,
                              refreshes=ident if had is not None else None, params={"kind": kind, "why": why}))


def dead_at(body: int, hp: int) -> bool:
    """Death: the negative HP exceeds Body."""
    return -hp > body


def stabilize_pool(skill: int, hp: int) -> int:
    """The pool of a stabilize check: the skill (Body, or a healer's Medic) less |HP|."""
    return skill - abs(hp)


def hurt(scribe: Scribe, target: str, raw: int, reduced: int, *, source: str | None, cause: int | None,
         damage_type: str | None = None) -> None:
    """Apply damage (``raw`` less ``reduced``) and what follows it."""
    before = Fighter(scribe.state, target).hp
    taken = max(0, raw - reduced)
    scribe.emit(DamageApplied(target=target, raw=raw, reduced_by=min(raw, reduced), taken=taken, source=source,
                              cause=cause, damage_type=damage_type))
    after(scribe, target, before, scribe.state.seq)


def after(scribe: Scribe, target: str, before: int, cause: int) -> None:
    """Unconscious at 0, bleeding out below it, dead beyond Body."""
    who = Fighter(scribe.state, target)
    hp = who.hp
    if who.has("dead"):
        return
    if dead_at(who.attr("body"), hp):
        die(scribe, target, cause, f"{hp} HP: beyond -{who.attr('body')} (Body)")
        return
    if hp <= 0 and not who.has("unconscious"):
        scribe.emit(StatusChanged(actor=target, status="unconscious", cause=cause, note=f"{hp} HP"))
        fatigue(scribe, target, cause, "temporary", "fell unconscious")
        grapple.end(scribe, target, cause, f"{target} is out")
    if hp < 0 and not who.effects(BLEEDING) and not who.has("stable"):
        scribe.emit(EffectApplied(effect=f"{BLEEDING}-{target}-{cause}", name=BLEEDING, target=target, cause=cause,
                                  magnitude=who.options.bleed_out,
                                  params={"round": scribe.state.turn.round, "from": "hp"}))
    elif hp < 0 and who.has("stable") and hp < before:
        scribe.emit(StatusChanged(actor=target, status="stable", on=False, cause=cause, note="hurt again"))
        scribe.emit(EffectApplied(effect=f"{BLEEDING}-{target}-{cause}", name=BLEEDING, target=target, cause=cause,
                                  magnitude=who.options.bleed_out,
                                  params={"round": scribe.state.turn.round, "from": "hp"}))


def die(scribe: Scribe, target: str, cause: int, note: str) -> None:
    """``target`` dies: no more bleeding, no grapple."""
    scribe.emit(StatusChanged(actor=target, status="dead", cause=cause, note=note))
    grapple.end(scribe, target, cause, f"{target} is dead")
    for found in Fighter(scribe.state, target).effects(BLEEDING):
        scribe.emit(EffectExpired(cause=cause, effect=found.effect, target=target, reason="dead"))


def bleed_all(scribe: Scribe) -> None:
    """At the start of a round: every bleed started in an earlier round ticks, then the
    bleeder checks to stabilize."""
    round_ = scribe.state.turn.round
    for found in sorted(scribe.state.effects.values(), key=lambda e: e.applied):
        if found.name != BLEEDING or int(found.params.get("round", round_)) >= round_:
            continue
        _tick(scribe, found)


def _tick(scribe: Scribe, found: ActiveEffect) -> None:
    target = found.target
    tick = scribe.emit(EffectTicked(effect=found.effect, target=target))
    hurt(scribe, target, found.magnitude or 0, 0, source="bleeding out", cause=tick, damage_type="bleed")
    who = Fighter(scribe.state, target)
    if who.has("dead") or found.params.get("from") != "hp":
        return
    rounds = found.ticks + 1
    dice = stabilize_pool(who.attr("body"), who.hp) - who.stagger()
    rolled = roll_pool(scribe, dice, who.options, roller=target, purpose="stabilize",
                       label=f"stabilize: body {who.attr('body')} - |{who.hp}| vs {rounds}")
    if rolled.hits >= rounds:
        stable(scribe, target, found, rolled.seq or tick, "stabilized (Body check)")


def stable(scribe: Scribe, target: str, found: ActiveEffect, cause: int, why: str) -> None:
    scribe.emit(EffectExpired(effect=found.effect, target=target, reason=why, cause=cause))
    scribe.emit(StatusChanged(actor=target, status="stable", cause=cause, note=why))


def rounds_bled(found: ActiveEffect) -> int:
    return max(1, found.ticks)
