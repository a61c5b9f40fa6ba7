"""Properties of random bleeding-sun fights played by the engine
(``fightlog.fixtures.bleedingsun_fights``): the log folds to the engine's state, the same
seeds give the same bytes, every engine fight audits clean (also as a hand-run log, every
post checked again as the table would), the log splits back into the table's requests with
no departure (what ``fightlog dispute`` rests on), and a refused post changes nothing."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fightlog.audit.one_process import audit_events
from fightlog.audit.requests import split
from fightlog.events.codec import decode_line
from fightlog.events.store import MemoryStore
from fightlog.fixtures.bleedingsun_fights import opened, play, turn
from fightlog.fixtures.roe7_playing import by_hand
from fightlog.reducers.fold import fold
from fightlog.rules.bleedingsun.table import TABLE
from tests.rules.refusals import played, refusals_change_nothing

POLICIES = st.integers(min_value=0, max_value=10_000)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1).map(lambda n: f"{n:08x}" * 8)
OPTIONS = st.fixed_dictionaries({}, optional={
    "hit_face": st.sampled_from([4, 5, 6]),
    "low_pool": st.sampled_from(["no_roll", "minimum"]),
    "melee_attribute": st.sampled_from(["perception", "agility", "strength"]),
    "tiebreak": st.sampled_from(["sequence", "initiative"]),
    "immediate_drop": st.integers(0, 2),
    "split_modifiers": st.sampled_from(["attacker", "each"]),
    "maneuver_cost": st.sampled_from(["standard", "free"]),
    "positive_ap_soaks": st.booleans(),
    "bleed_out": st.integers(0, 2),
})
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def encoded(events: list) -> list:  # type: ignore[type-arg]
    store = MemoryStore()
    store.append(events)
    return [decode_line(line) for line in store.to_bytes().splitlines()]


@FEW
@given(POLICIES, SEEDS, OPTIONS)
@example(policy=929, seed=f"{3093878:08x}" * 8, options={"hit_face": 4, "immediate_drop": 2})  # a grenade thrown
# from a grapple: the first target's damage ended it, and the second target's resolution, citing the
# same roll, was judged against the pool without the grapple (found by the compiled suite, 2026-11-28)
def test_an_engine_fight_folds_audits_clean_and_splits_back(policy: int, seed: str, options: dict[str, object]) -> None:
    scribe = play(90, policy=policy, seed=seed, options=options)
    assert fold(scribe.events) == scribe.state
    events = encoded(scribe.events)
    assert [(f.code, f.seq, f.message) for f in audit_events(events).findings] == []
    assert split(events, seed, table=TABLE).departures == ()


@FEW
@given(POLICIES, SEEDS, OPTIONS)
@example(policy=3793, seed=f"{2042:08x}" * 8, options={"immediate_drop": 0, "split_modifiers": "each"})  # a blast's
# scatter read again at a later target's damage, after the aimed target's status had changed
def test_random_fights_run_by_hand_pass_the_tables_checks(policy: int, seed: str, options: dict[str, object]) -> None:
    scribe = play(90, policy=policy, seed=seed, options=options)
    events = by_hand(scribe.events, "random.txt", datetime(2025, 1, 1, tzinfo=timezone.utc), hud="d6 bot")
    assert [(f.code, f.seq, f.message) for f in audit_events(events).findings if f.severity != "info"] == []


@settings(max_examples=5, deadline=None)
@given(POLICIES, SEEDS)
def test_the_same_seeds_give_the_same_bytes(policy: int, seed: str) -> None:
    def logged() -> bytes:
        store = MemoryStore()
        store.append(play(30, policy=policy, seed=seed).events)
        return store.to_bytes()
    assert logged() == logged()


BAD = [
    ("attack target=nobody weapon=Club",), ("attack target=dag weapon=Lance",), ("move hexes=50",),
    ("aim weapon=Rifle", "aim weapon=Rifle"), ("attack target=dag weapon=Rifle mode=auto",),
    ("throw weapon=Frag target=dag", "throw weapon=Frag target=dag"), ("dodge",), ("aoo target=ana weapon=Knife",),
    ("total_defense", "say"), ("coup_de_grace target=dag weapon=Knife",), ("stabilize target=ana",),
    ("attack target=dag weapon=Rifle range=extreme cover=total light=total",),
]


@FEW
@given(POLICIES, st.integers(min_value=0, max_value=40), st.lists(st.sampled_from(BAD), min_size=1, max_size=4))
def test_a_refused_post_changes_nothing(policy: int, turns: int, posts: list[tuple[str, ...]]) -> None:
    refusals_change_nothing(TABLE, played(opened, turn, policy, turns), posts)
