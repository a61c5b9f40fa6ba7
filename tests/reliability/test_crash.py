"""An append is all or nothing, through a crash too.

Unit cases of the batch marks (an unfinished append at the end is a torn tail that
``verify --repair`` moves aside whole; one interrupted by another line is damage; the store
will not append after one; a new log appears whole), then kill -9 at random points of a
child appending in a loop: no acknowledged event lost, the log intact or torn at the end,
repair restores an intact log, and the log plus the side file hold every byte there was.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from fightlog.errors import LogDamagedError, StoreError, TornTailError
from fightlog.events.codec import line_digest
from fightlog.events.integrity import verify_log
from fightlog.events.model import DeclarationPosted, RoundStarted
from fightlog.events.reader import read_log
from fightlog.events.repair import repair_torn_tail
from fightlog.events import store as store_module
from fightlog.events.store import FileStore, seal
from tests.cli import run
from tests.reliability.common import acknowledged, appender, ids_in, start_log


def rounds(first: int, count: int) -> list[RoundStarted]:
    return [RoundStarted(round=n) for n in range(first, first + count)]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "log.jsonl"
    start_log(path)
    FileStore(path, fsync=False).append(rounds(1, 1))
    FileStore(path, fsync=False).append(rounds(2, 4))  # lines 3..6: batch [1,4]..[4,4]
    return path


def test_a_multi_event_append_is_marked_and_a_single_one_is_not(log: Path) -> None:
    marks = [event.batch for _, event in read_log(log)]
    assert marks == [None, None, (1, 4), (2, 4), (3, 4), (4, 4)]
    assert b'"batch"' not in log.read_bytes().splitlines()[1]


def test_the_batch_that_starts_a_log_is_written_whole_without_marks(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    FileStore(path, fsync=False).append([*read_log_events(tmp_path), *rounds(1, 3)])
    assert [event.batch for _, event in read_log(path)] == [None] * 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.jsonl", "seed.jsonl"]  # no temporary file left


def read_log_events(tmp_path: Path) -> list[object]:
    seed = tmp_path / "seed.jsonl"
    start_log(seed)
    return [event for _, event in read_log(seed)]


@pytest.mark.parametrize("keep", [3, 4, 5])
def test_an_unfinished_append_at_the_end_is_a_torn_tail_and_repair_moves_it_whole(log: Path, keep: int) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    cut = b"".join(lines[:keep])
    log.write_bytes(cut)
    result = verify_log(log)
    assert isinstance(result.problem, TornTailError) and result.problem.line == 3
    assert "an append that never finished" in str(result.problem)
    with pytest.raises(StoreError, match="did not finish"):
        FileStore(log).append(rounds(9, 1))
    assert log.read_bytes() == cut
    repaired = repair_torn_tail(str(log))
    assert repaired is not None and repaired.action == "moved" and repaired.line == 3
    assert verify_log(log).ok and verify_log(log).events == 2
    assert log.read_bytes() + Path(repaired.side_file or "").read_bytes() == cut


def test_a_torn_line_inside_an_append_takes_the_whole_append_aside(log: Path) -> None:
    data = log.read_bytes()
    lines = data.splitlines(keepends=True)
    torn = b"".join(lines[:5]) + lines[5][:30]
    log.write_bytes(torn)
    problem = verify_log(log).problem
    assert isinstance(problem, TornTailError) and problem.line == 3 and not problem.complete
    repaired = repair_torn_tail(str(log))
    assert repaired is not None and log.read_bytes() == b"".join(lines[:2])
    assert log.read_bytes() + Path(repaired.side_file or "").read_bytes() == torn


def test_the_closing_event_without_its_newline_is_completed_not_moved(log: Path) -> None:
    data = log.read_bytes()
    log.write_bytes(data[:-1])
    problem = verify_log(log).problem
    assert isinstance(problem, TornTailError) and problem.complete and problem.line == 6
    repaired = repair_torn_tail(str(log))
    assert repaired is not None and repaired.action == "added_newline" and log.read_bytes() == data


def test_an_append_interrupted_by_another_line_is_damage(log: Path) -> None:
    lines = log.read_bytes().splitlines(keepends=True)
    # an old writer appended after an unfinished append: the chain holds, the batch does not
    kept = lines[:4]
    _, data, _ = seal(rounds(9, 1), 4, line_digest(kept[-1].rstrip(b"\n")))
    log.write_bytes(b"".join(kept) + data)
    problem = verify_log(log).problem
    assert type(problem) is LogDamagedError and problem.line == 5
    assert "the append of 4 events that starts at line 3 stops after 2" in str(problem)
    with pytest.raises(LogDamagedError, match="stops after 2"):  # not a torn tail: not repaired
        repair_torn_tail(str(log))
    assert log.read_bytes() == b"".join(kept) + data


def test_state_replay_and_audit_refuse_an_unfinished_append_as_a_torn_line(log: Path) -> None:
    log.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:4]))
    for command in ("state", "replay", "audit"):
        result = run(command, str(log))
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.startswith(f"fightlog: {log}:3: the log ends inside an append"), result.stderr
    verified = run("verify", str(log))
    assert verified.exit_code == 1 and f"{log}:3:" in verified.output


def test_parallel_verification_gives_the_sequential_verdict(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    start_log(path)
    store = FileStore(path, fsync=False)
    for n in range(60):
        store.append([DeclarationPosted(actor="alice", text=f"{n}:{j}" + "x" * 300) for j in range(7)])
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    for keep in (len(lines), len(lines) - 3, len(lines) - 6):
        path.write_bytes(b"".join(lines[:keep]))
        one = verify_log(path, workers=1)
        for workers in (2, 3, 5):
            many = verify_log(path, workers=workers, parallel_min_bytes=1)
            assert (str(many.problem), many.events) == (str(one.problem), one.events)


# ------------------------------------------------------------------------- kill -9 trials


def kill_trial(tmp_path: Path, trial: int, rng: random.Random) -> int:
    """One child appending, killed at a random moment; returns how many events it acknowledged."""
    folder = tmp_path / f"trial-{trial}"
    folder.mkdir()
    log, acks = folder / "log.jsonl", folder / "acks"
    if trial % 4:  # else the child creates the log itself, with a batch
        start_log(log)
    flags = ("slow",) if trial % 2 else ()
    child = appender(log, acks, f"t{trial}", 100_000, trial, *flags)
    deadline = time.monotonic() + 30
    while not acks.exists() or not acks.stat().st_size:  # it has started appending
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.005)
    time.sleep(rng.uniform(0, 0.15))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    acked = acknowledged(acks)
    if not log.exists():
        assert not acked
        return 0
    before = log.read_bytes()
    result = verify_log(log)
    assert result.ok or isinstance(result.problem, TornTailError), result.problem
    repaired = repair_torn_tail(str(log))
    after = log.read_bytes()
    side = Path(repaired.side_file).read_bytes() if repaired and repaired.side_file else b""
    if repaired is not None and repaired.action == "added_newline":
        assert after == before + b"\n"
    else:
        assert after + side == before  # no byte deleted
    final = verify_log(log)
    assert final.ok, final.problem  # repaired: intact, no unfinished append left
    in_log = ids_in(after)
    assert {seq: in_log.get(seq) for seq in acked} == acked  # nothing acknowledged lost
    last = [event for _, event in read_log(log)][-1]
    assert last.batch is None or last.batch[0] == last.batch[1]
    return len(acked)


@pytest.mark.slow
def test_kill_9_during_appends_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(19)
    acked = [kill_trial(tmp_path, trial, rng) for trial in range(20)]
    assert sum(acked) > 0


def test_a_first_batch_on_an_empty_file_replaces_it_and_a_waiting_appender_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.touch()
    waiting = os.open(path, os.O_RDWR | os.O_APPEND)  # an appender that opened the empty file
    try:
        FileStore(path, fsync=False).append([*read_log_events(tmp_path), *rounds(1, 2)])
        assert not store_module._still_at(waiting, str(path))  # it must reopen, not append to the old file
    finally:
        os.close(waiting)
    FileStore(path, fsync=False).append(rounds(3, 2))
    assert [event.batch for _, event in read_log(path)] == [None, None, None, (1, 2), (2, 2)]


def test_the_schema_names_the_batch_field() -> None:
    result = run("schema")
    assert result.exit_code == 0
    batch = json.loads(result.stdout)["$defs"]["RoundStarted"]["properties"]["batch"]
    assert batch["anyOf"][0]["prefixItems"] == [{"minimum": 1, "type": "integer"}, {"minimum": 2, "type": "integer"}]
