"""Each slice reducer, and the derived facts, on small hand-made logs."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from fightlog.events.model import (
    EVENT_TYPES,
    FORMAT_VERSION,
    Action,
    AnyEvent,
    CombatantJoined,
    DamageApplied,
    DeclarationPosted,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    HealingApplied,
    InitiativeRolled,
    InitiativeSet,
    Moved,
    ResourceSpent,
    RoundStarted,
    SceneEnded,
    SceneStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
    WeaponReloaded,
)
from fightlog.reducers.combine import DISPATCH
from fightlog.reducers.derive import next_to_post, posting_order
from fightlog.reducers.diff import Change, changes
from fightlog.reducers.fold import fold
from fightlog.reducers.state import SceneState
import pytest

from fightlog.kit.ruleset import GenericRules
from fightlog.reducers import fold_rules


class Shotguns(GenericRules):
    """A test ruleset: shotguns hold 2 shells and cannot fire again in the next turn."""

    id = "test-shotguns"

    def weapon_capacity(self, weapon: str) -> int | None:
        return 2 if weapon == "shotgun" else None

    def weapon_cooldown(self, weapon: str) -> int:
        return 2 if weapon == "shotgun" else 0

    def arrival_delay(self) -> int:
        return 2




@pytest.fixture(autouse=True)
def _shotguns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test ruleset is registered for this module's tests only (no other test sees it)."""
    monkeypatch.setitem(fold_rules._REGISTRY, Shotguns.id, Shotguns())


def scene(*events: AnyEvent, ruleset: str = "generic") -> SceneState:
    start: list[AnyEvent] = [
        SceneStarted(scene="t", ruleset=ruleset, format=FORMAT_VERSION),
        CombatantJoined(actor="a", name="Ann", pools={"hp": 50}, sheet={"weapons": ["shotgun"]}),
        CombatantJoined(actor="b", name="Ben", pools={"hp": 40, "mp": 10}, pool_max={"hp": 45}),
        InitiativeSet(order=["a", "b"]),
    ]
    return fold(numbered([*start, *events]))


def numbered(events: list[AnyEvent]) -> Iterator[AnyEvent]:
    for seq, event in enumerate(events, start=1):
        yield msgspec.structs.replace(event, seq=seq)


def test_every_kind_has_a_dispatch_entry() -> None:
    assert set(DISPATCH) == set(EVENT_TYPES)


def test_scene_info_and_its_end() -> None:
    state = scene(SceneEnded(winner="a", reason="Ben fled", seed="ab" * 32))
    assert state.scene is not None
    assert (state.scene.ended, state.scene.winner, state.scene.seed) == (True, "a", "ab" * 32)


def test_damage_and_healing_move_pools_and_healing_stops_at_the_maximum() -> None:
    state = scene(DamageApplied(target="b", raw=30, taken=25), HealingApplied(target="b", amount=100))
    assert state.combatants["b"].pools["hp"] == 45  # pool_max given
    state = scene(DamageApplied(target="a", raw=80, taken=80), HealingApplied(target="a", amount=10))
    assert state.combatants["a"].pools["hp"] == -20  # may go below zero; max defaults to the start


def test_damage_to_someone_not_in_the_scene_changes_nothing() -> None:
    assert scene(DamageApplied(target="zed", raw=5, taken=5)).combatants == scene().combatants


def test_statuses_are_a_sorted_set() -> None:
    state = scene(
        StatusChanged(actor="a", status="stunned"),
        StatusChanged(actor="a", status="prone"),
        StatusChanged(actor="a", status="stunned"),
    )
    assert state.combatants["a"].statuses == ("prone", "stunned")
    state = fold([StatusChanged(seq=state.seq + 1, actor="a", status="stunned", on=False)], start=state)
    assert state.combatants["a"].statuses == ("prone",)


def test_resources_go_to_pools_weapons_or_counters() -> None:
    state = scene(
        ResourceSpent(actor="b", resource="mp", amount=4),
        ResourceSpent(actor="b", resource="flee_attempts"),
        ResourceSpent(actor="b", resource="flee_attempts"),
    )
    assert state.combatants["b"].pools["mp"] == 6
    assert state.combatants["b"].spent == {"flee_attempts": 2}


