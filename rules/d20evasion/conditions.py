"""Effects: how they are placed, counted down and ended (Status Effects; Damage; Spells).

Everything counts on the turns of the one who bears it (``counts_on`` is the target): a
damage-over-time effect ticks at the start of its target's turn (``harm.start_of_turn``) and
goes down by one at the end of it, only when it was in place when that turn started; a
spell's cooldown counts on its caster's turns. The bleed-out of a mortal wound counts in
rounds instead (``harm.end_of_round``). Effect names:

- from the sheet: a weapon's or spell's damage over time (``burning``, ``poison``; params
  ``dot``), a spell's change to the damage taken (``protect``; params ``damage_percent``);
- ``cooldown`` (params ``spell``), ``lost_move`` (a fumbled dodge), ``parry_fumble`` (params
  ``penalty``: on the next attack roll), ``no_counter`` (parried: no counterattack on the next defensive
  turn), ``disarmed`` (params ``weapon``, ``thrown_ft``), ``injury`` (params ``kind``,
  ``penalty``), ``bleeding_out`` (params ``round``).
"""

from __future__ import annotations

from fightlog.events.model import EffectApplied, EffectCountedDown, EffectExpired, Scalar
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.kit.table import Scribe


def apply(
    scribe: Scribe,
    name: str,
    target: str,
    *,
    source: str | None,
    duration: int | None = None,
    magnitude: int | None = None,
    cause: int | None = None,
    params: dict[str, Scalar] | None = None,
    counts: bool = True,
    refresh: bool = True,
) -> int:
    """Place effect ``name`` on ``target``; one of that name already there is replaced
    (``refresh``) rather than stacked. ``counts``: it counts down on the target's turns.
    The ``seq`` of the ``effect_applied``."""
    old = None
    if refresh:
        same = [e for e in Fighter(scribe.state, target).effects(name) if _same(e, params)]
        old = same[0] if same else None
    return scribe.emit(
        EffectApplied(
            effect=f"{name}-{scribe.next_seq}",
            name=name,
            target=target,
            source=source,
            duration=duration,
            counts_on=target if counts and duration is not None else None,
            magnitude=magnitude,
            refreshes=None if old is None else old.effect,
            cause=cause,
            params=params or {},
        )
    )


def _same(effect: ActiveEffect, params: dict[str, Scalar] | None) -> bool:
    """A cooldown is per spell; every other effect is one of its name."""
    if effect.name == "cooldown":
        return params is not None and effect.params.get("spell") == params.get("spell")
    return True


def expire(scribe: Scribe, effect: ActiveEffect, reason: str, cause: int | None = None) -> int:
    return scribe.emit(EffectExpired(effect=effect.effect, target=effect.target, reason=reason, cause=cause))


def end_of_turn(scribe: Scribe, actor: str) -> None:
    """Count down what counts on ``actor`` and was in place when the turn started; what
    reaches 0 ends."""
    who = Fighter(scribe.state, actor)
    for effect in who.effects(on=False):
        if effect.remaining is None or not who.at_turn_start(effect):
            continue
        remaining = max(0, effect.remaining - 1)
        scribe.emit(EffectCountedDown(effect=effect.effect, target=effect.target, remaining=remaining))
        if remaining == 0:
            expire(scribe, effect, "duration")
