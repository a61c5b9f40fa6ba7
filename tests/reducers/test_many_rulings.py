"""A log with many rulings folds in one pass, not one a ruling (``Folder``): a fold to one
point restarts at most once, reading ahead for the others at the first ruling that rewrites
history; a replay refolds each ruling from its recent states, and from a snapshot when the
target is older than they reach. Each is held to the definition (the fold of history with
every ruling made by then applied), with the recent states cut short so that both ways run."""

from __future__ import annotations

import random
from collections.abc import Iterator
from unittest import mock

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import FoldError
from fightlog.events.model import AnyEvent, RulingMade, SceneStarted
from fightlog.reducers import folder
from fightlog.reducers.folder import Folder
from tests.reducers.logs import random_log
from tests.reducers.test_fold_properties import as_if_applied

seeds = st.integers(min_value=0, max_value=2**32)


def ruled_often(seed: int, length: int = 300, every: int = 3) -> list[AnyEvent]:
    """A random log without its own rulings, a void or an accept of a recent event (or, one
    time in ten, of one far back) after every ``every`` events."""
    rng = random.Random(seed)
    base = [e for e in random_log(seed, length) if type(e) is not RulingMade]
    out: list[AnyEvent] = []
    for event in base:
        out.append(msgspec.structs.replace(event, seq=len(out) + 1))
        if len(out) > 3 and len(out) % every == 0:
            seq = len(out) + 1
            target = rng.randint(2, seq - 1) if rng.random() < 0.1 else rng.randint(max(2, seq - 8), seq - 1)
            if type(out[target - 1]) is RulingMade:
                action = "withdraw"
            else:
                action = rng.choice(["void", "void", "accept"])
            out.append(RulingMade(seq=seq, by="gm", action=action, target=target, reason="ruled"))  # type: ignore[arg-type]
    return out


class Counted:
    """A list source that counts how often it is read from the start of a fold."""

    def __init__(self, events: list[AnyEvent], broken_at: int | None = None) -> None:
        self.events = events
        self.reads = 0
        self.broken_at = broken_at

    def __call__(self, seq: int) -> Iterator[AnyEvent]:
        self.reads += 1
        for event in self.events[seq - 1 :]:
            if event.seq == self.broken_at:
                raise ValueError(f"damaged at {event.seq}")
            yield event


@settings(deadline=None, max_examples=40)
@given(seeds)
def test_a_fold_restarts_once_however_many_rulings_the_log_holds(seed: int) -> None:
    events = ruled_often(seed)
    rulings = sum(type(e) is RulingMade for e in events)
    source = Counted(events)
    found = Folder(source, keep_every=50).run()
    assert found == as_if_applied(events, len(events))
    assert rulings > 50 and folder.Folder(Counted(events)).run() == found
    assert source.reads <= 3  # the fold, the look ahead, the one restart


@settings(deadline=None, max_examples=40)
@given(seeds, st.data())
def test_a_fold_to_any_point_learns_only_the_rulings_made_by_then(seed: int, data: st.DataObject) -> None:
    events = ruled_often(seed, 120)
    upto = data.draw(st.integers(1, len(events)))
    assert Folder(Counted(events)).run(upto=upto) == as_if_applied(events, upto)


@settings(deadline=None, max_examples=30)
@given(seeds, st.sampled_from([1, 3, 1024]))
def test_each_replay_step_is_the_state_as_of_that_event_however_far_back_the_rulings_reach(
        seed: int, recent: int) -> None:
    events = ruled_often(seed, 150)
    with mock.patch.object(folder, "RECENT_STEPS", recent):
        steps = list(Folder(Counted(events), keep_every=20).steps())
    assert [s.event.seq for s in steps] == list(range(1, len(events) + 1))
    for step in steps:
        assert step.after == as_if_applied(events, step.event.seq)


def test_a_bad_ruling_ahead_is_raised_where_the_fold_meets_it() -> None:
    """The look ahead learns nothing when the rulings ahead do not make a plan: the error is
    the fold's, at the bad ruling's line, with what came before it folded as ever."""
    events = ruled_often(7, 60)
    bad_at = len(events) + 1
    amend_a_ruling = RulingMade(seq=bad_at, by="gm", action="amend", target=next(
        e.seq for e in events if type(e) is RulingMade), reason="no", changes={"reason": "x"})
    source = Counted([*events, amend_a_ruling])
    folder_ = Folder(source)
    with pytest.raises(FoldError) as raised:
        folder_.run()
    assert raised.value.line == bad_at and "cannot amend the ruling" in raised.value.message
    assert source.reads <= 3 and folder_.restarts <= 1  # the rulings before it learnt at once (a review)
    assert Folder(Counted([*events, amend_a_ruling])).run(upto=len(events)) == as_if_applied(events, len(events))


