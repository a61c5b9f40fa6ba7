"""No traceback, ever: random rulings and random single-field edits of the bundled logs, driven
through the real entry point (``cli.main``, standalone, as the ``fightlog`` script runs it).

Whatever the input, every command ends with an exit code in 0-3 (3: an internal error, with a
crash report) and, when it fails, one line on stderr; never a Python traceback. Exit 3 passes
here: it is the safety net. To hunt the inputs that still reach it, run with
``FIGHTLOG_NO_INTERNAL_ERRORS=1`` (exit 3 then fails, and hypothesis shrinks the input) and
more examples (``--hypothesis-seed``, or ``FIGHTLOG_FUZZ_EXAMPLES=1500``: 60 by default).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.findings import CODES
from fightlog.cli.main import cli
from fightlog.events.codec import decode_line, line_digest
from fightlog.events.model import GENESIS
from fightlog.events.store import seal
from tests.conftest import FIXTURES

LOGS = [
    FIXTURES / "roe7" / "disputed-duel.jsonl",
    FIXTURES / "roe7" / "sample-duel.jsonl",
    FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.jsonl",
    FIXTURES / "dice" / "seeded-rolls.jsonl",
    FIXTURES / "traveller" / "scenarios" / "ambush-at-the-landing-pad.jsonl",
    FIXTURES / "en51" / "scenarios" / "dry-magazine.jsonl",
    FIXTURES / "bleeding-sun" / "scenarios" / "bleed-out.jsonl",
]
LINES = {log: [json.loads(line) for line in log.read_bytes().splitlines()] for log in LOGS}

EXAMPLES = int(os.environ.get("FIGHTLOG_FUZZ_EXAMPLES", "60"))
STRICT = os.environ.get("FIGHTLOG_NO_INTERNAL_ERRORS") == "1"


def fightlog(*args: str) -> Result:
    """The CLI as its script runs it; an exception escaping it fails the test."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="fightlog")


def assert_clean(result: Result) -> None:
    """Exit 0-3, no traceback anywhere, a failure said in one line."""
    shown = result.stdout + result.stderr
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, shown)
    assert "Traceback" not in shown, shown
    if result.exit_code in (2, 3):
        assert result.stderr.startswith("fightlog: ") and result.stderr.count("\n") == 1, result.stderr
    if result.exit_code == 3:
        assert "internal error: " in result.stderr and "; details in " in result.stderr, result.stderr
        assert not STRICT, result.stderr


# --------------------------------------------------------------------------- strategies


def leaf_items(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every field path into a decoded line, as ``--set`` names them (``dice[0].face``), and
    the value there."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaf_items(item, f"{prefix}.{key}" if prefix else key)
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from leaf_items(item, f"{prefix}[{i}]")
    if prefix:
        yield prefix, value


def field_values(value: Any) -> Iterator[Any]:
    """Every value in a decoded line, nested ones too (another field's value is a likely
    mistake: a weapon where a target goes, a roe7 sheet in a d20-evasion scene)."""
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in children:
        yield from field_values(item)


RECORDED = sorted(
    {json.dumps(v, sort_keys=True) for lines in LINES.values() for line in lines for v in field_values(line)}
    - {json.dumps(line, sort_keys=True) for lines in LINES.values() for line in lines}
)
"""Every value the bundled logs hold (as JSON), whole lines aside."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, -1, 1, 7, 100, 10**6, "roe7", "d20-evasion", "generic", "", 2, 99])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=5,
) | st.sampled_from(RECORDED).map(json.loads)
"""Values a GM might type, a fuzzer would, or another field of a log holds."""


BY_TYPE: dict[type, list[Any]] = {}
for _text in RECORDED:
    BY_TYPE.setdefault(type(json.loads(_text)), []).append(json.loads(_text))

AT_PATH: dict[str, list[Any]] = {}
for _line in (line for lines in LINES.values() for line in lines):
    for _path, _value in leaf_items(_line):
        AT_PATH.setdefault(_path, []).append(_value)
"""Field path -> the values the bundled logs hold there (a roe7 sheet for a d20-evasion one)."""


@st.composite
def field_and_value(draw: st.DrawFn, line: dict[str, Any]) -> tuple[str, Any]:
    """A field path of ``line`` (now and then one it does not have) and a value for it: as
    often as not one of the same JSON type as the field's (the edits that still decode)."""
    fields = dict(leaf_items(line))
    paths = sorted(set(fields) - {"kind", "seq", "prev"}) or ["seq"]
    top = sorted(set(line) - {"kind", "seq", "prev"}) or paths  # whole fields: as often as nested ones
    path = draw(st.sampled_from(top) | st.sampled_from(paths) | st.sampled_from(["nope", "dice[9].face", "actions[0].zzz"]))
    alike = BY_TYPE.get(type(fields.get(path)), [])
    there = AT_PATH.get(path, [])
    source = draw(st.sampled_from(["any", "alike", "there"]))
    if source == "there" and there:
        return path, draw(st.sampled_from(there))
    return path, draw(st.sampled_from(alike) if source == "alike" and alike else json_values)


def as_text(value: Any) -> str:
    """VALUE as typed after ``--set PATH=``: JSON, or now and then a bare word."""
    return value if isinstance(value, str) and value.isalpha() else json.dumps(value)


# --------------------------------------------------------------------------- rulings


@st.composite
def rulings(draw: st.DrawFn) -> tuple[Path, list[str]]:
    log = draw(st.sampled_from(LOGS))
    lines = LINES[log]
    seq = draw(st.integers(min_value=1, max_value=len(lines) + 2) | st.just(1))  # scene_started: often
    action = draw(st.sampled_from(["void", "amend", "accept", "withdraw"]))
    args = [action, str(seq), "--by", "Gemma", "--reason", "fuzz"]
    if action == "amend" or draw(st.integers(0, 9)) == 0:
        line = lines[min(seq, len(lines)) - 1]
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            path, value = draw(field_and_value(line))
            args += ["--set", f"{path}={as_text(value)}"]
    if action == "accept" and draw(st.booleans()):
        args += ["--finding", draw(st.sampled_from(sorted(CODES)))]
    return log, args


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruling=rulings())
def test_a_random_ruling_then_every_reader_ends_cleanly(ruling: tuple[Path, list[str]]) -> None:
    log, args = ruling
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / log.name
        shutil.copyfile(log, copy)
        ruled = fightlog("rule", str(copy), *args)
        assert_clean(ruled)
        for command in (["state"], ["replay"], ["audit"], ["verify", "--dice"]):
            assert_clean(fightlog(*command, str(copy)))


