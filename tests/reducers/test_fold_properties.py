"""The fold's defining properties, over random valid logs with rulings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.events.model import AnyEvent, RulingMade
from fightlog.reducers.fold import fold, plan_of
from fightlog.reducers.folder import Folder
from fightlog.reducers.state import EMPTY, SceneState
from tests.reducers.logs import random_log

settings.register_profile("reducers", deadline=None, max_examples=150)
seeds = st.integers(min_value=0, max_value=2**32)


def source_of(events: list[AnyEvent]) -> Folder:
    def source(seq: int) -> Iterator[AnyEvent]:
        return iter(events[seq - 1 :])

    return Folder(source, keep_every=7)


def as_if_applied(events: list[AnyEvent], upto: int) -> SceneState:
    """The definition: fold history up to ``upto`` with every ruling made by then applied."""
    rulings = [e for e in events[:upto] if isinstance(e, RulingMade)]
    return fold(events[:upto], plan=plan_of(rulings))


def encoded(state: SceneState) -> bytes:
    return msgspec.json.encode(state)


@settings(deadline=None, max_examples=200)
@given(seeds, st.integers(10, 80))
def test_the_fold_equals_history_with_its_rulings_applied(seed: int, length: int) -> None:
    events = random_log(seed, length)
    assert source_of(events).run() == as_if_applied(events, len(events))


@settings(deadline=None, max_examples=150)
@given(seeds, st.data())
def test_the_state_at_any_seq_applies_only_the_rulings_made_by_then(seed: int, data: st.DataObject) -> None:
    events = random_log(seed, 50)
    upto = data.draw(st.integers(1, len(events)))
    assert source_of(events).run(upto=upto) == as_if_applied(events, upto)


@settings(deadline=None, max_examples=200)
@given(seeds, st.data())
def test_folding_in_two_parts_equals_folding_whole(seed: int, data: st.DataObject) -> None:
    events = random_log(seed, 60)
    whole = source_of(events).run()
    cut = data.draw(st.integers(1, len(events)))
    checkpoint = source_of(events).run(upto=cut)
    rest = Folder(lambda seq: iter(events[seq - 1 :]), snapshots=[checkpoint]).run()
    assert rest == whole
    assert encoded(rest) == encoded(whole)


@settings(deadline=None, max_examples=60)
@given(seeds)
def test_each_replay_step_is_the_state_as_of_that_event(seed: int) -> None:
    events = random_log(seed, 40)
    steps = list(source_of(events).steps())
    assert [s.event.seq for s in steps] == list(range(1, len(events) + 1))
    for s in steps:
        assert s.after == as_if_applied(events, s.event.seq)
    assert steps[0].before == EMPTY


@settings(deadline=None, max_examples=60)  # each example folds and encodes 60 states: about 0.2 s
@given(seeds)
def test_folding_never_mutates_earlier_states(seed: int) -> None:
    events = random_log(seed, 60)
    states = [s.after for s in source_of(events).steps()]
    snapshots = [encoded(s) for s in states]
    fold(events[len(events) // 2 :], start=states[len(events) // 2 - 1])  # fold on from the middle
    assert [encoded(s) for s in states] == snapshots


def test_the_fold_is_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "import sys, msgspec\n"
        "from tests.reducers.logs import random_log\n"
        "from tests.reducers.test_fold_properties import source_of\n"
        "out = [msgspec.json.encode(source_of(random_log(s, 70)).run()).decode() for s in range(25)]\n"
        "sys.stdout.write(msgspec.json.encode(out).decode())\n"
    )
    results = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        results.add(done.stdout)
    local = json.dumps([msgspec.json.encode(source_of(random_log(s, 70)).run()).decode() for s in range(25)], separators=(",", ":"))
    assert len(results) == 1
    assert results.pop() == local
