"""The audit against fights whose flaws are known (``fixtures/roe7/audit/``), and against
fights that have none (every engine fight).

Each flawed fight is a realistic fight played by the engine and then damaged on purpose
(``fightlog.fixtures.audit_fights``; the stories and flaws are in the directory's README).
For each: the report is a JSON snapshot; every documented flaw is found at its ``seq`` with
its code; nothing else is found (a finding on an undamaged event is a false positive), apart
from the ``dice.unverifiable`` info a hand-run fight's HUD rolls get. Across them, every
violation the audit exists for is found somewhere. Every fight the engine produces (the
scenarios, the seeded-rolls log, random fights) audits clean. The script reproduces the
committed files byte for byte.

``FLAWS`` mirrors the README's tables (a test checks that they agree, and that the script
flaws exactly these). ``KNOWN_DEFECTS`` are findings the audit gives today that it should
not: the exact-findings test expects them, so it still catches every other change, and a
strict xfail test fails as soon as they are gone, to have them taken out of the list.
"""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.audit.auditor import Report, audit_log
from fightlog.audit.findings import known_codes
from fightlog.events.codec import decode_line
from fightlog.events.model import DiceRolled
from fightlog.fixtures import audit_fights
from tests.conftest import FIXTURES

CODES = known_codes()  # the shared codes and every installed ruleset's

AUDIT_DIR = FIXTURES / "roe7" / "audit"
README = AUDIT_DIR / "README.md"
LOGS = sorted(AUDIT_DIR.glob("*.jsonl"))

FLAWS: dict[str, list[tuple[int, str]]] = {
    "bleed-that-never-ticked.jsonl": [
        (53, "rules.tick-missing"),
        (81, "rules.tick-wrong"),
        (109, "rules.tick-extra"),
        (166, "rules.expired-effect"),
    ],
    "empty-magazine.jsonl": [
        (81, "rules.allowance"),
        (105, "rules.reload"),
        (113, "rules.flee-limit"),
    ],
    "out-of-turn.jsonl": [
        (72, "order.out-of-turn"),
        (107, "order.double-post"),
        (138, "order.not-in-fight"),
        (162, "order.skipped"),
    ],
    "stacked-modifiers.jsonl": [
        (22, "rules.damage"),
        (119, "rules.modifier-cap"),
        (135, "rules.dr-cap"),
    ],
    "stunned-but-swinging.jsonl": [
        (24, "order.cannot-act"),
        (104, "order.arrival-acted"),
        (112, "order.cannot-act"),
    ],
    "tampered-damage-roll.jsonl": [
        (58, "outcome.undeclared"),
        (72, "dice.seed"),
    ],
    "tampered-hud-dice.jsonl": [
        (24, "dice.arithmetic"),
        (80, "dice.face"),
    ],
    "the-tie-that-hit.jsonl": [
        (27, "rules.tie-to-attacker"),
        (55, "rules.critical"),
    ],
}
"""File -> its deliberate flaws: (seq, the finding code the audit must give there)."""

KNOWN_DEFECTS: dict[str, list[tuple[int, str, str]]] = {}
"""File -> findings the audit gives that it should not: (seq, code, why it is wrong)."""

REQUIRED: frozenset[str] = frozenset({
    # posting order
    "order.out-of-turn", "order.double-post", "order.skipped", "order.not-in-fight", "order.cannot-act",
    "order.arrival-acted",
    # the rules
    "rules.modifier-cap", "rules.dr-cap", "rules.damage", "rules.critical", "rules.tie-to-attacker",
    "rules.tick-missing", "rules.tick-extra", "rules.tick-wrong", "rules.expired-effect", "rules.allowance",
    "rules.reload", "rules.flee-limit", "dice.face",
    # the dice
    "dice.seed", "dice.arithmetic", "dice.unverifiable",
    # the log's facts
    "outcome.undeclared",
})
"""Every violation the audit fixtures must show at least once."""

INFO = "dice.unverifiable"

ENGINE_LOGS = sorted((FIXTURES / "roe7" / "scenarios").glob("*.jsonl")) + [FIXTURES / "dice" / "seeded-rolls.jsonl"]
"""Logs the engine wrote, untouched: they must audit clean."""


@cache
def report(name: str) -> Report:
    return audit_log(AUDIT_DIR / name)


def found(name: str) -> set[tuple[int, str]]:
    return {(f.seq, f.code) for f in report(name).findings if f.code != INFO}


def has_external_rolls(path: Path) -> bool:
    return any(
        isinstance(e, DiceRolled) and e.generator == "external"
        for e in (decode_line(line) for line in path.read_bytes().splitlines() if b'"dice_rolled"' in line)
    )


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


# --------------------------------------------------------------------------- the flawed fights