# --------------------------------------------------------------------------- edits


def rechained(lines: list[dict[str, Any]]) -> bytes:
    """The lines as a log whose chain verifies: re-sealed (``events.store.seal``) when every
    line still decodes as an event, else each ``prev`` set to the hash of the line before (the
    line that is no event is then the only thing wrong)."""
    try:
        events = [decode_line(json.dumps(line).encode()) for line in lines]
    except msgspec.ValidationError:
        out, prev = [], GENESIS
        for line in lines:
            body = json.dumps({**line, "prev": prev}, separators=(",", ":")).encode()
            prev = line_digest(body)
            out.append(body + b"\n")
        return b"".join(out)
    return seal(events, 0, GENESIS)[1]


def with_path(line: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``line`` with the field at ``path`` set to ``value`` (a missing one added)."""
    from fightlog.events.paths import parse_path

    edited = json.loads(json.dumps(line))
    steps = parse_path(path)
    target: Any = edited
    for step in steps[:-1]:
        try:
            target = target[step]
        except (KeyError, IndexError, TypeError):
            return {**edited, str(steps[0]): value}
    try:
        target[steps[-1]] = value
    except (IndexError, TypeError):
        return {**edited, str(steps[0]): value}
    return edited


@st.composite
def edits(draw: st.DrawFn) -> tuple[Path, bytes, list[str]]:
    log = draw(st.sampled_from(LOGS))
    lines = LINES[log]
    index = draw(st.integers(min_value=0, max_value=len(lines) - 1) | st.just(0))  # scene_started: often
    path, value = draw(field_and_value(lines[index]))
    edited = [*lines[:index], with_path(lines[index], path, value), *lines[index + 1 :]]
    at = draw(st.integers(min_value=1, max_value=len(lines)))
    change = draw(st.sampled_from([["--void"], ["--withdraw"], ["--set"]]))
    if change == ["--set"]:
        path, value = draw(field_and_value(edited[at - 1]))
        change.append(f"{path}={as_text(value)}")
    return log, rechained(edited), ["--at", str(at), *change]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit=edits())
def test_a_random_edit_rechained_then_every_reader_ends_cleanly(edit: tuple[Path, bytes, list[str]]) -> None:
    log, data, dispute = edit
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / log.name
        copy.write_bytes(data)
        for command in (["verify", "--dice"], ["state"], ["replay"], ["audit"], ["dispute", *dispute]):
            assert_clean(fightlog(*command, str(copy)))


# --------------------------------------------------------------------------- what it found

ASHFALL = FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.jsonl"
FOUND = {
    "a d20-evasion sheet that is no character card": (ASHFALL, ["amend", "4", "--set", "sheet.weapons[1].ranges=null"]),
    "a roe7 fight ruled into d20-evasion": (LOGS[0], ["amend", "1", "--set", "ruleset=d20-evasion"]),
}
"""Rulings the CLI accepted after which the audit crashed (exit 3): now a clean exit."""


@pytest.mark.parametrize(("log", "args"), FOUND.values(), ids=FOUND.keys())
def test_what_the_property_found_is_no_internal_error(log: Path, args: list[str], tmp_path: Path) -> None:
    copy = tmp_path / log.name
    shutil.copyfile(log, copy)
    ruled = fightlog("rule", str(copy), *args, "--by", "Gemma", "--reason", "fuzz")
    assert_clean(ruled)
    for command in (["state"], ["replay"], ["audit"], ["verify", "--dice"]):
        result = fightlog(*command, str(copy))
        assert_clean(result)
        assert result.exit_code != 3, result.stderr


def test_a_ctrl_c_while_the_commands_load_is_one_line() -> None:
    """A Ctrl-C in the first tenth of a second (click and the commands importing) printed a
    traceback: the console script's ``main`` guards the imports."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'fightlog.cli.main':\n"
        "            raise KeyboardInterrupt\n"
        "        return None\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from fightlog.cli import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr, done.stdout) == (130, "fightlog: interrupted\n", "")
