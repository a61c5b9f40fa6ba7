"""The RoE 7th Edition character sheet: validated input and computed views.

A ``Sheet`` holds what a player writes: HP, race and racial, size class, modifiers with their
source, damage reduction, weapons (tokens with attachments) and the cybernetic, implant and
magika slots. Validation refuses what the rulebook forbids outright (a racial of another race,
more slots than the racial allows, a third or a repeated attachment, the same item twice in a
slot kind); it does not refuse modifiers that add up beyond +30, because the cap applies when
rolling: the computed views (``total``, ``dr_for``) apply it.

Racial and size-class modifiers are never written: the views derive them, with source
``racial`` and ``size class``. ``to_snapshot`` gives the plain JSON for
``CombatantJoined.sheet``. Pydantic is imported here: never import this module from the
light paths (events, reducers, verify).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal, NamedTuple

from pydantic import (
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from fightlog.errors import InputError
from fightlog.kit.inputs import FieldProblem, Seq, Strict
from fightlog.rules.roe7 import races
from fightlog.rules.roe7.races import Racial
from fightlog.rules.roe7.terms import (
    BASE_MOVEMENT_M,
    DR_CAP,
    MODIFIER_CAP,
    SIZES,
    SLOTS_PER_KIND,
    DamageType,
    DrType,
    RollType,
    Size,
    SizeClass,
    counted_for,
)
from fightlog.rules.roe7.tokens import DEFAULT_OPTIONS, TokenOptions, WeaponToken, parse_token

Source = Literal["stats", "skills", "items", "racial", "size class"]
"""Where a modifier comes from. Sheets write ``stats``, ``skills`` and ``items``; the views add
``racial`` and ``size class``."""

WRITTEN_SOURCES: Final = ("stats", "skills", "items")

MAX_ATTACHMENTS: Final = 2
"""A weapon holds at most two attachments, never two of one name (Weapon Special Rules)."""

SlotKind = Literal["cybernetics", "implants", "magika"]
SLOT_KINDS: Final[tuple[SlotKind, ...]] = ("cybernetics", "implants", "magika")

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]

Value = Annotated[int, Field(ge=-1000, le=1000)]
"""A modifier's value: far past the rulebook's +30 cap, well within the dice's limits."""

Reduction = Annotated[int, Field(ge=0, le=1000)]

MODIFIERS_MAX: Final = 100
"""The most modifiers a sheet writes; a slot item or attachment grants at most ``ITEM_MODIFIERS_MAX``.
With ``Value``'s bounds, a roll's modifiers then add up to well within the dice's limits."""

ITEM_MODIFIERS_MAX: Final = 20


class Modifier(Strict):
    """A number added to rolls of one type, and where it comes from. ``origin`` names the
    stat, skill, item, racial or size class, for the breakdown."""

    value: Value
    source: Source
    applies_to: RollType
    origin: str | None = None


class ItemModifier(Strict):
    """A modifier granted by a slotted item or an attachment (its source is ``items``)."""

    applies_to: RollType
    value: Value


class SlotItem(Strict):
    """A cybernetic, implant or magika stone: a name and what it grants. Written as a plain
    string when it grants nothing the sheet needs to count."""

    name: Name
    modifiers: Annotated[Seq[ItemModifier], Field(max_length=ITEM_MODIFIERS_MAX)] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data


class Attachment(SlotItem):
    """A weapon attachment; its modifiers count only for attacks with that weapon."""


class Weapon(Strict):
    """An equipped weapon: its token (see ``tokens``) and up to two attachments. Written as a
    plain token string when it has no attachments."""

    token: str
    attachments: Seq[Attachment] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_token(cls, data: Any) -> Any:
        return {"token": data} if isinstance(data, str) else data

    @field_validator("token")
    @classmethod
    def _token_parses(cls, token: str) -> str:
        try:
            parse_token(token)
        except InputError as exc:
            raise ValueError(exc.message) from None
        return token

    @field_validator("attachments")
    @classmethod
    def _two_distinct(cls, attachments: tuple[Attachment, ...]) -> tuple[Attachment, ...]:
        if len(attachments) > MAX_ATTACHMENTS:
            raise ValueError(f"at most {MAX_ATTACHMENTS} attachments per weapon, got {len(attachments)}")
        _refuse_repeats((a.name for a in attachments), "attachment")
        return attachments

    def parsed(self, options: TokenOptions = DEFAULT_OPTIONS) -> WeaponToken:
        """The token read under ``options``."""
        return parse_token(self.token, options)


class Grenade(Strict):
    """Grenades carried (Explosives): a name, how many, and optionally their damage die and
    blast radius (default: the ruleset options ``grenade_die`` and ``grenade_radius_m``)."""

    name: Name
    count: Annotated[int, Field(ge=1, le=20)] = 1
    damage_die: Annotated[int, Field(ge=1, le=1000)] | None = None
    radius_m: Annotated[int, Field(ge=1, le=50)] | None = None


