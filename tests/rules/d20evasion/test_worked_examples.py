"""The rulebook's worked examples, to the number: John the Gunslinger's max HP, Evasion,
damage per shot, to-hit bonus and initiative; the disarm difficulty and the thrown weapon;
the movement examples. Each through the pure rule and, where it plays, through the table."""

from __future__ import annotations

from pathlib import Path

from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled, InitiativeRolled, InitiativeSet, Moved
from fightlog.rules.d20evasion import bands, stats
from fightlog.rules.d20evasion.attack import disarm_outcome
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import DEFAULTS
from fightlog.rules.d20evasion.roster import load_roster
from tests.rules.d20evasion.rigged import Fight, of

JOHN_ARMOUR = [
    {"name": "Bullet proof vest", "armour": 25},
    {"name": "Steel toed boots", "armour": 5},
    {"name": "Tactical helmet", "armour": 15},
]
NANOSUIT = {"name": "Nanosuit", "evasion": 1}
NINE_MM = {"name": "9mm pistol", "kind": "ranged", "category": "firearms", "damage": 20,
           "ranges": ["close", "medium-close", "medium"]}


def john(**fields: object) -> dict[str, object]:
    """John the Gunslinger as the examples describe him: a human gunslinger (+1 firearms),
    100 HP, Dexterity and Perception 21, the armour and the 9mm pistol."""
    data: dict[str, object] = {
        "class": "gunslinger", "class_bonuses": {"firearms": 1}, "hp": 100,
        "stats": {"dexterity": 21, "perception": 21}, "armour": [*JOHN_ARMOUR, NANOSUIT], "weapons": [NINE_MM],
    }
    data.update(fields)
    return data


# --------------------------------------------------------------------------- HP


def test_john_has_100_base_hp_and_145_max_hp() -> None:
    assert stats.max_hp(100, [25, 5, 15]) == 145
    fight = Fight().join("john", **john()).join("gunman", (10, 0))
    who = Fighter(fight.state, "john")
    assert (who.hp, who.armour) == (100, 45)
    assert who.hp + who.armour == 145


def test_johns_roster_gives_the_same_pools(tmp_path: Path) -> None:
    roster = tmp_path / "john.toml"
    roster.write_text(
        'ruleset = "d20-evasion"\n[[combatants]]\nid = "john"\nname = "John the Gunslinger"\nside = "party"\n'
        'controller = "JohnPlayer"\n[combatants.sheet]\nrace = "human"\nclass = "gunslinger"\nhp = 100\n'
        "stats = { strength = 10, dexterity = 21, perception = 21, willpower = 10 }\n"
        "armour = [{ name = \"Bullet proof vest\", armour = 25 }, { name = \"Steel toed boots\", armour = 5 },"
        " { name = \"Tactical helmet\", armour = 15 }]\n",
        encoding="utf-8",
    )
    loaded = load_roster(roster)
    joined = loaded.joined(loaded.combatants[0])
    assert joined.pools["hp"] + joined.pools["armour"] == 145


# --------------------------------------------------------------------------- Evasion


def test_johns_evasion_is_13() -> None:
    assert stats.stat_bonus(21, DEFAULTS) == 1
    assert stats.evasion(11, 21, [1], DEFAULTS) == 13
    fight = Fight().join("john", **john()).join("gunman", (10, 0))
    assert Fighter(fight.state, "john").evasion() == 13


def test_an_attack_on_john_needs_13() -> None:
    fight = Fight().join("gunman", (10, 0), side="gang", stats={"perception": 10}).join("john", **john())
    fight.begin([20, 1])
    assert fight.current == "gunman"
    missed = of(fight.post("gunman", "attack target=john", faces=[12], text="12 + 0"), AttackResolved)[0]
    assert (missed.score, missed.against, missed.hit) == (12, 13, False)
    hit = of(fight.post("gunman", "attack target=john", faces=[13]), AttackResolved)[0]
    assert (hit.score, hit.against, hit.hit) == (13, 13, True)


# --------------------------------------------------------------------------- damage and to-hit


def test_john_does_40_damage_per_shot() -> None:
    assert stats.base_damage(21, DEFAULTS) == 20
    assert stats.damage(21, 20, DEFAULTS) == 40
    fight = Fight().join("john", (0, 0), **john()).join("gunman", (10, 0), hp=100)
    fight.begin([20, 1])
    events = fight.post("john", "attack target=gunman weapon='9mm pistol'", faces=[15])
    (damage,) = of(events, DamageApplied)
    assert (damage.raw, damage.taken) == (40, 40)
    assert fight.hp("gunman") == 60


def test_john_has_plus_2_to_hit_with_his_pistol_and_rolls_17() -> None:
    assert stats.to_hit(21, 1, 0, 0, DEFAULTS) == 2
    fight = Fight().join("john", (0, 0), **john()).join("gunman", (10, 0))
    fight.begin([20, 1])
    (roll,) = of(fight.post("john", "attack target=gunman", faces=[15]), DiceRolled)
    assert roll.notation == "1d20"
    assert [(m.value, m.source) for m in roll.modifiers] == [(1, "Perception"), (1, "class gunslinger")]
    assert roll.total == 17