def test_every_fixture_is_listed() -> None:
    assert sorted(FLAWS) == [p.name for p in LOGS] == sorted(audit_fights.FIGHTS)
    assert set(KNOWN_DEFECTS) <= set(FLAWS)


@pytest.mark.parametrize("name", sorted(FLAWS))
def test_the_findings(name: str, snapshot_json: SnapshotAssertion) -> None:
    assert msgspec.to_builtins(report(name)) == snapshot_json


@pytest.mark.parametrize("name", sorted(FLAWS))
def test_each_documented_flaw_is_found_where_it_is(name: str) -> None:
    for seq, code in FLAWS[name]:
        at = [f for f in report(name).findings if f.seq == seq]
        assert code in [f.code for f in at], f"{name}: no {code} at seq {seq} (found there: {[f.code for f in at]})"
        finding = next(f for f in at if f.code == code)
        assert finding.severity == CODES[code][0] == "error"
        assert finding.actor and finding.message and finding.accepted is None
        assert not finding.rule.startswith("no ruleset"), finding.rule
    assert report(name).summary.errors >= len(FLAWS[name])


@pytest.mark.parametrize("name", sorted(FLAWS))
def test_nothing_else_is_found(name: str) -> None:
    documented = set(FLAWS[name])
    known = {(seq, code) for seq, code, _ in KNOWN_DEFECTS.get(name, ())}
    missing = sorted(documented - found(name))
    unexpected = sorted(found(name) - documented - known)
    assert not missing and not unexpected, f"{name}: missing {missing}; not documented (false positives?) {unexpected}"
    assert known <= found(name), f"{name}: a known defect is gone, take it out of KNOWN_DEFECTS: {sorted(known - found(name))}"


@pytest.mark.parametrize("name", sorted(KNOWN_DEFECTS))
@pytest.mark.xfail(strict=True, reason="the audit gives findings it should not (KNOWN_DEFECTS): see the list")
def test_known_defects_are_fixed(name: str) -> None:
    wrong = {(seq, code) for seq, code, _ in KNOWN_DEFECTS[name]}
    assert not wrong & found(name), [why for seq, code, why in KNOWN_DEFECTS[name] if (seq, code) in found(name)]


@pytest.mark.parametrize("name", sorted(FLAWS))
def test_hand_run_fights_get_info_for_their_hud_rolls_and_engine_fights_none(name: str) -> None:
    info = [f for f in report(name).findings if f.code == INFO]
    assert all(f.severity == "info" and f.accepted is None for f in info)
    if has_external_rolls(AUDIT_DIR / name):
        assert info, f"{name}: external rolls without a dice.unverifiable note"
        assert len({f.actor for f in info}) == len(info), "one note per roller"
    else:
        assert not info


def test_every_violation_is_shown_somewhere() -> None:
    shown = {f.code for name in FLAWS for f in report(name).findings}
    assert REQUIRED <= shown, f"no audit fixture shows {sorted(REQUIRED - shown)}"
    assert REQUIRED <= {code for flaws in FLAWS.values() for _, code in flaws} | {INFO}
    assert REQUIRED <= set(CODES)


def test_the_readme_lists_exactly_these_flaws() -> None:
    assert readme_flaws(README) == FLAWS


def test_the_script_flaws_what_the_table_says() -> None:
    for name, make in audit_fights.FIGHTS.items():
        assert [(f.seq, f.code) for f in make().flaws] == FLAWS[name], name


def test_the_script_writes_the_committed_files(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "fightlog.fixtures.audit_fights", str(tmp_path)], check=True)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [p.name for p in LOGS]
    for name in written:
        assert (tmp_path / name).read_bytes() == (AUDIT_DIR / name).read_bytes(), (
            f"{name} differs from what the script writes: if the engine changed on purpose, rewrite them with "
            f"`python -m fightlog.fixtures.audit_fights fixtures/roe7/audit`, then check the README's seqs and "
            f"FLAWS here, and review the snapshots"
        )


# --------------------------------------------------------------------------- engine fights


@pytest.mark.parametrize("log", ENGINE_LOGS, ids=lambda p: p.name)
def test_every_engine_fight_audits_clean(log: Path) -> None:
    findings = audit_log(log).findings
    assert not findings, [f"{f.seq} {f.code}: {f.message}" for f in findings]


# Random engine fights audit clean too: tests/rules/roe7/test_audit_checks.py holds that property.


# --------------------------------------------------------------------------- d20 evasion

D20_AUDIT_DIR = FIXTURES / "d20-evasion" / "audit"
D20_README = D20_AUDIT_DIR / "README.md"
D20_LOGS = sorted(D20_AUDIT_DIR.glob("*.jsonl"))

