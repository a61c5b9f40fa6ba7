"""The audit's fast paths give exactly the audit's verdict.

``audit_log`` audits a large log on two processes (this one folds and checks, a forked child
checks the chain and the dice), and both paths read the chain with a loop of their own that
hands over to the reader at the first unusual line; the dice checks recompute engine rolls as
they come under the seed they expect to be used (``FastDice``) instead of holding them all.
Here the threshold is lowered so that small logs take the parallel path, and for flawed
fights, clean ones, damaged files and tampered dice: the parallel report equals the
sequential one (``workers=1``) and the in-memory one, a damaged log raises the same error on
both paths, and ``FastDice`` reports exactly what ``DiceAudit`` reports (or declines).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fightlog.audit.auditor as auditor_module
import fightlog.audit.two_process as two_process
from fightlog.audit.auditor import Report, audit_events, audit_log
from fightlog.audit.one_process import read_rulings
from fightlog.audit.dice_checks import DiceAudit, DiceReport, FastDice
from fightlog.errors import FightlogError
from fightlog.events.codec import decode_line
from fightlog.events.model import GENESIS, AnyEvent, DiceRolled, Modifier, RulingMade, SceneEnded
from fightlog.events.store import seal
from tests.conftest import FIXTURES

LOGS = sorted(
    [
        *(FIXTURES / "roe7" / "audit").glob("*.jsonl"),
        *(FIXTURES / "roe7" / "scenarios").glob("*.jsonl"),
        FIXTURES / "roe7" / "disputed-duel.jsonl",
        FIXTURES / "roe7" / "sample-duel.jsonl",
        FIXTURES / "dice" / "seeded-rolls.jsonl",
        FIXTURES / "dice" / "seeded-rolls-tampered.jsonl",
    ]
)

Outcome = tuple[str, bytes | str]


def outcome(run: Callable[[], Report]) -> Outcome:
    """The report as JSON, or the error's kind and message."""
    try:
        return ("report", msgspec.json.encode(run()))
    except FightlogError as exc:
        return (type(exc).__name__, str(exc))


def events_of(path: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in path.read_bytes().splitlines()]


def resealed(events: Sequence[AnyEvent]) -> tuple[list[AnyEvent], bytes]:
    """``events`` renumbered and chained again (a tampered but intact log)."""
    sealed, data, _ = seal([msgspec.structs.replace(e, seq=0, prev="") for e in events], 0, GENESIS)
    return sealed, data


