"""From a hit to a Wound (Damage; Armor; Marking Wounds; The Immediate Effects; Roll with it;
The aftermath): armour layers struck by the white die take their Protection off the Damage,
rolling with it takes 2 more, and what is left marks the Wounds circle below it, or the
nearest empty one to the right. A Wound higher than Toughness incapacitates; more than 5
above kills (``irreversible_death``). The bleeding the fight leaves (The aftermath) is kept
with the Wounds: a Wound equal to Toughness bleeds slowly, a higher one badly, unless Medicine
stopped it since the last Wound (``update_bleeding``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from fightlog.events.model import DamageApplied, EffectApplied, EffectExpired, StatusChanged
from fightlog.kit.table import Scribe
from fightlog.rules.en51.bw import armour_struck
from fightlog.rules.en51.card import TRACK, ArmourCard, wound_pool
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import En51Options


class Harm(NamedTuple):
    """What a hit does: the Damage before armour, what armour and rolling with it take off,
    the layers struck, the Damage left."""

    raw: int
    protection: int
    rolled: int
    struck: tuple[str, ...]

    @property
    def left(self) -> int:
        return max(0, self.raw - self.protection - self.rolled)


def harm(raw: int, white: int, armour: Iterable[ArmourCard], rolled: int) -> Harm:
    """The Damage ``raw`` through the armour layers the white die strikes, less ``rolled``."""
    struck = [layer for layer in armour if armour_struck(white, layer.coverage)]
    return Harm(raw, sum(layer.protection for layer in struck), rolled, tuple(layer.name for layer in struck))


def wound_circle(marked: Iterable[int], damage: int) -> int | None:
    """The circle a Wound of ``damage`` marks: the one below the Damage, or the nearest empty
    one to the right; ``None`` for no Damage or no empty circle left."""
    if damage <= 0:
        return None
    taken = set(marked)
    for circle in range(min(damage, TRACK), TRACK + 1):
        if circle not in taken:
            return circle
    return None


BLEEDING = ("bleeding_slowly", "bleeding_badly")


def bleeding(wounds: Iterable[int], toughness: int) -> str | None:
    """The aftermath of a fight: a Wound above Toughness bleeds badly, one equal to it slowly."""
    marked = list(wounds)
    if any(w > toughness for w in marked):
        return "bleeding_badly"
    if toughness in marked:
        return "bleeding_slowly"
    return None


def bleeding_of(who: Fighter) -> str | None:
    """The bleeding ``who``'s Wounds give (``bleeding``), none once Medicine stopped it (an
    effect ``treated``)."""
    return None if who.effect("treated") is not None else bleeding(who.wounds(), who.card.toughness)


def update_bleeding(scribe: Scribe, actor: str, cause: int | None) -> None:
    """``actor``'s bleeding statuses after their Wounds changed: what the Wounds give, none
    for the dead (``bleeding_of``)."""
    who = Fighter(scribe.state, actor)
    now = None if who.has("dead") else bleeding_of(who)
    for status in BLEEDING:
        if who.has(status) and status != now:
            scribe.emit(StatusChanged(actor=actor, status=status, on=False, cause=cause))
    if now is not None and not who.has(now):
        scribe.emit(StatusChanged(actor=actor, status=now, cause=cause, note="the aftermath: bleeding after the fight"))


def condition(wound: int, toughness: int, options: En51Options) -> str | None:
    """The status a Wound gives: ``dead`` more than 5 above Toughness (with
    ``irreversible_death``), ``incapacitated`` above it, else none."""
    if options.irreversible_death and wound > toughness + 5:
        return "dead"
    if wound > toughness:
        return "incapacitated"
    return None


def marked_at_join(scribe: Scribe, actor: str, cause: int, options: En51Options) -> None:
    """The statuses the Wounds a sheet comes with imply (The Immediate Effects; The
    aftermath): incapacitated or dead by the highest, the bleeding they give."""
    who = Fighter(scribe.state, actor)
    wounds = who.wounds()
    if not wounds:
        return
    status = condition(max(wounds), who.card.toughness, options)
    if status is not None:
        scribe.emit(StatusChanged(actor=actor, status=status, cause=cause,
                                  note=f"Wound {max(wounds)} marked on the sheet, Toughness {who.card.toughness}"))
    update_bleeding(scribe, actor, cause)


def wound(scribe: Scribe, target: str, hurt: Harm, cause: int, source: str, options: En51Options) -> None:
    """Mark the Wound ``hurt`` leaves on ``target`` and its immediate effects."""
    who = Fighter(scribe.state, target)
    left = hurt.left
    circle = wound_circle(who.wounds(), left)
    pool = wound_pool(circle if circle is not None else max(1, min(left, TRACK)))
    scribe.emit(DamageApplied(target=target, raw=hurt.raw, reduced_by=hurt.raw - left, taken=1 if circle else 0,
                              pool=pool, source=source, cause=cause))
    if left <= 0:
        return
    for effect in who.effects("treated"):  # a new Wound: bleeding again (Using Medicine)
        scribe.emit(EffectExpired(cause=cause, effect=effect.effect, target=target, reason="a new Wound"))
    value = max(circle or 0, left)  # the Damage left, even above the last circle (or with none free)
    status = condition(value, who.card.toughness, options)
    if status is not None and not who.has(status) and not who.has("dead"):
        note = f"Wound {value} against Toughness {who.card.toughness}"
        scribe.emit(StatusChanged(actor=target, status=status, cause=cause, note=note))
    update_bleeding(scribe, target, cause)


OWED = "roll_owed"
"""The effect of actions lost rolling with it beyond the next one (magnitude: how many)."""


def roll_with_it(scribe: Scribe, actor: str, cause: int, minus: int) -> None:
    """Rolling with a hit (Roll with it): the next available action sacrificed (status
    ``rolling``); each roll sacrifices one, so a roll while the next is already lost costs the
    one after it (effect ``roll_owed``)."""
    who = Fighter(scribe.state, actor)
    if not who.has("rolling"):
        scribe.emit(StatusChanged(actor=actor, status="rolling", cause=cause,
                                  note=f"rolls with it: -{minus} Damage, the next action lost"))
        return
    owed = who.effect(OWED)
    more = (owed.magnitude or 0) + 1 if owed is not None else 1
    if owed is not None:
        scribe.emit(EffectExpired(cause=cause, effect=owed.effect, target=actor, reason="rolled with another hit"))
    scribe.emit(EffectApplied(effect=f"{OWED}-{scribe.next_seq}", name=OWED, target=actor, source=actor,
                              magnitude=more, cause=cause))


def rolled_off(scribe: Scribe, actor: str, cause: int | None, note: str) -> None:
    """The action lost rolling with it has gone (``note`` says which): ``rolling`` ends, and
    when another roll is owed the next action is lost in turn."""
    scribe.emit(StatusChanged(actor=actor, status="rolling", on=False, cause=cause, note=note))
    owed = Fighter(scribe.state, actor).effect(OWED)
    if owed is None:
        return
    scribe.emit(EffectExpired(cause=cause, effect=owed.effect, target=actor, reason="the next action lost"))
    if (owed.magnitude or 0) > 1:
        scribe.emit(EffectApplied(effect=f"{OWED}-{scribe.next_seq}", name=OWED, target=actor, source=actor,
                                  magnitude=(owed.magnitude or 0) - 1, cause=cause))
    scribe.emit(StatusChanged(actor=actor, status="rolling", cause=cause,
                              note="rolled with another hit: the next action lost too"))
