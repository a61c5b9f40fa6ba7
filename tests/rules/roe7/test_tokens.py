"""Weapon tokens: every token of the rulebook's list, the flags the rules need, the named
options, and bad tokens refused with a clear message (never another exception)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import FightlogError, InputError
from fightlog.rules.roe7.tokens import (
    RULEBOOK_TOKENS,
    TokenOptions,
    WeaponToken,
    parse_token,
)

# token -> (size, family, class, fire mode or damage kinds, damage die sides)
EXPECTED: dict[str, tuple[str, str, str, object, int]] = {
    "H_a_ACannon_Class_(Permanent)": ("H", "firearm", "ACannon", "automatic", 70),
    "H_s_Launcher_Class_(Permanent)": ("H", "firearm", "Launcher", "semi-automatic", 70),
    "L_a_ChemThrower_Class_(Permanent)": ("L", "firearm", "ChemThrower", "automatic", 50),
    "L_a_MG_Class_(Permanent)": ("L", "firearm", "MG", "automatic", 50),
    "L_s_AMR_Class_(Permanent)": ("L", "firearm", "AMR", "semi-automatic", 50),
    "L_s_Rifle_Class_(Permanent)": ("L", "firearm", "Rifle", "semi-automatic", 50),
    "M_a_Rifle_Class_(Permanent)": ("M", "firearm", "Rifle", "automatic", 20),
    "M_s_Rifle_Class_(Permanent)": ("M", "firearm", "Rifle", "semi-automatic", 20),
    "M_s_Shotgun_Class_(Permanent)": ("M", "firearm", "Shotgun", "semi-automatic", 20),
    "S_a_Needler_Class_(Permanent)": ("S", "firearm", "Needler", "automatic", 10),
    "S_a_Pistol_Class_(Permanent)": ("S", "firearm", "Pistol", "automatic", 10),
    "S_a_SMG_Class_(Permanent)": ("S", "firearm", "SMG", "automatic", 10),
    "S_s_HPistol_Class_(Permanent)": ("S", "firearm", "HPistol", "semi-automatic", 40),
    "S_s_Pistol_Class_(Permanent)": ("S", "firearm", "Pistol", "semi-automatic", 10),
    "S_s_StunGun_Class(Permanent)": ("S", "firearm", "StunGun", "semi-automatic", 10),
    "H_b_Club_Class_(Permanent)": ("H", "melee", "Club", ("blunt",), 100),
    "H_b_Fist_Class_(Permanent)": ("H", "melee", "Fist", ("blunt",), 100),
    "H_s_Axe_Class_(Permanent)": ("H", "melee", "Axe", ("slash",), 100),
    "H_s_Sword_Class_(Permanent)": ("H", "melee", "Sword", ("slash",), 100),
    "H_w_Whip_Class_(Permanent)": ("H", "melee", "Whip", ("whip",), 100),
    "L_b_Club_Class_(Permanent)": ("L", "melee", "Club", ("blunt",), 50),
    "L_p_Shafted_Class_(Permanent)": ("L", "melee", "Shafted", ("pierce",), 50),
    "L_s_Axe_Class_(Permanent)": ("L", "melee", "Axe", ("slash",), 50),
    "L_s/b_Shafted_Class_(Permanent)": ("L", "melee", "Shafted", ("slash", "blunt"), 50),
    "L_s_Sword_Class_(Permanent)": ("L", "melee", "Sword", ("slash",), 50),
    "M_b_Club_Class_(Permanent)": ("M", "melee", "Club", ("blunt",), 20),
    "M_p_Sword_Class_(Permanent)": ("M", "melee", "Sword", ("pierce",), 20),
    "M_s_Sword_Class_(Permanent)": ("M", "melee", "Sword", ("slash",), 20),
    "M_w_Whip_Class_(Permanent)": ("M", "melee", "Whip", ("whip",), 20),
    "S_b_Club_Class_(Permanent)": ("S", "melee", "Club", ("blunt",), 10),
    "S_b_Fist_Class_(Permanent)": ("S", "melee", "Fist", ("blunt",), 10),
    "S_b_Knuckle_Class_(Permanent)": ("S", "melee", "Knuckle", ("blunt",), 10),
    "S_s_Blade_Class_(Permanent)": ("S", "melee", "Blade", ("slash",), 10),
    "S_s_Claw_Class_(Permanent)": ("S", "melee", "Claw", ("slash",), 10),
    "S_s_Stun_Class_(Permanent)": ("S", "melee", "Stun", ("slash",), 10),
    "S_s_Sword_Class_(Permanent)": ("S", "melee", "Sword", ("slash",), 10),
    "L_m_Magika_Class_(Permanent)": ("L", "magika", "Magika", ("magika",), 50),
    "M_m_Magika_Class_(Permanent)": ("M", "magika", "Magika", ("magika",), 20),
    "S_m_Magika_Class_(Permanent)": ("S", "magika", "Magika", ("magika",), 10),
}


def test_the_table_covers_the_rulebook_list() -> None:
    assert set(EXPECTED) == set(RULEBOOK_TOKENS)
    assert len(RULEBOOK_TOKENS) == 39


@pytest.mark.parametrize("text", RULEBOOK_TOKENS)
def test_every_rulebook_token_parses(text: str) -> None:
    size, family, name, kind, sides = EXPECTED[text]
    token = parse_token(text)
    assert (token.size, token.family, token.weapon_class, token.damage_sides) == (size, family, name, sides)
    if family == "firearm":
        assert (token.fire_mode, token.damage_kinds) == (kind, ())
    else:
        assert (token.fire_mode, token.damage_kinds) == (None, kind)
    assert token.listed
    assert token.text == text
    assert token.canonical.endswith("_Class_(Permanent)")
    assert token.damage == f"1d{sides}"


def flagged(flag: str, options: TokenOptions = TokenOptions()) -> set[str]:
    return {t for t in RULEBOOK_TOKENS if getattr(parse_token(t, options), flag)}


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        ("shotgun", {"M_s_Shotgun_Class_(Permanent)"}),
        ("chainfed", {"L_a_MG_Class_(Permanent)", "L_a_ChemThrower_Class_(Permanent)", "H_a_ACannon_Class_(Permanent)"}),
        ("sniper", {"L_s_AMR_Class_(Permanent)", "L_s_Rifle_Class_(Permanent)"}),
        ("heavy_pistol", {"S_s_HPistol_Class_(Permanent)"}),
        ("chemical", {"L_a_ChemThrower_Class_(Permanent)"}),
        ("launcher", {"H_s_Launcher_Class_(Permanent)"}),
        ("stun", {"S_s_StunGun_Class(Permanent)", "S_s_Stun_Class_(Permanent)"}),
        ("fires_twice", {"S_s_Pistol_Class_(Permanent)", "S_s_StunGun_Class(Permanent)"}),
    ],
)
def test_special_class_flags(flag: str, expected: set[str]) -> None:
    assert flagged(flag) == expected


def test_close_only_weapons_and_their_reach() -> None:
    reach = {t: parse_token(t).max_range_m for t in RULEBOOK_TOKENS if parse_token(t).close_only}
    melee = {t for t, (_, family, *_rest) in EXPECTED.items() if family == "melee"}
    magika = {t for t, (_, family, *_rest) in EXPECTED.items() if family == "magika"}
    assert set(reach) == melee | magika | {"L_a_ChemThrower_Class_(Permanent)"}
    assert reach["L_a_ChemThrower_Class_(Permanent)"] == 8
    assert reach["S_m_Magika_Class_(Permanent)"] == 20
    assert reach["M_s_Sword_Class_(Permanent)"] == 3
    assert reach["L_s/b_Shafted_Class_(Permanent)"] == reach["M_w_Whip_Class_(Permanent)"] == 6
    assert not parse_token("M_s_Shotgun_Class_(Permanent)").close_only


def test_shotgun_close_range_die_and_melee_effects() -> None:
    assert parse_token("M_s_Shotgun_Class_(Permanent)").close_range_damage_sides == 70
    assert parse_token("M_s_Rifle_Class_(Permanent)").close_range_damage_sides is None
    thresholds = {t: parse_token(t).effect_threshold for t in ("H_b_Club_Class_(Permanent)", "L_p_Shafted_Class_(Permanent)", "M_w_Whip_Class_(Permanent)", "S_m_Magika_Class_(Permanent)", "M_a_Rifle_Class_(Permanent)")}
    assert list(thresholds.values()) == [70, 70, 75, 80, None]
    assert [parse_token(t).swings for t in ("L_s_Sword_Class_(Permanent)", "M_s_Sword_Class_(Permanent)", "S_s_Sword_Class_(Permanent)")] == [1, 2, 3]


def test_damage_types() -> None:
    assert parse_token("H_s_Launcher_Class_(Permanent)").damage_type == "explosive"
    assert parse_token("M_a_Rifle_Class_(Permanent)").damage_type == "ballistic"
    assert parse_token("M_s_Sword_Class_(Permanent)").damage_type == "melee"
    assert parse_token("M_m_Magika_Class_(Permanent)").damage_type == "magika"


@pytest.mark.parametrize(
    ("text", "size", "family", "name", "kind"),
    [
        ("M_a_Rifle_Class_(Permanent)", "M", "firearm", "Rifle", "automatic"),
        ("S_s_HPistol_Class_(Permanent)", "S", "firearm", "HPistol", "semi-automatic"),
        ("L_s/b_Shafted_Class_(Permanent)", "L", "melee", "Shafted", ("slash", "blunt")),
    ],
)
def test_the_three_example_spellings(text: str, size: str, family: str, name: str, kind: object) -> None:
    token = parse_token(text)
    assert (token.size, token.family, token.weapon_class) == (size, family, name)
    assert kind in (token.fire_mode, token.damage_kinds)


def test_both_stun_gun_spellings_are_accepted() -> None:
    rulebook = parse_token("S_s_StunGun_Class(Permanent)")
    regular = parse_token("S_s_StunGun_Class_(Permanent)")
    assert rulebook.canonical == regular.canonical == "S_s_StunGun_Class_(Permanent)"
    assert rulebook.listed and regular.listed
    assert rulebook.text != regular.text
    assert parse_token("M_a_Rifle_Class(Permanent)").canonical == "M_a_Rifle_Class_(Permanent)"


def test_tokens_off_the_list_parse_but_are_not_listed() -> None:
    token = parse_token("S_p_Sword_Class_(Permanent)")
    assert (token.family, token.damage_kinds, token.listed) == ("melee", ("pierce",), False)
    assert parse_token("H_a_MG_Class_(Permanent)").chainfed


def test_named_options() -> None:
    melee_first = TokenOptions(ranged_damage_list="heavy-1d100")
    assert parse_token("H_a_ACannon_Class_(Permanent)", melee_first).damage_sides == 100
    assert parse_token("H_b_Club_Class_(Permanent)", melee_first).damage_sides == 70
    assert parse_token("H_a_ACannon_Class_(Permanent)").damage_sides == 70
    assert parse_token("H_b_Club_Class_(Permanent)").damage_sides == 100
    strict_sniper = TokenOptions(large_semi_rifle_is_sniper=False)
    assert flagged("sniper", strict_sniper) == {"L_s_AMR_Class_(Permanent)"}
    assert not parse_token("M_s_Rifle_Class_(Permanent)").sniper
    assert not parse_token("L_a_Rifle_Class_(Permanent)").sniper
    assert "H_a_ACannon_Class_(Permanent)" not in flagged("chainfed", TokenOptions(acannon_is_chainfed=False))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X_q_Banana_Class_(Permanent)", "size 'X' is not one of S, M, L, H"),
        ("Z_s_Sword_Class_(Permanent)", "size 'Z' is not one of S, M, L, H"),
        ("m_a_Rifle_Class_(Permanent)", "size 'm' is not one of"),
        ("M_a_Banana_Class_(Permanent)", "unknown weapon class 'Banana'"),
        ("M_q_Rifle_Class_(Permanent)", "Rifle is a firearm class: its second part is a (automatic) or s (semi-automatic), not 'q'"),
        ("M_a_Sword_Class_(Permanent)", "Sword is a melee class: its second part is one of b, s, p, w, s/b, not 'a'"),
        ("M_m_Sword_Class_(Permanent)", "Sword is a melee class"),
        ("M_b_Magika_Class_(Permanent)", "Magika is a magika class: its second part is one of m, not 'b'"),
        ("S_a_HPistol_Class_(Permanent)", "HPistol never fires automatically"),
        ("L_a_AMR_Class_(Permanent)", "AMR never fires automatically"),
        ("M_a_Rifle", "expected SIZE_KIND_NAME_Class_(Permanent), e.g. M_a_Rifle_Class_(Permanent)"),
        ("M_a_Rifle_Class_(Permanent) ", "expected SIZE_KIND_NAME_Class_(Permanent)"),
        ("M_a_Rifle_Class_Permanent", "expected SIZE_KIND_NAME_Class_(Permanent)"),
        ("M__Rifle_Class_(Permanent)", "expected SIZE_KIND_NAME before _Class_(Permanent)"),
        ("M_a_Assault_Rifle_Class_(Permanent)", "expected SIZE_KIND_NAME before _Class_(Permanent)"),
        ("_Class_(Permanent)", "expected SIZE_KIND_NAME before"),
        ("", "expected SIZE_KIND_NAME_Class_(Permanent)"),
        ("M_a_" + "R" * 200 + "_Class_(Permanent)", "longer than 100 characters"),
    ],
)
def test_bad_tokens_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_token(text)
    assert message in caught.value.message
    assert "is not a weapon token" in caught.value.message
    assert "\n" not in caught.value.message
    assert caught.value.path is None


def _check(text: str) -> None:
    try:
        token = parse_token(text)
    except FightlogError:
        return
    assert isinstance(token, WeaponToken)
    assert token.canonical == parse_token(token.canonical).canonical
    assert text.startswith(token.size)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=150))
def test_any_string_is_a_token_or_a_fightlog_error(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["S", "M", "L", "H", "X", "s", "", "SS"]),
    st.sampled_from(["a", "s", "b", "p", "w", "m", "s/b", "b/s", "", "q", "_"]),
    st.sampled_from(["Rifle", "AMR", "HPistol", "Sword", "Magika", "Shafted", "MG", "Banana", "", "Rifle_Class"]),
    st.sampled_from(["_Class_(Permanent)", "_Class(Permanent)", "_Class_(permanent)", "_Class_", ""]),
    st.text(max_size=3),
)
def test_near_tokens_are_tokens_or_fightlog_errors(size: str, kind: str, name: str, suffix: str, noise: str) -> None:
    _check(f"{size}_{kind}_{name}{suffix}")
    _check(f"{size}_{kind}_{name}{suffix}{noise}")
    _check(f"{noise}{size}_{kind}_{name}{suffix}")
