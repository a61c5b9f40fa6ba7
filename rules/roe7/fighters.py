"""A combatant as the RoE rules see them: state (pools, statuses, effects, position) plus
their sheet (modifiers, DR, weapons), read under the scene's options.

``Fighter`` is built per decision from the folded state; the sheet snapshot is validated once
per distinct snapshot (cached). Modifier lists are ``(value, source)`` pairs ready for a
``dice_rolled`` event; ``capped`` applies the +30 cap as one visible modifier.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property, lru_cache
from typing import Any, Final

import msgspec

from pydantic import ValidationError

from fightlog.errors import InputError, RefusedError
from fightlog.kit.inputs import describe
from fightlog.reducers.state import ActiveEffect
from fightlog.kit.fighters import Breach, FighterBase, Mods, absent, sum_mods
from fightlog.kit.options import SceneOptions
from fightlog.rules.roe7 import handkept
from fightlog.rules.roe7.options import DEFAULTS, Roe7Options, read_options
from fightlog.rules.roe7.ruleset import OUT, token
from fightlog.rules.roe7.sheet import Sheet, Weapon
from fightlog.rules.roe7.terms import DamageType, RollType
from fightlog.rules.roe7.tokens import WeaponToken

__all__ = ["UNARMED", "UNARMED_TOKEN", "Breach", "Fighter", "Mods", "absent", "capped", "options_of", "ran_out",
           "read_sheet", "sum_mods"]

UNARMED: Final = "unarmed"
UNARMED_TOKEN: Final = WeaponToken(
    text=UNARMED,
    canonical=UNARMED,
    size="S",
    family="melee",
    weapon_class="Unarmed",
    fire_mode=None,
    damage_kinds=(),
    damage_type="melee",
    damage_sides=6,
    max_range_m=3,
    effect_threshold=None,
    swings=3,
)
"""Unarmed attacks: small, three strikes of 1d6, no blunt effect (Unarmed)."""


def ran_out(effect: ActiveEffect) -> bool:
    """Whether ``effect`` is at 0 turns left: ended (Debuffs: removed at 0), whether or not a
    hand-kept log writes its expiry."""
    return effect.remaining == 0


def read_sheet(snapshot: Mapping[str, Any]) -> Sheet:
    """A sheet snapshot (``combatant_joined.sheet``, a hand-kept one too) as the rules read
    it; ``InputError`` naming the field (``sheet.hp: ...``) when they cannot, as every
    ruleset's card reader (``fightlog.kit.cards``)."""
    return _sheet(msgspec.json.encode(snapshot))


@lru_cache(maxsize=64)
def _sheet(encoded: bytes) -> Sheet:
    snapshot = msgspec.json.decode(encoded)
    try:
        if isinstance(snapshot, dict) and handkept.is_hand_kept(snapshot):
            return Sheet.from_snapshot(handkept.sheet_data(snapshot))
        return Sheet.from_snapshot(snapshot)
    except ValidationError as exc:
        raise InputError(f"sheet.{describe(exc.errors())}") from None


options_of: Final = SceneOptions(read_options, fallback=DEFAULTS)
"""The options a scene was started with (``options_of(state)``); options that do not read
give the defaults (the audit says so: ``scene.bad-options``)."""


def capped(mods: Mods, cap: int) -> Mods:
    """``mods`` with the cap applied: when they add up beyond ``cap``, one more modifier
    brings the total down to it (Modifiers: add and subtract everything, then cap)."""
    total = sum(v for v, _ in mods)
    if total > cap:
        return [*mods, (cap - total, f"cap +{cap}")]
    return mods


def _label(value: int, source: str, origin: str | None) -> tuple[int, str]:
    return value, f"{origin} ({source})" if origin else source


