"""What a post may say (``rules/bleedingsun/post_params.py``, ``planning.band``, the
handlers): a param its action would not read, or would read in a way that changes nothing, is
refused with what it reads instead, and the scribe is left as it was; naming a fighter twice
or oneself is ``rules.target``; a range band must agree with the distance given, and a
ranged attack names one of them (there is no map)."""

from __future__ import annotations

import pytest

from fightlog.events.model import AttackResolved
from tests.rules.bleedingsun.rigged import of, ready_duel, trio


@pytest.mark.parametrize(("do", "code", "said"), [
    ("attack target=bo weapon=Rifle dice=5", "rules.split", "dice=5: a share of a split pool"),
    ("attack target=bo weapon=Rifle item=Frag", "rules.incomplete", "item=Frag is not read by an attack"),
    ("attack target=bo weapon=Rifle targets=bo,ana", "rules.incomplete", "only a spread hits more than its target"),
    ("attack target=bo weapon=Knife distance=1 threatened=true", "rules.incomplete",
     "threatened=true: a ranged attack's situation, not a melee one's"),
    ("attack target=bo weapon=Knife range=long", "rules.range", "the Knife is a melee weapon, it reaches 1 hex"),
    ("attack target=bo weapon=Rifle range=long distance=3", "rules.range",
     "range=long, but 3 hexes is short range for the Rifle (10/20/40/80): give one of them"),
    ("attack target=bo weapon=Rifle range=bogus", "rules.range", "range='bogus': one of short, medium, long, extreme"),
    ("attack target=bo weapon=Rifle", "rules.range",  # was played at short range, the best band, unsaid
     "how far is bo? the Rifle reaches 10/20/40/80 hexes (short/medium/long/extreme): give distance=N (hexes) or "
     "range=BAND"),
    ("attack target=bo weapon=Rifle coverr=medium", "rules.incomplete", "coverr=medium is not read by an attack"),
    ("attack target=bo weapon=Rifle high=yes", "rules.incomplete", "high=yes: write high=true or high=false"),
    ("attack target=ana weapon=Rifle", "rules.target", "ana cannot attack themselves"),
    ("throw weapon=Frag target=bo caught=bo:3", "rules.target",
     "bo is the blast's target, at its centre: caught= names the others"),
    ("throw weapon=Frag target=bo caught=ana:99999999999", "rules.incomplete",
     "caught=ana:99999999999: hexes away, a whole number from 0 to 1000"),
    ("throw weapon=Frag caught=bo:2 lob=true cover_cy=light", "rules.incomplete", "among those the blast hits (bo)"),
    ("attack weapon=Shotgun target=bo targets=bo,ana d_ana=-3", "rules.incomplete",
     "d_ana=-3: hexes away, a whole number from 0 to 1000"),
    ("attack weapon=Shotgun target=bo targets=bo,cy d_cy=3", "rules.target",  # nobody joined as cy
     "'cy' is not in the fight (combatants: ana, bo)"),
    ("attack target=bo weapon=Rifle light=true", "rules.incomplete", "light=true: one of normal, dark"),
    ("move hexes=2 cautious=no", "rules.incomplete", "cautious=no: write cautious=true or cautious=false"),
    ("draw weapon=Knife holstered=yes", "rules.incomplete", "holstered=yes: write holstered=true"),
    ("throw weapon=Frag target=bo caught=ana:1,ana:2", "rules.target", "ana named twice"),
    ("throw weapon=Frag target=bo cover=medium", "rules.incomplete", "write cover_ID=medium for each target"),
    ("throw weapon=Frag target=bo cover_cy=heavy", "rules.incomplete", "cy is not among those the blast hits (bo)"),
    ("throw weapon=Frag target=bo cover_bo=banana", "rules.incomplete", "cover_bo=banana: one of none, light"),
    ("throw weapon=Frag target=bo lob=true", "rules.incomplete", "lob=true aims at a hex, not at a fighter"),
    ("attack weapon=Shotgun target=bo d_bo=3", "rules.incomplete", "d_bo: the target's own hexes are distance="),
    ("attack weapon=Shotgun target=bo d_cy=3", "rules.incomplete", "cy is not among the spread's targets="),
    ("attack target=bo weapon=Knife distance=1 mode=3rb", "rules.fire-mode", "the Knife fires no modes"),
    ("stance too=crouched", "rules.incomplete", "too=crouched is not read by stance (it reads to, from)"),
    ("say hello=1", "rules.incomplete", "hello=1 is not read by say (it reads text)"),
    ("reload weapon=Knife", "rules.incomplete", "the Knife is a melee weapon: nothing to reload"),
    ("aim weapon=Knife", "rules.incomplete", "the Knife is a melee weapon; an aim adds to a ranged attack"),
    ("ready actions=banana", "rules.ready", "banana is not an action of bleeding-sun"),
    ("setting weapon=Rifle mode=auto", "rules.fire-mode", "the Rifle cannot fire auto"),
    ("setting weapon=Knife mode=auto", "rules.fire-mode", "the Knife fires no modes (a melee weapon)"),
    ("setting weapon=Frag mode=auto", "rules.fire-mode", "the Frag fires no modes (an explosive weapon)"),
])
def test_a_post_that_says_what_its_action_would_not_read(do: str, code: str, said: str) -> None:
    refused = ready_duel().refused("ana", do)
    assert refused.code == code and said in str(refused), str(refused)


def test_an_immediate_action_is_checked_too() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle range=short")
    refused = fight.refused("bo", "dodge quickly=true")
    assert "quickly=true is not read by dodge (it reads none)" in str(refused)


def test_a_range_that_agrees_with_the_distance_is_played() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle range=medium distance=15")
    events = fight.post("bo", "take", faces=[1] * 5)
    (missed,) = of(events, AttackResolved)
    assert missed.against == 2  # medium range


def test_a_spreads_band_is_its_aimed_targets_the_others_take_theirs_from_their_hexes() -> None:
    fight = trio(armour=0)  # medium spread: 3/6/9/12; Bo aimed at medium, Cy 8 hexes off (long)
    events = fight.post("ana", "attack weapon=Shotgun target=bo targets=bo,cy range=medium d_cy=8",
                        faces=[1] * 4 + [1] * 6 + [1] * 2 + [1] * 6 + [1] * 2)
    assert [(a.target, a.against) for a in of(events, AttackResolved)] == [("bo", 2), ("cy", 3)]


def test_a_spread_named_at_a_range_band_without_a_distance_is_at_that_band() -> None:
    fight = trio(armour=0)  # was resolved at short range whatever the band said
    events = fight.post("ana", "attack weapon=Shotgun target=bo range=long", faces=[1, 1, 1, 1] + [1] * 6 + [1] * 2)
    (hit,) = of(events, AttackResolved)
    assert hit.against == 3
