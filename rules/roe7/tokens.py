"""Weapon tokens: ``M_a_Rifle_Class_(Permanent)`` read into a frozen ``WeaponToken``.

A token is ``SIZE_KIND_NAME_Class_(Permanent)`` (Weapon Types and Damage Outputs): the size
letter (S, M, L, H), then ``a``/``s`` for a firearm's fire mode or ``b``/``s``/``p``/``w``/``m``/
``s/b`` for a melee or magika weapon's damage kind, then the class name. The class name decides
the family, and so whether ``s`` means semi-automatic or slash. The rulebook's list spells one
token ``S_s_StunGun_Class(Permanent)``, without the underscore before ``(Permanent)``: both
spellings are accepted.

A token need not be one of the rulebook's list (``listed`` says whether it is), but its class
must be known, its second part must suit the class's family, and it must not contradict a
class rule (a heavy pistol or a sniper that fires automatically). Everything else the rules
need is read off the token here, once: the damage die, the special classes, the reach.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

from msgspec import Struct

from fightlog.errors import InputError
from fightlog.rules.roe7.terms import (
    SIZES,
    DamageKind,
    DamageType,
    Family,
    FireMode,
    Size,
)

DamageList = Literal["heavy-1d70", "heavy-1d100"]
"""One of the rulebook's two damage lists, named by its Heavy die (Weapon Token Details)."""

DAMAGE_LISTS: Final[Mapping[DamageList, Mapping[Size, int]]] = MappingProxyType(
    {
        "heavy-1d100": MappingProxyType({"H": 100, "L": 50, "M": 20, "S": 10}),
        "heavy-1d70": MappingProxyType({"H": 70, "L": 50, "M": 20, "S": 10}),
    }
)
"""Sides of the damage die by size. The rulebook prints the H 1d100 list first and the H 1d70
list second, without saying which one is ranged."""


class TokenOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The named choices where the rulebook is silent or ambiguous.

    ``ranged_damage_list``: which damage list firearms (and magika) use; melee uses the other.
    Default ``heavy-1d70``, because the shotgun rule calls 1d70 the damage of a Heavy weapon.
    ``large_semi_rifle_is_sniper``: whether ``L_s_Rifle`` is a sniper class weapon, as ``AMR``
    is. Default true: the rulebook speaks of a sniper class but lists no token by that name,
    and the large semi-automatic rifle is the one rifle shaped like it besides the AMR.
    ``acannon_is_chainfed``: whether ``ACannon`` (an autocannon) follows the minigun/chainfed
    rule. Default true.
    """

    ranged_damage_list: DamageList = "heavy-1d70"
    large_semi_rifle_is_sniper: bool = True
    acannon_is_chainfed: bool = True


DEFAULT_OPTIONS: Final = TokenOptions()

RULEBOOK_TOKENS: Final[tuple[str, ...]] = (
    "H_a_ACannon_Class_(Permanent)",
    "H_s_Launcher_Class_(Permanent)",
    "L_a_ChemThrower_Class_(Permanent)",
    "L_a_MG_Class_(Permanent)",
    "L_s_AMR_Class_(Permanent)",
    "L_s_Rifle_Class_(Permanent)",
    "M_a_Rifle_Class_(Permanent)",
    "M_s_Rifle_Class_(Permanent)",
    "M_s_Shotgun_Class_(Permanent)",
    "S_a_Needler_Class_(Permanent)",
    "S_a_Pistol_Class_(Permanent)",
    "S_a_SMG_Class_(Permanent)",
    "S_s_HPistol_Class_(Permanent)",
    "S_s_Pistol_Class_(Permanent)",
    "S_s_StunGun_Class(Permanent)",
    "H_b_Club_Class_(Permanent)",
    "H_b_Fist_Class_(Permanent)",
    "H_s_Axe_Class_(Permanent)",
    "H_s_Sword_Class_(Permanent)",
    "H_w_Whip_Class_(Permanent)",
    "L_b_Club_Class_(Permanent)",
    "L_p_Shafted_Class_(Permanent)",
    "L_s_Axe_Class_(Permanent)",
    "L_s/b_Shafted_Class_(Permanent)",
    "L_s_Sword_Class_(Permanent)",
    "M_b_Club_Class_(Permanent)",
    "M_p_Sword_Class_(Permanent)",
    "M_s_Sword_Class_(Permanent)",
    "M_w_Whip_Class_(Permanent)",
    "S_b_Club_Class_(Permanent)",
    "S_b_Fist_Class_(Permanent)",
    "S_b_Knuckle_Class_(Permanent)",
    "S_s_Blade_Class_(Permanent)",
    "S_s_Claw_Class_(Permanent)",
    "S_s_Stun_Class_(Permanent)",
    "S_s_Sword_Class_(Permanent)",
    "L_m_Magika_Class_(Permanent)",
    "M_m_Magika_Class_(Permanent)",
    "S_m_Magika_Class_(Permanent)",
)
"""The weapon tokens exactly as the rulebook lists them (Weapon Types and Damage Outputs)."""

_LISTED: Final = frozenset(RULEBOOK_TOKENS) | {
    t.replace("_Class(Permanent)", "_Class_(Permanent)") for t in RULEBOOK_TOKENS
}
_SIZE_BY_LETTER: Final[Mapping[str, Size]] = MappingProxyType({s: s for s in SIZES})
_SUFFIXES: Final = ("_Class_(Permanent)", "_Class(Permanent)")
_MAX_CHARS: Final = 100
_EXAMPLE: Final = "M_a_Rifle_Class_(Permanent)"

FIREARM_CLASSES: Final = frozenset(
    {"ACannon", "Launcher", "ChemThrower", "MG", "AMR", "Rifle", "Shotgun", "Needler", "Pistol", "SMG"}
    | {"HPistol", "StunGun"}
)
MELEE_CLASSES: Final = frozenset(
    {"Club", "Fist", "Axe", "Sword", "Whip", "Shafted", "Knuckle", "Blade", "Claw", "Stun"}
)
MAGIKA_CLASSES: Final = frozenset({"Magika"})

_FIRE_MODES: Final[Mapping[str, FireMode]] = MappingProxyType({"a": "automatic", "s": "semi-automatic"})
_MELEE_KINDS: Final[Mapping[str, tuple[DamageKind, ...]]] = MappingProxyType(
    {"b": ("blunt",), "s": ("slash",), "p": ("pierce",), "w": ("whip",), "s/b": ("slash", "blunt")}
)
_MAGIKA_KINDS: Final[Mapping[str, tuple[DamageKind, ...]]] = MappingProxyType({"m": ("magika",)})

MELEE_REACH_M: Final = 3
"""Melee reaches 3 m (Movement Range); shafted weapons and whips add 3 m (Whip)."""
CLOSE_RANGE_M: Final = 20
"""Close range ends at 20 m (Close Range); magika works at close range and in melee."""
CHEM_RANGE_M: Final = 8
"""Flamers and chemical weapons need the target within 8 m."""
HEAVY_PISTOL_SIDES: Final = 40
"""Revolvers and heavy pistols deal 1d40."""
SHOTGUN_CLOSE_SIDES: Final = 70
"""At close range a shotgun fires once and deals 1d70."""
_EFFECT_THRESHOLDS: Final[Mapping[Size, int]] = MappingProxyType({"H": 70, "L": 70, "M": 75, "S": 80})
_SWINGS: Final[Mapping[Size, int]] = MappingProxyType({"H": 1, "L": 1, "M": 2, "S": 3})


class WeaponToken(Struct, frozen=True, kw_only=True):
    """One weapon token, read.

    ``text`` is the token as written; ``canonical`` the ``_Class_(Permanent)`` spelling.
    ``fire_mode`` is set for firearms, ``damage_kinds`` for melee and magika (two for ``s/b``).
    ``damage_sides`` is the damage die (``1d<sides>``) by size from the family's list, or 1d40
    for a heavy pistol; ``close_range_damage_sides`` is the shotgun's single close-range shot.
    ``max_range_m`` is set for weapons that work only up close (melee reach, the flamer's 8 m,
    magika's close range); ``effect_threshold`` is the natural accuracy roll at or above which a
    melee or magika kind's effect triggers; ``swings`` is attacks per action for melee.
    """

    text: str
    canonical: str
    size: Size
    family: Family
    weapon_class: str
    fire_mode: FireMode | None
    damage_kinds: tuple[DamageKind, ...]
    damage_type: DamageType
    damage_sides: int
    close_range_damage_sides: int | None = None
    max_range_m: int | None = None
    effect_threshold: int | None = None
    swings: int = 1
    shotgun: bool = False
    chainfed: bool = False
    sniper: bool = False
    heavy_pistol: bool = False
    chemical: bool = False
    launcher: bool = False
    stun: bool = False
    fires_twice: bool = False
    listed: bool = False

    @property
    def damage(self) -> str:
        """The damage die in dice notation (``1d20``)."""
        return f"1d{self.damage_sides}"

    @property
    def close_only(self) -> bool:
        """True for a weapon that does not work beyond close range (melee, magika, flamers)."""
        return self.max_range_m is not None


def _refuse(text: str, why: str) -> InputError:
    shown = text if len(text) <= 60 else text[:57] + "..."
    return InputError(f"{shown!r} is not a weapon token: {why}")


def _split(text: str) -> tuple[str, str, str]:
    if len(text) > _MAX_CHARS:
        raise _refuse(text, f"longer than {_MAX_CHARS} characters")
    body = next((text[: -len(s)] for s in _SUFFIXES if text.endswith(s)), None)
    if body is None:
        raise _refuse(text, f"expected SIZE_KIND_NAME_Class_(Permanent), e.g. {_EXAMPLE}")
    parts = body.split("_")
    if len(parts) != 3 or not all(parts):
        raise _refuse(text, f"expected SIZE_KIND_NAME before _Class_(Permanent), e.g. {_EXAMPLE}")
    return parts[0], parts[1], parts[2]


def _family(text: str, name: str) -> Family:
    if name in FIREARM_CLASSES:
        return "firearm"
    if name in MELEE_CLASSES:
        return "melee"
    if name in MAGIKA_CLASSES:
        return "magika"
    known = ", ".join(sorted(FIREARM_CLASSES | MELEE_CLASSES | MAGIKA_CLASSES))
    raise _refuse(text, f"unknown weapon class {name!r} (known: {known})")


def _kind(
    text: str, family: Family, name: str, kind: str
) -> tuple[FireMode | None, tuple[DamageKind, ...]]:
    if family == "firearm":
        if kind not in _FIRE_MODES:
            modes = "a (automatic) or s (semi-automatic)"
            raise _refuse(text, f"{name} is a firearm class: its second part is {modes}, not {kind!r}")
        return _FIRE_MODES[kind], ()
    kinds = _MELEE_KINDS if family == "melee" else _MAGIKA_KINDS
    if kind not in kinds:
        allowed = ", ".join(kinds)
        raise _refuse(text, f"{name} is a {family} class: its second part is one of {allowed}, not {kind!r}")
    return None, kinds[kind]


def _damage_type(family: Family, name: str) -> DamageType:
    if family == "melee":
        return "melee"
    if family == "magika":
        return "magika"
    return "explosive" if name in ("Launcher", "ChemThrower") else "ballistic"


def parse_token(text: str, options: TokenOptions = DEFAULT_OPTIONS) -> WeaponToken:
    """Read a weapon token; ``InputError`` (without a path) says why one is refused."""
    letter, kind, name = _split(text)
    size = _SIZE_BY_LETTER.get(letter)
    if size is None:
        raise _refuse(text, f"size {letter!r} is not one of {', '.join(SIZES)}")
    family = _family(text, name)
    fire_mode, kinds = _kind(text, family, name, kind)
    automatic = fire_mode == "automatic"
    if automatic and name in ("HPistol", "AMR"):
        why = "heavy pistols and sniper weapons are semi-automatic"
        raise _refuse(text, f"{name} never fires automatically ({why})")
    large_semi_rifle = name == "Rifle" and size == "L" and not automatic
    sniper = name == "AMR" or (options.large_semi_rifle_is_sniper and large_semi_rifle)
    canonical = f"{letter}_{kind}_{name}_Class_(Permanent)"
    ranged = options.ranged_damage_list
    melee_list: DamageList = "heavy-1d100" if ranged == "heavy-1d70" else "heavy-1d70"
    sides = DAMAGE_LISTS[melee_list if family == "melee" else ranged][size]
    max_range: int | None = None
    if family == "melee":
        max_range = MELEE_REACH_M + (3 if name in ("Shafted", "Whip") or "whip" in kinds else 0)
    elif family == "magika":
        max_range = CLOSE_RANGE_M
    elif name == "ChemThrower":
        max_range = CHEM_RANGE_M
    return WeaponToken(
        text=text,
        canonical=canonical,
        size=size,
        family=family,
        weapon_class=name,
        fire_mode=fire_mode,
        damage_kinds=kinds,
        damage_type=_damage_type(family, name),
        damage_sides=HEAVY_PISTOL_SIDES if name == "HPistol" else sides,
        close_range_damage_sides=SHOTGUN_CLOSE_SIDES if name == "Shotgun" else None,
        max_range_m=max_range,
        effect_threshold=_EFFECT_THRESHOLDS[size] if family != "firearm" else None,
        swings=_SWINGS[size] if family == "melee" else 1,
        shotgun=name == "Shotgun",
        chainfed=name in ("MG", "ChemThrower") or (name == "ACannon" and options.acannon_is_chainfed),
        sniper=sniper,
        heavy_pistol=name == "HPistol",
        chemical=name == "ChemThrower",
        launcher=name == "Launcher",
        stun=name in ("StunGun", "Stun"),
        fires_twice=family == "firearm" and size == "S" and not automatic and name != "HPistol",
        listed=text in _LISTED,
    )
