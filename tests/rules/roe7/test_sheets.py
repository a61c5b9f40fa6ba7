"""Sheets: racial and size-class modifiers, slot limits, the +30 and DR-30 caps in the
computed views, the races table, and ``to_snapshot`` as plain data."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import msgspec
import pytest
from pydantic import ValidationError

from fightlog.events.codec import decode_line, encode_line
from fightlog.events.model import CombatantJoined
from fightlog.rules.roe7 import races
from fightlog.rules.roe7.roster import Combatant
from fightlog.rules.roe7.sheet import Sheet
from fightlog.rules.roe7.terms import ROLL_TYPES
from fightlog.kit.ruleset import GENERIC


def sheet(**fields: Any) -> Sheet:
    data: dict[str, Any] = {"hp": 100, "race": "human", "racial": "compassionate", "size_class": "medium"}
    data.update(fields)
    return Sheet.model_validate(data)


def refused(**fields: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        sheet(**fields)
    return str(caught.value)


def items(count: int) -> list[str]:
    return [f"Item_{n}" for n in range(count)]


# --------------------------------------------------------------------------- races


def test_nine_races_of_three_racials_each() -> None:
    assert list(races.RACES) == ["human", "android", "splicer", "feral", "drevii", "undead", "caste", "brute", "amorph"]
    assert all(len(race.racials) == 3 for race in races.RACES.values())
    assert len(races.RACIALS) == 27
    for race in races.RACES.values():
        assert all(r.race == race.id for r in race.racials)
    assert "curious-mind" in races.RACIALS  # the rulebook prints "urious Mind"


def test_racial_names_are_normalized() -> None:
    assert sheet(race="Android", racial="Neural Net").racial == "neural-net"
    assert sheet(race="android", racial="neural_net").race == "android"


def test_a_racial_of_another_race_is_refused() -> None:
    message = refused(race="android", racial="venus-born")
    assert "'venus-born' is a racial of drevii, not of android" in message
    assert "fully-artificial, advanced-prosthetics, neural-net" in message
    assert "unknown racial 'flying'" in refused(racial="flying")
    assert "unknown race 'elf'" in refused(race="elf")


@pytest.mark.parametrize(
    ("race", "racial", "roll", "value"),
    [
        ("human", "violent-upbringing", "ballistic_damage", 5),
        ("human", "violent-upbringing", "stealth", -5),
        ("human", "earth-adapted", "melee_damage", -5),
        ("android", "advanced-prosthetics", "ranged_accuracy", 5),
        ("android", "advanced-prosthetics", "melee_accuracy", 5),
        ("android", "advanced-prosthetics", "magika_accuracy", 0),
        ("android", "neural-net", "magika_accuracy", -5),
        ("splicer", "spliced-genes", "dodge", 5),
        ("splicer", "spliced-genes", "stealth", 5),
        ("feral", "hyperactivity", "dodge", 5),
        ("feral", "simply-speedy", "tech_disposables", -5),
        ("brute", "powerfully-built", "melee_damage", 5),
        ("brute", "tough-hide", "dodge", -5),
        ("brute", "adaptability", "tech_disposables", -5),
        ("undead", "old-mind", "hacking", 10),
        ("caste", "royal-caste", "flee", -20),
        ("drevii", "drevii-technology", "magika_damage", 5),
    ],
)
def test_racial_modifiers(race: str, racial: str, roll: Any, value: int) -> None:
    s = sheet(race=race, racial=racial)
    assert s.total(roll) == value
    assert all(m.source == "racial" for m in s.modifiers_for(roll))


@pytest.mark.parametrize(
    ("racial", "race", "metres"),
    [("simply-speedy", "feral", 10), ("powerfully-built", "brute", 7), ("warrior-caste", "caste", 6), ("hyperactivity", "feral", 8)],
)
def test_movement(racial: str, race: str, metres: int) -> None:
    assert sheet(race=race, racial=racial).movement_m == metres


def test_every_racial_modifier_names_a_roll_type() -> None:
    for racial in races.RACIALS.values():
        assert all(b.applies_to in ROLL_TYPES for b in racial.modifiers)


# --------------------------------------------------------------------------- size classes


def test_size_class_modifiers() -> None:
    small, medium, large = (sheet(size_class=c) for c in ("small", "medium", "large"))
    assert (small.total("dodge"), small.total("stealth"), small.total("melee_damage")) == (3, 3, -3)
    assert (medium.total("dodge"), medium.total("stealth"), medium.total("melee_damage")) == (0, 0, 0)
    assert (large.total("dodge"), large.total("stealth"), large.total("melee_damage")) == (-3, -3, 3)
    (mod,) = small.modifiers_for("dodge")
    assert (mod.source, mod.origin) == ("size class", "small")
    assert "'small', 'medium' or 'large'" in refused(size_class="huge")


def test_dual_wield_limits_by_size_class_and_caste() -> None:
    def pair(size_class: str, a: str, b: str, race: str = "human", racial: str = "compassionate") -> bool:
        s = sheet(size_class=size_class, race=race, racial=racial, weapons=[a, b])
        return s.can_dual_wield(s.weapons[0], s.weapons[1])

    pistol, rifle, mg, club = "S_a_Pistol_Class_(Permanent)", "M_a_Rifle_Class_(Permanent)", "L_a_MG_Class_(Permanent)", "H_b_Club_Class_(Permanent)"
    assert pair("small", pistol, "S_s_HPistol_Class_(Permanent)")
    assert not pair("small", pistol, rifle)
    assert pair("medium", pistol, rifle) and not pair("medium", rifle, mg)
    assert pair("large", mg, club)
    assert not pair("medium", rifle, rifle, "caste", "scholar-caste")  # one size larger: L
    assert pair("small", rifle, rifle, "caste", "warrior-caste")  # one size smaller: S
    s = sheet(race="caste", racial="scholar-caste", weapons=[club])
    assert s.handling_size(s.weapons[0]) == "H"


# --------------------------------------------------------------------------- modifiers and caps


def test_accuracy_counts_for_melee_and_ranged_but_not_magika() -> None:
    s = sheet(modifiers=[{"source": "stats", "applies_to": "accuracy", "value": 10}])
    assert s.total("melee_accuracy") == s.total("ranged_accuracy") == s.total("accuracy") == 10
    assert s.total("magika_accuracy") == 0


def test_modifiers_beyond_30_are_allowed_on_the_sheet_and_capped_in_the_view() -> None:
    s = sheet(
        modifiers=[
            {"source": "stats", "applies_to": "ranged_accuracy", "value": 20},
            {"source": "skills", "applies_to": "accuracy", "value": 15},
            {"source": "items", "applies_to": "ranged_accuracy", "value": 10, "origin": "Scope"},
        ]
    )
    assert s.uncapped_total("ranged_accuracy") == 45
    assert s.total("ranged_accuracy") == 30
    assert s.total("melee_accuracy") == 15


def test_there_is_no_floor() -> None:
    s = sheet(race="caste", racial="royal-caste", modifiers=[{"source": "stats", "applies_to": "flee", "value": -20}])
    assert s.total("flee") == -40


def test_written_modifiers_cannot_claim_a_derived_source() -> None:
    message = refused(modifiers=[{"source": "racial", "applies_to": "dodge", "value": 5}])
    assert "derived from the race, racial and size_class fields" in message
    assert "literal_error" in refused(modifiers=[{"source": "gm", "applies_to": "dodge", "value": 5}])


def test_item_modifiers_and_the_caste_bonus_on_cybernetics() -> None:
    cyber = [{"name": "Targeting_Eye", "modifiers": [{"applies_to": "ranged_accuracy", "value": 5}]}]
    stone = [{"name": "Red_Stone", "modifiers": [{"applies_to": "magika_damage", "value": 5}]}]
    plain = sheet(cybernetics=cyber, magika=stone)
    assert plain.total("ranged_accuracy") == 5
    scholar = sheet(race="caste", racial="scholar-caste", cybernetics=cyber, implants=cyber, magika=stone)
    assert scholar.total("ranged_accuracy") == 20  # 5 + 5 from each of two items
    assert scholar.total("magika_damage") == 5  # magika stones are not cybernetics or implants
    assert {m.source for m in scholar.modifiers_for("ranged_accuracy")} == {"items", "racial"}
    healer = sheet(race="splicer", racial="healing-factor", cybernetics=cyber)
    assert healer.total("ranged_accuracy") == 3
    assert healer.racial_info.hp_per_round == 2


def test_attachment_modifiers_count_only_with_their_weapon() -> None:
    s = sheet(
        weapons=[
            {"token": "M_a_Rifle_Class_(Permanent)", "attachments": [{"name": "Scope", "modifiers": [{"applies_to": "ranged_accuracy", "value": 5}]}, "Silencer"]},
            "S_a_Pistol_Class_(Permanent)",
        ]
    )
    rifle, pistol = s.weapons
    assert s.total("ranged_accuracy", rifle) == 5
    assert s.total("ranged_accuracy", pistol) == s.total("ranged_accuracy") == 0
    assert [a.name for a in rifle.attachments] == ["Scope", "Silencer"]
    assert rifle.parsed().weapon_class == "Rifle"


def test_attachments_at_most_two_and_distinct() -> None:
    assert "at most 2 attachments per weapon, got 3" in refused(weapons=[{"token": "L_a_MG_Class_(Permanent)", "attachments": ["A", "B", "C"]}])
    assert "attachment 'A' appears more than once" in refused(weapons=[{"token": "L_a_MG_Class_(Permanent)", "attachments": ["A", "A"]}])


# --------------------------------------------------------------------------- damage reduction


def test_dr_by_type_with_universal_and_racial_capped_at_30() -> None:
    s = sheet(dr={"all": 20, "ballistic": 15, "melee": 5})
    assert (s.dr_for("ballistic"), s.dr_for("melee"), s.dr_for("magika")) == (30, 25, 20)
    hide = sheet(race="brute", racial="tough-hide", dr={"melee": 10})
    assert (hide.dr_for("melee"), hide.dr_for("ballistic"), hide.dr_for("explosive")) == (15, 5, 0)
    assert [(p.source, p.damage_type) for p in hide.dr_parts("melee")] == [("items", "melee"), ("racial", "melee")]
    assert sheet(race="drevii", racial="magika-mage").dr_for("magika") == -5
    assert sheet(race="android", racial="fully-artificial", dr={"all": 28}).dr_for("melee") == 30
    assert "greater than or equal to 0" in refused(dr={"all": -1})
    assert "extra_forbidden" in refused(dr={"fire": 5})


# --------------------------------------------------------------------------- slots


@pytest.mark.parametrize(
    ("race", "racial", "counts", "problem"),
    [
        ("human", "compassionate", (3, 3, 3), None),
        ("human", "compassionate", (4, 0, 0), "at most 3 cybernetics unless a racial allows more, got 4"),
        ("human", "compassionate", (0, 4, 0), "at most 3 implants unless a racial allows more, got 4"),
        ("human", "compassionate", (0, 0, 4), "at most 3 magika unless a racial allows more, got 4"),
        ("android", "neural-net", (4, 3, 3), None),
        ("android", "neural-net", (3, 4, 3), None),
        ("android", "neural-net", (4, 4, 0), "got 4 cybernetics and 4 implants"),
        ("android", "neural-net", (5, 0, 0), "at most 3 cybernetics and 1 more cybernetic or implant (neural-net)"),
        ("android", "neural-net", (0, 0, 4), "at most 3 magika unless a racial allows more, got 4"),
        ("drevii", "venus-born", (3, 3, 4), None),
        ("drevii", "venus-born", (4, 0, 0), "at most 3 cybernetics"),
        ("drevii", "venus-born", (0, 0, 5), "at most 4 magika with racial venus-born, got 5"),
    ],
)
def test_slot_limits(race: str, racial: str, counts: tuple[int, int, int], problem: str | None) -> None:
    fields = {"race": race, "racial": racial, "cybernetics": items(counts[0]), "implants": items(counts[1]), "magika": items(counts[2])}
    if problem is None:
        assert len(sheet(**fields).cybernetics) == counts[0]
    else:
        assert problem in refused(**fields)


def test_the_same_item_twice_in_a_slot_kind_is_refused() -> None:
    assert "item 'Arm' appears more than once" in refused(cybernetics=["Arm", "Arm"])
    assert len(sheet(cybernetics=["Arm"], implants=["Arm"]).implants) == 1


# --------------------------------------------------------------------------- strict input


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"hp": 0}, "greater than or equal to 1"),
        ({"hp": 10.0}, "int_type"),
        ({"hp": True}, "int_type"),
        ({"hp": "100"}, "int_type"),
        ({"hpp": 100}, "extra_forbidden"),
        ({"weapons": ["X_q_Banana_Class_(Permanent)"]}, "size 'X' is not one of S, M, L, H"),
        ({"weapons": [{"token": "M_a_Rifle_Class_(Permanent)", "scope": "x"}]}, "extra_forbidden"),
    ],
)
def test_strict_fields(fields: dict[str, Any], problem: str) -> None:
    assert problem in refused(**fields)


# --------------------------------------------------------------------------- snapshots

FULL: dict[str, Any] = {
    "race": "android",
    "racial": "neural-net",
    "size_class": "large",
    "modifiers": [{"source": "stats", "applies_to": "strength", "value": 10, "origin": "Strength"}],
    "dr": {"all": 5, "melee": 10},
    "weapons": [
        {"token": "L_s/b_Shafted_Class_(Permanent)", "attachments": ["Serrated_Edge", {"name": "Weight", "modifiers": [{"applies_to": "melee_damage", "value": 2}]}]},
        "S_s_StunGun_Class(Permanent)",
        "S_s_StunGun_Class(Permanent)",
    ],
    "cybernetics": ["A", "B", "C", {"name": "D", "modifiers": [{"applies_to": "dodge", "value": 5}]}],
}


def plain(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (str, int, bool)) and not isinstance(value, float)


def test_snapshot_is_plain_json_and_round_trips() -> None:
    s = sheet(**FULL)
    snapshot = s.to_snapshot()
    assert plain(snapshot)
    assert msgspec.json.decode(msgspec.json.encode(snapshot)) == snapshot
    assert snapshot["weapons"] == ["L_s/b_Shafted_Class_(Permanent)", "S_s_StunGun_Class(Permanent)", "S_s_StunGun_Class(Permanent)"]
    assert snapshot["loadout"][0]["attachments"][1] == {"name": "Weight", "modifiers": [{"applies_to": "melee_damage", "value": 2}]}
    assert snapshot["dr"] == {"all": 5, "ballistic": 0, "explosive": 0, "melee": 10, "magika": 0}
    back = Sheet.from_snapshot(msgspec.json.decode(msgspec.json.encode(snapshot)))
    assert back == s
    assert GENERIC.weapons(snapshot) == tuple(snapshot["weapons"])


def test_combatant_joined_carries_the_snapshot() -> None:
    combatant = Combatant.model_validate(
        {"id": "bob", "name": "Bob Kade", "side": "raiders", "controller": "BobResident", "sheet": sheet(**FULL)}
    )
    event = combatant.joined()
    assert (event.actor, event.pools, event.side) == ("bob", {"hp": 100}, "raiders")
    again = decode_line(encode_line(event))
    assert isinstance(again, CombatantJoined) and again == event
    assert Sheet.from_snapshot(again.sheet) == combatant.sheet


def test_the_package_and_its_light_modules_do_not_import_pydantic() -> None:
    code = (
        "import sys\n"
        "import fightlog.rules.roe7, fightlog.rules.roe7.tokens, fightlog.rules.roe7.races, fightlog.rules.roe7.terms\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
