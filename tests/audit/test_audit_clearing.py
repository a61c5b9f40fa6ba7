"""What the audit's child clears (``RecordSplit.clears``) never changes the report.

On a big log the child runs the ruleset's ``Clear`` tests (for roe7: an attack's outcome
against the dodge it cites, and the damage of a rolled hit) and sends what they clear; a check in the main process skips
that part for an event cleared, and does it itself for one the child has not reached. Here
the child's messages are replayed to the main process all at once (the child far ahead),
not at all (the child behind), or cut off part way, and each report must equal the
one-process audit's. A tampered outcome or damage must never be cleared, and an honest one
must be (else the clearing would be dead weight).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.auditor import audit_events, audit_log
from fightlog.audit.one_pass import Auditor, Report, RulingFound
from fightlog.audit.one_process import dice_events, or_exact
from fightlog.audit.two_process import Inbox, fold_checked
from fightlog.audit.dice_checks import FastDice
from fightlog.audit.reading import checked
from fightlog.audit.recorded import RecordChecks
from fightlog.events.model import AnyEvent, AttackResolved, DamageApplied, DiceRolled, EffectTicked, RulingMade
from fightlog.events.reader import open_log
from fightlog.events.tail import revealed_seed
from tests.audit.test_audit_parallel import LOGS, events_of, resealed
from tests.conftest import FIXTURES

OUTCOME_CODES = frozenset({"rules.outcome", "rules.critical", "rules.tie-to-attacker"})


class Replayed:
    """A connection handing out messages already sent (``Inbox`` reads it)."""

    def __init__(self, messages: list[object]) -> None:
        self._messages = deque(messages)

    def poll(self) -> bool:
        return bool(self._messages)

    def recv(self) -> object:
        return self._messages.popleft()


def child_run(path: Path) -> tuple[list[tuple[str, int, list[int]]], RecordChecks, FastDice]:
    """What the child does, in this process: its ``clear`` messages (one per tested event)."""
    sent: list[tuple[str, int, list[int]]] = []
    dice = FastDice(None, hint=revealed_seed(str(path)))
    record = RecordChecks(dice.feed, sent.append, send_every=1)  # type: ignore[arg-type]
    with open_log(path) as stream:
        for _ in checked(stream, str(path), None, record.feeds, links=True):
            pass
    record.finish()
    return sent, record, dice


def main_run(path: Path, messages: list[object], record: RecordChecks, dice: FastDice) -> Report:
    """What the main process does, with ``messages`` from the child as they would arrive."""
    inbox = Inbox(Replayed([*messages, ("done", None)]))  # type: ignore[arg-type]
    auditor = Auditor(unruled=True, recorded_elsewhere=True, cleared=inbox.cleared)
    fold_checked(str(path), auditor)
    report = or_exact(dice, None, lambda: dice_events(str(path)))  # as the child
    return auditor.finish(report, record.findings)


def unclear(messages: list[tuple[str, int, list[int]]]) -> set[int]:
    return {seq for _, _, seqs in messages for seq in seqs}


def reached(messages: list[tuple[str, int, list[int]]]) -> set[int]:
    return {upto for _, upto, _ in messages}


@pytest.mark.parametrize("log", [p for p in LOGS if p.parent.name != "dice"], ids=lambda p: p.name)
def test_the_report_does_not_depend_on_how_far_the_child_got(log: Path) -> None:
    sequential = audit_log(log, workers=1)
    sent, record, dice = child_run(log)
    try:
        for cut in (len(sent), 0, len(sent) // 2):
            assert main_run(log, list(sent[:cut]), record, dice) == sequential
    except RulingFound:
        assert any(isinstance(e, RulingMade) for e in events_of(log))
        return
    tested = {e.seq for e in events_of(log) if isinstance(e, (AttackResolved, DamageApplied))}
    assert reached(sent) == tested  # every attack and damage was tested, and nothing else


@pytest.mark.parametrize("log", sorted((FIXTURES / "roe7" / "audit").glob("*.jsonl")), ids=lambda p: p.name)
def test_a_flawed_outcome_or_damage_is_never_cleared(log: Path) -> None:
    sent, _, _ = child_run(log)
    damages = {e.seq for e in events_of(log) if isinstance(e, DamageApplied)}
    findings = audit_log(log, workers=1).findings
    flawed = {f.seq for f in findings if f.code in OUTCOME_CODES or f.seq in damages}
    assert flawed <= unclear(sent)


def plain_attacks(events: list[AnyEvent]) -> tuple[set[int], set[int]]:
    """Attacks against the dodge they cite: those with no natural 1 on either die, and all."""
    rolls = {e.seq: e for e in events if isinstance(e, DiceRolled)}
    plain: set[int] = set()
    every: set[int] = set()
    for e in events:
        if isinstance(e, AttackResolved) and len(e.rolls) == 2:
            att, dfn = rolls.get(e.rolls[0]), rolls.get(e.rolls[1])
            if att is not None and dfn is not None and (att.purpose, dfn.purpose) == ("attack", "dodge"):
                every.add(e.seq)
                if att.dice[0].face != 1 and dfn.dice[0].face != 1:
                    plain.add(e.seq)
    return plain, every


@pytest.mark.parametrize("log", sorted((FIXTURES / "roe7" / "scenarios").glob("*.jsonl")), ids=lambda p: p.name)
def test_an_honest_attack_against_a_dodge_is_cleared(log: Path) -> None:
    sent, _, _ = child_run(log)
    events = events_of(log)
    plain, every = plain_attacks(events)
    left = unclear(sent)
    assert plain and not plain & left
    assert every - plain <= left  # a natural 1 costs an action: the main process settles that


def rolled_damage(events: list[AnyEvent]) -> set[int]:
    """Damage that cites the damage roll of an attack's outcome (not a tick)."""
    by_seq = {e.seq: e for e in events}
    found: set[int] = set()
    for e in events:
        if isinstance(e, DamageApplied) and e.cause is not None:
            roll = by_seq.get(e.cause)
            if isinstance(roll, DiceRolled) and roll.purpose == "damage" and roll.for_seq is not None:
                if isinstance(by_seq.get(roll.for_seq), AttackResolved):
                    found.add(e.seq)
    return found


