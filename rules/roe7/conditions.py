"""Effects and debuffs: how each is applied, ticks and ends (Buffs; Debuffs; Stun; Bleed;
Chemical Burn; Suppressive Fire; Critical Success or Failure).

Debuffs count on the victim's turns, one's own effects on the initiator's; damage ticks at
the start of the victim's turn (``harm.start_of_turn``); durations go down at the end of the counting turn, only for
effects in place when that turn started (``Fighter.at_turn_start``). Effect names:

``bleed``, ``chemical_burn``, ``stun``, ``stun_immunity``, ``suppressed``, ``lost_action``,
``lost_turn`` (debuffs); ``magika_surge``, ``aim``, ``reloading``, ``reinforcements``,
``grenade`` (one's own).
"""

from __future__ import annotations

from typing import Final

from fightlog.events.model import (
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    Scalar,
)
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.roe7.fighters import Fighter
from fightlog.kit.table import Scribe

DEBUFFS: Final = frozenset({"bleed", "chemical_burn", "stun", "stun_immunity", "suppressed", "lost_action", "lost_turn"})
"""Effects that count on their target's turns (stun immunity too, though it helps)."""

HYPERACTIVE: Final = frozenset({"bleed", "chemical_burn", "stun", "suppressed"})
"""The debuffs Hyperactivity lengthens by a turn: harmful effects with a duration (not the
lost action of a critical failure, which is one action, nor stun immunity, which helps)."""


def apply(
    scribe: Scribe,
    name: str,
    target: str,
    *,
    source: str | None,
    duration: int | None,
    counts_on: str | None = None,
    magnitude: int | None = None,
    dice: str | None = None,
    stacks: int = 1,
    cause: int | None = None,
    params: dict[str, Scalar] | None = None,
    refresh: bool = True,
) -> int | None:
    """Apply effect ``name``; an effect of that name already on ``target`` is refreshed
    (replaced, not stacked) when ``refresh``. Debuffs count on the target and last one turn
    longer on a Hyperactivity feral; a debuff is never put on someone already out of the
    fight (defeated, fled): ``None`` then, else the ``seq`` of the ``effect_applied``."""
    victim = Fighter(scribe.state, target)
    if name in DEBUFFS:
        if victim.out:
            return None
        counts_on = target
        if duration is not None and victim.racial == "hyperactivity" and name in HYPERACTIVE:
            duration += 1
    old = victim.effect(name) if refresh else None
    effect_id = f"{name}-{scribe.next_seq}"
    return scribe.emit(
        EffectApplied(
            effect=effect_id,
            name=name,
            target=target,
            source=source,
            stacks=stacks,
            duration=duration,
            counts_on=counts_on,
            magnitude=magnitude,
            dice=dice,
            refreshes=None if old is None else old.effect,
            cause=cause,
            params=params or {},
        )
    )


def expire(scribe: Scribe, effect: ActiveEffect, reason: str, *, cause: int | None = None) -> int:
    """End ``effect``; ``cause``, the post that ended it (none when it ran out)."""
    return scribe.emit(EffectExpired(effect=effect.effect, target=effect.target, reason=reason, cause=cause))


def bleed(scribe: Scribe, target: str, *, source: str, cause: int) -> None:
    """Bleed: 5 a turn for 5 turns, ignoring DR; a new bleed resets the timer."""
    opts = Fighter(scribe.state, target).options
    apply(scribe, "bleed", target, source=source, duration=opts.bleed_turns, magnitude=opts.bleed_damage, cause=cause)


def stun(scribe: Scribe, target: str, *, source: str, cause: int) -> bool:
    """Stun for a turn unless immune (a stun that ended grants immunity until the end of
    the victim's next turn). Whether it took."""
    victim = Fighter(scribe.state, target)
    if victim.effect("stun_immunity") is not None or victim.effect("stun") is not None:
        return False
    apply(scribe, "stun", target, source=source, duration=victim.options.stun_turns, cause=cause)
    return True


def burn(scribe: Scribe, target: str, *, source: str, cause: int) -> None:
    """Chemical burn: one more stack (at most 3), 1d10 a stack for 3 turns; refreshed."""
    victim = Fighter(scribe.state, target)
    opts = victim.options
    old = victim.effect("chemical_burn")
    stacks = min(opts.burn_max_stacks, 1 if old is None else old.stacks + 1)
    apply(
        scribe,
        "chemical_burn",
        target,
        source=source,
        duration=opts.burn_turns,
        dice=f"1d{opts.burn_die}",
        stacks=stacks,
        cause=cause,
    )


def lose_action(scribe: Scribe, target: str, *, whole_turn: bool, source: str, cause: int | None) -> None:
    """A critical failure (or an interrupt) costs the next action; Advanced Prosthetics
    loses the whole next turn. Counted on the victim's turns: one that starts after this."""
    name = "lost_turn" if whole_turn else "lost_action"
    apply(scribe, name, target, source=source, duration=1, cause=cause, refresh=False)


# ---------------------------------------------------------------------- turn boundaries


def end_of_turn(scribe: Scribe, actor: str, *, only: frozenset[str] | None = None) -> list[ActiveEffect]:
    """Count down the effects counting on ``actor`` (``only`` those names, when given) that
    were in place at the turn's start; the ones that reach 0 expire and are returned (a
    stun's end grants immunity here)."""
    who = Fighter(scribe.state, actor)
    ended: list[ActiveEffect] = []
    for effect in who.effects(on=False):
        if effect.remaining is None or not who.at_turn_start(effect) or effect.name == "grenade":
            continue
        if only is not None and effect.name not in only:
            continue
        remaining = effect.remaining - 1
        if remaining > 0:
            scribe.emit(EffectCountedDown(effect=effect.effect, target=effect.target, remaining=remaining))
            continue
        scribe.emit(EffectCountedDown(effect=effect.effect, target=effect.target, remaining=0))
        expire(scribe, effect, "duration")
        ended.append(effect)
        if effect.name == "stun":
            apply(scribe, "stun_immunity", effect.target, source="stun ended", duration=1)
    return ended
