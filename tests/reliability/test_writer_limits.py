"""The tool never writes a line its reader rejects.

Whatever events an append is given, it either refuses them with one clean ``StoreError``
(the log's bytes unchanged) or writes lines that read back as the very events it returned.
The limits are the reader's own (``fightlog.events.limits``).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.errors import StoreError
from fightlog.events.codec import DECODER
from fightlog.events.limits import MAX_DEPTH, MAX_LINE_BYTES
from fightlog.events.model import (
    FORMAT_VERSION,
    AnyEvent,
    DeclarationPosted,
    EffectApplied,
    RulingMade,
    SceneStarted,
    StatusChanged,
)
from fightlog.events.reader import read_log
from fightlog.events.store import FileStore, MemoryStore
from fightlog.events.depth import too_deep
from tests.cli import SAMPLE, assert_one_line_error, run

# Any character, surrogates and NUL included.
CHARS = st.characters(exclude_categories=())
TEXT = st.one_of(
    st.text(CHARS, max_size=40),
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "\0", "é", "\ud800", "💥"]), st.integers(0, MAX_LINE_BYTES + 10)),
)
IDS = st.one_of(st.text(CHARS, min_size=0, max_size=210), st.sampled_from(["alice", "bob"]))


def nested(value: Any, levels: int) -> Any:
    for _ in range(levels):
        value = [value]
    return value


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
    lambda children: st.one_of(st.lists(children, max_size=3), st.dictionaries(st.text(CHARS, max_size=8), children, max_size=3)),
    max_leaves=8,
)
DEEP = st.builds(nested, JSON, st.integers(0, MAX_DEPTH + 20))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), TEXT)


EVENTS: st.SearchStrategy[AnyEvent] = st.one_of(
    st.builds(DeclarationPosted, actor=IDS, text=TEXT),
    st.builds(StatusChanged, actor=IDS, status=TEXT, note=st.none() | TEXT),
    st.builds(
        EffectApplied, effect=IDS, name=TEXT, target=IDS,
        params=st.dictionaries(st.text(CHARS, max_size=8), SCALAR, max_size=3),
    ),
    st.builds(
        RulingMade, by=TEXT, action=st.just("amend"), target=st.integers(1, 64), reason=TEXT,
        changes=st.dictionaries(st.text(CHARS, max_size=8), st.one_of(JSON, DEEP), max_size=3),
    ),
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("limits") / "template.jsonl"
    FileStore(path, fsync=False).append([SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)])
    return path


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(batch=st.lists(EVENTS, min_size=1, max_size=3))
def test_an_append_is_refused_cleanly_or_reads_back_equal(
    batch: list[AnyEvent], template: Path, tmp_path: Path
) -> None:
    path = tmp_path / "log.jsonl"
    shutil.copyfile(template, path)
    before = path.read_bytes()
    try:
        sealed = FileStore(path, fsync=False).append(batch)
    except StoreError as refused:
        assert "\n" not in str(refused) and "nothing written" in str(refused)
        assert path.read_bytes() == before
        return
    read = [event for _, event in read_log(path)]
    assert read[1:] == sealed
    for line in path.read_bytes().splitlines()[1:]:
        assert len(line) <= MAX_LINE_BYTES and b"\0" not in line and not too_deep(line)
        line.decode("utf-8")  # valid UTF-8


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batch=st.lists(EVENTS, min_size=1, max_size=3))
def test_the_memory_store_holds_the_same_rules(batch: list[AnyEvent]) -> None:
    store = MemoryStore()
    store.append([SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)])
    try:
        sealed = store.append(batch)
    except StoreError:
        assert store.head()[0] == 1
        return
    assert [event for _, event in store.read(2)] == sealed


@pytest.mark.parametrize(
    ("event", "why"),
    [
        (DeclarationPosted(actor="alice", text="x" * MAX_LINE_BYTES), "over the 1048576-byte limit"),
        (RulingMade(by="g", action="amend", target=2, changes={"total": nested(1, MAX_DEPTH)}), f"more than {MAX_DEPTH} levels deep"),
        (DeclarationPosted(actor="alice", text="lone \ud800"), "not valid UTF-8"),
        (DeclarationPosted(actor="", text="hi"), "the reader would refuse it"),
        (RulingMade(by="g", action="amend", target=2, changes={"total": float("nan")}), "would not read back"),
    ],
)
def test_each_reader_rule_is_refused_by_the_writer_with_the_log_unchanged(
    event: AnyEvent, why: str, template: Path, tmp_path: Path
) -> None:
    path = tmp_path / "log.jsonl"
    shutil.copyfile(template, path)
    before = path.read_bytes()
    with pytest.raises(StoreError, match=why):
        FileStore(path, fsync=False).append([DeclarationPosted(actor="bob", text="fine"), event])
    assert path.read_bytes() == before


def test_a_line_just_under_the_limit_is_written_and_read(template: Path, tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    shutil.copyfile(template, path)
    text = "x" * (MAX_LINE_BYTES - 200)
    FileStore(path, fsync=False).append([DeclarationPosted(actor="alice", text=text)])
    assert [e.text for _, e in read_log(path) if isinstance(e, DeclarationPosted)] == [text]


def test_a_nul_character_is_escaped_not_written_as_a_byte(template: Path, tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    shutil.copyfile(template, path)
    FileStore(path, fsync=False).append([DeclarationPosted(actor="alice", text="a\0b")])
    assert b"\0" not in path.read_bytes()
    assert DECODER.decode(path.read_bytes().splitlines()[-1]).text == "a\0b"  # type: ignore[union-attr]


def test_a_ruling_too_big_for_the_reader_is_one_line_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    shutil.copyfile(SAMPLE, log)
    before = log.read_bytes()
    target = next(e.seq for _, e in read_log(log) if isinstance(e, DeclarationPosted))
    value = "x" * (MAX_LINE_BYTES + 10)
    result = run("rule", str(log), "amend", str(target), "--set", f"text={value}", "--reason", "big", "--by", "Gemma")
    assert_one_line_error(result, str(log), "nothing written")
    assert log.read_bytes() == before