class Fighter(FighterBase):
    """One combatant's rules view."""

    out_statuses = OUT

    @cached_property
    def sheet(self) -> Sheet:
        """The sheet snapshot, validated (once per distinct snapshot, on first use)."""
        return _sheet(msgspec.json.encode(self.who.sheet))

    @cached_property
    def options(self) -> Roe7Options:
        """The options the scene was started with (read on first use)."""
        return options_of(self.state)

    # ------------------------------------------------------------------ standing

    @property
    def side(self) -> str | None:
        return self.who.side

    # ------------------------------------------------------------------ weapons

    def weapon(self, ref: str | None) -> tuple[WeaponToken, Weapon | None]:
        """The weapon ``ref`` names: a token as written, or a class name (``Rifle``) or
        ``SIZE_KIND_Class`` prefix that matches exactly one carried weapon; ``unarmed``;
        omitted when only one weapon is carried."""
        carried = self.sheet.weapons
        if ref is not None and ref.lower() == UNARMED:
            return UNARMED_TOKEN, None
        names = ", ".join(w.token for w in carried) or "no weapons"
        if ref is None:
            if len(carried) == 1:
                return self.read(carried[0]), carried[0]
            raise RefusedError(f"{self.actor} carries {names}: name the weapon (or weapon=unarmed)", code="rules.incomplete")
        wanted = ref.lower()
        exact = [w for w in carried if w.token.lower() == wanted or self.read(w).canonical.lower() == wanted]
        matches = exact or [
            w for w in carried if self.read(w).weapon_class.lower() == wanted or w.token.lower().startswith(wanted)
        ]
        if len(matches) == 1 or len({w.token for w in matches}) == 1:  # one, or alike: the first of them
            return self.read(matches[0]), matches[0]
        if not matches:
            raise RefusedError(f"{self.actor} carries no weapon {ref!r} (carries {names})", code="rules.not-carried")
        raise RefusedError(f"{ref!r} matches more than one of {self.actor}'s weapons ({names}): give the token",
                           code="rules.incomplete")

    def read(self, weapon: Weapon) -> WeaponToken:
        """``weapon``'s token under the scene's token options (read once, cached)."""
        found = token(weapon.token, self.options.tokens)
        if found is None:  # the sheet validated every token
            raise RefusedError(f"{weapon.token!r} is not a weapon token")
        return found

    def grenades_left(self, name: str) -> int:
        carried = sum(g.count for g in self.sheet.grenades if g.name == name)
        return carried - self.who.spent.get(name, 0)

    # ------------------------------------------------------------------ modifiers

    def mods(self, roll: RollType, weapon: Weapon | None = None) -> Mods:
        """Sheet modifiers for a roll of type ``roll`` (with ``weapon``'s attachments), and
        Nocturnal Predator's by the time of day the scene started in."""
        mods = [_label(m.value, m.source, m.origin) for m in self.sheet.modifiers_for(roll, weapon)]
        return mods + self._nocturnal(roll)

    def _nocturnal(self, roll: RollType) -> Mods:
        """Nocturnal Predator: +5 accuracy and stealth at night, -5 dodge by day (Racials)."""
        if self.racial != "nocturnal-predator":
            return []
        night = self.options.time_of_day == "night"
        if night and roll in ("melee_accuracy", "ranged_accuracy", "accuracy", "stealth"):
            return [(5, "Nocturnal Predator (racial, night)")]
        if not night and roll == "dodge":
            return [(-5, "Nocturnal Predator (racial, day)")]
        return []

    def racial_tech_mods(self) -> Mods:
        """The racial's modifiers to rolls with tech items, which for Adaptability include
        guns and explosives (Racials)."""
        return [
            _label(m.value, m.source, m.origin) for m in self.sheet.modifiers_for("tech_items") if m.source == "racial"
        ]

    def stealth_mods(self) -> Mods:
        """Stealth modifiers: the sheet's, and +5 while prone (Changing Stance)."""
        mods = self.mods("stealth")
        if self.has("prone"):
            mods.append((self.options.prone_stealth_bonus, "prone"))
        return mods

    def dodge_mods(self, *, against: str) -> Mods:
        """Dodge modifiers against an attack of family ``against`` (``melee``, ``firearm``,
        ``magika``, ``explosive``): the sheet's, cover (all dodges, or not against melee, by
        option), and prone (a penalty against melee)."""
        mods = self.mods("dodge")
        opts = self.options
        if self.has("in_cover") and (against != "melee" or opts.cover_against_melee):
            mods.append((opts.cover_bonus, "cover"))
        if self.has("prone"):
            bonus = opts.prone_dodge_bonus
            mods.append((-bonus, "prone, against melee") if against == "melee" else (bonus, "prone"))
        return mods

    def damage_mods(self, damage_type: DamageType) -> Mods:
        roll: RollType = {
            "melee": "melee_damage",
            "ballistic": "ballistic_damage",
            "explosive": "explosive_damage",
            "magika": "magika_damage",
        }[damage_type]  # type: ignore[assignment]
        mods = self.mods(roll)
        if damage_type == "magika" and self.effect("magika_surge") is not None:
            mods.append((10, "magika surge"))
        return mods

    def dr(self, damage_type: DamageType, *, ignore_armour: bool = False) -> int:
        """DR against one damage type: universal plus specific plus racial, capped at 30,
        never below 0. ``ignore_armour``: without what counts as armour (a pierce effect,
        an aimed shot): worn DR, and racial DR too unless ``racial_dr_is_armour`` is off."""
        parts = self.sheet.dr_parts(damage_type)
        if ignore_armour:
            parts = tuple(p for p in parts if not self._is_armour(p.source))
        total = sum(p.value for p in parts)
        return max(0, min(total, self.options.dr_cap))

    def armoured(self, damage_type: DamageType) -> bool:
        """Whether any armour stands against ``damage_type`` (Aimed Shots: the unarmoured
        take double damage)."""
        return any(p.value > 0 and self._is_armour(p.source) for p in self.sheet.dr_parts(damage_type))

    def _is_armour(self, source: str) -> bool:
        return source != "racial" or self.options.racial_dr_is_armour

    def movement(self) -> int:
        """Metres per movement phase: base plus racial, or the prone speed (Changing Stance:
        positive modifiers count half, at least 1 m)."""
        racial = self.sheet.racial_info.movement_m
        if self.has("prone"):
            extra = racial // 2 if racial > 0 else racial
            return max(1, self.options.prone_movement_m + extra)
        return max(1, self.options.movement_m + racial)

    @property
    def racial(self) -> str:
        return self.sheet.racial