@pytest.fixture
def parallel_taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, for each parallel attempt, whether it returned a report (not a fallback)."""
    taken: list[bool] = []
    real = auditor_module.audit_parallel

    def spy(name: str, seed: str | None) -> Report | None:
        report = real(name, seed)
        taken.append(report is not None)
        return report

    monkeypatch.setattr(auditor_module, "audit_parallel", spy)
    return taken


def both_paths(path: Path, seed: str | None = None) -> tuple[Outcome, Outcome]:
    sequential = outcome(lambda: audit_log(path, seed=seed, workers=1))
    parallel = outcome(lambda: audit_log(path, seed=seed, workers=2, parallel_min_bytes=1))
    return sequential, parallel


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_parallel_report_equals_sequential(log: Path, parallel_taken: list[bool]) -> None:
    sequential, parallel = both_paths(log)
    assert parallel == sequential
    assert parallel_taken == [True]
    assert outcome(lambda: audit_events(events_of(log))) == sequential


@pytest.mark.parametrize("log", LOGS[:4], ids=lambda p: p.name)
def test_small_logs_stay_in_one_process(log: Path, parallel_taken: list[bool]) -> None:
    audit_log(log, workers=2)  # far below PARALLEL_MIN_BYTES
    audit_log(log, workers=1, parallel_min_bytes=1)
    assert parallel_taken == []


def test_a_seed_given_or_wrong(parallel_taken: list[bool]) -> None:
    log = FIXTURES / "roe7" / "scenarios" / "melee-brawl.jsonl"
    revealed = next(e.seed for e in events_of(log) if isinstance(e, SceneEnded) and e.seed)
    for seed in (revealed, "ab" * 32):
        sequential, parallel = both_paths(log, seed)
        assert parallel == sequential
    assert parallel_taken == [True, True]


def damaged(data: bytes, kind: str, at: int) -> bytes:
    lines = data.splitlines(keepends=True)
    at = max(1, min(at, len(lines) - 1))
    changes: dict[str, Callable[[], list[bytes]]] = {
        "drop": lambda: lines[:at] + lines[at + 1 :],
        "swap": lambda: lines[: at - 1] + [lines[at], lines[at - 1]] + lines[at + 1 :],
        "edit": lambda: lines[:at] + [lines[at].replace(b'"seq":', b'"seq": ', 1)] + lines[at + 1 :],
        "empty-line": lambda: lines[:at] + [b"\n"] + lines[at:],
        "unknown-kind": lambda: lines[:at] + [b'{"kind":"nope","seq":1}\n'] + lines[at:],
        "crlf": lambda: [line.replace(b"\n", b"\r\n") for line in lines],
        "torn": lambda: [*lines[:-1], lines[-1][:-7]],
        "no-newline": lambda: [*lines[:-1], lines[-1][:-1]],
        "headless": lambda: lines[1:],
        "too-long": lambda: lines[:at] + [b"x" * ((1 << 20) + 10) + b"\n"] + lines[at:],
    }
    return b"".join(changes[kind]())


KINDS = ["drop", "swap", "edit", "empty-line", "unknown-kind", "crlf", "torn", "no-newline", "headless", "too-long"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_log_fails_the_same_way(kind: str, tmp_path: Path, parallel_taken: list[bool]) -> None:
    source = FIXTURES / "roe7" / "scenarios" / "gate-ambush.jsonl"
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged(source.read_bytes(), kind, 40))
    sequential, parallel = both_paths(path)
    assert parallel == sequential
    if kind != "crlf":  # a CRLF log is intact: the reader takes over from the loop, same report
        assert sequential[0] != "report"
        assert parallel_taken == [False]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS[:6]), at=st.integers(1, 250), log=st.sampled_from(LOGS))
def test_damage_anywhere(kind: str, at: int, log: Path, tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged(log.read_bytes(), kind, at))
    sequential, parallel = both_paths(path)
    assert parallel == sequential


def tampered_dice(events: list[AnyEvent], how: str, at: int) -> list[AnyEvent]:
    rolls = [i for i, e in enumerate(events) if isinstance(e, DiceRolled)]
    i = rolls[at % len(rolls)]
    roll = events[i]
    assert isinstance(roll, DiceRolled)
    die = roll.dice[0]
    changed: AnyEvent
    if how == "face":
        changed = msgspec.structs.replace(roll, dice=[msgspec.structs.replace(die, face=die.face % die.sides + 1)])
    elif how == "impossible":
        changed = msgspec.structs.replace(roll, dice=[msgspec.structs.replace(die, face=die.sides + 3)])
    elif how == "total":
        changed = msgspec.structs.replace(roll, total=roll.total + 1)
    elif how == "index":
        changed = msgspec.structs.replace(roll, index=(roll.index or 0) + 2)
    elif how == "external":
        changed = msgspec.structs.replace(roll, generator="external", index=None, tool="hud")
    elif how == "unrevealed":
        return [e for e in events if not isinstance(e, SceneEnded)]
    else:
        raise AssertionError(how)
    return [*events[:i], changed, *events[i + 1 :]]


DICE_TAMPERING = ["face", "impossible", "total", "index", "external", "unrevealed"]


@pytest.mark.parametrize("how", DICE_TAMPERING)
def test_tampered_dice_reported_the_same(how: str, tmp_path: Path, parallel_taken: list[bool]) -> None:
    events = events_of(FIXTURES / "roe7" / "scenarios" / "flamer-breach.jsonl")
    changed = tampered_dice(events, how, 17)
    sealed, data = resealed(changed)
    agreed(tmp_path / "tampered.jsonl", sealed, data, parallel_taken)
    report = audit_events(sealed)
    found = [(f.seq, f.code) for f in report.findings if f.code.startswith("dice.")]
    if how == "unrevealed":  # no roll changed: the seed is not revealed yet, which the summary says
        assert "seed not revealed yet" in report.summary.dice and not found
    else:  # what both paths agree on names the tampered roll
        at = next(i for i, (a, b) in enumerate(zip(events, changed)) if a != b) + 1
        assert any(seq == at for seq, _ in found), found


def agreed(path: Path, sealed: Sequence[AnyEvent], data: bytes, parallel_taken: list[bool]) -> None:
    """The log ``data`` (``sealed`` in memory), written at ``path``, gets one report on every path."""
    path.write_bytes(data)
    sequential, parallel = both_paths(path)
    assert parallel == sequential
    assert outcome(lambda: audit_events(sealed)) == sequential
    assert parallel_taken == [True]


def exact(events: Sequence[AnyEvent], seed: str | None) -> DiceReport:
    audit = DiceAudit(seed)
    for event in events:
        audit.feed(event)
    return audit.report()


@pytest.mark.parametrize("how", ["none", *DICE_TAMPERING])
@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_fast_dice_reports_what_the_dice_audit_does(log: Path, how: str) -> None:
    events = events_of(log)
    if how != "none":
        if not any(isinstance(e, DiceRolled) for e in events):
            pytest.skip("no rolls")
        events, _ = resealed(tampered_dice(events, how, 5))
    revealed = next((e.seed for e in reversed(events) if isinstance(e, SceneEnded) and e.seed), None)
    for seed, hint in ((None, revealed), (None, None), (revealed, None), ("cd" * 32, revealed)):
        if seed is None and hint is None and revealed is not None and how == "none":
            continue  # nothing fast to check: the inner audit's own report
        fast = FastDice(seed, hint=hint)
        for event in events:
            fast.feed(event)
        report = fast.report()
        if report is not None:
            assert report == exact(events, seed)
    if how == "none" and revealed is not None and not exact(events, None).findings:
        fast = FastDice(None, hint=revealed)
        for event in events:
            fast.feed(event)
        assert fast.report() is not None  # an honest fight is vouched for, not read again


def test_rulings_read_from_the_mapped_file(tmp_path: Path, parallel_taken: list[bool]) -> None:
    events = events_of(FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl")
    rulings = [
        RulingMade(seq=0, by="gm", action="void", target=12, reason="never happened"),
        RulingMade(seq=0, by="gm", action="accept", target=20, reason="agreed at the table"),
    ]
    sealed, data = resealed([*events[:30], rulings[0], *events[30:60], rulings[1], *events[60:]])
    path = tmp_path / "ruled.jsonl"
    path.write_bytes(data)
    assert two_process.rulings_scanned(str(path)) == read_rulings(str(path))
    sequential, parallel = both_paths(path)
    assert parallel == sequential
    assert outcome(lambda: audit_events(sealed)) == sequential
    assert parallel_taken == [True]


@pytest.mark.parametrize("block", [64, 257, 1000, 4096])
def test_rulings_across_block_edges(block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = events_of(FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl")
    ruled = list(events)
    for at in range(70, 10, -9):
        ruled.insert(at, RulingMade(seq=0, by="gm", action="accept", target=at - 3, reason="x" * (at % 50)))
    _, data = resealed(ruled)
    path = tmp_path / "ruled.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(two_process, "_SCAN_BYTES", block)
    monkeypatch.setattr(two_process, "LINE_LIMIT", 4096)
    found = two_process.rulings_scanned(str(path))
    assert found == read_rulings(str(path))
    assert len(found) == 7


def test_rolls_forged_through_rulings_reported_the_same(tmp_path: Path, parallel_taken: list[bool]) -> None:
    """A ruling that amends engine rolls to faces the seed does not give: both paths (and
    the in-memory audit) name each as ``dice.ruled``, beside the dice checked as recorded."""
    events = events_of(FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl")
    rolls = [e for e in events[:40] if isinstance(e, DiceRolled) and e.generator == "engine"][:2]
    rulings = []
    for roll in rolls:
        die = roll.dice[0]
        face = die.face % die.sides + 1
        forged = [msgspec.to_builtins(msgspec.structs.replace(die, face=face))]
        rulings.append(RulingMade(seq=0, by="gm", action="amend", target=roll.seq, reason="the HUD said so",
                                  changes={"dice": forged, "total": roll.total - die.face + face}))
    sealed, data = resealed([*events[:45], rulings[0], *events[45:60], rulings[1], *events[60:]])
    agreed(tmp_path / "forged.jsonl", sealed, data, parallel_taken)
    found = [(f.seq, f.code) for f in audit_events(sealed).findings if f.code.startswith("dice.")]
    assert found == [(roll.seq, "dice.ruled") for roll in rolls]


def test_an_imported_fights_findings_in_the_child_cite_the_transcript(tmp_path: Path) -> None:
    """A finding of a check run in the child (roe7's modifier cap) on an imported fight cites
    the transcript message, as the one-process audit's does."""
    from tests.cli import run

    imported = tmp_path / "pump-house.jsonl"
    sl = FIXTURES / "import" / "sl"
    result = run("import", "sl", str(sl / "pump-house.txt"), "-o", str(imported), "--ruleset", "roe7",
                 "--cast", str(sl / "pump-house.cast.toml"))
    assert result.exit_code == 0, result.output
    events = events_of(imported)
    at = next(i for i, e in enumerate(events) if isinstance(e, DiceRolled) and e.origin is not None and e.origin.ref)
    roll = events[at]
    assert isinstance(roll, DiceRolled)
    events[at] = msgspec.structs.replace(roll, modifiers=[Modifier(value=45, source="stacked")],
                                         total=roll.total - sum(m.value for m in roll.modifiers) + 45)
    path = tmp_path / "stacked.jsonl"
    path.write_bytes(resealed(events)[1])
    sequential, parallel = both_paths(path)
    assert parallel == sequential
    report = audit_log(path, workers=2, parallel_min_bytes=1)
    assert [(f.code, f.ref) for f in report.findings if f.code == "rules.modifier-cap"] == [
        ("rules.modifier-cap", roll.origin.ref if roll.origin is not None else None)]