# --------------------------------------------------------------------------- initiative


def test_johns_initiative_bonus_is_3_and_the_party_wins_15_to_12() -> None:
    # "a Dex bonus of +2 according to the stat chart, and a level bonus of +1"
    assert stats.stat_bonus(30, DEFAULTS) == 2
    assert stats.level_bonus(3, DEFAULTS) == 1
    assert stats.initiative_bonus(30, 3, DEFAULTS) == 3
    fight = Fight()
    fight.join("john", (0, 0), side="party", level=3, stats={"dexterity": 30})
    fight.join("mara", (0, 0), side="party", level=2, stats={"dexterity": 20})  # +1 +1: John rolls for the party
    fight.join("boss", (20, 0), side="enemy", level=6, stats={"dexterity": 30})  # the GM's +4
    fight.join("thug", (20, 0), side="enemy", level=1, stats={"dexterity": 10})
    events = fight.begin([12, 8])
    rolls = of(events, DiceRolled)
    assert [(r.roller, r.total) for r in rolls] == [("john", 15), ("boss", 12)]
    assert [(r.roller, [(m.value) for m in r.modifiers]) for r in rolls] == [("john", [3]), ("boss", [4])]
    party, enemies = of(events, InitiativeRolled)
    assert party.group == ["john", "mara"] and party.score == 15
    assert enemies.group == ["boss", "thug"] and enemies.score == 12
    assert of(events, InitiativeSet)[0].order == ["john", "mara", "boss", "thug"]


# --------------------------------------------------------------------------- disarm


def test_disarming_joe_at_evasion_13_needs_16() -> None:
    assert disarm_outcome(10, 16, 13, DEFAULTS) == (True, 16, False)
    assert disarm_outcome(10, 15, 13, DEFAULTS) == (False, 16, False)


def test_disarming_joe_through_the_table_needs_16() -> None:
    fight = Fight()
    fight.join("frank", (0, 0), stats={"strength": 10}, level=1)  # STR 0, level +1
    fight.join("joe", (2, 0), stats={"dexterity": 20}, armour=[{"name": "Vest", "evasion": 1}])  # 11 + 1 + 1 = 13
    fight.begin([20, 1])
    missed = of(fight.post("frank", "disarm target=joe", faces=[14]), AttackResolved)[0]
    assert (missed.score, missed.against, missed.hit) == (15, 16, False)
    hit = of(fight.post("frank", "disarm target=joe", faces=[15]), AttackResolved)[0]
    assert (hit.score, hit.against, hit.hit) == (16, 16, True)
    assert fight.effect("joe", "disarmed").params == {"weapon": "Pistol", "thrown_ft": 0}


def test_franks_natural_20_throws_joes_weapon_25_feet() -> None:
    fight = Fight()
    fight.join("frank", (0, 0), speed_ft=25)
    fight.join("joe", (2, 0))
    fight.begin([20, 1])
    resolved = of(fight.post("frank", "disarm target=joe", faces=[20]), AttackResolved)[0]
    assert resolved.hit
    assert "natural 20: the weapon is thrown 25 ft" in resolved.notes
    assert fight.effect("joe", "disarmed").params["thrown_ft"] == 25


# --------------------------------------------------------------------------- movement


def test_john_with_20_dexterity_moves_from_medium_to_medium_close_for_2_points() -> None:
    assert stats.movement_points(20, DEFAULTS) == 2
    assert bands.move_cost("medium", "medium-close") == 2
    fight = Fight().join("john", (0, 0), stats={"dexterity": 20}).join("gunman", (30, 0))
    fight.begin([20, 1])
    (moved,) = of(fight.post("john", "move target=gunman range=medium-close"), Moved)
    assert moved.points == 2 and moved.band == "medium-close"
    assert bands.band_between((moved.x or 0, moved.y or 0), (30, 0), DEFAULTS) == "medium-close"


def test_barry_with_30_dexterity_moves_from_close_to_medium_for_3_points() -> None:
    assert stats.movement_points(30, DEFAULTS) == 3
    assert bands.move_cost("close", "medium-close") == 1
    assert bands.move_cost("medium-close", "medium") == 2
    assert bands.move_cost("close", "medium") == 3
    fight = Fight().join("barry", (0, 0), stats={"dexterity": 30}).join("gunman", (4, 0))
    fight.begin([20, 1])
    (moved,) = of(fight.post("barry", "move target=gunman range=medium"), Moved)
    assert moved.points == 3 and moved.band == "medium"
    # John's 2 points would not take him as far
    other = Fight().join("john", (0, 0), stats={"dexterity": 20}).join("gunman", (4, 0))
    other.begin([20, 1])
    assert "3 movement points" in other.refused("john", "move target=gunman range=medium").message
