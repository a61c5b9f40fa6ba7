"""Disputes of hand-run and imported fights: logs whose recorded consequences the rules did
not derive (``disputed-duel.jsonl``: HUD rolls, GM rulings, sheets kept by hand, no dice
seed) or derive differently (the d20 evasion audit fixtures: engine fights edited by hand).

The log is kept as recorded before the request holding the change; from there the recorded
requests are replayed by the rules with the recorded rolls, and the fork is compared with the
original as the rules re-derive it (so what differs is what the change did).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from syrupy.assertion import SnapshotAssertion

from fightlog.audit.dispute import Change, Dispute, dispute
from fightlog.cli.dispute import as_json
from fightlog.errors import RefusedError
from fightlog.events.model import AnyEvent, DeclarationPosted, DiceRolled, SceneEnded, SceneStarted
from fightlog.events.reader import read_log
from fightlog.kit.table import table_for
from tests.conftest import FIXTURES

DUEL = FIXTURES / "roe7" / "disputed-duel.jsonl"
GRAZE = FIXTURES / "d20-evasion" / "audit" / "the-graze-that-counted.jsonl"
ALLEY = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"


@cache
def log(path: Path) -> tuple[AnyEvent, ...]:
    return tuple(event for _, event in read_log(path))


def fork(path: Path, seq: int, *sets: tuple[str, Any], **mode: bool) -> Dispute:
    return dispute(log(path), Change(seq=seq, sets=sets, **mode), table_for=table_for, name=path.name)


def test_the_hand_run_duel_has_no_seed_and_is_disputed_at_a_roll(snapshot: SnapshotAssertion) -> None:
    start = log(DUEL)[0]
    assert isinstance(start, SceneStarted) and start.dice is None
    outcome = fork(DUEL, 30, ("dice[0].face", 10))
    assert outcome.seed is None and outcome.restart == 25
    assert outcome.baseline is not None  # the recorded log departs from the rules from the fork point
    assert outcome.departures[0].seq == 4
    # Everything before the request holding the change is kept exactly as recorded.
    assert outcome.fork[:24] == list(log(DUEL)[:24]) == outcome.baseline[:24]
    assert as_json(outcome, None) == snapshot


def test_the_hand_run_duel_is_disputed_at_a_declaration(snapshot: SnapshotAssertion) -> None:
    outcome = fork(DUEL, 25, ("actions[0].mode", "single"))
    assert outcome.restart == 25
    assert as_json(outcome, None) == snapshot


def test_a_d20_fight_edited_by_hand_is_disputed_against_its_re_derivation(snapshot: SnapshotAssertion) -> None:
    outcome = fork(GRAZE, 16, ("dice[0].face", 20))
    # The hand-made flaw at seq 19 (a hit recorded as a miss) is where the log departs from
    # the rules; the fork is compared with the rules' own re-derivation, not with the flaw.
    assert outcome.departures[0].seq == 19
    assert outcome.baseline is not None and outcome.baseline != list(log(GRAZE))
    assert as_json(outcome, None) == snapshot


def test_later_external_rolls_are_kept_as_recorded() -> None:
    events = log(DUEL)
    outcome = fork(DUEL, 30, ("dice[0].face", 10))
    recorded = {e.origin.ref: e for e in events[30:] if isinstance(e, DiceRolled) and e.origin is not None}
    reused = [e for e in outcome.fork[30:] if isinstance(e, DiceRolled) and e.origin is not None
              and e.origin.ref in recorded]
    assert len(reused) >= 8
    for roll in reused:
        original = recorded[roll.origin.ref]  # type: ignore[union-attr]
        assert (roll.generator, roll.tool, roll.dice, roll.roller, roll.purpose) == (
            "external", original.tool, original.dice, original.roller, original.purpose)
    # Bob's dodge the HUD listed after Alice's three shots is still Bob's dodge in the fork.
    dodge = next(e for e in outcome.baseline or () if isinstance(e, DiceRolled) and e.seq > 25)
    assert (dodge.roller, dodge.purpose, dodge.dice[0].face) == ("bob", "dodge", 44)


def test_a_roll_the_log_does_not_record_is_a_stand_in_and_said_so() -> None:
    outcome = fork(DUEL, 30, ("dice[0].face", 10))
    # All three shots now beat the dodge: the rules ask for three damage dice, the HUD rolled two.
    stand_in = [d for d in outcome.divergences if d.kind == "stand-in" and not d.unchanged]
    assert [d.seq for d in stand_in] == [25]
    drawn = [e for e in outcome.fork if isinstance(e, DiceRolled) and e.origin and e.origin.medium == "dispute"
             and e.origin.ref == "stand-in"]
    assert [(d.notation, d.generator) for d in drawn][:1] == [("1d20 + 1d20 + 1d20", "external")]
    unused = [d for d in outcome.divergences if d.kind == "roll" and not d.unchanged]
    assert [d.seq for d in unused] == [32]  # the HUD's 2d20 has no use in the fork


def test_a_stand_in_is_drawn_for_its_request_wherever_the_fork_puts_it() -> None:
    # The fork and the original re-derived put the same roll of the same request at other
    # seqs when the change added or removed an event before it; the stand-in must not
    # differ for that alone (before, it was drawn at the seq it got).
    from fightlog.audit.replay_request import ReplayScribe
    from fightlog.reducers.fold import fold

    events = alley_by_hand()
    early, late = fold(events[:20]), fold(events[:31])
    assert early.seq != late.seq

    def faces(state: Any, key: str) -> list[list[int]]:
        scribe = ReplayScribe(state, None, key=key)
        drawn = [scribe.roll(n, roller="vex", purpose="attack")[0] for n in ("1d100", "1d100", "2d6")]
        assert len(scribe.stand_ins) == 3
        return [[d.face for d in r.dice] for r in drawn]

    assert faces(early, "seq 40") == faces(late, "seq 40")
    assert faces(early, "seq 40") != faces(early, "seq 41")  # another request draws its own
    first = faces(early, "seq 40")
    assert first[0] != first[1]  # each roll of the request at its own ordinal


def test_a_post_by_a_fighter_down_in_the_fork_is_a_divergence_with_both_seqs() -> None:
    # Vex's critical does 85, not 61: Rook is down at once, and his later posts do not fit.
    outcome = fork(ALLEY, 43, ("dice[0].face", 40))
    down = [d for d in outcome.dropped if d.request == "post"]
    assert [(d.seq, d.actor, d.statuses, d.since) for d in down] == [
        (48, "rook", ("defeated", "wounded"), 45),
        (64, "rook", ("defeated", "wounded"), 45),
    ]
    assert not any(d.unchanged for d in outcome.dropped)


def test_requests_the_rules_cannot_play_are_kept_as_recorded() -> None:
    outcome = fork(DUEL, 30, ("dice[0].face", 10))
    kept = {d.seq: d.text for d in outcome.divergences if d.kind == "kept"}
    assert "unknown action 'use_item'" in kept[71]  # Alice's field dressing: not a roe7 action
    assert all(d.unchanged for d in outcome.divergences if d.kind == "kept")
    heal = [e for e in outcome.fork if type(e).__name__ == "HealingApplied"]
    assert len(heal) == 1


def test_a_change_in_a_request_the_rules_cannot_play_is_refused() -> None:
    with pytest.raises(RefusedError, match="the rules cannot play the post by alice at seq 71, which holds the change, "
                                           "even as recorded"):
        fork(DUEL, 72, ("dice[0].face", 1))


def test_an_unchanged_hand_run_fact_changes_nothing_against_the_re_derivation() -> None:
    outcome = fork(DUEL, 30, ("dice[0].face", 44))
    assert outcome.difference is None and outcome.consequence is None
    assert not any(s.changed for s in outcome.ending.standings)
    assert all(d.unchanged for d in (*outcome.dropped, *outcome.divergences))


@cache
def alley_by_hand() -> tuple[AnyEvent, ...]:
    """The alley duel as if run by hand: every roll made on a HUD, no dice seed at all."""
    out: list[AnyEvent] = []
    for event in log(ALLEY):
        if isinstance(event, SceneStarted):
            event = replace(event, dice=None)
        elif isinstance(event, SceneEnded):
            event = replace(event, seed=None)
        elif isinstance(event, DiceRolled):
            event = replace(event, generator="external", index=None, tool="HUD")
        out.append(event)
    return tuple(out)


def test_a_hand_run_post_by_a_fighter_down_in_the_fork_names_both_seqs() -> None:
    events = alley_by_hand()
    same = dispute(events, Change(seq=43, sets=(("dice[0].face", 28),)), table_for=table_for)
    assert same.baseline is None and same.difference is None  # the rules give the log back
    outcome = dispute(events, Change(seq=43, sets=(("dice[0].face", 40),)), table_for=table_for)
    assert outcome.seed is None
    down = [(d.seq, d.actor, d.since) for d in outcome.dropped if d.request == "post"]
    assert down == [(48, "rook", 45), (64, "rook", 45)]
    # Vex's later rolls at Rook have no use in the fork: each is listed where it was recorded.
    unused = [d for d in outcome.divergences if d.kind == "roll"]
    assert unused and all(d.seq > 45 for d in unused)
    assert not any(d.kind == "stand-in" for d in outcome.divergences)


def _hand_run_facts() -> list[int]:
    return [e.seq for e in log(DUEL) if isinstance(e, (DiceRolled, DeclarationPosted))]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_hand_run_facts()))
def test_a_change_that_changes_nothing_in_the_hand_run_duel_changes_nothing(seq: int) -> None:
    """Against the rules' re-derivation, a fact set to what it was gives the same fight: every
    divergence is there without the change too (or the rules cannot play the request)."""
    event = log(DUEL)[seq - 1]
    same = ("dice[0].face", event.dice[0].face) if isinstance(event, DiceRolled) else ("text", event.text)
    try:
        outcome = fork(DUEL, seq, same)
    except RefusedError as exc:
        assert "the rules cannot play" in exc.message or "the rules make no such roll" in exc.message
        return
    assert outcome.difference is None and outcome.consequence is None and outcome.findings == ()
    assert not any(s.changed for s in outcome.ending.standings)
    assert all(f.unchanged for f in (*outcome.dropped, *outcome.divergences, *outcome.passed))


def test_a_recorded_roll_the_rules_never_ask_for_cannot_be_changed() -> None:
    # The duel's scene keeps the posting order as joined: the rules roll no initiative.
    with pytest.raises(RefusedError, match="the rules make no such roll when they play the begin at seq 4"):
        fork(DUEL, 4, ("dice[0].face", 3))


def test_the_roe7_rules_read_a_hand_kept_sheet() -> None:
    from fightlog.reducers.folder import Folder
    from fightlog.rules.roe7.fighters import Fighter

    events = log(DUEL)[:3]
    state = Folder(lambda seq: iter(events[seq - 1 :])).run()
    alice, bob = Fighter(state, "alice"), Fighter(state, "bob")
    # The scope is kept as an item modifier; the racial +5 typed by hand is the racial's own
    # business (Violent Upbringing: ballistic damage, not accuracy).
    assert alice.mods("accuracy") == [(10, "scope (items)")]
    assert (alice.dr("ballistic"), bob.dr("melee"), bob.dr("ballistic")) == (10, 5, 0)
