"""The named options of ``roe7``: each choice made where the rulebook is ambiguous changes the
outcome the way its name says, and every option is recorded in ``scene_started.options``."""

from __future__ import annotations

import pytest

from fightlog.errors import InputError
from msgspec.structs import replace

from fightlog.events.model import (
    FORMAT_VERSION,
    AttackResolved,
    CombatantJoined,
    DamageApplied,
    DiceRolled,
    EffectApplied,
    ResourceSpent,
    SceneStarted,
)
from fightlog.reducers.fold import fold
from fightlog.kit.options import as_data
from fightlog.rules.roe7.options import DEFAULTS, OPTION_NAMES, read_options
from fightlog.rules.roe7.table import TABLE
from tests.rules.roe7.rigged import CLUB_M, FLAMER, MAGIKA, PIERCE_M, RIFLE, SWORD_M, Fight, act, duel, of


def rolls(events: list[object], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


def test_every_option_is_recorded_with_its_default() -> None:
    fight = Fight()
    recorded = of(fight.scribe.events, SceneStarted)[0].options
    assert sorted(recorded) == sorted(OPTION_NAMES) and recorded == as_data(DEFAULTS)


def test_unknown_or_mistyped_options_are_refused() -> None:
    with pytest.raises(InputError, match="unknown roe7 option 'dodge_per_shots'"):
        TABLE.options({"dodge_per_shots": True})
    with pytest.raises(InputError, match="roe7 option 'explosive_tie_to_dodger': expected true or false"):
        read_options({"explosive_tie_to_dodger": "yes"})


def test_both_natural_ones() -> None:
    assert not of(duel().post("alice", act("attack", "bob", weapon=RIFLE), faces=[1, 1]), AttackResolved)[0].hit
    fight = duel({"both_natural_ones": "hit"})
    [resolved] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[1, 1, 5]), AttackResolved)
    assert resolved.hit and resolved.critical == "failure"
    assert fight.effects("alice") == {"lost_action": 1} and fight.effects("bob") == {"lost_action": 1}


@pytest.mark.parametrize(("armour", "reduced"), [(True, 0), (False, 5)])
def test_racial_dr_is_armour_for_pierce(armour: bool, reduced: int) -> None:
    fight = duel({"racial_dr_is_armour": armour}, a={"weapons": [PIERCE_M]},
                 b={"race": "brute", "racial": "tough-hide", "dr": {"melee": 10}}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=PIERCE_M, shots=1), faces=[10, 90, 12])
    assert of(events, DamageApplied)[0].reduced_by == reduced


@pytest.mark.parametrize(("armour", "notation", "reduced"), [(True, "1d20", 0), (False, "1d20*2", 5)])
def test_racial_dr_is_armour_for_aimed_shots(armour: bool, notation: str, reduced: int) -> None:
    fight = duel({"racial_dr_is_armour": armour}, b={"race": "brute", "racial": "tough-hide"})
    fight.post("alice", act("aim", "bob"))
    fight.end_turn()
    fight.end_turn()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 50, 12])
    assert rolls(events, "damage")[0].notation == notation and of(events, DamageApplied)[0].reduced_by == reduced


@pytest.mark.parametrize(("same", "total"), [(True, 14), (False, 4)])
def test_magika_surge_same_action(same: bool, total: int) -> None:
    fight = duel({"magika_surge_same_action": same}, a={"weapons": [MAGIKA]})
    events = fight.post("alice", act("attack", "bob", weapon=MAGIKA), faces=[10, 80, 4])
    assert rolls(events, "damage")[0].total == total


@pytest.mark.parametrize(("melee", "bonus"), [(True, [15]), (False, [])])
def test_cover_against_melee(melee: bool, bonus: list[int]) -> None:
    fight = duel({"cover_against_melee": melee}, a={"weapons": [CLUB_M]}, distance=2)
    fight.end_turn()
    fight.post("bob", act("move", m=0, cover=True))
    fight.end_turn()
    events = fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[50, 2])
    assert [m.value for m in rolls(events, "dodge")[0].modifiers] == bonus


