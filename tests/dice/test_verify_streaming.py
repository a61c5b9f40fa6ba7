"""``RollVerifier`` streaming (``fightlog verify --dice``): with a hint of the revealed seed,
or without one and a second pass, it finds exactly what the holding verifier finds, and holds
no roll."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.events.model import AnyEvent, DiceRolled, Die, SceneEnded
from fightlog.events.store import MemoryStore
from fightlog.dice import RollFinding, RollVerifier
from tests.dice.test_dice_verify import OTHER_SEED, SEED, scene_events

replace = msgspec.structs.replace


def _fed(events: Sequence[AnyEvent], verifier: RollVerifier) -> RollVerifier:
    store = MemoryStore()
    store.append(list(events))
    for line, event in store.read():
        verifier.feed(line, event)
    return verifier


def held(events: Sequence[AnyEvent], seed: str | None) -> tuple[list[RollFinding], RollVerifier]:
    verifier = _fed(events, RollVerifier(seed))
    return verifier.finish(), verifier


def streamed(
    events: Sequence[AnyEvent], seed: str | None, hint: str | None
) -> tuple[list[RollFinding], RollVerifier, int]:
    """As the CLI does it: stream with the hint, and read again if the verifier asks."""
    verifier = _fed(events, RollVerifier(seed, hint=hint, hold=False))
    findings = verifier.finish()
    assert not verifier._held  # nothing is ever held
    passes = 1
    if verifier.redo:
        verifier = _fed(events, RollVerifier(seed, hint=verifier.revealed, hold=False))
        findings = verifier.finish()
        assert not verifier.redo, "a second pass always settles it"
        passes = 2
    return findings, verifier, passes


def _tail_hint(events: Sequence[AnyEvent]) -> str | None:
    return next((e.seed for e in reversed(events) if isinstance(e, SceneEnded)), None)


def _engine_rolls(events: list[AnyEvent]) -> list[int]:
    return [i for i, e in enumerate(events) if isinstance(e, DiceRolled) and e.generator == "engine"]


def _mutated(events: list[AnyEvent], what: str, pick: int) -> list[AnyEvent]:
    rolls = _engine_rolls(events)
    at = rolls[pick % len(rolls)]
    roll = events[at]
    assert isinstance(roll, DiceRolled)
    out = list(events)
    if what == "face":
        die = roll.dice[0]
        out[at] = replace(roll, dice=[replace(die, face=die.face % die.sides + 1), *roll.dice[1:]])
    elif what == "total":
        out[at] = replace(roll, total=roll.total + 1)
    elif what == "index":
        out[at] = replace(roll, index=(roll.index or 0) + 5)
    elif what == "drop":
        del out[at]
    elif what == "seed":
        out[-1] = replace(out[-1], seed=OTHER_SEED)
    elif what == "unrevealed":
        out[-1] = replace(out[-1], seed=None)
    elif what == "extra-die":
        out[at] = replace(roll, dice=[*roll.dice, Die(sides=6, face=3)])
    return out


@settings(max_examples=40, deadline=None)
@given(
    what=st.sampled_from(["none", "face", "total", "index", "drop", "seed", "unrevealed", "extra-die"]),
    pick=st.integers(0, 50),
    open_mode=st.booleans(),
    given_seed=st.sampled_from([None, SEED, OTHER_SEED]),
    hint=st.sampled_from(["tail", None, SEED, OTHER_SEED, "not hex"]),
)
def test_streaming_finds_what_holding_finds(
    what: str, pick: int, open_mode: bool, given_seed: str | None, hint: str | None
) -> None:
    events = scene_events(open_mode=open_mode)
    if what != "none":
        events = _mutated(events, what, pick)
    hint_text = _tail_hint(events) if hint == "tail" else hint
    expected, holding = held(events, given_seed)
    found, streaming, _ = streamed(events, given_seed, hint_text)
    assert [(f.line, f.code, f.message) for f in found] == [(f.line, f.code, f.message) for f in expected]
    assert streaming.summary == holding.summary


def test_the_tail_hint_needs_one_pass_and_no_hint_two() -> None:
    events = scene_events()
    findings, verifier, passes = streamed(events, None, _tail_hint(events))
    assert (findings, passes, verifier.summary.seed) == ([], 1, "revealed")
    assert verifier.summary.recomputed == len(_engine_rolls(events))
    findings, verifier, passes = streamed(events, None, None)
    assert (findings, passes, verifier.summary.seed) == ([], 2, "revealed")


def test_a_hint_the_log_does_not_reveal_is_not_trusted() -> None:
    events = _mutated(scene_events(), "unrevealed", 0)  # the seed never revealed
    findings, verifier, passes = streamed(events, None, SEED)  # a right seed, but not in the log
    assert passes == 2
    assert [f.code for f in findings] == ["dice-seed-not-revealed"]
    assert (verifier.summary.seed, verifier.summary.recomputed) == ("missing", 0)
