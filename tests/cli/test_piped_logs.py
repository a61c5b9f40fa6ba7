"""Logs read from ``-`` (standard input), ``/dev/stdin``, ``<(cat log)`` and FIFOs: every
command that reads a log gives the same exit code and output as on the file (the input named
``<stdin>`` or the path given); what reads twice reads a temporary copy, removed afterwards;
nothing is ever written beside such a log; the commands that append refuse ``-``."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import InputError
from fightlog.history import checkpoints
from fightlog.cli.main import cli
from fightlog.events import piped
from fightlog.events.reader import read_log
from tests.cli import DISPUTED, SCENARIO_LOGS, assert_usage_error, damaged_log, run, write_log
from tests.conftest import FIXTURES
from tests.reducers.logs import random_log

ALLEY = SCENARIO_LOGS / "alley-duel.jsonl"
OUT_OF_TURN = FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl"

COMMANDS: list[tuple[str, ...]] = [
    ("verify",),
    ("verify", "--dice"),
    ("state",),
    ("state", "--at", "58", "--format", "json"),
    ("replay", "--from", "36", "--to", "61"),
    ("audit",),
    ("audit", "--format", "json"),
    ("dispute", "--at", "41", "--set", "dice[0].face=10"),
]
LOGS = [DISPUTED, ALLEY, OUT_OF_TURN]


def invoke(args: list[str], stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, args, input=stdin)


def as_on_file(result: Result, path: Path, name: str) -> tuple[int, str, str]:
    """The result with ``name`` written where the file's path was."""
    return result.exit_code, result.stdout.replace(name, str(path)), result.stderr.replace(name, str(path))


