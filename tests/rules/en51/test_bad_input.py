"""Bad input is one line naming the file (and line) or the post, exit 2, nothing written:
a Coverage or Protection out of range, an A-type outside 5-19 (roster files), a
counterattack by someone who already acted and a move with an action it cannot be combined
with (posts through ``fightlog play post``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.rules.en51.roster import load_roster
from fightlog.rules.en51.sheet import weapon_type
from tests.conftest import FIXTURES
from tests.rules.refusals import refused, run

ROSTER = """ruleset = "en51"

[[combatants]]
id = "ana"
name = "Ana"
side = "a"

[combatants.sheet]
toughness = 8
agility = 10
perception = 12
stealth = 6
unarmed_defense = 5
weapons = [{{ name = "SMG", kind = "ranged", attack = 13, defense = 9, damage = 3, range = 4, type = "{type}" }}]
armour = [{{ name = "Vest", coverage = {coverage}, protection = {protection} }}]

[[combatants]]
id = "bo"
name = "Bo"
side = "b"

[combatants.sheet]
toughness = 8
agility = 10
perception = 12
stealth = 6
unarmed_defense = 5
weapons = [{{ name = "Sword", kind = "melee", attack = 12, defense = 6, damage = 4 }}]
"""


def roster(tmp_path: Path, *, type: str = "A13", coverage: int = 10, protection: int = 3) -> Path:
    path = tmp_path / "roster.toml"
    path.write_text(ROSTER.format(type=type, coverage=coverage, protection=protection))
    return path


@pytest.mark.parametrize(("fields", "said"), [
    ({"coverage": 21}, "ana: sheet.armour[0].coverage: must be at most 20, got 21"),
    ({"coverage": 0}, "ana: sheet.armour[0].coverage: must be at least 1, got 0"),
    ({"protection": -1}, "ana: sheet.armour[0].protection: must be at least 0, got -1"),
    ({"protection": 21}, "ana: sheet.armour[0].protection: must be at most 20, got 21"),
    ({"type": "A4"}, "ana: sheet.weapons[0].type: an A-type is A5 to A19, got 'A4'"),
    ({"type": "A20"}, "ana: sheet.weapons[0].type: an A-type is A5 to A19, got 'A20'"),
    ({"type": "B2"}, "ana: sheet.weapons[0].type: expected C, Cn or A5-A19, got 'B2'"),
    ({"type": "C1001"}, "ana: sheet.weapons[0].type: a C-type holds 1 to 1000 rounds, got 'C1001'"),
    ({"type": "C0"}, "ana: sheet.weapons[0].type: a C-type holds 1 to 1000 rounds, got 'C0'"),
    ({"type": "C1000000"}, "ana: sheet.weapons[0].type: a C-type holds 1 to 1000 rounds, got 'C1000000'"),
    ({"type": "C" + "9" * 5000}, "ana: sheet.weapons[0].type: expected C, Cn or A5-A19, got 'C99999999999'... "
     "(5001 characters)"),
])
def test_a_roster_out_of_range_is_one_line_naming_file_line_and_field(tmp_path: Path, fields: dict[str, object],
                                                                       said: str) -> None:
    path = roster(tmp_path, **fields)  # type: ignore[arg-type]
    with pytest.raises(InputError) as caught:
        load_roster(path)
    shown = str(caught.value)
    assert "\n" not in shown and shown.startswith(f"{path}:") and said in shown


def test_weapon_types() -> None:
    assert [weapon_type(t) for t in ("", "C", "C2", "A5", "A19")] == [(0, 0), (1, 0), (2, 0), (0, 5), (0, 19)]


@pytest.mark.parametrize(("fields", "said"), [
    ({"type": "A20"}, "an A-type is A5 to A19"),
    ({"coverage": 21}, "coverage: must be at most 20"),
    ({"protection": 21}, "protection: must be at most 20"),
])
def test_a_bad_roster_joins_nobody(tmp_path: Path, fields: dict[str, object], said: str) -> None:
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "en51")[0] == 0
    before = log.read_bytes()
    path = roster(tmp_path, **fields)  # type: ignore[arg-type]
    code, out = run("play", "join", str(log), "--roster", str(path), "ana", "bo")
    assert code == 2 and len(out.strip().splitlines()) == 1 and said in out and str(path) in out
    assert log.read_bytes() == before


@pytest.fixture
def fight(tmp_path: Path) -> Path:
    log = tmp_path / "fight.jsonl"
    path = FIXTURES / "en51" / "rosters" / "tavern.toml"
    assert run("play", "start", str(log), "--ruleset", "en51")[0] == 0
    assert run("play", "join", str(log), "--roster", str(path), "mira", "tobin", "rask")[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    return log


def test_a_counterattack_by_one_who_acted_is_refused(fight: Path) -> None:
    assert run("play", "post", str(fight), "mira", "--do", "attack target=rask weapon=Sabre")[0] == 0
    assert run("play", "end-turn", str(fight))[0] == 0
    assert run("play", "post", str(fight), "tobin", "--do", "attack target=mira weapon=Cudgel")[0] == 0
    assert "mira has already acted this turn: no counterattack" in refused(fight, "mira", "--do", "counter weapon=Sabre")


@pytest.mark.parametrize(("do", "said"), [
    ("cover value=-3", "Cover names its penalty (value=N, from the Tables) (value=-3 is not a penalty of 1 or more)"),
    ("cover value=abc", "(value=abc is not a penalty of 1 or more)"),
    ("wait then=teleport", "then=teleport is not one of aim, attack, cover, hide, medicine, ready, reload, sneak"),
    ("sneak target=rask distance=10 metres=-1", "metres=-1: the metres moved are 0 (staying still) or more"),
    ("sneak target=rask distance=10 metres=11", "a sneaker moves no faster than the distance to the observer (10 m)"),
])
def test_a_refusal_names_the_value_given(fight: Path, do: str, said: str) -> None:
    assert said in refused(fight, "mira", "--do", do)


def test_a_move_with_what_it_cannot_be_combined_with_is_refused(fight: Path) -> None:
    assert "a move cannot be combined with aim" in refused(fight, "mira", "--do", "move distance=4", "--do", "aim")
    assert "moves at most 10 m" in refused(fight, "mira", "--do", "move distance=11")


def test_an_unknown_surprising_side_is_refused_at_begin(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    house = tmp_path / "house.toml"
    house.write_text('surprise = "side"\nsurprising_side = "pirates"\n')
    path = FIXTURES / "en51" / "rosters" / "tavern.toml"
    assert run("play", "start", str(log), "--ruleset", "en51", "--options", str(house))[0] == 0
    assert run("play", "join", str(log), "--roster", str(path), "mira", "tobin", "rask")[0] == 0
    before = log.read_bytes()
    code, out = run("play", "begin", str(log))
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert "surprising_side" in out and "'pirates' is no side in the fight (sides: " in out
    assert log.read_bytes() == before


@pytest.mark.parametrize(("scale", "said"), [
    ("abc", "'abc' is not a whole number of metres from 1 to 1000000000"),
    ("", "'' is not a whole number of metres from 1 to 1000000000"),
    ("5,99999999999999999999999", "'99999999999999999999999' is not a whole number of metres from 1 to 1000000000"),
    ("5,3", "the marks must increase"),
    (",".join(str(n) for n in range(1, 23)), "22 marks: at most 20"),
])
def test_a_range_scale_that_does_not_read_is_one_line_at_its_line(tmp_path: Path, scale: str, said: str) -> None:
    log = tmp_path / "fight.jsonl"
    house = tmp_path / "house.toml"
    house.write_text(f'# house rules\nrange_scale = "{scale}"\n')
    code, out = run("play", "start", str(log), "--ruleset", "en51", "--options", str(house))
    assert code == 2 and not log.exists()
    assert out.strip() == (f"fightlog: {house}:2: en51 option 'range_scale': expected increasing metres, "
                           f"comma-separated (\"5,8,15,25,...\"): {said}")


@pytest.mark.parametrize("name", ["medecine", "Medicine", "medicin"])
def test_a_misspelt_skill_the_rules_roll_is_refused_with_did_you_mean(tmp_path: Path, name: str) -> None:
    path = roster(tmp_path)
    path.write_text(path.read_text().replace("unarmed_defense = 5\nweapons = [{ name = \"SMG\"",
                                             f"unarmed_defense = 5\nskills = {{ {name} = 12 }}\n"
                                             "weapons = [{ name = \"SMG\"", 1))
    assert name in path.read_text()
    with pytest.raises(InputError) as caught:
        load_roster(path)
    shown = str(caught.value)
    assert "\n" not in shown and shown.startswith(f"{path}:")
    assert f"unknown skill {name!r} (did you mean 'medicine'?" in shown and "ana" in shown


def test_other_skills_are_kept(tmp_path: Path) -> None:
    path = roster(tmp_path)
    path.write_text(path.read_text().replace("unarmed_defense = 5\nweapons = [{ name = \"SMG\"",
                                             "unarmed_defense = 5\nskills = { climbing = 9, medicine = 11 }\n"
                                             "weapons = [{ name = \"SMG\"", 1))
    [ana, _] = load_roster(path).combatants
    assert ana.sheet.skills == {"climbing": 9, "medicine": 11}


@pytest.mark.parametrize(("do", "said"), [
    ("attack target=rask weapon=Sabre mode=burst", "mode=burst: an attack's mode is auto or single"),
    ("attack target=rask weapon=Sabre gm=abc", "gm=abc: a GM circumstance modifier is a whole number"),
    ("attack target=rask weapon=Sabre gm=-3.5", "gm=-3.5: a GM circumstance modifier is a whole number"),
    ("attack target=rask weapon=Sabre roll=yes", "roll=yes: roll is true or false"),
    ("attack target=rask weapon=Sabre unaware=1", "unaware=1: unaware is true or false"),
    ("medicine target=rask bonus=lots", "bonus=lots: a Medicine bonus is a whole number"),
    ("attack target=mira weapon=Sabre", "mira cannot attack themselves (target=mira)"),
])
def test_a_param_the_rules_cannot_read_is_refused_naming_it(fight: Path, do: str, said: str) -> None:
    """(Issue: ``mode=burst`` fired a single shot, ``gm=abc`` rolled with no modifier,
    ``roll=yes`` was ignored, an attack on oneself wounded the attacker.)"""
    assert said in refused(fight, "mira", "--do", do)


@pytest.mark.parametrize("do", ["medicine", "attack weapon=Sabre", "sneak distance=3"])
def test_a_missing_target_is_named_as_missing(fight: Path, do: str) -> None:
    """(Issue: "'None' is not in the fight".)"""
    said = refused(fight, "mira", "--do", do)
    assert "target=ID" in said and "None" not in said
