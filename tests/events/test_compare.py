"""``first_difference``: where two logs part, and how it is said."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from fightlog.events.compare import describe, field_changes, first_difference
from fightlog.events.model import FORMAT_VERSION, AnyEvent, DamageApplied, RoundStarted, SceneStarted


def log(*damage: int) -> list[AnyEvent]:
    events: list[AnyEvent] = [SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION, options={"cap": 30})]
    events += [DamageApplied(target="bob", raw=d, taken=d) for d in damage]
    return [replace(e, seq=i, prev=f"{i:064x}") for i, e in enumerate(events, 1)]


def test_equal_logs_have_no_difference() -> None:
    assert first_difference(log(3, 4), log(3, 4)) is None


def test_prev_is_not_compared() -> None:
    other = [replace(e, prev="f" * 64) for e in log(3, 4)]
    assert first_difference(log(3, 4), other) is None


def test_the_first_changed_field_is_named() -> None:
    diff = first_difference(log(3, 4, 5), log(3, 7, 5))
    assert diff is not None and diff.seq == 3
    assert diff.fields == (("raw", 4, 7), ("taken", 4, 7))
    assert describe(diff) == "seq 3 (damage_applied): raw 4 -> 7, taken 4 -> 7; 4 events expected, 4 now"


def test_a_shorter_or_longer_fight() -> None:
    shorter = first_difference(log(3, 4), log(3))
    assert shorter is not None and shorter.actual is None
    assert describe(shorter) == "seq 3: the fight now ends before it (damage_applied expected); 3 events expected, 2 now"
    longer = first_difference(log(3), log(3, 4))
    assert longer is not None and describe(longer) == "seq 3: a new damage_applied after the expected end; 2 events expected, 3 now"


def test_another_kind_of_event() -> None:
    other = log(3)
    other.append(replace(RoundStarted(round=1), seq=3))
    diff = first_difference(log(3, 4), other)
    assert diff is not None and describe(diff) == "seq 3: round_started where damage_applied was; 3 events expected, 3 now"


def test_tables_and_arrays_are_compared_item_by_item() -> None:
    assert field_changes({"o": {"a": 1, "b": 2}}, {"o": {"a": 1, "b": 3}}) == [("o.b", 2, 3)]
    assert field_changes({"m": [1, 2]}, {"m": [1, 5]}) == [("m[1]", 2, 5)]
    assert field_changes({"m": [1]}, {"m": [1, 2]}) == [("m[1:]", [], [2])]
    # an item taken out in the middle: the part between, not the whole list (a dispute's first
    # consequence showed two lists cut to the same prefix, "[{...}... -> [{...}...")
    assert field_changes({"m": [1, 2, 3, 4]}, {"m": [1, 2, 4]}) == [("m[2:3]", [3], [])]
    assert field_changes({"m": [1, 9, 2, 3]}, {"m": [1, 2, 4]}) == [("m[1:]", [9, 2, 3], [2, 4])]


def test_ignored_fields_are_not_compared() -> None:
    changed = log(3)
    changed[0] = replace(changed[0], options={"cap": 20})  # type: ignore[call-arg]
    assert first_difference(log(3), changed) is not None
    assert first_difference(log(3), changed, ignore=frozenset({"options"})) is None


@given(st.lists(st.integers(0, 50), max_size=8), st.lists(st.integers(0, 50), max_size=8))
def test_the_difference_is_the_first_position_where_the_fights_part(a: list[int], b: list[int]) -> None:
    diff = first_difference(log(*a), log(*b))
    common = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if a == b:
        assert diff is None
    else:
        assert diff is not None and diff.seq == common + 2  # seq 1 is scene_started