def expected(command: tuple[str, ...], log: Path) -> tuple[int, str, str]:
    result = invoke([command[0], str(log), *command[1:]])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def spools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The directory temporary copies go to; empty again once each command is over."""
    folder = tmp_path / "spools"
    folder.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


def _cases() -> list[tuple[tuple[str, ...], Path]]:
    return [(command, log) for command in COMMANDS for log in LOGS if command[0] != "dispute" or log == ALLEY]


@pytest.mark.parametrize(("command", "log"), _cases(), ids=lambda v: v.name if isinstance(v, Path) else " ".join(v))
def test_dash_reads_standard_input_as_the_file_reads(command: tuple[str, ...], log: Path, spools: Path) -> None:
    result = invoke([command[0], "-", *command[1:]], stdin=log.read_bytes())
    assert as_on_file(result, log, "<stdin>") == expected(command, log)
    assert not Path("-.checkpoints").exists() and not Path("<stdin>.checkpoints").exists()


@pytest.mark.parametrize("command", [("verify",), ("state",), ("replay",), ("audit",), ("dispute", "--at", "5", "--void")])
def test_a_damaged_log_on_standard_input_is_named_stdin(command: tuple[str, ...], tmp_path: Path, spools: Path) -> None:
    log = damaged_log(tmp_path / "damaged.jsonl")
    result = invoke([command[0], "-", *command[1:]], stdin=log.read_bytes())
    assert as_on_file(result, log, "<stdin>") == expected(command, log)
    assert "<stdin>:17: " in result.output


@pytest.mark.parametrize("data", [b"", b"hello\n", b"\xef\xbb\xbf{}\n"])
def test_unusable_standard_input_is_one_line_naming_stdin(data: bytes, spools: Path) -> None:
    for command in ("verify", "state", "replay", "audit"):
        result = invoke([command, "-"], stdin=data)
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert result.stderr.startswith("fightlog: <stdin>") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("data", [b"", b"hello\n"])
@pytest.mark.parametrize("log", ["-", os.devnull])
def test_a_stream_that_is_no_log_is_the_json_error_alone(data: bytes, log: str, spools: Path) -> None:
    """``replay --format json /dev/null`` printed "[]" and then the error: two documents (a
    tester). A stream is read once: its array opens with its first element."""
    result = invoke(["replay", log, "--format", "json"], stdin=data)
    assert result.exit_code == 2 and result.stdout.count("\n") == 1, result.output
    assert set(json.loads(result.stdout)) == {"error"}
    told = invoke(["replay", "-", "--format", "json"], stdin=ALLEY.read_bytes())
    assert json.loads(told.stdout) == json.loads(expected(("replay", "--format", "json"), ALLEY)[1])


def test_an_io_error_reading_names_the_log() -> None:
    """Reading /proc/self/mem fails with EIO, which names no file: the line named none (a tester)."""
    for command in ("verify", "state", "audit", "replay"):
        result = invoke([command, "/proc/self/mem"])
        assert result.exit_code == 2 and result.stderr == "fightlog: /proc/self/mem: Input/output error\n", result.output


@pytest.mark.parametrize(
    "args",
    [
        ("rule", "-", "void", "3", "--reason", "x"),
        ("play", "begin", "-"),
        ("play", "post", "-", "alice", "hi"),
        ("play", "start", "-", "--ruleset", "roe7"),
        ("verify", "--repair", "-"),
    ],
)
def test_what_writes_to_its_log_refuses_standard_input(args: tuple[str, ...], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(list(args), stdin=DISPUTED.read_bytes())
    assert_usage_error(result, "not a file" if "--repair" in args else "'-' (standard input) cannot be written to")
    assert list(tmp_path.iterdir()) == []


def test_a_command_that_reads_once_streams_and_never_reopens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(DISPUTED.read_bytes()))
    with piped.reading("-", passes=1) as name:
        assert name == "<stdin>" and piped.is_registered(name)
        assert sum(1 for _ in read_log(name)) == 128
        with pytest.raises(RuntimeError, match="opened twice"):
            read_log(name).__next__()
    assert not piped.is_registered("<stdin>")


def test_a_command_that_reads_twice_reads_a_copy(monkeypatch: pytest.MonkeyPatch, spools: Path) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(DISPUTED.read_bytes()))
    with piped.reading("-", passes=2) as name:
        (copy,) = spools.iterdir()
        assert copy.stat().st_mode & 0o777 == 0o600
        assert [e for _, e in read_log(name)] == [e for _, e in read_log(name)] == [e for _, e in read_log(DISPUTED)]


def test_files_are_read_as_they_are(tmp_path: Path, spools: Path) -> None:
    with piped.reading(str(DISPUTED), passes=2) as name:
        assert name == str(DISPUTED) and not piped.is_registered(name)
    for missing in (str(tmp_path / "nothing.jsonl"), str(tmp_path)):
        with piped.reading(missing, passes=2) as name:
            assert name == missing


# --------------------------------------------------------------------------- checkpoints


@pytest.fixture
def long_log(tmp_path: Path) -> Path:
    """A log long enough that ``state`` on the file leaves a checkpoint sidecar."""
    log = write_log(tmp_path / "long.jsonl", random_log(3, 1200))
    assert run("state", str(log)).exit_code == 0
    sidecar = Path(checkpoints.sidecar_path(str(log)))
    assert sidecar.exists()
    sidecar.unlink()
    return log


def test_no_checkpoint_is_written_for_standard_input(long_log: Path, tmp_path: Path, spools: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    result = invoke(["state", "-"], stdin=long_log.read_bytes())
    assert as_on_file(result, long_log, "<stdin>") == expected(("state", "--no-cache"), long_log)
    assert sorted(tmp_path.iterdir()) == before


def test_what_may_have_a_checkpoint(long_log: Path, tmp_path: Path) -> None:
    assert checkpoints.cacheable(str(long_log))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for name in ("-", "<stdin>", str(fifo), "/dev/stdin", "/proc/self/fd/0", str(tmp_path), str(tmp_path / "none")):
        assert not checkpoints.cacheable(name), name


# --------------------------------------------------------------------------- real pipes


def fightlog(shell: str, *, stdin: bytes | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``shell`` in bash with ``fightlog`` meaning this interpreter's fightlog."""
    script = f'fightlog() {{ "{sys.executable}" -m fightlog "$@"; }}\n{shell}'
    done = subprocess.run(["bash", "-c", script], input=stdin, capture_output=True, env={**os.environ, **(env or {})}, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.parametrize(
    "command", [("audit",), ("state",), ("verify",), ("replay", "--to", "12"), ("dispute", "--at", "41", "--set", "dice[0].face=10")]
)
def test_process_substitution_and_dev_stdin(command: tuple[str, ...], tmp_path: Path) -> None:
    log = ALLEY
    rest = " ".join(shlex.quote(arg) for arg in command[1:])
    want = fightlog(f"fightlog {command[0]} {log} {rest}")
    env = {"TMPDIR": str(tmp_path)}
    for shell, name in (
        (f"fightlog {command[0]} <(cat {log}) {rest}", "/dev/fd/63"),
        (f"cat {log} | fightlog {command[0]} /dev/stdin {rest}", "/dev/stdin"),
        (f"fightlog {command[0]} - {rest} < {log}", "<stdin>"),
    ):
        code, out, err = fightlog(shell, env=env)
        assert (code, out.replace(name, str(log)), err.replace(name, str(log))) == want, shell
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_is_read_once_and_a_damaged_one_named(tmp_path: Path) -> None:
    fifo = tmp_path / "fight.fifo"
    os.mkfifo(fifo)
    damaged = damaged_log(tmp_path / "damaged.jsonl")
    for log, command in ((OUT_OF_TURN, "audit"), (damaged, "verify"), (damaged, "state")):
        writer = threading.Thread(target=fifo.write_bytes, args=(log.read_bytes(),), daemon=True)
        writer.start()
        code, out, err = fightlog(f"fightlog {command} {fifo}", env={"TMPDIR": str(tmp_path)})
        writer.join()
        want = expected((command,), log)
        assert (code, out.replace(str(fifo), str(log)), err.replace(str(fifo), str(log))) == want
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.jsonl", "fight.fifo"]


def test_dev_stdin_from_a_file_leaves_no_checkpoint(long_log: Path, tmp_path: Path) -> None:
    """``/dev/stdin`` redirected from a regular file is read as that file, but nothing is
    written beside it (nor in /dev)."""
    code, out, _ = fightlog(f"fightlog state /dev/stdin < {long_log}")
    assert code == 0 and out == expected(("state", "--no-cache"), long_log)[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.jsonl"]


class _Stdin:
    """A stand-in for ``sys.stdin``: ``buffer`` holds the bytes."""

    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize("command", ["verify", "audit"])
def test_a_closed_standard_input_is_one_line(command: str, tmp_path: Path) -> None:
    code, out, err = fightlog(f"fightlog {command} - <&-", env={"TMPDIR": str(tmp_path)})
    assert (code, out, err) == (2, "", "fightlog: <stdin>: standard input is closed\n")
    assert list(tmp_path.iterdir()) == []


def test_repair_refuses_a_descriptor_name_that_leads_to_a_file(tmp_path: Path) -> None:
    """`verify --repair /dev/stdin < torn.jsonl` names a descriptor, not the log's file: it
    must write nothing (not beside /dev/stdin, not through fd 0)."""
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(DISPUTED.read_bytes() + b'{"kind":"dice_rolled","se')
    before = torn.read_bytes()
    with torn.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "fightlog", "verify", "--repair", "/dev/stdin"],
            stdin=stdin, capture_output=True, text=True,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "is not a file" in done.stderr
    assert torn.read_bytes() == before and not list(Path("/dev").glob("stdin.torn-*"))


class _Endless:
    """An input that never ends (``/dev/zero``, ``yes``): ``head`` first, then ``line`` again
    and again (``b""``: zero bytes and no line end)."""

    def __init__(self, head: bytes, line: bytes) -> None:
        self._head, self._line, self.read_bytes = head, line, 0

    def readline(self, size: int = -1) -> bytes:
        if self._head:
            got, self._head = self._head.split(b"\n", 1)
            self.read_bytes += len(got) + 1
            return got + b"\n"
        if self.read_bytes > 1 << 26:
            raise AssertionError("read on and on: the copy did not stop")
        got = self._line or b"\0" * size
        self.read_bytes += len(got)
        return got


@pytest.mark.parametrize(("head", "line", "lines"), [
    (b"", b"", 1),  # /dev/zero: no line end at all
    (b"", b'{"kind":"scene_started"}\n', 1),  # yes '{...}': refused at its first line
    (b"".join(ALLEY.read_bytes().splitlines(keepends=True)[:5]), b'{"kind":"moved","seq":1}\n', 6),
])
def test_an_endless_input_is_copied_up_to_the_first_line_the_reader_refuses(head: bytes, line: bytes, lines: int,
                                                                              tmp_path: Path) -> None:
    """A tester's `fightlog state - </dev/zero` wrote 19 GB to /tmp in a minute: the copy a
    command that reads twice makes of a piped log had no end."""
    import io

    out = io.BytesIO()
    assert piped.copied(_Endless(head, line), out) == lines  # type: ignore[arg-type]
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(out.getvalue())
    with pytest.raises(InputError) as refused:  # what the reader says of the copy: the first error of the input
        list(read_log(str(copy)))
    assert refused.value.line == lines


@pytest.mark.parametrize("log", LOGS)
def test_a_whole_log_is_copied_whole(log: Path) -> None:
    import io

    out = io.BytesIO()
    with log.open("rb") as source:
        assert piped.copied(source, out) == len(log.read_bytes().splitlines())
    assert out.getvalue() == log.read_bytes()


def test_a_command_killed_while_reading_standard_input_leaves_no_copy(tmp_path: Path) -> None:
    """A tester's `(sleep 3; cat log) | timeout 1 fightlog state -` left its copy in /tmp."""
    import signal
    import time

    folder = tmp_path / "spools"
    folder.mkdir()
    env = {**os.environ, "TMPDIR": str(folder)}
    process = subprocess.Popen([sys.executable, "-m", "fightlog", "state", "-"], stdin=subprocess.PIPE, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert process.stdin is not None
    process.stdin.write(ALLEY.read_bytes()[:100])
    process.stdin.flush()
    deadline = time.monotonic() + 20
    while not list(folder.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(folder.iterdir()), "no copy was begun"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 128 + signal.SIGTERM
    assert list(folder.iterdir()) == []


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_reader_says_of_the_copy_what_it_says_of_the_input(data: st.DataObject) -> None:
    """The copy stops at the first line the reader refuses: a log damaged anywhere is judged
    the same from the copy as from the whole."""
    import io

    lines = ALLEY.read_bytes().splitlines(keepends=True)
    at = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["drop", "twice", "byte", "cut", "none"]))
    if how == "drop":
        del lines[at]
    elif how == "twice":
        lines.insert(at, lines[at])
    elif how == "byte":
        line = bytearray(lines[at])
        line[data.draw(st.integers(0, len(line) - 2))] = data.draw(st.integers(32, 126))
        lines[at] = bytes(line)
    elif how == "cut":
        lines = lines[:at] + [lines[at][: len(lines[at]) // 2]]
    whole = b"".join(lines)
    out = io.BytesIO()
    piped.copied(io.BytesIO(whole), out)

    def verdict(raw: bytes) -> object:
        try:
            return [seq for seq, _ in _read(raw)]
        except InputError as exc:
            return (exc.line, exc.message)

    assert verdict(out.getvalue()) == verdict(whole)


def _read(raw: bytes) -> list[tuple[int, object]]:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".jsonl") as handle:
        handle.write(raw)
        handle.flush()
        return [(event.seq, event) for _, event in read_log(handle.name)]
