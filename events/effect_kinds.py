"""Effects and statuses: ``effect_applied``, ``effect_ticked``, ``effect_counted_down``,
``effect_expired``, ``status_changed``."""

from typing import Annotated

from msgspec import Meta

from fightlog.events.base import Event, Id, Scalar


class EffectApplied(Event, tag="effect_applied", kw_only=True, frozen=True):
    """An effect placed on a target: bleed, stun, burn, a buff, a zone's hold on someone.

    ``effect`` is a scene-unique id so ticks and expiry can name it. ``duration`` is in turns
    (absent: until removed); ``counts_on`` says whose turns count it down (the victim's for a
    debuff, the source's for one's own effects); ``magnitude`` or ``dice`` give the per-tick
    impact; ``refreshes`` names an earlier effect this one resets instead of stacking with;
    ``params`` holds what else the ruleset needs (a grenade's spot and blast, an aim's target).
    """

    effect: Id
    name: str
    target: Id
    source: str | None = None
    stacks: Annotated[int, Meta(ge=1)] = 1
    duration: Annotated[int, Meta(ge=0)] | None = None
    counts_on: str | None = None
    magnitude: int | None = None
    dice: str | None = None
    refreshes: str | None = None
    cause: int | None = None
    params: dict[str, Scalar] = {}


class EffectTicked(Event, tag="effect_ticked", kw_only=True, frozen=True):
    """An effect took hold for a turn (a bleed or burn firing at the start of the victim's
    turn). Damage it deals follows as ``damage_applied`` with ``cause`` set to this ``seq``."""

    effect: Id
    target: Id
    remaining: int | None = None


class EffectCountedDown(Event, tag="effect_counted_down", kw_only=True, frozen=True):
    """An effect's duration went down by one at the end of the counting turn.
    ``remaining`` is the number of turns left afterwards."""

    effect: Id
    target: Id
    remaining: Annotated[int, Meta(ge=0)]


class EffectExpired(Event, tag="effect_expired", kw_only=True, frozen=True):
    """An effect ended: its duration ran out, or it was removed (extinguished, cured,
    replaced by a refresh); ``cause`` the event that removed it, when one did (the healing
    that treated a wound: voided, it leaves the effect running)."""

    effect: Id
    target: Id
    reason: str = "duration"
    cause: int | None = None


class StatusChanged(Event, tag="status_changed", kw_only=True, frozen=True):
    """A status gained (``on``) or lost: ``stunned``, ``prone``, ``kneeling``, ``held``,
    ``hidden``, ``disarmed``, ``wounded``, ``mortally_wounded``, ``defeated``, ``fled``,
    ``arrived``, ``unconscious``, ``delaying``, ``holding``, ``immune_stun``..."""

    actor: Id
    status: str
    on: bool = True
    cause: int | None = None
    note: str | None = None
