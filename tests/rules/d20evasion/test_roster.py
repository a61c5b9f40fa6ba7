"""Sheets and rosters: what they give in combat, and one-line errors for what is wrong with
them (the file, the line or field path, what was expected)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.errors import InputError
from fightlog.rules.d20evasion.card import read_card
from fightlog.rules.d20evasion.roster import load_roster, load_sheet
from tests.conftest import FIXTURES

ROSTERS = FIXTURES / "d20-evasion" / "rosters"


def test_a_roster_with_a_sheet_file() -> None:
    roster = load_roster(ROSTERS / "john.toml")
    john, gunman = (roster.joined(c) for c in roster.combatants)
    assert john.pools == {"hp": 100, "armour": 45, "mp": 0}
    card = read_card(john.sheet)
    assert (card.race, card.race_evasion, card.class_name, card.level) == ("human", 11, "gunslinger", 3)
    assert card.armour_evasion == 1 and card.armour_points == 45
    assert gunman.role == "npc"
    assert load_sheet(ROSTERS / "sheets" / "john.toml").hp == 100


def test_every_scenario_roster_loads() -> None:
    for path in sorted((ROSTERS / "scenarios").glob("*.toml")):
        assert load_roster(path).combatants


def test_races_a_roster_adds_and_minions_with_their_owner() -> None:
    roster = load_roster(ROSTERS / "scenarios" / "wolf-and-ward.toml")
    wolf = next(c for c in roster.combatants if c.id == "wolf")
    joined = roster.joined(wolf)
    assert joined.owner == "oona" and joined.role == "minion"
    assert read_card(joined.sheet).race_evasion == 13


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("third-weapon.toml", 13,
         "vex: sheet.weapons: at most 2 weapons carried, got 3 (load-bearing equipment carries more: lbe = N extra)"),
        ("sixth-item.toml", 14,
         "vex: sheet.items: at most 5 items carried, got 5 items and 1 hand weapon (a backpack carries more: "
         "backpack = N extra)"),
        ("unknown-race.toml", 10,
         "vex: sheet.race: unknown race 'dwarf' (known: human; give its base Evasion under "
         "[races.dwarf] evasion = N)"),
        ("bad-band.toml", 13,
         "vex: sheet.weapons[0].ranges[1]: expected 'touch', 'close', 'medium-close', 'medium', 'far' or "
         "'extreme', got 'near'"),
        ("unknown-field.toml", 12,
         "vex: sheet.stats.dexterty: unknown field (did you mean 'dexterity'?)"),
        ("missing-stat.toml", 12, "vex: sheet.stats.willpower: required field is missing"),
        ("float-damage.toml", 13,
         "vex: sheet.weapons[0].damage: expected an integer, got 20.5 (a float: game numbers are integers)"),
        ("syntax-error.toml", 12, "not valid TOML: unclosed inline table (column 73)"),
        ("summon-not-owned.toml", 13, "vex: sheet.spells[0].summons: 'wolf' must name 'vex' as its owner"),
    ],
)
def test_bad_rosters_give_one_line_naming_the_field(name: str, line: int | None, message: str) -> None:
    with pytest.raises(InputError) as caught:
        load_roster(ROSTERS / name)
    error = caught.value
    assert (error.path, error.line, error.message) == (str(ROSTERS / name), line, message)
    assert "\n" not in str(error)


def test_a_missing_sheet_file_is_named() -> None:
    with pytest.raises(InputError, match=r"missing-sheet-file\.toml:8: john: sheet_file: no such sheet file .*nobody\.toml"):
        load_roster(ROSTERS / "missing-sheet-file.toml")


def test_fightlog_run_names_the_roster_file_and_field(tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f'ruleset = "d20-evasion"\nseed = "{"ab" * 32}"\nroster = "{ROSTERS / "third-weapon.toml"}"\n',
                        encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", str(scenario), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert result.stderr == (f"fightlog: {ROSTERS / 'third-weapon.toml'}:13: vex: sheet.weapons: at most 2 "
                             "weapons carried, got 3 (load-bearing equipment carries more: lbe = N extra)\n")


def test_fightlog_run_names_the_step_the_rules_refuse(tmp_path: Path) -> None:
    scenario = tmp_path / "refused.toml"
    scenario.write_text(
        f'ruleset = "d20-evasion"\nscene = "refused"\nseed = "{"ab" * 32}"\nroster = "{ROSTERS / "john.toml"}"\n'
        "[positions]\njohn = [0, 0]\ngunman = [100, 0]\n\n[[steps]]\nactor = \"john\"\ndo = [\"attack target=gunman\"]\n"
        "\n[[steps]]\nactor = \"gunman\"\ndo = [\"attack target=john\"]\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["run", str(scenario), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"fightlog: {scenario}:")
    assert "is at far range: " in result.stderr


def test_fightlog_run_names_a_bad_option(tmp_path: Path) -> None:
    scenario = tmp_path / "options.toml"
    scenario.write_text(f'ruleset = "d20-evasion"\nseed = "{"ab" * 32}"\nroster = "{ROSTERS / "john.toml"}"\n'
                        'options = {{ mode = "brawl" }}\n'.replace("{{", "{").replace("}}", "}"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", str(scenario), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert result.stderr == (f"fightlog: {scenario}:4: d20-evasion option 'mode': expected one of 'duel', 'quest', "
                             "got 'brawl'\n")


def test_hand_weapons_count_as_items_not_weapons_and_consumables_count_one_by_one(tmp_path: Path) -> None:
    from fightlog.rules.d20evasion.sheet import Sheet

    base = {"race": "human", "hp": 50, "stats": {"strength": 10, "dexterity": 10, "perception": 10, "willpower": 10}}
    gun = {"kind": "ranged", "damage": 10, "ranges": ["close"]}
    knuckles = {"name": "Knuckles", "kind": "melee", "damage": 5, "hand": True, "ranges": ["touch"]}
    sheet = Sheet.model_validate({**base, "weapons": [{**gun, "name": "A"}, {**gun, "name": "B"}, knuckles],
                                  "items": [{"name": "Grenade", "count": 4}]})
    assert len(sheet.weapons) == 3
    with pytest.raises(ValueError, match="at most 5 items carried, got 5 items and 1 hand weapon"):
        Sheet.model_validate({**base, "weapons": [knuckles], "items": [{"name": "Grenade", "count": 5}]})
    assert Sheet.model_validate({**base, "backpack": 1, "weapons": [knuckles],
                                 "items": [{"name": "Grenade", "count": 5}]}).backpack == 1
    assert len(Sheet.model_validate({**base, "lbe": 1, "weapons": [{**gun, "name": n} for n in "ABC"]}).weapons) == 3


def test_max_mp_is_base_mp_plus_what_items_add() -> None:
    roster = load_roster(ROSTERS / "scenarios" / "sunken-archive.toml")
    mira = next(c for c in roster.combatants if c.id == "mira")
    assert roster.joined(mira).pools["mp"] == 50  # 40 and the robe's 10


# ------------------------------------------------------------------- names, summons, minions

VEX = """
[[combatants]]
id = "vex"
name = "Vex"
side = "a"
controller = "VexPlayer"
"""
WOLF = """
[[combatants]]
id = "wolf"
name = "Wolf"
side = "a"
controller = "VexPlayer"
"""
SHEET = """
[combatants.sheet]
race = "human"
hp = 80
stats = { strength = 10, dexterity = 20, perception = 20, willpower = 10 }
"""
PISTOL = '{ name = "Pistol", kind = "ranged", damage = 20, ranges = ["close"] }'


def refusal(tmp_path: Path, text: str) -> str:
    """The one-line message ``load_roster`` gives for a roster of ``text``."""
    path = tmp_path / "roster.toml"
    path.write_text('ruleset = "d20-evasion"\n' + text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_roster(path)
    assert caught.value.path == str(path) and "\n" not in str(caught.value)
    return caught.value.message


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ('items = [{ name = "hp", heal = 10 }]',
         "vex: sheet.items[0].name: 'hp' is the name of a pool (hp, armour or mp): give the item another name"),
        ('items = [{ name = "Ether", mp = 5 }, { name = "Armour" }]',
         "vex: sheet.items[1].name: 'Armour' is the name of a pool (hp, armour or mp): give the item another "
         "name"),
        ('items = [{ name = "MP", mp = 5 }]',
         "vex: sheet.items[0].name: 'MP' is the name of a pool (hp, armour or mp): give the item another name"),
        (f'weapons = [{PISTOL}]\nitems = [{{ name = "Pistol" }}]',
         "vex: sheet.items[0].name: 'Pistol' is already the name of weapons[0]"),
        (f'weapons = [{PISTOL}]\nitems = [{{ name = "PISTOL" }}]',
         "vex: sheet.items[0].name: 'PISTOL' is already the name of weapons[0] ('Pistol': posts match names "
         "in any case)"),
    ],
)
def test_an_item_named_like_a_pool_or_a_weapon_is_refused(tmp_path: Path, sheet: str, message: str) -> None:
    assert refusal(tmp_path, VEX + SHEET + sheet + "\n") == message


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (f'weapons = [{PISTOL}, {PISTOL.replace("Pistol", "pistol")}]',
         "vex: sheet.weapons[1].name: 'pistol' is already the name of entry [0] ('Pistol': posts match names "
         "in any case)"),
        ('spells = [{ name = "Heal", target = "self", heal = 10 }, { name = "HEAL", target = "self", heal = 20 }]',
         "vex: sheet.spells[1].name: 'HEAL' is already the name of entry [0] ('Heal': posts match names "
         "in any case)"),
        ('items = [{ name = "Med kit" }, { name = "Ether" }, { name = "med Kit" }]',
         "vex: sheet.items[2].name: 'med Kit' is already the name of entry [0] ('Med kit': posts match names "
         "in any case)"),
        ('items = [{ name = "Med kit" }, { name = "Med kit" }]',
         "vex: sheet.items[1].name: 'Med kit' is already the name of entry [0]"),
        (f'weapons = [{PISTOL.replace("Pistol", "Unarmed")}]',
         "vex: sheet.weapons[0].name: 'Unarmed' means bare hands (weapon=unarmed): give the weapon another "
         "name"),
        (f'weapons = [{PISTOL}, {PISTOL.replace("Pistol", "unarmed").replace("ranged", "melee")}]',
         "vex: sheet.weapons[1].name: 'unarmed' means bare hands (weapon=unarmed): give the weapon another "
         "name"),
    ],
)
def test_names_that_differ_only_in_case_and_a_weapon_called_unarmed_are_refused(
    tmp_path: Path, sheet: str, message: str
) -> None:
    assert refusal(tmp_path, VEX + SHEET + sheet + "\n") == message


def test_armour_names_are_distinct_as_written_and_other_case_differences_across_lists_load(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    sheet = (f'weapons = [{PISTOL}, {{ name = "Knuckles", kind = "melee", category = "unarmed", damage = 5, hand = true, '
             'ranges = ["touch"] }]\n'
             'spells = [{ name = "pistol", target = "self", heal = 5 }]\n'
             'items = [{ name = "Hp potion", heal = 10 }]\n'
             'armour = [{ name = "Vest", armour = 5 }, { name = "vest", armour = 5 }]\n')
    path.write_text(VEX + SHEET + sheet, encoding="utf-8")
    vex = load_roster(path).combatants[0]
    assert [w.name for w in vex.sheet.weapons] == ["Pistol", "Knuckles"]
    assert [a.name for a in vex.sheet.armour] == ["Vest", "vest"]


def test_a_summoning_spell_may_be_cast_on_self_or_an_ally_but_not_at_an_enemy(tmp_path: Path) -> None:
    minion = WOLF + 'owner = "vex"\nrole = "minion"\n' + SHEET
    for target in ("self", "ally"):
        path = tmp_path / f"{target}.toml"
        path.write_text(VEX + SHEET + f'spells = [{{ name = "Call", target = "{target}", summons = "wolf" }}]\n' + minion,
                        encoding="utf-8")
        assert load_roster(path).combatants[0].sheet.spells[0].target == target
    spell = 'spells = [{ name = "Call", target = "enemy", ranges = ["close"], summons = "wolf" }]\n'
    assert refusal(tmp_path, VEX + SHEET + spell + minion) == (
        'vex: sheet.spells[0].target: a summoning spell is not cast at an enemy: target = "self" or "ally"'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (VEX + SHEET + WOLF + 'role = "minion"\n' + SHEET,
         'wolf: owner: required for a minion (role = "minion"): the id of its summoner'),
        (VEX + SHEET + WOLF + 'owner = "wolf"\nrole = "minion"\n' + SHEET,
         "wolf: owner: 'wolf' is this combatant's own id: owner names its summoner"),
        (VEX + 'owner = "vex"\n' + SHEET,
         "vex: owner: 'vex' is this combatant's own id: owner names its summoner"),
        (VEX + SHEET + WOLF + 'owner = "oona"\nrole = "minion"\n' + SHEET,
         "wolf: owner: 'oona' is not a combatant of this roster"),
    ],
)
def test_a_minion_needs_an_owner_other_than_itself(tmp_path: Path, text: str, message: str) -> None:
    assert refusal(tmp_path, text) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("combatants = []\n", "combatants: needs at least 1 entry, got 0"),
        (VEX + SHEET + 'weapons = [{ name = "Pistol", kind = "ranged", damage = 20, ranges = [] }]\n',
         "vex: sheet.weapons[0].ranges: needs at least 1 entry, got 0"),
    ],
)
def test_an_empty_list_needs_at_least_1_entry(tmp_path: Path, text: str, message: str) -> None:
    assert refusal(tmp_path, text) == message


def test_a_list_too_short_counts_its_entries_in_the_plural() -> None:
    from typing import Annotated

    from pydantic import Field, ValidationError

    from fightlog.kit.inputs import Seq, Strict, describe

    class Pair(Strict):
        ends: Annotated[Seq[int], Field(min_length=2)]

    with pytest.raises(ValidationError) as caught:
        Pair.model_validate({"ends": [1]})
    assert describe(caught.value.errors()) == "ends: needs at least 2 entries, got 1"
