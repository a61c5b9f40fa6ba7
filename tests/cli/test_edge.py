"""The CLI's edge: every exception one line and an exit code (0 ok, 1 findings, 2 bad input or
usage, 3 internal error, 130 interrupted, 141 stdout closed), usage errors on one line with a
did-you-mean, errors as JSON under ``--format json``, colour only on a terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from fightlog import __version__
from fightlog.cli import main as cli_main
from fightlog.cli.main import cli
from fightlog.cli.terminal import use_colour
from fightlog.errors import InputError
from tests.cli import AUDIT_LOGS, DISPUTED, SAMPLE, SCENARIO_LOGS, assert_usage_error, damaged_log, run
from tests.conftest import FIXTURES

RED = "\x1b[31m"
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)  # Linux


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="fightlog", env=env)


def one_line(result: Result) -> str:
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    return result.stderr.rstrip("\n")


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["audti", str(SAMPLE)], "fightlog: no such command 'audti' (did you mean 'audit'?)"),
        (["verify", "--hed", "1:ab", str(SAMPLE)], "fightlog: verify: no such option --hed (did you mean --head?)"),
        (["play", "strat", "x.jsonl"], "fightlog: play: no such command 'strat' (did you mean 'start'?)"),
        (["state", str(SAMPLE), "--at", "x"], "fightlog: state: Invalid value for '--at': 'x' is not a whole number (1<=x<2**63)"),
        (["verify"], "fightlog: verify: Missing argument 'LOG'"),
        (["--nope"], "fightlog: no such option --nope"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(args: list[str], line: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert one_line(result) == line
    assert result.stdout == ""


def test_a_path_click_refuses_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``click.Path(exists=True)``'s "does not exist" (for commands that use it) is one line too."""

    @click.command()
    @click.argument("source", type=click.Path(exists=True))
    def probe(source: str) -> None:
        raise AssertionError("not reached")

    monkeypatch.setitem(cli.commands, "probe", probe)
    missing = tmp_path / "nope.jsonl"
    result = invoke("probe", str(missing))
    assert result.exit_code == 2
    assert one_line(result) == f"fightlog: probe: Invalid value for 'SOURCE': Path '{missing}' does not exist"


def test_an_unknown_command_with_nothing_close_lists_the_commands() -> None:
    line = one_line(invoke("zzzzzz"))
    assert line.startswith("fightlog: no such command 'zzzzzz' (commands: audit, batch, dispute, fixtures, import, play, ")


# --------------------------------------------------------------------------- internal errors


def _explode(exc: BaseException) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise exc

    return boom  # type: ignore[return-value]


@pytest.mark.parametrize(
    "exc",
    [ZeroDivisionError("division by zero"), KeyError("hp"), MemoryError(), RecursionError("maximum recursion depth exceeded")],
    ids=lambda e: type(e).__name__,
)
def test_an_unexpected_exception_is_exit_3_with_a_crash_report(
    exc: BaseException, monkeypatch: pytest.MonkeyPatch, private_cache: Path
) -> None:
    import fightlog.cli.state

    monkeypatch.setattr(fightlog.cli.state, "seen_at", _explode(exc))
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 3
    line = one_line(result)
    assert line.startswith(f"fightlog: internal error: {type(exc).__name__}")
    report = Path(line.rpartition("; details in ")[2])
    assert report.parent == private_cache / "fightlog"
    text = report.read_text()
    assert f"fightlog {__version__}" in text and "python 3." in text
    assert f"command: fightlog state {SAMPLE}\n" in text
    assert "Traceback (most recent call last)" in text and "in boom" in text


def test_an_exception_in_a_plugins_own_code_names_the_plugin(monkeypatch: pytest.MonkeyPatch, private_cache: Path,
                                                            tmp_path: Path) -> None:
    """Exit 3 still, and a crash report, but the line says whose bug it is."""
    from fightlog.events import FORMAT_VERSION, RoundStarted, SceneStarted
    from fightlog.events.store import FileStore
    from fightlog.reducers import fold_rules
    from tests.cli.exploding_ruleset import RULES

    monkeypatch.setattr(fold_rules, "_REGISTRY", {**fold_rules._REGISTRY, RULES.id: RULES})
    log = tmp_path / "fight.jsonl"
    FileStore(str(log)).append([SceneStarted(scene="s", ruleset=RULES.id, format=FORMAT_VERSION), RoundStarted(round=1)])
    result = invoke("state", str(log))
    assert result.exit_code == 3
    line = one_line(result)
    assert line.startswith("fightlog: ruleset 'exploding' failed in its own code (tests.cli.exploding_ruleset, line ")
    assert "): ZeroDivisionError: division by zero: a bug in that ruleset plugin, not in fightlog; details in " in line
    assert "in out_of_order_statuses" in Path(line.rpartition("; details in ")[2]).read_text()


