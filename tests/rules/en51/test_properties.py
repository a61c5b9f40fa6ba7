"""Properties of random en51 fights played by the engine (``fightlog.fixtures.en51_fights``):
the log folds to the engine's state, the same seeds give the same bytes, every engine fight
audits clean, and a refused post changes nothing."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.store import MemoryStore
from fightlog.fixtures.en51_fights import opened, play, turn
from fightlog.reducers.fold import fold
from fightlog.rules.en51.table import TABLE
from tests.rules.refusals import played, refusals_change_nothing

POLICIES = st.integers(min_value=0, max_value=10_000)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1).map(lambda n: f"{n:08x}" * 8)
OPTIONS = st.fixed_dictionaries({}, optional={
    "surprise": st.sampled_from(["none", "roll"]),
    "die_succeeds": st.sampled_from(["at_most", "below"]),
    "ambush_unaware": st.booleans(),
    "moving_target_penalty": st.integers(0, 4),
    "irreversible_death": st.booleans(),
    "failed_recovery_reads": st.sampled_from(["either", "black"]),
    "roll_with_it": st.integers(0, 3),
}) | st.just({"surprise": "side", "surprising_side": "b"})
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def logged(turns: int, policy: int, seed: str) -> bytes:
    store = MemoryStore()
    store.append(play(turns, policy=policy, seed=seed).events)
    return store.to_bytes()


@FEW
@given(POLICIES, SEEDS, OPTIONS)
def test_the_log_folds_to_the_engines_state_and_audits_clean(policy: int, seed: str, options: dict[str, object]) -> None:
    scribe = play(200, policy=policy, seed=seed, options=options)
    assert fold(scribe.events) == scribe.state
    store = MemoryStore()
    store.append(scribe.events)
    events = [decode_line(line) for line in store.to_bytes().splitlines()]
    assert [(f.code, f.seq, f.message) for f in audit_events(events).findings] == []


@FEW
@given(POLICIES, SEEDS)
def test_the_same_seeds_give_the_same_bytes(policy: int, seed: str) -> None:
    assert logged(30, policy, seed) == logged(30, policy, seed)


BAD = [
    ("attack target=nobody weapon=Club",), ("attack target=dag weapon=Lance",), ("move distance=50",),
    ("move distance=4", "aim"), ("counter weapon=Knife",), ("attack target=dag weapon=Rifle distance=100000",),
    ("aim", "hide"), ("recover",), ("wait then=move",), ("cover value=0",), ("sneak target=dag distance=3 metres=9",),
    ("take",),
]


@FEW
@given(POLICIES, st.integers(min_value=0, max_value=60), st.lists(st.sampled_from(BAD), min_size=1, max_size=4))
def test_a_refused_post_changes_nothing(policy: int, turns: int, posts: list[tuple[str, ...]]) -> None:
    refusals_change_nothing(TABLE, played(opened, turn, policy, turns), posts)


@FEW
@given(POLICIES, SEEDS, OPTIONS)
def test_random_fights_run_by_hand_pass_the_tables_checks(policy: int, seed: str, options: dict[str, object]) -> None:
    """Every post checked again as the table would (a hand-run log: no commitment, every roll
    external): the table's own posts give no finding."""
    from datetime import datetime, timezone

    from fightlog.fixtures.roe7_playing import by_hand

    scribe = play(150, policy=policy, seed=seed, options=options)
    events = by_hand(scribe.events, "random.txt", datetime(2025, 1, 1, tzinfo=timezone.utc), hud="BW dice bot")
    found = [(f.code, f.seq, f.message) for f in audit_events(events).findings if f.severity != "info"]
    assert found == []


@FEW
@given(POLICIES, SEEDS, OPTIONS)
def test_random_fights_split_back_into_the_tables_requests(policy: int, seed: str, options: dict[str, object]) -> None:
    """``fightlog dispute`` re-derives a log request by request: an engine fight gives back
    exactly what was recorded."""
    from fightlog.audit.requests import split

    scribe = play(60, policy=policy, seed=seed, options=options)
    store = MemoryStore()
    store.append(scribe.events)
    events = [decode_line(line) for line in store.to_bytes().splitlines()]
    assert split(events, seed, table=TABLE).departures == ()