def test_damage_ahead_is_met_where_it_is() -> None:
    """A source that fails part way fails the fold there, not in the look ahead; a fold that
    stops before the damage is not touched by it (a fold reads one event past where it stops:
    the one that tells it to)."""
    events = ruled_often(11, 90)
    broken = len(events) - 5
    with pytest.raises(ValueError, match=f"damaged at {broken}"):
        Folder(Counted(events, broken_at=broken)).run()
    assert Folder(Counted(events, broken_at=broken)).run(upto=broken - 2) == as_if_applied(events, broken - 2)


@settings(deadline=None, max_examples=30)
@given(seeds, st.data())
def test_a_checkpoint_a_later_ruling_reaches_behind_is_not_restarted_from(seed: int, data: st.DataObject) -> None:
    """A checkpoint holds the state with the rulings made by its seq. One made later, on an
    event before it, makes it stale: a restart went back to it and lost that ruling, so a
    cached `state` differed from `--no-cache` (a review; as old as the checkpoints)."""
    events = ruled_often(seed, 150)
    early = data.draw(st.integers(10, 60))
    late = data.draw(st.integers(early + 10, len(events) - 5))
    stale = Folder(Counted(events)).run(upto=early)
    current = Folder(Counted(events)).run(upto=late)
    assert Folder(Counted(events), snapshots=[stale, current]).run() == as_if_applied(events, len(events))


def test_a_stale_snapshot_is_known_stale_through_rulings_it_does_not_list() -> None:
    """A snapshot lists the rulings in force, not those withdrawn before it. A fold from one
    (a cached `state`) met seq 22 withdrawing seq 16, which had withdrawn seq 13 (itself
    withdrawing seq 7's void of seq 3); not knowing seq 13, it took seq 22 to reach no further
    back than 13, restarted (at a later ruling) from the snapshot at seq 10, where the join
    was still voided, and kept it voided (the property test above, seed 720280)."""
    events = ruled_often(720280, 150)
    assert [(e.seq, e.action, e.target) for e in events[:22] if isinstance(e, RulingMade)][:6] == [
        (7, "void", 3), (10, "void", 9), (13, "withdraw", 7), (16, "withdraw", 13), (19, "void", 11),
        (22, "withdraw", 16)]
    stale, current = Folder(Counted(events)).run(upto=10), Folder(Counted(events)).run(upto=20)
    for snapshots in ([current], [stale, current]):
        source = Counted(events)
        assert Folder(source, snapshots=snapshots).run() == as_if_applied(events, len(events))
        assert source.reads <= 4  # from the snapshot, the rulings it does not list, those ahead, from the start


def test_the_scene_cannot_be_voided_by_a_ruling_read_ahead() -> None:
    events = ruled_often(3, 40)
    assert isinstance(events[0], SceneStarted)
    void_scene = RulingMade(seq=len(events) + 1, by="gm", action="void", target=1, reason="no")
    with pytest.raises(FoldError) as raised:
        Folder(Counted([*events, void_scene])).run()
    assert raised.value.line == void_scene.seq and "cannot be voided" in raised.value.message


@settings(deadline=None, max_examples=10)
@given(seeds)
def test_a_replay_of_a_file_refolds_a_far_ruling_from_lines_read_once_checked(seed: int) -> None:
    """A tester's 60 rulings aimed far back made a replay read and check the log from line 1
    once a ruling (8.3 s against 0.9 s): the refold now decodes the lines the replay has
    checked already, and still holds to the definition."""
    import tempfile
    from pathlib import Path

    from fightlog.events.store import FileStore
    from fightlog.history import states

    events = ruled_often(seed, 120, every=4)
    with tempfile.TemporaryDirectory() as folder_name:
        path = Path(folder_name) / "ruled.jsonl"
        FileStore(str(path)).append(events)
        real = states.read_log
        calls: list[int] = []

        def counted(*args: object, **kwargs: object) -> object:
            calls.append(1)
            return real(*args, **kwargs)  # type: ignore[arg-type]

        with mock.patch.object(folder, "RECENT_STEPS", 1), mock.patch.object(states, "read_log", counted):
            steps = list(states.replay(path))
    assert [s.event.seq for s in steps] == list(range(1, len(events) + 1))
    for step in steps:
        assert step.after == as_if_applied(events, step.event.seq)
    assert len(calls) == 1  # the first pass; every refold read the lines again decoded only