@pytest.mark.parametrize(("to_dodger", "hit"), [(True, False), (False, True)])
def test_explosive_tie_to_dodger(to_dodger: bool, hit: bool) -> None:
    fight = Fight({"explosive_tie_to_dodger": to_dodger})
    fight.join("alice", (0, 0), grenades=[{"name": "Frag"}]).join("bob", (10, 0)).begin()
    fight.post("alice", act("throw", "bob", item="Frag"))
    fight.end_turn()
    fight.end_turn()
    events = fight.end_turn(faces=[60, 60] + ([9] if hit else []))
    assert of(events, AttackResolved)[0].hit is hit


@pytest.mark.parametrize(("difficulty", "faces", "hit"), [("d100", [70, 69], True), ("damage", [31], False)])
def test_flamer_blast_difficulty(difficulty: str, faces: list[int], hit: bool) -> None:
    fight = Fight({"flamer_blast_difficulty": difficulty})
    fight.join("alice", (0, 0), weapons=[RIFLE]).join("bob", (2, 0), hp=5, weapons=[FLAMER]).begin()
    # dodge, attack, damage 20 (a save: 20 >= 2 x 5), tank 25, blast 30; then the difficulty (d100 only), alice's dodge
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 20, 90, 25, 30, *faces])
    assert [d.target for d in of(events, DamageApplied)] == ["bob", "bob"] + (["alice"] if hit else [])


def test_dodge_per_shot() -> None:
    events = duel().post("alice", act("attack", "bob", weapon=RIFLE, mode="auto"), faces=[50, 2, 2, 2])
    assert len(rolls(events, "dodge")) == 1
    events = duel({"dodge_per_shot": True}).post(
        "alice", act("attack", "bob", weapon=RIFLE, mode="auto"), faces=[50, 2, 50, 2, 50, 2]
    )
    assert len(rolls(events, "dodge")) == 3


@pytest.mark.parametrize(("natural", "burns"), [(True, False), (False, True)])
def test_burn_threshold_natural(natural: bool, burns: bool) -> None:
    mods = [{"value": 10, "source": "stats", "applies_to": "ranged_accuracy"}]
    fight = duel({"burn_threshold_natural": natural}, a={"weapons": [FLAMER], "modifiers": mods}, distance=5)
    events = fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 50, 3])
    assert bool(of(events, EffectApplied)) is burns


@pytest.mark.parametrize(("ignores", "reduced"), [(False, 4), (True, 0)])
def test_burn_ignores_dr(ignores: bool, reduced: int) -> None:
    fight = duel({"burn_ignores_dr": ignores}, a={"weapons": [FLAMER]}, b={"dr": {"explosive": 4}}, distance=5)
    fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    events = fight.end_turn(faces=[8])
    assert of(events, DamageApplied)[0].reduced_by == reduced


def test_grenade_fuse_turns() -> None:
    fight = Fight({"grenade_fuse_turns": 3})
    fight.join("alice", (0, 0), grenades=[{"name": "Frag"}]).join("bob", (10, 0)).begin()
    fight.post("alice", act("throw", "bob", item="Frag"))
    events = fight.end_turn() + fight.end_turn() + fight.end_turn()
    assert of(events, DiceRolled) == [] and fight.effects("alice") == {"grenade": 1}  # the second turn ends
    fight.end_turn()
    events = fight.end_turn(faces=[60, 70])  # the third
    assert [r.purpose for r in of(events, DiceRolled)] == ["explosive", "dodge"]