class DamageReduction(Strict):
    """Damage reduction from worn items, by damage type; ``all`` counts for every type."""

    all: Reduction = 0
    ballistic: Reduction = 0
    explosive: Reduction = 0
    melee: Reduction = 0
    magika: Reduction = 0


class DrPart(Strict):
    """One contribution to a damage type's DR, for the breakdown."""

    value: int
    source: Source
    damage_type: DrType
    origin: str | None = None


class SizeClassRules(NamedTuple):
    """What a size class changes (Size Classes)."""

    modifiers: tuple[tuple[RollType, int], ...]
    dual_wield: tuple[Size, ...]


SIZE_CLASSES: Final[Mapping[SizeClass, SizeClassRules]] = MappingProxyType(
    {
        "small": SizeClassRules((("dodge", 3), ("stealth", 3), ("melee_damage", -3)), ("S",)),
        "medium": SizeClassRules((), ("S", "M")),
        "large": SizeClassRules((("dodge", -3), ("stealth", -3), ("melee_damage", 3)), SIZES),
    }
)


class SlotLimits(NamedTuple):
    """How many items each slot kind holds; ``flexible`` more may be cybernetics or implants."""

    cybernetics: int
    implants: int
    magika: int
    flexible: int


def _granted(item: SlotItem, wanted: tuple[RollType, ...]) -> list[Modifier]:
    """An item's modifiers that count for ``wanted``, as ``items`` modifiers named after it."""
    return [
        Modifier(value=m.value, source="items", applies_to=m.applies_to, origin=item.name)
        for m in item.modifiers
        if m.applies_to in wanted
    ]


def _refuse_repeats(names: Iterable[str], what: str) -> None:
    repeated = sorted(n for n, count in Counter(names).items() if count > 1)
    if repeated:
        raise ValueError(
            f"{what} {repeated[0]!r} appears more than once (effects stack only from different items)"
        )


