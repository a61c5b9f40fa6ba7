"""The audit's window of recent events: what a check can look up, however often it is trimmed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fightlog.audit.window as window_module
from fightlog.audit.window import Window
from fightlog.events.model import AnyEvent, TurnStarted
from tests.conftest import FIXTURES
from tests.audit.test_audit_parallel import events_of


def reach(events: list[AnyEvent], upto: int) -> set[int]:
    """The seqs in reach after event ``upto``: from the previous turn's start (everything
    while fewer than two turns have opened)."""
    starts = [e.seq for e in events[:upto] if isinstance(e, TurnStarted)]
    first = starts[-2] if len(starts) >= 2 else 0
    return {e.seq for e in events[:upto] if e.seq >= first}


@pytest.mark.parametrize("trim", [1, 3, 64, 4096])
@given(stop=st.integers(1, 400))
def test_exactly_the_previous_and_the_open_turn_are_in_reach(trim: int, stop: int) -> None:
    events = events_of(FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl")
    stop = min(stop, len(events))
    window = Window()
    real = window_module.TRIM
    window_module.TRIM = trim
    try:
        for event in events[:stop]:
            window.held[event.seq] = event
            if isinstance(event, TurnStarted):
                window.turn_opened(event.seq)
    finally:
        window_module.TRIM = real
    expected = reach(events, stop)
    assert {e.seq for e in events if window.get(e.seq) is not None} == expected
    assert all(window.get(seq) is events[seq - 1] for seq in expected)
    assert window.added == stop
    if trim < 64:
        assert len(window.held) <= max(trim + 1, len(expected))  # the old ones went
