"""The rulebook's worked examples, exact: both Damage examples, the A13 automatic fire
example and both Recovery examples (pure functions, then played through the table)."""

from __future__ import annotations

from fightlog.events.model import AttackResolved, DamageApplied, EffectApplied, HealingApplied
from fightlog.rules.en51.bw import Faces, damage, damage_die
from fightlog.rules.en51.care import recovery
from tests.rules.en51.rigged import Fight, duel, of


def test_damage_example_1_the_black_die_missed() -> None:
    # Attack 12 against Defense 6: black 3, white 11. The black die missed: 3 + the weapon's Damage.
    faces = Faces(3, 11)
    assert damage_die(faces, 12, 6, "at_most") == "black"
    assert damage(faces, 12, 6, "at_most", 4) == 3 + 4


def test_damage_example_2_both_hit_the_black_die() -> None:
    # Attack 15 against Defense 5: black 15, white 7. Both hit: the black one, last digit 5.
    faces = Faces(15, 7)
    assert damage_die(faces, 15, 5, "at_most") == "black"
    assert damage(faces, 15, 5, "at_most", 4) == 5 + 4


def test_damage_example_1_played() -> None:
    fight = duel(b={"unarmed_defense": 6})
    events = fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 11])
    [hit] = of(events, AttackResolved)
    assert hit.hit and hit.score == 11 and hit.against == 6
    [dealt] = of(events, DamageApplied)
    assert dealt.raw == 3 + 4 and dealt.pool == "w7"


def test_damage_example_2_played() -> None:
    fight = duel(a={"weapons": [{"name": "Axe", "attack": 15, "defense": 5, "damage": 4}]},
                 b={"unarmed_defense": 5})
    events = fight.turn("ana", "attack target=bo weapon=Axe", faces=[15, 7])
    [dealt] = of(events, DamageApplied)
    assert dealt.raw == 5 + 4


def test_the_a13_example() -> None:
    # A fresh clip: no ammo check the first turn. The second turn's first attack comes up
    # black 17, white 2: the magazine is empty (17 is above A13) and no second attack is made.
    fight = duel()
    first = fight.turn("ana", "attack target=bo weapon=SMG mode=auto distance=10", faces=[17, 20, 18, 19])
    assert len(of(first, AttackResolved)) == 2
    assert not of(first, EffectApplied) or all(e.name != "empty" for e in of(first, EffectApplied))
    fight.turn("bo", "say")
    second = fight.turn("ana", "attack target=bo weapon=SMG mode=auto distance=10", faces=[17, 2])
    [only] = of(second, AttackResolved)
    assert "ammo check black 17 > A13" in only.notes[-1]
    assert [e.name for e in of(second, EffectApplied)] == ["empty"]
    fight.turn("bo", "say")
    assert fight.refused("ana", "attack target=bo weapon=SMG distance=10").code == "rules.ammo"


def test_recovery_example_1() -> None:
    # Toughness 8, Wounds 6 and 7; black 11, white 4: a Success of 4. The 7 is lowered to 3,
    # the 6 along the way healed.
    out = recovery([6, 7], 8, Faces(11, 4), "at_most", "either")
    assert out.best == 4 and out.complication is None
    assert out.healed == (6, 7) and out.lowered_to == 3


def test_recovery_example_2() -> None:
    # Black 11, white 6: the 6 equals a Wound: the nearest empty Wound above it, 8, is marked.
    out = recovery([6, 7], 8, Faces(11, 6), "at_most", "either")
    assert out.complication == 8 and out.healed == () and out.lowered_to is None


def test_recovery_examples_played() -> None:
    fight = Fight().join("ana", wounds=[6, 7]).join("bo", side="ana").begin()  # between fights: no foe
    events = fight.turn("ana", "recover", faces=[11, 4])
    assert fight.wounds("ana") == [3]
    assert sorted(e.pool for e in of(events, HealingApplied)) == ["w6", "w7"]
    fight = Fight().join("ana", wounds=[6, 7]).join("bo", side="ana").begin()
    fight.turn("ana", "recover", faces=[11, 6])
    assert fight.wounds("ana") == [6, 7, 8]


def test_a_lowered_wound_on_a_marked_circle_marks_the_nearest_empty_one_to_the_right() -> None:
    # Wounds 3 and 7, Toughness 8: a Success of 4 lowers the 7 to 3, already marked: the
    # Wound goes to 4, the nearest empty circle to the right; it is not healed outright.
    out = recovery([3, 7], 8, Faces(4, 20), "at_most", "either")
    assert out.best == 4 and out.complication is None
    assert out.healed == (7,) and out.lowered_to == 4
    # Wounds 3, 4 and 8: a Success of 5 lowers the 8 to 3, healing the 4 on the way; 3 is
    # marked, so the Wound marks 4.
    assert recovery([3, 4, 8], 8, Faces(20, 5), "at_most", "either")[2:] == ((4, 8), 4)