@pytest.mark.parametrize(
    ("options", "check"),
    [
        ({"modifier_cap": 20}, "cap"),
        ({"unopposed_target": 60}, "unopposed"),
        ({"gm_modifier_limit": 10}, "gm"),
        ({"bleed_turns": 3, "bleed_damage": 7}, "bleed"),
        ({"stun_turns": 2}, "stun"),
        ({"effect_threshold_medium": 90}, "threshold"),
        ({"dual_penalty_medium": 5}, "dual"),
        ({"movement_m": 10, "sprint_m": 6}, "movement"),
        ({"reinforcement_turns": 1}, "reinforcements"),
        ({"mortal_wound_save": 50}, "mortal"),
        ({"dr_cap": 10}, "dr"),
    ],
)
def test_number_options(options: dict[str, object], check: str) -> None:
    mod = [{"value": 40, "source": "stats", "applies_to": "accuracy"}]
    if check == "cap":
        events = duel(options, a={"modifiers": mod}).post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 50])
        assert rolls(events, "attack")[0].total == 70
    elif check == "unopposed":
        assert not of(duel(options).post("alice", act("skill", roll="strength"), faces=[55]), AttackResolved)[0].hit
    elif check == "gm":
        duel(options).post("alice", act("skill", roll="strength", gm=10), faces=[55])
    elif check == "bleed":
        fight = duel(options, a={"weapons": [SWORD_M]}, distance=2)
        fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
        assert fight.effects("bob") == {"bleed": 3}
        assert of(fight.end_turn(), DamageApplied)[0].taken == 7
    elif check == "stun":
        fight = duel(options, a={"weapons": [CLUB_M]}, distance=2)
        fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 75, 1])
        assert fight.effects("bob") == {"stun": 2}
    elif check == "threshold":
        fight = duel(options, a={"weapons": [CLUB_M]}, distance=2)
        assert of(fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 89, 1]), EffectApplied) == []
    elif check == "dual":
        fight = duel(options, a={"weapons": [SWORD_M, "S_s_Pistol_Class_(Permanent)"]}, distance=2)
        events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, offhand="S_s_Pistol", shots=1), faces=[99, 2, 2])
        assert [m.value for m in rolls(events, "attack")[0].modifiers] == [-5]
    elif check == "movement":
        fight = duel(options)
        fight.post("alice", act("sprint"), act("move", m=16))
    elif check == "reinforcements":
        fight = Fight(options)
        fight.join("alice").join("bob", (5, 0)).join("kestrel", reserve=True).begin()
        fight.post("alice", act("com_call", calls="kestrel"))
        fight.end_turn(faces=[50])
        assert fight.effects("alice") == {"reinforcements": 1}
    elif check == "mortal":
        fight = duel(options, b={"hp": 10})
        fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 20, 50])
        assert "mortally_wounded" in fight.statuses("bob")
    elif check == "dr":
        fight = duel(options, b={"dr": {"ballistic": 20}})
        assert of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 15]), DamageApplied)[0].taken == 5


def test_negative_racial_dr_does_not_hide_worn_armour_from_an_aimed_shot() -> None:
    """Magika Mage's -5 cancels 5 worn DR: the target is still armoured (no double damage)."""
    fight = duel(b={"race": "drevii", "racial": "magika-mage", "dr": {"ballistic": 5}})
    fight.post("alice", act("aim", "bob"))
    fight.end_turn()
    fight.end_turn()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 50, 12])
    assert rolls(events, "damage")[0].notation == "1d20"


@pytest.mark.parametrize(
    ("option", "token", "amount", "on", "off"),
    [
        # a sniper works the bolt after every shot; a plain semi-automatic rifle does not
        ("large_semi_rifle_is_sniper", "L_s_Rifle_Class_(Permanent)", 1, True, False),
        # a chainfed gun fires three actions between reloads; plain automatic fire reloads at once
        ("acannon_is_chainfed", "H_a_ACannon_Class_(Permanent)", 3, False, True),
    ],
)
def test_the_fold_reads_weapons_under_the_scenes_token_options(
    option: str, token: str, amount: int, on: bool, off: bool
) -> None:
    """The fold honours the scene's token options (``Roe7Rules.with_options``), so the
    engine and the fold agree on when a weapon needs a reload."""

    def fired(value: bool) -> bool:
        events = [
            SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION, options=TABLE.options({option: value})),
            CombatantJoined(actor="a", name="A", pools={"hp": 10}, sheet={"weapons": [token]}),
            ResourceSpent(actor="a", resource=token, amount=amount),
        ]
        state = fold(replace(e, seq=i) for i, e in enumerate(events, 1))
        return state.combatants["a"].weapons[token].needs_reload

    assert fired(True) is on
    assert fired(False) is off


def test_the_weather_and_time_of_day_at_the_start_hold_for_the_whole_fight() -> None:
    fight = duel({"weather": "acid rain", "time_of_day": "night"})
    for _ in range(4):
        fight.end_turn()
    assert fight.state.scene is not None
    assert (fight.state.scene.options["weather"], fight.state.scene.options["time_of_day"]) == ("acid rain", "night")
