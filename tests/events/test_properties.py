"""Properties that make the log trustworthy (hypothesis)."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fightlog.errors import FightlogError, InputError
from fightlog.events.integrity import PublishedHead, verify_log
from fightlog.events.codec import DECODER, Link, link_decoder
from fightlog.events.model import EVENT_TYPES, FORMAT_VERSION, AnyEvent, RoundStarted, SceneStarted, TurnStarted
from fightlog.events.reader import check_lines, read_log
from fightlog.events.store import FileStore, MemoryStore
from tests.conftest import sample_log_bytes

VALID = sample_log_bytes()
LINES = VALID.splitlines(keepends=True)
HEAD = PublishedHead(len(LINES), hashlib.sha256(LINES[-1][:-1]).hexdigest())

settings.register_profile("fightlog", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fightlog")


def _read_all(data: bytes) -> list[AnyEvent] | FightlogError:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        path.write_bytes(data)
        try:
            return [e for _, e in read_log(path)]
        except FightlogError as exc:
            assert str(exc).startswith(f"{path}")
            assert "\n" not in str(exc)
            return exc


@given(st.binary(max_size=2000))
def test_arbitrary_bytes_yield_events_or_one_clean_error(data: bytes) -> None:
    _read_all(data)  # any other exception fails the test


@given(st.binary(max_size=300), st.integers(min_value=0, max_value=len(VALID)))
@example(b"\\n", 9)  # an escaped line break inside the kind: the error quoted it raw, on two lines
def test_bytes_spliced_into_a_valid_log_yield_events_or_one_clean_error(junk: bytes, at: int) -> None:
    _read_all(VALID[:at] + junk + VALID[at:])


@given(st.lists(st.binary(max_size=120), max_size=20))
def test_arbitrary_lines_through_the_memory_reader(lines: list[bytes]) -> None:
    try:
        list(check_lines(lines, "<memory>"))
    except FightlogError:
        pass


def _caught(data: bytes) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        path.write_bytes(data)
        try:
            return not verify_log(path, published=HEAD).ok
        except InputError:
            return True


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    lines = list(LINES)
    n = len(lines)
    op = draw(st.sampled_from(["edit", "delete", "insert", "swap"]))
    i = draw(st.integers(0, n - 1))
    if op == "edit":
        body = lines[i][:-1]
        pos = draw(st.integers(0, len(body) - 1))
        new = draw(st.integers(0, 255).filter(lambda b: b != body[pos] and b != 0x0A))
        lines[i] = body[:pos] + bytes([new]) + body[pos + 1 :] + b"\n"
    elif op == "delete":
        del lines[i]
    elif op == "insert":
        source = draw(st.sampled_from(LINES))
        lines.insert(draw(st.integers(0, n)), source)
    else:
        j = draw(st.integers(0, n - 1).filter(lambda j: j != i))
        lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


@settings(max_examples=400)
@given(mutated_logs())
def test_any_single_line_edit_deletion_insertion_or_swap_is_caught(data: bytes) -> None:
    assert data != VALID
    assert _caught(data)


def test_the_unmutated_log_passes() -> None:
    assert not _caught(VALID)


def _verdict(path: Path, workers: int) -> tuple[str, int | None, str, int] | str:
    try:
        result = verify_log(path, workers=workers, parallel_min_bytes=1)
    except InputError as exc:
        return f"input error: {exc}"
    problem = result.problem
    if problem is None:
        return ("ok", result.head.seq, result.head.digest, result.events)
    return (type(problem).__name__, problem.line, str(problem), result.events)


def _agree(data: bytes, workers: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        path.write_bytes(data)
        assert _verdict(path, workers) == _verdict(path, 1)


@settings(max_examples=100)
@given(mutated_logs(), st.integers(2, 5))
def test_parallel_verify_gives_the_sequential_verdict(data: bytes, workers: int) -> None:
    _agree(data, workers)


@settings(max_examples=60)
@given(st.binary(max_size=200), st.integers(0, len(VALID)), st.integers(2, 4))
def test_parallel_verify_agrees_on_spliced_junk(junk: bytes, at: int, workers: int) -> None:
    _agree(VALID[:at] + junk + VALID[at:], workers)


def test_parallel_verify_of_an_intact_log_returns_its_head(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(VALID)
    assert _verdict(path, 4) == _verdict(path, 1) == ("ok", 64, HEAD.digest, 64)


@given(st.lists(st.lists(st.integers(1, 99), max_size=5), max_size=8))
def test_file_and_memory_stores_agree_on_any_batching(batches: list[list[int]]) -> None:
    memory = MemoryStore()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        files = FileStore(path, fsync=False)
        start: list[AnyEvent] = [SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)]
        memory.append(start)
        files.append(start)
        for batch in batches:
            events: list[AnyEvent] = [
                RoundStarted(round=r) if r % 2 else TurnStarted(actor=f"a{r}", round=r) for r in batch
            ]
            assert memory.append(events) == files.append(events)
        assert path.read_bytes() == memory.to_bytes()
        assert [e for _, e in read_log(path)] == [e for _, e in memory.read()]
        assert files.head() == memory.head()


@given(st.sets(st.sampled_from(EVENT_TYPES)))
def test_a_link_decoder_reads_what_the_decoder_reads(full: set[type]) -> None:
    decoder = link_decoder(frozenset(full))
    for line in VALID.splitlines():
        event = DECODER.decode(line)
        linked = decoder.decode(line)
        assert (linked.seq, linked.prev) == (event.seq, event.prev)
        if type(event) in full:
            assert linked == event
        else:
            assert isinstance(linked, Link) and type(linked).__name__ == f"{type(event).__name__}Link"