D20_FLAWS: dict[str, list[tuple[int, str]]] = {
    "armour-that-was-not.jsonl": [
        (81, "rules.damage"),
        (98, "rules.damage"),
        (141, "rules.damage"),
    ],
    "the-fire-that-went-out.jsonl": [
        (27, "rules.tick-missing"),
        (42, "rules.tick-wrong"),
        (59, "rules.tick-extra"),
    ],
    "the-graze-that-counted.jsonl": [
        (19, "rules.outcome"),
        (34, "rules.outcome"),
        (59, "rules.outcome"),
        (64, "rules.condition"),
    ],
    "three-actions.jsonl": [
        (19, "rules.allowance"),
        (39, "rules.allowance"),
        (46, "order.out-of-turn"),
        (95, "order.cannot-act"),
    ],
}
"""The d20-evasion flawed fights (``fixtures/d20-evasion/audit/``): file -> (seq, code)."""

D20_REQUIRED: frozenset[str] = frozenset({
    "rules.outcome", "rules.damage", "rules.tick-missing", "rules.tick-extra", "rules.tick-wrong",
    "rules.allowance", "order.out-of-turn", "order.cannot-act",
})
"""Every d20-evasion rule check the flawed fights must show at least once."""

D20_ENGINE_LOGS = sorted((FIXTURES / "d20-evasion" / "scenarios").glob("*.jsonl"))


@cache
def d20_report(name: str) -> Report:
    return audit_log(D20_AUDIT_DIR / name)


def test_d20_every_fixture_is_listed() -> None:
    from fightlog.fixtures import d20_audit_fights as flawed_fights

    assert sorted(D20_FLAWS) == [p.name for p in D20_LOGS] == sorted(flawed_fights.FIGHTS)


@pytest.mark.parametrize("name", sorted(D20_FLAWS))
def test_d20_the_findings(name: str, snapshot_json: SnapshotAssertion) -> None:
    assert msgspec.to_builtins(d20_report(name)) == snapshot_json


@pytest.mark.parametrize("name", sorted(D20_FLAWS))
def test_d20_exactly_the_documented_flaws_are_found(name: str) -> None:
    found = [(f.seq, f.code) for f in d20_report(name).findings]
    assert sorted(found) == sorted(D20_FLAWS[name]), f"{name}: found {found}"
    for finding in d20_report(name).findings:
        assert finding.severity == "error" and finding.actor and finding.accepted is None
        assert not finding.rule.startswith("no ruleset"), finding.rule
    assert d20_report(name).summary.ruleset == "d20-evasion"


def test_d20_every_check_is_shown_somewhere() -> None:
    shown = {code for flaws in D20_FLAWS.values() for _, code in flaws}
    assert D20_REQUIRED <= shown


def test_d20_the_readme_lists_exactly_these_flaws() -> None:
    assert readme_flaws(D20_README) == D20_FLAWS


def test_d20_the_script_flaws_what_the_table_says() -> None:
    from fightlog.fixtures import d20_audit_fights as flawed_fights

    for name, make in flawed_fights.FIGHTS.items():
        assert [(f.seq, f.code) for f in make().flaws] == D20_FLAWS[name], name


def test_d20_the_script_writes_the_committed_files(tmp_path: Path) -> None:
    from fightlog.fixtures import d20_audit_fights as flawed_fights

    flawed_fights.write(str(tmp_path))
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [p.name for p in D20_LOGS]
    for name in written:
        assert (tmp_path / name).read_bytes() == (D20_AUDIT_DIR / name).read_bytes(), (
            f"{name} differs from what the script writes: if the engine changed on purpose, rewrite them with "
            f"`python -m fightlog.fixtures.d20_audit_fights fixtures/d20-evasion/audit`, then check the README's "
            f"seqs and D20_FLAWS here, and review the snapshots"
        )


@pytest.mark.parametrize("log", D20_ENGINE_LOGS, ids=lambda p: p.name)
def test_d20_every_engine_fight_audits_clean(log: Path) -> None:
    findings = audit_log(log).findings
    assert not findings, [f"{f.seq} {f.code}: {f.message}" for f in findings]


def readme_flaws(readme: Path) -> dict[str, list[tuple[int, str]]]:
    """The (seq, code) rows under each ``## `NAME.jsonl``` heading of a flawed-fights README."""
    listed: dict[str, list[tuple[int, str]]] = {}
    section: str | None = None
    for line in readme.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^## `([a-z0-9-]+\.jsonl)`", line)
        if heading:
            section = heading.group(1)
            listed[section] = []
            continue
        row = re.match(r"^\| *(\d+) *\| *`([a-z.-]+)` *\|", line)
        if row and section is not None:
            listed[section].append((int(row.group(1)), row.group(2)))
    return listed