def test_weapon_capacity_and_cooldown_come_from_the_ruleset() -> None:
    state = scene(
        TurnStarted(actor="a", round=1),
        ResourceSpent(actor="a", resource="shotgun"),
        TurnEnded(actor="a", round=1),
        ruleset="test-shotguns",
    )
    gun = state.combatants["a"].weapons["shotgun"]
    assert (gun.fired, gun.needs_reload, gun.cooldown) == (1, False, 1)
    state = fold(
        numbered_after(state, ResourceSpent(actor="a", resource="shotgun"), TurnEnded(actor="a", round=2)),
        start=state,
    )
    gun = state.combatants["a"].weapons["shotgun"]
    assert (gun.fired, gun.needs_reload, gun.cooldown) == (2, True, 1)
    state = fold(numbered_after(state, WeaponReloaded(actor="a", weapon="shotgun")), start=state)
    assert state.combatants["a"].weapons["shotgun"].needs_reload is False


def numbered_after(state: SceneState, *events: AnyEvent) -> list[AnyEvent]:
    return [msgspec.structs.replace(e, seq=state.seq + i) for i, e in enumerate(events, start=1)]


def test_movement_accumulates_in_a_turn_and_resets_at_the_next() -> None:
    state = scene(
        TurnStarted(actor="b", round=1),
        Moved(actor="b", metres=8, band="close", relative_to="a"),
        Moved(actor="b", metres=0),  # within the band (d20-evasion's lateral move)
    )
    who = state.combatants["b"]
    assert (who.moved, who.band, who.relative_to) == (8, "close", "a")
    state = fold(numbered_after(state, TurnStarted(actor="b", round=2)), start=state)
    assert state.combatants["b"].moved == 0 and state.combatants["b"].band == "close"
    state = fold(numbered_after(state, Moved(actor="b", metres=4)), start=state)
    assert state.combatants["b"].moved == 4


def _bands(state: SceneState) -> dict[str, tuple[str | None, str | None]]:
    return {actor: (c.band, c.relative_to) for actor, c in sorted(state.combatants.items())}


def test_a_band_is_between_two_and_a_move_elsewhere_forgets_it() -> None:
    state = fold(numbered([
        SceneStarted(scene="t", ruleset="generic", format=FORMAT_VERSION),
        *(CombatantJoined(actor=actor, name=actor.upper(), pools={"hp": 10}) for actor in ("a", "b", "c")),
        Moved(actor="b", metres=8, band="close", relative_to="a", x=3, y=0),
    ]))
    assert _bands(state) == {"a": ("close", "b"), "b": ("close", "a"), "c": (None, None)}
    # a moves to a band of b: both know the new band, nobody keeps the old one
    state = fold(numbered_after(state, Moved(actor="a", metres=5, band="medium", relative_to="b")), start=state)
    assert _bands(state) == {"a": ("medium", "b"), "b": ("medium", "a"), "c": (None, None)}
    # c moves to a band of a: a now shows its band to c (one band a combatant), and b's
    # band to a still holds (neither of them moved)
    state = fold(numbered_after(state, Moved(actor="c", metres=5, band="far", relative_to="a")), start=state)
    assert _bands(state) == {"a": ("far", "c"), "b": ("medium", "a"), "c": ("far", "a")}
    # a walks off without naming a band: every band known to or from a is forgotten
    state = fold(numbered_after(state, Moved(actor="a", metres=3)), start=state)
    assert _bands(state) == {"a": (None, None), "b": (None, None), "c": (None, None)}


def test_a_move_that_covers_no_ground_keeps_the_bands_known_to_and_from_the_mover() -> None:
    state = fold(numbered([
        SceneStarted(scene="t", ruleset="generic", format=FORMAT_VERSION),
        *(CombatantJoined(actor=actor, name=actor.upper(), pools={"hp": 10}) for actor in ("a", "b", "c")),
        Moved(actor="b", metres=8, band="close", relative_to="a"), Moved(actor="b", metres=0),
    ]))
    assert _bands(state) == {"a": ("close", "b"), "b": ("close", "a"), "c": (None, None)}
    state = fold(numbered_after(state, Moved(actor="a", metres=0)), start=state)
    assert _bands(state) == {"a": ("close", "b"), "b": ("close", "a"), "c": (None, None)}
    # c's band to a stands while a moves within their band (the review's case: a third party)
    state = fold(numbered_after(state, Moved(actor="c", metres=5, band="medium", relative_to="a"),
                                Moved(actor="a", metres=0)), start=state)
    assert _bands(state) == {"a": ("medium", "c"), "b": ("close", "a"), "c": ("medium", "a")}