def test_a_command_module_that_fails_to_import_is_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = cli_main.COMMANDS["state"]._replace(target="fightlog.cli.no_such_module:state")
    monkeypatch.setitem(cli_main.COMMANDS, "state", broken)
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 3
    assert one_line(result).startswith("fightlog: internal error: ModuleNotFoundError: No module named")


def test_no_writable_cache_still_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import fightlog.cli.crash
    import fightlog.cli.state

    monkeypatch.setattr(fightlog.cli.crash, "crash_dirs", lambda: ["/dev/null/nowhere"])
    monkeypatch.setattr(fightlog.cli.state, "seen_at", _explode(ValueError("bad")))
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 3
    assert one_line(result) == "fightlog: internal error: ValueError: bad; no crash report could be written"


def test_interrupt_is_exit_130_and_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import fightlog.cli.state

    monkeypatch.setattr(fightlog.cli.state, "seen_at", _explode(KeyboardInterrupt()))
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 130
    assert one_line(result) == "fightlog: interrupted"


def test_a_broken_pipe_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(click, "echo", _explode(BrokenPipeError(32, "Broken pipe")))
    result = invoke("state", str(SAMPLE))  # replay writes in chunks: a real pipe below
    assert result.exit_code == 141
    assert result.stderr == ""


def test_replay_into_head_stops_quietly() -> None:
    """A real pipe closed by its reader (``fightlog replay LOG | head -c 10``): no traceback, no
    error line, exit 141. The pipe holds 4 KiB, so the replay (a write per line) is still
    writing when it closes."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, F_SETPIPE_SZ, 4096)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fightlog", "replay", str(DISPUTED)],
        stdout=write_end,
        stderr=subprocess.PIPE,
    )
    os.close(write_end)
    assert len(os.read(read_end, 10)) == 10
    os.close(read_end)
    _, err = proc.communicate(timeout=60)
    assert err == b""
    assert proc.returncode == 141


@pytest.mark.parametrize("args", [["audit", str(DISPUTED)], ["audit", "nosuch.jsonl"], ["roll", "1d6"]])
def test_standard_output_closed_is_one_line_and_exit_2(args: list[str]) -> None:
    """`fightlog audit LOG >&-` printed an internal error and a traceback, exit 1."""
    proc = subprocess.run(["sh", "-c", '"$0" -m fightlog "$@" >&-', sys.executable, *args], capture_output=True,
                          timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == b"fightlog: standard output is closed: give the command a file, a pipe or /dev/null\n"


@pytest.mark.parametrize("fmt", ["human", "json"])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(fmt: str) -> None:
    """`fightlog audit LOG --format json >/dev/full` printed two chained tracebacks (the JSON
    error document was written to the full stdout too)."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "fightlog", "audit", str(DISPUTED), "--format", fmt],
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 2 and proc.stderr.decode().count("\n") == 1 and b"Traceback" not in proc.stderr
    assert proc.stderr == b"fightlog: standard output failed: No space left on device\n"


def test_standard_output_on_a_full_disk_after_a_write_says_the_write_stands(tmp_path: Path) -> None:
    """A tester's `play post LOG ... >/dev/full` appended the post and said only "No space
    left on device", exit 2: a GM retrying would post twice."""
    log = tmp_path / "live.jsonl"
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "fightlog", "play", "start", str(log), "--ruleset", "roe7"],
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 2 and log.exists()
    assert proc.stderr == (b"fightlog: standard output failed: No space left on device (play start had written "
                           b"before it printed: what it wrote stands; look before running it again)\n")


def test_a_system_refusal_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import fightlog.cli.state

    monkeypatch.setattr(fightlog.cli.state, "seen_at", _explode(PermissionError(13, "Permission denied", "x.jsonl")))
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 2
    assert one_line(result) == "fightlog: x.jsonl: Permission denied"


# --------------------------------------------------------------------------- JSON errors


def test_bad_input_under_format_json_is_also_a_json_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    result = invoke("state", missing, "--format", "json")
    assert result.exit_code == 2
    assert one_line(result) == f"fightlog: {missing}: no such file"
    assert json.loads(result.stdout) == {
        "error": {"code": 2, "kind": "input", "message": "no such file", "path": missing, "line": None}
    }


