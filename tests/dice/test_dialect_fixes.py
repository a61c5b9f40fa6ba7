"""Defects found in review of the dialects engine: each test failed before its fix."""

from __future__ import annotations

import msgspec
import pytest

from fightlog.events.model import FORMAT_VERSION, AnyEvent, CombatantJoined, SceneEnded, SceneStarted
from fightlog.rules.dice import FairGenerator, RollVerifier, dice_commitment, dice_rolled, roll
from fightlog.events.store import MemoryStore

SEED = bytes(range(32)).hex()
SCENE = "duel-1"
DIALECT_ROLLS = {
    "roll20": "3d6!!+{2d20}kh1",
    "avrae": "4d6kh3+1d%",
    "dice-maiden": "4d6 k3 + 2",
    "rpg-sage": "2d6+1d8",
}


def _dialect_log() -> list[AnyEvent]:
    gen = FairGenerator(SEED, SCENE, ["a1"])
    events: list[AnyEvent] = [
        SceneStarted(scene=SCENE, ruleset="roe7", format=FORMAT_VERSION, dice=dice_commitment(SEED)),
        CombatantJoined(actor="bob", name="Bob", salt="a1"),
    ]
    for index, (dialect, expr) in enumerate(DIALECT_ROLLS.items()):
        events.append(dice_rolled(roll(expr, gen, index, dialect=dialect), roller="bob"))
    events.append(SceneEnded(seed=SEED, winner="bob"))
    return events


def _verify(events: list[AnyEvent]) -> list[str]:
    store = MemoryStore()
    store.append(events)
    verifier = RollVerifier(SEED)
    for line, event in store.read():
        verifier.feed(line, event)
    return [f.message for f in verifier.finish()]


def test_engine_rolls_keep_their_dialect_and_verify_clean() -> None:
    events = _dialect_log()
    assert [getattr(e, "dialect", "-") for e in events[2:-1]] == list(DIALECT_ROLLS)
    assert _verify(events) == []


@pytest.mark.parametrize("at", range(2, 2 + len(DIALECT_ROLLS)))
def test_a_tampered_face_in_a_dialect_roll_is_named(at: int) -> None:
    events = _dialect_log()
    ev = events[at]
    assert hasattr(ev, "dice")
    first = ev.dice[0]
    face = 1 if first.face != 1 else 2
    events[at] = msgspec.structs.replace(ev, dice=[msgspec.structs.replace(first, face=face), *ev.dice[1:]])
    messages = _verify(events)
    assert any(f"face {face} recorded, seed gives {first.face}" in m for m in messages), messages