def test_turn_order_rounds_acted_and_spent_actions() -> None:
    state = scene(
        InitiativeRolled(actor="a", score=60, tiebreak=[3]),
        RoundStarted(round=1),
        TurnStarted(actor="a", round=1),
        DeclarationPosted(actor="a", text="shoot", actions=[Action(type="attack", target="b"), Action(type="move"), Action(type="talk")]),
    )
    turn = state.turn
    assert (turn.round, turn.current, turn.spent, turn.initiative["a"]) == (1, "a", {"action": 1, "move": 1}, (60, 3))
    assert [p.actor for p in state.pending] == ["a"]
    assert next_to_post(state) == "a"
    state = fold(numbered_after(state, TurnEnded(actor="a", round=1)), start=state)
    assert (state.turn.acted, state.turn.spent, state.pending) == (("a",), {}, ())
    assert next_to_post(state) == "b"


def test_posting_order_skips_the_out_and_the_holding() -> None:
    state = scene(RoundStarted(round=1), StatusChanged(actor="a", status="fled"))
    assert next_to_post(state) == "b"
    assert [(s.actor, s.standing, s.note) for s in posting_order(state)] == [("a", "out", "fled"), ("b", "next", "")]
    state = fold(numbered_after(state, StatusChanged(actor="b", status="holding")), start=state)
    assert next_to_post(state) is None


def test_arrivals_take_their_slot_after_the_rulesets_delay() -> None:
    state = scene(
        RoundStarted(round=1),
        CombatantJoined(actor="c", name="Cat", arrival=True, after="a"),
        RoundStarted(round=2),
        ruleset="test-shotguns",  # arrival_delay 2
    )
    assert state.turn.order == ("a", "b")
    assert [(s.actor, s.standing) for s in posting_order(state)][-1] == ("c", "arriving")
    state = fold(numbered_after(state, RoundStarted(round=3)), start=state)
    assert state.turn.order == ("a", "c", "b")


def test_effects_apply_tick_count_down_refresh_and_expire() -> None:
    state = scene(
        EffectApplied(effect="bleed-1", name="bleed", target="b", source="a", duration=5, magnitude=5, counts_on="b"),
        EffectTicked(effect="bleed-1", target="b", remaining=5),
        EffectCountedDown(effect="bleed-1", target="b", remaining=4),
    )
    bleed = state.effects["bleed-1"]
    assert (bleed.remaining, bleed.ticks, bleed.magnitude) == (4, 1, 5)
    state = fold(
        numbered_after(state, EffectApplied(effect="bleed-2", name="bleed", target="b", duration=5, refreshes="bleed-1")),
        start=state,
    )
    assert list(state.effects) == ["bleed-2"]
    state = fold(numbered_after(state, EffectExpired(effect="bleed-2", target="b")), start=state)
    assert state.effects == {}


def test_changes_report_what_a_player_follows() -> None:
    before = scene(EffectApplied(effect="e", name="bleed", target="b", duration=3))
    after = fold(
        numbered_after(before, DamageApplied(target="b", raw=5, taken=5), EffectCountedDown(effect="e", target="b", remaining=2), StatusChanged(actor="b", status="stunned")),
        start=before,
    )
    assert changes(before, after) == [
        Change("b", "hp", 40, 35),
        Change("b", "status", None, "stunned"),
        Change("e", "remaining", 3, 2, part="effect"),
    ]


def test_unchanged_slices_are_shared_not_copied() -> None:
    before = scene()
    after = fold(numbered_after(before, DamageApplied(target="b", raw=1, taken=1)), start=before)
    assert after.turn is before.turn and after.effects is before.effects
    assert after.combatants["a"] is before.combatants["a"]


def test_nobody_posts_next_once_the_scene_has_ended() -> None:
    state = scene(RoundStarted(round=1), SceneEnded(winner="a"))
    assert next_to_post(state) is None


def test_a_combatant_who_flees_in_their_own_turn_hands_over_to_the_next() -> None:
    state = scene(RoundStarted(round=1), TurnStarted(actor="a", round=1), StatusChanged(actor="a", status="fled"))
    assert next_to_post(state) == "b"


def test_posts_made_outside_any_turn_are_closed_when_a_turn_starts() -> None:
    state = scene(DeclarationPosted(actor="a", text="hello"))
    assert [p.actor for p in state.pending] == ["a"]
    state = fold(numbered_after(state, TurnStarted(actor="b", round=1)), start=state)
    assert state.pending == ()