def test_an_empty_file_name_is_said_to_be_one() -> None:
    """A tester's `fightlog state ''` said "<input>: no such file"."""
    for command in ("state", "audit", "verify"):
        assert one_line(invoke(command, "")) == "fightlog: '' (an empty file name): no such file"


def test_a_usage_error_under_format_json_is_a_json_error() -> None:
    result = invoke("audit", str(SAMPLE), "--format=json", "--seed", "xyz")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "usage" and error["code"] == 2 and "--seed" in error["message"]


def test_an_internal_error_under_format_json_names_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    import fightlog.cli.state

    monkeypatch.setattr(fightlog.cli.state, "seen_at", _explode(ZeroDivisionError("x")))
    result = invoke("state", str(SAMPLE), "--format", "json")
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 3 and error["code"] == 3 and error["kind"] == "internal"
    assert error["message"] == "ZeroDivisionError: x" and Path(error["report"]).is_file()


def test_human_format_errors_print_nothing_on_stdout(tmp_path: Path) -> None:
    result = invoke("state", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2 and result.stdout == ""


def test_an_escaped_core_error_is_still_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A FightlogError raised where no ``reports_errors`` catches it (finding the command)."""
    monkeypatch.setattr(cli_main.LazyGroup, "get_command", _explode(InputError("odd", path="a.jsonl", line=3)))
    result = invoke("state", str(SAMPLE))
    assert result.exit_code == 2 and one_line(result) == "fightlog: a.jsonl:3: odd"


# --------------------------------------------------------------------------- colour


def test_colour_when_forced_none_with_no_color(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    assert RED in invoke("verify", missing, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stderr
    plain = invoke("verify", missing, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stderr
    assert "\x1b[" not in plain and plain == f"fightlog: {missing}: no such file\n"
    assert "\x1b[" not in invoke("verify", missing, env={"FORCE_COLOR": "", "NO_COLOR": ""}).stderr  # a pipe


class _Tty:
    def isatty(self) -> bool:
        return True


def test_the_colour_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert use_colour(_Tty()) is True  # type: ignore[arg-type]
    assert use_colour(open(os.devnull, "w")) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_colour(_Tty()) is False  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "")  # empty: not set, per no-color.org
    monkeypatch.setenv("FORCE_COLOR", "0")
    assert use_colour(_Tty()) is True  # type: ignore[arg-type]


@pytest.mark.parametrize(("no_color", "coloured"), [("", True), ("1", False)])
def test_an_error_on_a_real_terminal(tmp_path: Path, no_color: str, coloured: bool) -> None:
    main, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env["NO_COLOR"] = no_color
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "fightlog", "verify", str(tmp_path / "nope.jsonl")],
            stdout=subprocess.DEVNULL, stderr=child, env=env, timeout=60, check=False,
        )
        os.close(child)
        err = os.read(main, 4096).decode()
    finally:
        os.close(main)
    assert proc.returncode == 2
    assert (RED in err) is coloured
    assert "nope.jsonl: no such file" in err


def test_audit_findings_are_coloured_only_when_asked() -> None:
    log = str(AUDIT_LOGS / "bleed-that-never-ticked.jsonl")
    coloured = invoke("audit", log, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert coloured.exit_code == 1
    assert f"seq 53    {RED}\x1b[1merror\x1b[0m    rules.tick-missing " in coloured.stdout
    plain = invoke("audit", log, env={"FORCE_COLOR": "", "NO_COLOR": ""})
    assert "\x1b[" not in plain.stdout and "seq 53    error    rules.tick-missing " in plain.stdout
    assert click.unstyle(coloured.stdout) == plain.stdout


@pytest.mark.parametrize("args", [
    ("report", str(DISPUTED), "-o", "-"),
    ("run", str(SCENARIO_LOGS / "alley-duel.toml"), "-o", "-"),
    ("dispute", str(DISPUTED), "--at", "32", "--set", "dice[0].face=20", "-o", "-"),
    ("import", "sl", str(FIXTURES / "import" / "sl" / "midnight-brawl.txt"), "--ruleset", "roe7", "-o", "-"),
], ids=["report", "run", "dispute", "import"])
def test_dash_as_an_output_is_a_usage_error_and_writes_no_file_named_dash(
        args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "-" reads standard input where a log is read; as an output it wrote a file named "-"
    monkeypatch.chdir(tmp_path)
    assert_usage_error(run(*args), "is written to a file, not to standard output ('-'): name the file (./- for a file")
    assert list(tmp_path.iterdir()) == []


def _marked_fight(tmp_path: Path) -> str:
    """A fight whose Vex is named with an RTL override, an escape sequence and a return."""
    roster = tmp_path / "r.toml"
    source = (FIXTURES / "roe7" / "rosters" / "scenarios" / "alley-duel.toml").read_text(encoding="utf-8")
    roster.write_text(source.replace('name = "Vex Marlowe"', 'name = "Vex \\u202eeworlaM\\u001b[2J\\rX"', 1),
                      encoding="utf-8")
    log = str(tmp_path / "f.jsonl")
    assert run("play", "start", log, "--ruleset", "roe7", "--seed", "1").exit_code == 0
    return log


def test_control_characters_in_a_players_text_are_shown_as_marks(tmp_path: Path) -> None:
    """A name holding an RTL override and an escape sequence turned the terminal's line
    around (and could recolour or clear it); human output marks them, JSON keeps the data."""
    log = _marked_fight(tmp_path)
    roster = tmp_path / "r.toml"
    outputs = [run("play", "join", log, "--roster", str(roster)), run("state", log), run("replay", log)]
    for result in outputs:
        assert result.exit_code == 0, result.output
        assert "Vex \u27e6U+202E\u27e7eworlaM" in result.stdout  # (the narration reads a "\r" as a line break)
        assert not {"\u202e", "\x1b", "\r"} & set(result.stdout)
    for result in outputs:  # click stripped the escape off a terminal in play and state: the mark was lost
        assert "\u27e6U+001B\u27e7[2J" in result.stdout
    doc = json.loads(run("replay", log, "--format", "json").stdout)
    assert "Vex \u202eeworlaM\x1b[2J\rX" in [step["event"].get("name") for step in doc]  # JSON: the data as it is
    missing = str(tmp_path / "x\u202e.jsonl")
    assert "x\u27e6U+202E\u27e7.jsonl" in run("state", missing).stderr  # a diagnostic line too


def test_the_replay_child_marks_what_it_tells_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large log is told by two processes, the child's part copied out as bytes: it went
    out unmarked (forced here on a small log)."""
    import fightlog.cli.replay as module

    log = _marked_fight(tmp_path)
    for move in (("join", log, "--roster", str(tmp_path / "r.toml")), ("begin", log)):
        assert run("play", *move).exit_code == 0
    alone = run("replay", log)
    monkeypatch.setattr(module, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(module, "SPLIT_MIN_EVENTS", 2)
    monkeypatch.setattr(module, "SHARE", dict.fromkeys(module.SHARE, 0.01))  # nearly all of it the child's
    split = run("replay", log)
    assert split.exit_code == alone.exit_code == 0 and split.stdout == alone.stdout
    assert "\u27e6U+202E\u27e7" in split.stdout and not {"\u202e", "\x1b"} & set(split.stdout)


@pytest.mark.parametrize(("transcript", "importer"), [
    ("import/sl/midnight-brawl.txt", "sl"), ("import/discord/dockside.csv", "discord-csv"),
    ("import/discord/dockside.txt", "discord-txt"),
])
def test_a_transcript_given_for_a_log_names_its_importer(transcript: str, importer: str) -> None:
    """A new user's first try: `fightlog audit chat.txt`. The one line says which importer
    makes a log of it; a file that looks like no transcript gets the plain message."""
    path = str(FIXTURES / transcript)
    result = run("audit", path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"fightlog: {path}:1: not a fightlog log (line 1 is not a JSON object); it looks like a chat "
                   f"transcript: `fightlog import {importer} {path} -o LOG` makes a log of it\n")
    roster = str(FIXTURES / "roe7/rosters/gate-skirmish.toml")
    assert run("state", roster).stderr == f"fightlog: {roster}:1: not a fightlog log (line 1 is not a JSON object)\n"


@pytest.mark.parametrize(("args", "says"), [
    (["audit", "x.jsonl", "--format"], "fightlog: audit: Option '--format' requires an argument\n"),
    (["state", "x.jsonl", "--at"], "fightlog: state: Option '--at' requires an argument\n"),
    (["play", "post", "x.jsonl", "alice", "--do"], "fightlog: play post: Option '--do' requires an argument\n"),
])
def test_an_option_missing_its_value_names_the_command(args: list[str], says: str) -> None:
    """click raises it while parsing, before the command's context exists: the command is
    read off the command line, as every other usage error names it (docs/cli.md)."""
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", says)


def test_a_file_name_that_is_not_utf8_is_shown_and_given_back(tmp_path: Path) -> None:
    """A name holding a byte that is not UTF-8: the error line shows the byte as a mark (it
    printed ``\\udcff``), and ``--format json`` gave a traceback (msgspec refuses a lone
    surrogate); its error document now carries the escape a JSON reader gives back."""
    import os

    name = os.fsencode(tmp_path) + b"/bad\xffname.jsonl"
    human = subprocess.run([sys.executable, "-m", "fightlog", "verify", name], capture_output=True)
    assert human.returncode == 2
    assert human.stderr.decode() == f"fightlog: {tmp_path}/bad\u27e6byte 0xFF\u27e7name.jsonl: no such file\n"
    doc = subprocess.run([sys.executable, "-m", "fightlog", "audit", name, "--format", "json"], capture_output=True)
    assert doc.returncode == 2 and b"Traceback" not in doc.stderr
    error = json.loads(doc.stdout)["error"]
    assert os.fsencode(error["path"]) == name and error["message"] == "no such file"


def test_repair_of_damage_inside_a_log_says_it_repaired_nothing(tmp_path: Path) -> None:
    """A new user ran `verify --repair` on a log with a line edited in the middle: the break
    was reported (exit 1) with no word on why nothing was repaired."""
    log = tmp_path / "d.jsonl"
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    lines[4] = lines[4].replace(b'"seq":5', b'"seq":5 ', 1)
    log.write_bytes(b"".join(lines))
    before = log.read_bytes()
    result = run("verify", "--repair", str(log))
    assert result.exit_code == 1 and log.read_bytes() == before
    assert result.stderr == (f"fightlog: warning: {log}: nothing repaired: --repair moves aside only a torn last "
                             "append; this damage (line 6) is inside the log (restore the line from a copy: what it "
                             "said is lost)\n")


def test_a_bundled_file_named_where_fixtures_has_not_run_says_how_to_get_it(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A new user trying a help page's example in an empty directory got only "no such
    file"; where a fixtures/ directory exists, the plain message stands."""
    monkeypatch.chdir(tmp_path)
    result = run("audit", "fixtures/roe7/sample-duel.jsonl")
    assert (result.exit_code, result.stderr) == (2, "fightlog: fixtures/roe7/sample-duel.jsonl: no such file (the "
                                                    "examples read the bundled files: `fightlog fixtures` copies them "
                                                    "to fixtures/ here)\n")
    (tmp_path / "fixtures").mkdir()
    assert run("audit", "fixtures/roe7/sample-duel.jsonl").stderr == (
        "fightlog: fixtures/roe7/sample-duel.jsonl: no such file\n")


def test_read_roll_on_a_terminal_says_what_it_waits_for(tmp_path: Path) -> None:
    """`fightlog read-roll` with no TEXT on a terminal showed nothing and looked hung."""
    main, child = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "fightlog", "read-roll"], stdin=child,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.write(main, b"Alice Request: [1d20] Roll: [7] Result: 7\n\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(child)
        os.close(main)
    assert err.decode().startswith("fightlog: paste the bot's reply, then Ctrl-D\n")
    assert proc.returncode == 0 and b"Dice Maiden" in out


def test_a_newline_in_a_logs_name_keeps_each_verdict_one_line(tmp_path: Path) -> None:
    """A file's name may hold a newline: verify's verdict and the batch summary's list of logs
    that could not be audited were split over two lines there (a tester; an RTL override in a
    name was already marked)."""
    archive = tmp_path / "archive"
    archive.mkdir()
    log = damaged_log(archive / "evil\nname.jsonl")
    verified = run("verify", str(log))
    assert verified.exit_code == 1
    assert verified.stdout == f"{archive}/evil\u27e6U+000A\u27e7name.jsonl:17: prev does not match line 16 " \
                              "(edited, removed or reordered?)\n"
    batch = run("batch", "audit", str(archive), "-o", str(tmp_path / "out"), "--workers", "1")
    listed = batch.stdout[batch.stdout.index("could not be audited:"):].splitlines()[1:]
    assert listed == [f"  {archive}/evil\u27e6U+000A\u27e7name.jsonl: line 17: prev does not match line 16 (edited, "
                      "removed or reordered?)"]
