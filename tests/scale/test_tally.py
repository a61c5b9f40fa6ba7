"""The tally of a run: Wilson intervals against published values, Newcombe's difference,
merging in any order gives the same totals, and a fixed master seed's report as a
snapshot."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightlog.scale.fights import FightSummary, FindingRow
from fightlog.scale.runs import play_chunk
from fightlog.scale.seeds import master_seed
from fightlog.scale.setup import load_setup
from fightlog.scale.tally import Tally, compare, newcombe, report, wilson
from tests.conftest import FIXTURES


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), table I: 0/10 -> 0 to 0.2775; 1/29 -> 0.0061 to 0.1718; 81/263 -> 0.2553 to 0.3662
    for (k, n), (low, high) in {(0, 10): (0.0, 0.2775), (1, 29): (0.0061, 0.1718),
                                (81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605)}.items():
        got = wilson(k, n)
        assert got == pytest.approx((low, high), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_and_significance() -> None:
    # Newcombe (1998), method 10, example (a): 56/70 - 48/80 = 0.2, 0.0524 to 0.3339
    diff, low, high = newcombe((48, 80), (56, 70))
    assert (diff, low, high) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)
    same = newcombe((50, 100), (52, 100))
    assert same[1] < 0 < same[2]


fights = st.builds(
    FightSummary,
    index=st.integers(0, 10**6),
    winner=st.sampled_from(["red", "blue", ""]),
    rounds=st.integers(1, 30),
    dealt=st.dictionaries(st.sampled_from(["ann", "bo", "(effects)"]), st.integers(0, 200), max_size=3),
    taken=st.dictionaries(st.sampled_from(["ann", "bo"]), st.integers(0, 200), max_size=2),
    effects=st.dictionaries(st.sampled_from(["bleed", "stun"]), st.integers(1, 4), max_size=2),
    findings=st.lists(st.builds(FindingRow, fight=st.integers(0, 99), seq=st.integers(1, 50),
                                code=st.sampled_from(["rules.outcome", "dice.face"]), message=st.just("m")),
                      max_size=2).map(tuple),
    audited=st.booleans(),
)


def tallied(batch: list[FightSummary]) -> Tally:
    tally = Tally()
    for fight in batch:
        tally.add(fight)
    return tally


@given(st.lists(fights, max_size=12), st.lists(fights, max_size=12), st.lists(fights, max_size=12))
def test_merging_in_any_order_gives_the_same_totals(a: list[FightSummary], b: list[FightSummary],
                                                   c: list[FightSummary]) -> None:
    ta, tb, tc = tallied(a), tallied(b), tallied(c)
    whole = tallied(a + b + c)
    for merged in (ta.merge(tb).merge(tc), tc.merge(ta.merge(tb)), tb.merge(tc).merge(ta)):
        assert report(merged, ("blue", "red")) == report(whole, ("blue", "red"))


def test_compare_flags_what_changed() -> None:
    a, b = Tally(), Tally()
    for i in range(400):
        a.add(FightSummary(index=i, winner="red" if i % 2 else "blue", rounds=5, dealt={}, taken={}, effects={}))
        b.add(FightSummary(index=i, winner="red" if i % 5 else "blue", rounds=5 + i % 2, dealt={}, taken={},
                           effects={}))
    rows = {row["what"]: row for row in compare(a, b, ("blue", "red"))}
    assert rows["win rate red"]["significant"] and rows["win rate red"]["difference"] == pytest.approx(0.3)
    assert not rows["win rate (draw)"]["significant"]
    assert rows["mean rounds"]["significant"] and rows["mean rounds"]["difference"] == pytest.approx(0.5)


def test_the_report_of_a_fixed_master_seed(snapshot: Any) -> None:
    setup = load_setup(str(FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"))
    tally = play_chunk(setup, master_seed(7), 0, 40, 10)
    assert tally.fights == 40 and tally.audited == 4 and tally.findings == []
    assert report(tally, setup.sides) == snapshot


def test_the_human_summary_gives_each_mean_its_interval() -> None:
    """scale.md: "each mean with its 95% interval"; damage and effects were printed bare."""
    from fightlog.cli.sim import _run_lines

    setup = load_setup(str(FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"))
    run = report(play_chunk(setup, master_seed(7), 0, 20, 0), setup.sides)
    lines = _run_lines(run, None)
    dealt = next(line for line in lines if "damage dealt per fight" in line)
    for actor, row in run["damage_dealt"].items():
        assert f"{actor} {row['mean']:.2f} (+/- {row['half_width']:.2f})" in dealt