class Sheet(Strict):
    """A RoE 7th Edition character sheet (see ``docs/rulesets/roe7-sheets.md``)."""

    hp: Annotated[int, Field(ge=1, le=1_000_000_000)]
    race: str
    racial: str
    size_class: SizeClass
    modifiers: Annotated[Seq[Modifier], Field(max_length=MODIFIERS_MAX)] = ()
    dr: DamageReduction = DamageReduction()
    weapons: Seq[Weapon] = ()
    cybernetics: Seq[SlotItem] = ()
    implants: Seq[SlotItem] = ()
    magika: Seq[SlotItem] = ()
    grenades: Seq[Grenade] = ()

    @field_validator("race")
    @classmethod
    def _known_race(cls, value: str) -> str:
        try:
            return races.race(value).id
        except InputError as exc:
            raise ValueError(exc.message) from None

    @field_validator("racial")
    @classmethod
    def _racial_of_race(cls, value: str, info: ValidationInfo) -> str:
        race_id = info.data.get("race")
        if race_id is None:  # the race was refused already
            return value
        try:
            return races.racial(race_id, value).id
        except InputError as exc:
            raise ValueError(exc.message) from None

    @field_validator("modifiers")
    @classmethod
    def _written_sources(cls, modifiers: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
        for m in modifiers:
            if m.source not in WRITTEN_SOURCES:
                raise ValueError(
                    f"source {m.source!r} is derived from the race, racial and size_class fields: "
                    f"write modifiers from {', '.join(WRITTEN_SOURCES)} only"
                )
        return modifiers

    @field_validator("cybernetics", "implants", "magika", "grenades")
    @classmethod
    def _distinct_items(cls, items: tuple[SlotItem | Grenade, ...]) -> tuple[SlotItem | Grenade, ...]:
        _refuse_repeats((i.name for i in items), "item")
        return items

    @model_validator(mode="after")
    def _slot_limits(self) -> Sheet:
        limits = self.slot_limits
        spare = limits.flexible
        for kind in SLOT_KINDS:
            count, limit = len(getattr(self, kind)), getattr(limits, kind)
            over = count - limit
            if over > 0 and kind != "magika" and spare >= over:
                spare -= over
            elif over > 0:
                raise FieldProblem((kind,), self._slot_message(kind, count, limit, limits.flexible))
        return self

    def _slot_message(self, kind: SlotKind, count: int, limit: int, flexible: int) -> str:
        if flexible and kind != "magika":
            return (
                f"at most {limit} {kind} and {flexible} more cybernetic or implant ({self.racial}), "
                f"got {len(self.cybernetics)} cybernetics and {len(self.implants)} implants"
            )
        why = f"with racial {self.racial}" if limit != SLOTS_PER_KIND else "unless a racial allows more"
        return f"at most {limit} {kind} {why}, got {count}"

    # ------------------------------------------------------------------ computed views

    @property
    def racial_info(self) -> Racial:
        """The chosen racial's data."""
        return races.RACIALS[self.racial]

    @property
    def slot_limits(self) -> SlotLimits:
        """Slots per kind: 3 each, plus what the racial adds."""
        r = self.racial_info
        return SlotLimits(
            SLOTS_PER_KIND + r.cybernetic_slots,
            SLOTS_PER_KIND + r.implant_slots,
            SLOTS_PER_KIND + r.magika_slots,
            r.flexible_slots,
        )

    @property
    def movement_m(self) -> int:
        """Metres per movement phase: 8, changed by the racial."""
        return BASE_MOVEMENT_M + self.racial_info.movement_m

    def modifiers_for(self, roll: RollType, weapon: Weapon | None = None) -> tuple[Modifier, ...]:
        """Every modifier that counts for a roll of type ``roll``, with its source: written
        ones, slotted items' (with the racial's bonus on cybernetic and implant bonuses), the
        weapon's attachments', the racial's and the size class's."""
        wanted = counted_for(roll)
        r = self.racial_info
        found = [m for m in self.modifiers if m.applies_to in wanted]
        found.extend(self._item_modifiers(wanted))
        for attachment in weapon.attachments if weapon is not None else ():
            found.extend(_granted(attachment, wanted))
        found.extend(
            Modifier(value=b.value, source="racial", applies_to=b.applies_to, origin=r.name)
            for b in r.modifiers
            if b.applies_to in wanted
        )
        found.extend(
            Modifier(value=value, source="size class", applies_to=applies_to, origin=self.size_class)
            for applies_to, value in SIZE_CLASSES[self.size_class].modifiers
            if applies_to in wanted
        )
        return tuple(found)

    def _item_modifiers(self, wanted: tuple[RollType, ...]) -> list[Modifier]:
        r = self.racial_info
        found: list[Modifier] = []
        for item in (*self.cybernetics, *self.implants):
            for granted in _granted(item, wanted):
                found.append(granted)
                if r.item_bonus and granted.value > 0:
                    bonus = Modifier(
                        value=r.item_bonus, source="racial", applies_to=granted.applies_to, origin=f"{r.name} ({item.name})"
                    )
                    found.append(bonus)
        for stone in self.magika:
            found.extend(_granted(stone, wanted))
        return found

    def uncapped_total(self, roll: RollType, weapon: Weapon | None = None) -> int:
        """The sum of ``modifiers_for``, before the +30 cap."""
        return sum(m.value for m in self.modifiers_for(roll, weapon))

    def total(self, roll: RollType, weapon: Weapon | None = None) -> int:
        """The modifier a roll of type ``roll`` gets: every modifier added, then capped at +30."""
        return min(self.uncapped_total(roll, weapon), MODIFIER_CAP)

    def dr_parts(self, damage_type: DamageType) -> tuple[DrPart, ...]:
        """Every contribution to DR against ``damage_type`` (universal DR included)."""
        written: tuple[tuple[DrType, int], ...] = (
            ("all", self.dr.all),
            (damage_type, getattr(self.dr, damage_type)),
        )
        parts = [DrPart(value=v, source="items", damage_type=kind) for kind, v in written if v]
        r = self.racial_info
        parts.extend(
            DrPart(value=d.value, source="racial", damage_type=d.damage_type, origin=r.name)
            for d in r.dr
            if d.damage_type in ("all", damage_type)
        )
        return tuple(parts)

    def dr_for(self, damage_type: DamageType) -> int:
        """DR against ``damage_type``: universal plus specific plus racial, capped at 30."""
        return min(sum(p.value for p in self.dr_parts(damage_type)), DR_CAP)

    def handling_size(self, weapon: Weapon) -> Size:
        """The size a weapon counts as in this character's hands (a caste racial shifts it by
        one, within S..H)."""
        index = SIZES.index(weapon.parsed().size) + self.racial_info.weapon_size_step
        return SIZES[max(0, min(index, len(SIZES) - 1))]

    def can_dual_wield(self, first: Weapon, second: Weapon) -> bool:
        """Whether the size class allows wielding both at once (Size Classes)."""
        allowed = SIZE_CLASSES[self.size_class].dual_wield
        return self.handling_size(first) in allowed and self.handling_size(second) in allowed

    # ------------------------------------------------------------------ snapshots

    def to_snapshot(self) -> dict[str, Any]:
        """Plain JSON data for ``CombatantJoined.sheet``: ``weapons`` is the list of token
        strings (what the generic ruleset reads), ``loadout`` the weapons with attachments."""
        data = self.model_dump(mode="json", exclude_none=True)
        data["loadout"] = data["weapons"]
        data["weapons"] = [w.token for w in self.weapons]
        return data

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> Sheet:
        """The sheet back from ``to_snapshot`` data (validated again)."""
        data = dict(snapshot)
        loadout = data.pop("loadout", None)
        if loadout is not None:
            data["weapons"] = loadout
        return cls.model_validate(data)
