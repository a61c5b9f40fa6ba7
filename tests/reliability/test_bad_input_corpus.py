"""A corpus of bad input across every command: each case is refused in one line with the
documented exit code, never a traceback or an internal error, and no file changes.

Bad logs (non-UTF-8, UTF-16, Windows-1252, empty, binary, NUL bytes, huge and deep lines,
broken JSON and events) against every command that reads a log; bad options (negative,
huge, non-numeric) against every command that takes one; broken TOML rosters, scenarios and
house rules; missing files and directories. Generated here; run in-process (click's
``CliRunner``, through the real entry point), a few end to end. The documented exit code is
2 for bad input or usage, and 1 for ``verify`` on a log damaged after its first line (where
the finding is its one line of output).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from tests.conftest import FIXTURES
from tests.reliability.mutations import rechained

GOOD = (FIXTURES / "roe7" / "sample-duel.jsonl").read_bytes()
LINES = GOOD.splitlines()
ROSTERS = FIXTURES / "roe7" / "rosters"
ROSTER = ROSTERS / "gate-skirmish.toml"
SCENARIO_ROSTER = ROSTERS / "scenarios" / "alley-duel.toml"
DEEP = 100_000
HUGE = (1 << 20) + 10
HEX64 = "ab" * 32


def _file(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _with_line(n: int, line: bytes) -> bytes:
    """The good log with line ``n`` (1-based) replaced."""
    return _file(LINES[: n - 1] + [line] + LINES[n:])


def _deep_sheet() -> bytes:
    line = LINES[1].replace(b'"sheet":{', b'"sheet":{"deep":' + b"[" * 70 + b"]" * 70 + b",", 1)
    return rechained([LINES[0], line, *LINES[2:]])


# name -> (bytes, the line verify names: 1 means the file is not a log at all -> exit 2)
BAD_LOGS: dict[str, tuple[Callable[[], bytes], int]] = {
    "empty": (lambda: b"", 1),
    "only-newlines": (lambda: b"\n\n\n", 1),
    "nul-bytes": (lambda: b"\0" * 512, 1),
    "binary": (lambda: bytes(range(256)) * 8, 1),
    "utf16-bom": (lambda: GOOD.decode().encode("utf-16"), 1),
    "utf16-le-no-bom": (lambda: GOOD.decode().encode("utf-16-le"), 1),
    "utf8-bom": (lambda: b"\xef\xbb\xbf" + GOOD, 1),
    "cp1252-line-3": (lambda: _with_line(3, LINES[2].replace(b'"Bob Kade"', b'"\x93Bob\x94 Kade"')), 3),
    "latin1-line-1": (lambda: _with_line(1, LINES[0].replace(b"Alice", b"Al\xefce")), 1),
    "nul-in-line-5": (lambda: _with_line(5, LINES[4][:40] + b"\0" + LINES[4][40:]), 5),
    "huge-line-5": (lambda: _with_line(5, b'{"kind":"dice_rolled","x":"' + b"a" * HUGE + b'"}'), 5),
    "huge-line-1": (lambda: _with_line(1, b'{"kind":"scene_started","x":"' + b"a" * HUGE + b'"}'), 1),
    "deep-line-5": (lambda: _with_line(5, b'{"kind":"dice_rolled","seq":5,"x":' + b"[" * DEEP + b"]" * DEEP + b"}"), 5),
    "deep-unclosed-5": (lambda: _with_line(5, b'{"kind":"dice_rolled","x":' + b"[" * DEEP), 5),
    "deep-line-1": (lambda: _with_line(1, b"{" + b'"a":{' * DEEP + b"}" * (DEEP + 1)), 1),
    "deep-array-line-7": (lambda: _with_line(7, b"[" * DEEP + b"]" * DEEP), 7),
    "deep-sheet-70": (_deep_sheet, 2),
    "array-line": (lambda: _with_line(5, b"[1,2,3]"), 5),
    "not-json": (lambda: _with_line(5, b"hello world"), 5),
    "cut-json": (lambda: _with_line(5, LINES[4][:60]), 5),
    "empty-line": (lambda: _with_line(5, b""), 5),
    "torn-tail": (lambda: GOOD[:-30], 64),
    "second-scene": (lambda: _with_line(5, LINES[0]), 5),
    "newer-format": (lambda: _with_line(1, LINES[0].replace(b'"format":1', b'"format":99')), 1),
    "unknown-kind": (lambda: _with_line(5, re.sub(rb'"kind":"[a-z_]+"', b'"kind":"dice_thrown"', LINES[4], count=1)), 5),
    "wrong-type": (lambda: _with_line(5, LINES[4].replace(b'"seq":5', b'"seq":"five"')), 5),
    "huge-int": (lambda: _with_line(5, LINES[4].replace(b'"seq":5', b'"seq":' + b"9" * 400)), 5),
    "numbers": (lambda: b"1\n2\n3\n", 1),
    "first-not-scene": (lambda: _file(LINES[1:]), 1),
}

LIVE = "live.jsonl"  # a scene in progress (open dice), made by ``play start`` + join + begin


@dataclass
class Case:
    id: str
    argv: list[str]
    code: int = 2
    files: dict[str, bytes | None] = field(default_factory=dict)  # None: a directory
    live: bool = False
    json: bool = False
    report: bool = False  # ``run --check``: one line per scenario on stdout (UNUSABLE ...), a summary


def _log_cases() -> list[Case]:
    commands: dict[str, list[str]] = {
        "verify": ["verify", "{log}"],
        "verify-json": ["verify", "{log}", "--format", "json"],
        "state": ["state", "{log}"],
        "replay": ["replay", "{log}"],
        "audit": ["audit", "{log}"],
        "dispute": ["dispute", "{log}", "--at", "2", "--void"],
        "rule": ["rule", "{log}", "void", "2", "--reason", "r", "--by", "g"],
        "play-post": ["play", "post", "{log}", "alice", "hi"],
        "play-end-turn": ["play", "end-turn", "{log}"],
        "play-begin": ["play", "begin", "{log}"],
        "play-end": ["play", "end", "{log}"],
        "play-join": ["play", "join", "{log}", "--roster", str(ROSTER), "alice"],
    }
    cases = []
    for bad, (make, line) in BAD_LOGS.items():
        for name, argv in commands.items():
            code = (1 if line > 1 else 2) if name.startswith("verify") else 2
            if name.startswith("play") and bad in ("huge-line-5", "deep-line-5", "deep-unclosed-5"):
                continue  # the same read as state's; keeps the corpus fast
            cases.append(Case(f"{bad}-{name}", [a.replace("{log}", "bad.jsonl") for a in argv], code,
                              {"bad.jsonl": make()}, json=name.endswith("json")))
    for name, argv in commands.items():
        cases.append(Case(f"missing-{name}", [a.replace("{log}", "missing.jsonl") for a in argv], 2,
                          json=name.endswith("json")))
        cases.append(Case(f"directory-{name}", [a.replace("{log}", "adir") for a in argv], 2, {"adir": None},
                          json=name.endswith("json")))
    return cases


NUMBERS = ["-1", "0", "abc", "1.5", "", "99999999999999999999999", str(2**63), "0x10", "5e3"]


def _option_cases() -> list[Case]:
    good = {"good.jsonl": GOOD}
    cases = []
    for n in NUMBERS:
        cases += [
            Case(f"state-at[{n}]", ["state", "good.jsonl", "--at", n], files=good),
            Case(f"replay-from[{n}]", ["replay", "good.jsonl", "--from", n], files=good),
            Case(f"replay-to[{n}]", ["replay", "good.jsonl", "--to", n], files=good),
            Case(f"dispute-at[{n}]", ["dispute", "good.jsonl", "--at", n, "--void"], files=good),
            Case(f"rule-seq[{n}]", ["rule", "good.jsonl", "void", n, "--reason", "r"], files=good),
            Case(f"post-responds-to[{n}]", ["play", "post", LIVE, "alice", "hi", "--responds-to", n], live=True),
        ]
        if n not in ("0", str(2**63)):
            cases.append(Case(f"roll-index[{n}]", ["roll", "1d20", "--index", str(2**64) if n == "99999999999999999999999" else n]))
    for head in ["abc", "5", "-1:" + HEX64, "99999999999999999999:" + HEX64, "5:zz", "5:" + HEX64[:63], ":"]:
        cases.append(Case(f"verify-head[{head[:12]}]", ["verify", "good.jsonl", "--head", head], files=good))
    cases.append(Case("verify-head-past-end", ["verify", "good.jsonl", "--head", "65:" + HEX64], 1, files=good))
    for salt in ["abc", "zz", "", "0x12", "1 2"]:
        cases.append(Case(f"roll-salt[{salt}]", ["roll", "1d20", "--salt", salt]))
        cases.append(Case(f"join-salt[{salt}]", ["play", "join", LIVE, "--roster", str(ROSTER), "mira", "--salt", salt],
                          live=True))
    for seed in ["xyz", "-1", "1.5", "ab" * 31, "9" * 100]:
        cases.append(Case(f"roll-seed[{seed[:10]}]", ["roll", "1d20", "--seed", seed]))
        cases.append(Case(f"start-seed[{seed[:10]}]", ["play", "start", "new.jsonl", "--ruleset", "roe7", "--seed", seed]))
    for expr in ["", "1d", "d", "99999d6", "1d99999999999999999999", "1d20" + "+1d20" * 2000, "(" * 5000 + "1" + ")" * 5000,
                 "1d20 \0", "1d0"]:
        cases.append(Case(f"roll-expr[{expr[:12]}]", ["roll", expr]))
    for mod in ["scope=abc", "=5", "scope", "scope=" + "9" * 50]:
        cases.append(Case(f"roll-mod[{mod[:12]}]", ["roll", "1d20", "--mod", mod]))
    for at in ["alice", "alice=1", "alice=a,b", "alice=99999999999999999999,0", "=0,0"]:
        cases.append(Case(f"join-at[{at}]", ["play", "join", LIVE, "--roster", str(ROSTER), "mira", "--at", at], live=True))
    deep = "[" * DEEP + "]" * DEEP
    for reason in ["", "   ", "\t\n"]:
        cases.append(Case(f"rule-reason[{reason!r}]", ["rule", "good.jsonl", "void", "5", "--reason", reason], files=good))
    cases += [
        Case("rule-set-deep", ["rule", "good.jsonl", "amend", "4", "--set", f"total={deep}", "--reason", "r"], files=good),
        Case("rule-set-deep-70", ["rule", "good.jsonl", "amend", "2", "--set", "sheet.x=" + "[" * 70 + "]" * 70,
                                  "--reason", "r"], files=good),
        Case("rule-set-no-eq", ["rule", "good.jsonl", "amend", "4", "--set", "total", "--reason", "r"], files=good),
        Case("rule-set-bad-path", ["rule", "good.jsonl", "amend", "4", "--set", "dice[x]=1", "--reason", "r"], files=good),
        Case("rule-set-long-path", ["rule", "good.jsonl", "amend", "4", "--set", "a" + ".a" * 100 + "=1", "--reason", "r"],
             files=good),
        Case("rule-non-utf8-reason", ["rule", "good.jsonl", "void", "5", "--reason", "\udcff"], files=good),
        Case("dispute-set-deep", ["dispute", "good.jsonl", "--at", "4", "--set", f"dice[0].face={deep}"], files=good),
        Case("dispute-set-deep-json", ["dispute", "good.jsonl", "--at", "4", "--set", f"total={deep}", "--format", "json"],
             files=good, json=True),
        Case("dispute-set-non-utf8", ["dispute", "good.jsonl", "--at", "4", "--set", "dice[0].face=\udcff"], files=good),
        Case("roll-scene-non-utf8", ["roll", "1d20", "--scene", "\udcff"]),
        Case("post-responds-to-past-end", ["play", "post", LIVE, "alice", "hi", "--responds-to", "99"], live=True),
        Case("post-responds-to-not-a-post", ["play", "post", LIVE, "alice", "hi", "--responds-to", "1"], live=True),
        Case("post-unknown-actor", ["play", "post", LIVE, "nobody", "hi"], live=True),
        Case("post-bad-action", ["play", "post", LIVE, "alice", "--do", "attack target="], live=True),
        Case("start-unknown-ruleset", ["play", "start", "new.jsonl", "--ruleset", "nope"]),
        Case("start-existing-log", ["play", "start", "good.jsonl", "--ruleset", "roe7"], files=good),
        Case("start-into-directory", ["play", "start", "adir", "--ruleset", "roe7"], files={"adir": None}),
        Case("start-stdin", ["play", "start", "-", "--ruleset", "roe7"]),
        Case("schema-extra-arg", ["schema", "extra"]),
        Case("schema-bad-option", ["schema", "--nope"]),
        Case("fixtures-into-file", ["fixtures", "good.jsonl"], files=good),
        Case("fixtures-differing", ["fixtures", "fx"], files={"fx/roe7/sample-duel.jsonl": b"changed\n"}),
        Case("verify-typo-option", ["verify", "--hed"]),
        Case("unknown-command", ["verfy", "good.jsonl"], files=good),
        Case("audit-bad-seed", ["audit", "good.jsonl", "--seed", "xyz"], files=good),
        Case("verify-repair-stdin", ["verify", "-", "--repair"]),
    ]
    return cases


SCENARIO = f"""ruleset = "roe7"
scene = "s"
seed = "{HEX64}"
roster = "{SCENARIO_ROSTER}"
join = ["vex", "rook"]

