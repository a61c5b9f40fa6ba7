"""Tampering with the bundled logs: with the original head, ``verify`` catches every mutation;
without it, exactly what docs/events.md ("What verify can and cannot detect") says it does.

Seeded (reproducible) random mutations of four bundled logs, ``COUNT`` in all, each kind of
``tests.reliability.mutations.MUTATIONS`` in turn; ``bench/bench_tamper.py`` runs the long
version (1000 and more) and prints the rates.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.errors import InputError
from fightlog.events.integrity import PublishedHead, verify_log
from tests.conftest import FIXTURES
from tests.reliability.mutations import MUTATIONS

LOGS = [
    FIXTURES / "roe7" / "sample-duel.jsonl",
    FIXTURES / "roe7" / "disputed-duel.jsonl",
    FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl",
    FIXTURES / "dice" / "seeded-rolls.jsonl",
]
COUNT = 240  # 24 of each of the ten kinds
SEED = 19


def head_of(log: Path) -> PublishedHead:
    lines = log.read_bytes().splitlines()
    return PublishedHead(len(lines), hashlib.sha256(lines[-1]).hexdigest())


def detected(path: Path, published: PublishedHead | None) -> bool:
    """Whether ``verify`` (the core, as the command calls it) finds the log damaged or unusable."""
    try:
        return not verify_log(path, published=published, workers=1).ok
    except InputError:
        return True


def cases(count: int, seed: int) -> list[tuple[str, Path, int]]:
    kinds = sorted(MUTATIONS)
    return [(kinds[i % len(kinds)], LOGS[(i // len(kinds)) % len(LOGS)], seed * 100_000 + i) for i in range(count)]


def test_the_bundled_logs_verify_with_their_heads(tmp_path: Path) -> None:
    for log in LOGS:
        assert not detected(log, head_of(log)) and not detected(log, None), log


def test_every_mutation_caught_with_the_head_and_as_documented_without(tmp_path: Path) -> None:
    missed_with_head: list[str] = []
    wrong_without: list[str] = []
    unseen = 0
    for kind, log, seed in cases(COUNT, SEED):
        lines = log.read_bytes().splitlines()
        data, documented = MUTATIONS[kind](lines, random.Random(seed))
        assert data != log.read_bytes(), (kind, seed)
        path = tmp_path / f"{kind}-{seed}.jsonl"
        path.write_bytes(data)
        if not detected(path, head_of(log)):
            missed_with_head.append(f"{kind} {log.name} seed {seed}")
        if detected(path, None) != documented:
            wrong_without.append(f"{kind} {log.name} seed {seed}: documented {documented}")
        unseen += not documented
        assert path.read_bytes() == data  # verify never writes
    assert missed_with_head == []
    assert wrong_without == []
    assert unseen > 0  # the documented limits were exercised, not just the easy cases


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_the_command_says_so_in_one_line(tmp_path: Path, kind: str) -> None:
    """The command's verdict is the core's: exit 1 (damaged) or 2 (line 1 no longer a log),
    one line; exit 0 only where the docs say the mutation is invisible without a head."""
    log = LOGS[1]
    data, documented = MUTATIONS[kind](log.read_bytes().splitlines(), random.Random(SEED))
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    head = head_of(log)
    with_head = CliRunner().invoke(cli, ["verify", str(path), "--head", f"{head.seq}:{head.digest}"])
    without = CliRunner().invoke(cli, ["verify", str(path)])
    assert with_head.exit_code in (1, 2), with_head.output
    assert (without.exit_code != 0) == documented, without.output
    for result in (with_head, without):
        assert "Traceback" not in result.output
        assert result.output.count("\n") <= 2, result.output  # the finding (and no more than a hint)