@pytest.mark.parametrize("log", sorted((FIXTURES / "roe7" / "scenarios").glob("*.jsonl")), ids=lambda p: p.name)
def test_the_honest_damage_of_a_rolled_hit_is_cleared(log: Path) -> None:
    sent, _, _ = child_run(log)
    events = events_of(log)
    rolled = rolled_damage(events)
    ticked = {e.seq for e in events if isinstance(e, EffectTicked)}
    ticked |= {e.seq for e in events if isinstance(e, DiceRolled) and e.for_seq in ticked}  # a burn's dice
    ticks = {e.seq for e in events if isinstance(e, DamageApplied) and e.cause in ticked}
    left = unclear(sent)
    assert rolled and not rolled & left
    assert ticks <= left  # a tick's damage needs the state: the main process checks it


TAMPER = ["hit", "critical", "score", "against", "taken", "raw", "reduced_by"]


def tampered(event: AttackResolved | DamageApplied, how: str) -> AnyEvent:
    replace = msgspec.structs.replace
    if isinstance(event, DamageApplied):
        if how == "taken":
            return replace(event, taken=event.taken + 1)
        if how == "raw":
            return replace(event, raw=event.raw + 2, taken=event.taken + 2)  # taken still adds up
        return replace(event, reduced_by=event.reduced_by + 31)  # past the DR cap
    if how == "hit":
        return replace(event, hit=not event.hit, critical=None)
    if how == "critical":
        return replace(event, critical=None if event.critical else "success")
    if how == "score":
        return replace(event, score=event.score + 1)
    return replace(event, against=event.against - 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    log=st.sampled_from(sorted((FIXTURES / "roe7" / "scenarios").glob("*.jsonl"))),
    pick=st.integers(0, 10_000),
    how=st.sampled_from(TAMPER),
    cut=st.floats(0, 1),
)
def test_a_tampered_outcome_or_damage_is_found_whatever_the_child_cleared(
    log: Path, pick: int, how: str, cut: float, tmp_path: Path
) -> None:
    events = events_of(log)
    kind = DamageApplied if how in ("taken", "raw", "reduced_by") else AttackResolved
    candidates = [i for i, e in enumerate(events) if isinstance(e, kind)]
    at = candidates[pick % len(candidates)]
    original = events[at]
    assert isinstance(original, (AttackResolved, DamageApplied))
    sealed, data = resealed([*events[:at], tampered(original, how), *events[at + 1 :]])
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(data)
    expected = audit_events(sealed)
    sent, record, dice = child_run(path)
    assert main_run(path, list(sent[: int(len(sent) * cut)]), record, dice) == expected
    assert audit_log(path, workers=1) == expected
    assert audit_log(path, workers=2, parallel_min_bytes=1) == expected


def test_the_collector_settings_come_back(tmp_path: Path) -> None:
    import gc

    before = gc.get_threshold()
    audit_log(LOGS[0], workers=1)
    assert gc.get_threshold() == before
    with pytest.raises(Exception):
        audit_log(tmp_path / "missing.jsonl")
    assert gc.get_threshold() == before