[positions]
vex = [0, 0]
rook = [18, 0]

[[steps]]
actor = "vex"
do = ["attack target=rook weapon=Pistol"]
"""

BAD_TOML: dict[str, bytes] = {
    "syntax": b"ruleset = \n[[",
    "empty": b"",
    "non-utf8": SCENARIO.replace('scene = "s"', 'scene = "s\xe9"').encode("latin-1"),
    "utf16": SCENARIO.encode("utf-16"),
    "nul": SCENARIO.encode().replace(b"\n", b"\n\0", 1),
    "wrong-type-steps": SCENARIO.replace("[[steps]]", "steps = 5\n[[other]]").encode(),
    "wrong-type-seed": SCENARIO.replace(f'seed = "{HEX64}"', "seed = 5.5").encode(),
    "bad-seed": SCENARIO.replace(f'seed = "{HEX64}"', 'seed = "xyz"').encode(),
    "missing-ruleset": SCENARIO.replace('ruleset = "roe7"\n', "").encode(),
    "missing-roster": SCENARIO.replace(f'roster = "{SCENARIO_ROSTER}"\n', "").encode(),
    "roster-not-found": SCENARIO.replace(str(SCENARIO_ROSTER), "/nonexistent/roster.toml").encode(),
    "roster-is-dir": SCENARIO.replace(str(SCENARIO_ROSTER), str(ROSTERS)).encode(),
    "unknown-key": SCENARIO.replace('scene = "s"', 'scene = "s"\ncolour = "red"').encode(),
    "unknown-ruleset": SCENARIO.replace('"roe7"', '"nope"').encode(),
    "unknown-actor": SCENARIO.replace('actor = "vex"', 'actor = "nobody"').encode(),
    "bad-action": SCENARIO.replace("attack target=rook weapon=Pistol", "attack target=").encode(),
    "responds-to-missing": SCENARIO.replace('do = ["attack target=rook weapon=Pistol"]',
                                            'do = ["attack target=rook weapon=Pistol"]\nresponds_to = 999').encode(),
    "deep-value": SCENARIO.replace('scene = "s"', 'scene = "s"\nx = ' + "[" * 5000 + "]" * 5000).encode(),
    "huge": b"# " + b"x" * (4 << 20) + b"\n",
}

BAD_HOUSE: dict[str, bytes] = {
    "syntax": b"modifier_cap = = 3",
    "wrong-type": b'ruleset = "roe7"\nmodifier_cap = "lots"\n',
    "unknown-option": b'ruleset = "roe7"\ncolour = 3\n',
    "other-ruleset": b'ruleset = "d20-evasion"\n',
    "non-utf8": b'ruleset = "roe7\xff"\n',
}


def _toml_cases() -> list[Case]:
    cases = []
    for name, text in BAD_TOML.items():
        cases.append(Case(f"run-scenario-{name}", ["run", "bad.toml", "-o", "out.jsonl"], files={"bad.toml": text}))
        cases.append(Case(f"run-check-{name}", ["run", "--check", "sc"], files={"sc/bad.toml": text, "sc/bad.jsonl": GOOD},
                          report=True))
        cases.append(Case(f"join-roster-{name}", ["play", "join", LIVE, "--roster", "bad.toml", "vex"],
                          files={"bad.toml": text}, live=True))
    for name, text in BAD_HOUSE.items():
        cases.append(Case(f"start-options-{name}", ["play", "start", "new.jsonl", "--ruleset", "roe7", "--options", "h.toml"],
                          files={"h.toml": text}))
        cases.append(Case(f"run-options-{name}", ["run", "s.toml", "-o", "out.jsonl", "--options", "h.toml"],
                          files={"h.toml": text, "s.toml": SCENARIO.encode()}))
    for roster in sorted(ROSTERS.glob("*.toml")):
        if roster.name != "gate-skirmish.toml":
            cases.append(Case(f"join-fixture-roster-{roster.stem}", ["play", "join", LIVE, "--roster", str(roster)], live=True))
    for roster in sorted((FIXTURES / "d20-evasion" / "rosters").glob("*.toml")):
        if roster.stem != "john":
            cases.append(Case(f"run-d20-roster-{roster.stem}", ["run", "s.toml", "-o", "out.jsonl"],
                              files={"s.toml": SCENARIO.replace(str(SCENARIO_ROSTER), str(roster))
                                     .replace('"roe7"', '"d20-evasion"').encode()}))
    cases += [
        Case("run-missing-scenario", ["run", "missing.toml", "-o", "out.jsonl"]),
        Case("run-scenario-dir", ["run", "adir", "-o", "out.jsonl"], files={"adir": None}),
        Case("run-output-exists", ["run", "s.toml", "-o", "good.jsonl"], files={"s.toml": SCENARIO.encode(), "good.jsonl": GOOD}),
        Case("run-output-dir", ["run", "s.toml", "-o", "adir"], files={"s.toml": SCENARIO.encode(), "adir": None}),
        Case("run-check-missing-dir", ["run", "--check", "nodir"]),
        Case("run-check-a-file", ["run", "--check", "good.jsonl"], files={"good.jsonl": GOOD}),
        Case("join-roster-missing", ["play", "join", LIVE, "--roster", "missing.toml", "vex"], live=True),
        Case("join-roster-dir", ["play", "join", LIVE, "--roster", "adir", "vex"], files={"adir": None}, live=True),
        Case("start-options-missing", ["play", "start", "new.jsonl", "--ruleset", "roe7", "--options", "missing.toml"]),
    ]
    return cases


CASES = _log_cases() + _option_cases() + _toml_cases()


def test_the_corpus_is_large() -> None:
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


def _live(directory: Path) -> None:
    """A scene in progress: started with an open seed, alice and bob joined, begun."""
    for argv in (["play", "start", LIVE, "--ruleset", "roe7", "--open", "--seed", "7"],
                 ["play", "join", LIVE, "--roster", str(ROSTER), "alice", "bob"],
                 ["play", "begin", LIVE]):
        result = CliRunner().invoke(cli, argv, catch_exceptions=False)
        assert result.exit_code == 0, result.output


def _snapshot(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(directory.rglob("*"))}


_TOLD = re.compile(r"^( *\d+  | +\S|\[)")
"""A line replay tells before the bad line: an event (seq), a change under it, a JSON array."""


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_line_and_changes_nothing(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, data in case.files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)
    if case.live:
        _live(tmp_path)
    before = _snapshot(tmp_path)
    result = CliRunner().invoke(cli, case.argv, catch_exceptions=False, prog_name="fightlog")
    shown = result.stdout + result.stderr
    assert "Traceback" not in shown, shown
    assert result.exit_code == case.code, (result.exit_code, shown[:2000])
    if case.report:
        assert result.exit_code == 2 and result.stderr == "", result.stderr[:2000]
        assert result.stdout.startswith("UNUSABLE bad.toml: ") and result.stdout.count("\n") == 2, result.stdout[:2000]
    elif case.code == 2:
        assert result.stderr.startswith("fightlog: ") and result.stderr.count("\n") == 1, result.stderr[:2000]
        told = result.stdout
        if case.argv[0] == "replay":  # replay streams: the events before the bad line are told
            told = "\n".join(line for line in told.splitlines() if not _TOLD.match(line))
            told += "\n" if case.json else ""
        if case.json:
            assert json.loads(told.splitlines()[-1])["error"]["code"] == 2
        else:
            assert told == "", result.stdout[:2000]
    else:  # verify's finding: one line (its document with --format json)
        assert result.stderr == "", result.stderr[:2000]
        if case.json:
            assert json.loads(result.stdout)["ok"] is False
        else:
            assert result.stdout.count("\n") == 1, result.stdout[:2000]
    assert _snapshot(tmp_path) == before


END_TO_END = [
    (["verify", "bad.jsonl"], 1, "deep-line-5"),
    (["state", "bad.jsonl"], 2, "deep-line-5"),
    (["audit", "bad.jsonl"], 2, "deep-sheet-70"),
    (["replay", "bad.jsonl"], 2, "utf16-bom"),
    (["roll", "1d20", "--index", str(2**64)], 2, None),
]


@pytest.mark.parametrize(("argv", "code", "bad"), END_TO_END, ids=[" ".join(a[:2]) for a, _, _ in END_TO_END])
def test_end_to_end(argv: list[str], code: int, bad: str | None, tmp_path: Path) -> None:
    if bad is not None:
        (tmp_path / "bad.jsonl").write_bytes(BAD_LOGS[bad][0]())
    before = _snapshot(tmp_path)
    done = subprocess.run([sys.executable, "-m", "fightlog", *argv], cwd=tmp_path, capture_output=True, timeout=60)
    assert done.returncode == code, done.stderr
    assert b"Traceback" not in done.stdout + done.stderr
    lines = (done.stderr if code == 2 else done.stdout).splitlines()
    assert len(lines) == 1, lines
    assert _snapshot(tmp_path) == before


def test_non_utf8_argument_end_to_end(tmp_path: Path) -> None:
    (tmp_path / "good.jsonl").write_bytes(GOOD)
    done = subprocess.run([sys.executable, "-m", "fightlog", "rule", "good.jsonl", "void", "5", "--reason", b"\xff"],
                          cwd=tmp_path, capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr
    assert b"not valid UTF-8" in done.stderr
    assert (tmp_path / "good.jsonl").read_bytes() == GOOD


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file: unreadable files need a non-root user")
@pytest.mark.parametrize("command", [["verify"], ["state"], ["replay"], ["audit"], ["dispute", "--at", "2", "--void"]])
def test_unreadable_log(command: list[str], tmp_path: Path) -> None:
    log = tmp_path / "locked.jsonl"
    log.write_bytes(GOOD)
    log.chmod(0)
    result = CliRunner().invoke(cli, [command[0], str(log), *command[1:]], catch_exceptions=False)
    assert result.exit_code == 2 and "permission denied" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [["verify"], ["state"], ["replay"], ["audit"], ["dispute", "--at", "2", "--void"],
                                     ["rule", "void", "2", "--reason", "r"]])
def test_unreadable_log_as_root_too(command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the kernel says to a non-root user (EACCES), made to happen as root: the reader's
    ``open`` refuses the log."""
    from fightlog.events import reader

    log = tmp_path / "locked.jsonl"
    log.write_bytes(GOOD)

    def refuse(name: object, *args: object, **kwargs: object) -> object:
        if str(name) == str(log):
            raise PermissionError(13, "Permission denied", str(name))
        return open(name, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(reader, "open", refuse, raising=False)
    result = CliRunner().invoke(cli, [command[0], str(log), *command[1:]], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"fightlog: {log}: permission denied\n"
    assert log.read_bytes() == GOOD
