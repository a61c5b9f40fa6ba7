"""``fightlog run``: a scenario played into a log written at once; the same seed gives the
same bytes; LOG is never overwritten without --force and never touched on an error; bad
scenarios and refused steps are one line naming the scenario file and the step's line."""

from __future__ import annotations

import os
import stat
import textwrap
from pathlib import Path

import pytest

from fightlog.kit.scenario import run_scenario
from tests.cli import assert_one_line_error, assert_usage_error, run
from tests.conftest import FIXTURES
from tests.rules.fake_table import install as install_fake

ROSTER = FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml"
SEED = "5eed" * 16

GATE = f"""\
title = "Gate"
ruleset = "roe7"
roster = "{ROSTER}"
join = ["alice", "bob"]
reserve = ["kestrel"]

[positions]
alice = [0, 0]
bob = [20, 0]
kestrel = [50, 0]

[[steps]]
actor = "alice"
text = "Alice fires a burst at Bob."
do = ["attack target=bob weapon=Rifle mode=auto"]

[[steps]]
actor = "bob"
text = "Bob charges and calls for help."
do = ["move toward=alice m=8", "com_call calls=kestrel"]

[[steps]]
join = "mira"
after = "alice"
at = [0, 5]

[[steps]]
actor = "alice"
do = ["attack target=bob weapon=HPistol"]
"""


CALM = GATE.split("[[steps]]")[0] + """\
[[steps]]
actor = "alice"
text = "Alice takes a knee."
do = ["kneel"]

[[steps]]
actor = "bob"
do = ["move toward=alice m=8"]
"""
"""The same scene without dice in its steps: it plays the same way under any seed, for the
tests that let ``run`` draw a fresh one."""


def scenario(tmp_path: Path, text: str = GATE, name: str = "gate.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def line_of(path: Path, text: str, nth: int = 1) -> int:
    found = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == text]
    return found[nth - 1]


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_run_writes_the_fight(tmp_path: Path) -> None:
    path, log = scenario(tmp_path), tmp_path / "gate.jsonl"
    result = run("run", str(path), "-o", str(log), "--seed", SEED)
    assert result.exit_code == 0, result.output
    events = log.read_bytes().count(b"\n")
    assert result.stdout == f"wrote {log}: {events} events, scene scene, seed {SEED} (revealed in scene_ended)\n"
    assert log.read_bytes() == run_scenario(path, seed=SEED).to_bytes()
    assert stat.S_IMODE(log.stat().st_mode) == 0o666 & ~_umask()
    assert leftovers(tmp_path) == []
    verified = run("verify", "--dice", str(log))
    assert verified.exit_code == 0 and "no problems" in verified.stdout
    replayed = run("replay", str(log))
    assert "Mira Sol joins (side colony), arriving after Alice Vance" in replayed.stdout
    assert "Bob Kade rolls com_call" in replayed.stdout


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    path = scenario(tmp_path, f'seed = "{SEED}"\n' + GATE)
    first, second = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    assert run("run", str(path), "-o", str(first)).exit_code == 0
    assert run("run", str(path), "-o", str(second)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    third = tmp_path / "3.jsonl"
    assert run("run", str(path), "-o", str(third), "--seed", "ab" * 32).exit_code == 0
    assert third.read_bytes() != first.read_bytes()


def test_a_copied_and_renamed_scenario_plays_the_same_fight(tmp_path: Path) -> None:
    """The scene id (mixed into every roll) is the file's ``scene`` key, never its name: a
    bundled scenario copied elsewhere under another name writes its stored log, byte for
    byte, and ``--seed 7`` plays the same fight from both files; so do two copies of a
    scenario without the key (scene "scene"), whatever their names."""
    bundled = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"
    roster = FIXTURES / "roe7" / "rosters" / "scenarios" / "alley-duel.toml"
    text = bundled.read_text().replace('"../rosters/scenarios/alley-duel.toml"', f'"{roster}"')
    copy = scenario(tmp_path, text, name="my copy.toml")
    result = run("run", str(copy), "-o", str(tmp_path / "copy.jsonl"))
    assert result.exit_code == 0, result.output
    assert ", scene alley-duel, " in result.stdout
    assert (tmp_path / "copy.jsonl").read_bytes() == bundled.with_suffix(".jsonl").read_bytes()
    logs = []
    for path in (bundled, copy):
        logs.append(tmp_path / f"{len(logs)}.jsonl")
        assert run("run", str(path), "--seed", "7", "-o", str(logs[-1])).exit_code == 0
    assert logs[0].read_bytes() == logs[1].read_bytes() != (tmp_path / "copy.jsonl").read_bytes()
    for name in ("one.toml", "two.toml"):  # GATE has no scene key
        result = run("run", str(scenario(tmp_path, GATE, name=name)), "--seed", "7", "-o", str(tmp_path / f"{name}.jsonl"))
        assert result.exit_code == 0 and ", scene scene, " in result.stdout
    assert (tmp_path / "one.toml.jsonl").read_bytes() == (tmp_path / "two.toml.jsonl").read_bytes()


def test_seed_7_is_the_seed_the_plugin_plays(tmp_path: Path) -> None:
    from fightlog.testing.fight import play_fight

    path, log = scenario(tmp_path), tmp_path / "gate.jsonl"
    assert run("run", str(path), "--seed", "7", "-o", str(log)).exit_code == 0
    assert log.read_text() == play_fight(path, seed=7).jsonl == play_fight(path, seed="7").jsonl


def test_check_names_the_stored_scene_of_a_keyless_scenario(tmp_path: Path) -> None:
    bundled = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"
    roster = FIXTURES / "roe7" / "rosters" / "scenarios" / "alley-duel.toml"
    text = bundled.read_text().replace('"../rosters/scenarios/alley-duel.toml"', f'"{roster}"')
    scenario(tmp_path, text.replace('scene = "alley-duel"\n', ""), name="alley-duel.toml")
    (tmp_path / "alley-duel.jsonl").write_bytes(bundled.with_suffix(".jsonl").read_bytes())
    result = run("run", "--check", str(tmp_path))
    assert result.exit_code == 1
    assert "(the stored fight's scene is 'alley-duel': add scene = \"alley-duel\" to the scenario to play it)" in result.stdout


def test_a_fresh_seed_without_one(tmp_path: Path) -> None:
    log = tmp_path / "gate.jsonl"
    result = run("run", str(scenario(tmp_path, CALM)), "-o", str(log))
    assert result.exit_code == 0, result.output
    assert SEED not in result.stdout and "seed " in result.stdout


def test_run_refuses_to_overwrite(tmp_path: Path) -> None:
    path, log = scenario(tmp_path), tmp_path / "gate.jsonl"
    log.write_bytes(b"precious\n")
    result = run("run", str(path), "-o", str(log), "--seed", SEED)
    assert_one_line_error(result, str(log), "exists and is not empty (--force replaces it)")
    assert log.read_bytes() == b"precious\n"
    result = run("run", str(path), "-o", str(log), "--seed", SEED, "--force")  # not a log: --force refused too
    assert_one_line_error(result, str(log), "is not a fightlog log (its first line is no scene_started): --force "
                                            "replaces only a log; write the new log to another file")
    assert log.read_bytes() == b"precious\n"
    log.write_bytes(run_scenario(path, seed="1").to_bytes())
    result = run("run", str(path), "-o", str(log), "--seed", SEED, "--force")
    assert result.exit_code == 0, result.output
    assert log.read_bytes() == run_scenario(path, seed=SEED).to_bytes()


@pytest.mark.parametrize(("text", "line", "message"), [
    ("", None, "is empty: a scenario names its ruleset and its roster and lists its [[steps]] (docs/play.md)"),
    (ROSTER.read_text(), 8, "is a roster (it lists [[combatants]]), not a scenario: a scenario names its roster "
                            "(roster = \"...\") and lists its [[steps]] (docs/play.md)"),
    (GATE.replace('ruleset = "roe7"', 'ruleset = "roe8"'), 2, "ruleset: no installed ruleset 'roe8': did you mean roe7?"),
    (GATE.replace('ruleset = "roe7"', 'ruleset = "roe7"\nseed = 1.5'), 3,
     "seed: expected an integer (0 to 2**256-1) or 64 hex digits, got 1.5 (float)"),
])
def test_a_file_that_is_no_usable_scenario_says_what_it_is(tmp_path: Path, text: str, line: int | None,
                                                            message: str) -> None:
    """An empty file, a roster given as the scenario, an unknown ruleset, a float seed: each
    said without its line, or hidden behind "(and 1 more problem)", or in pydantic's words."""
    path = tmp_path / "s.toml"
    path.write_text(text)
    result = run("run", str(path), "-o", str(tmp_path / "out.jsonl"))
    assert_one_line_error(result, f"{path}:{line}" if line else str(path), message)
    assert not (tmp_path / "out.jsonl").exists()


def test_a_scenario_saved_with_a_byte_order_mark_reads_and_utf16_is_named(tmp_path: Path) -> None:
    """Notepad's UTF-8 byte-order mark was "not valid TOML: invalid statement (column 1)"; a
    UTF-16 file was "not UTF-8 text (byte 1)"."""
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + CALM.encode())
    result = run("run", str(bom), "-o", str(tmp_path / "bom.jsonl"), "--seed", SEED)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "bom.jsonl").read_bytes() == run_scenario(scenario(tmp_path, CALM), seed=SEED).to_bytes()
    wide = tmp_path / "wide.toml"
    wide.write_bytes(CALM.encode("utf-16"))
    result = run("run", str(wide), "-o", str(tmp_path / "wide.jsonl"))
    assert_one_line_error(result, f"{wide}:1", "UTF-16 text (it starts with a byte-order mark FF FE): save the "
                                               "scenario file as UTF-8")


def test_run_never_writes_over_what_it_reads(tmp_path: Path) -> None:
    """``-o`` naming the scenario (or the house rules) with ``--force`` replaced it with the log."""
    path = scenario(tmp_path)
    before = path.read_bytes()
    result = run("run", str(path), "-o", str(path), "--seed", SEED, "--force")
    assert_one_line_error(result, str(path), "is the scenario, which this command reads: write the new log to "
                                             "another file")
    assert path.read_bytes() == before


def test_an_empty_log_file_may_be_replaced(tmp_path: Path) -> None:
    log = tmp_path / "gate.jsonl"
    log.write_bytes(b"")
    assert run("run", str(scenario(tmp_path, CALM)), "-o", str(log)).exit_code == 0


def test_a_refused_step_writes_nothing(tmp_path: Path) -> None:
    path = scenario(tmp_path, GATE.replace("weapon=HPistol", "weapon=Laser"))
    log = tmp_path / "gate.jsonl"
    result = run("run", str(path), "-o", str(log), "--seed", SEED)
    line = line_of(path, "[[steps]]", 4)
    assert_one_line_error(result, f"{path}:{line}", "step 4 (alice): alice carries no weapon 'Laser'")
    assert not log.exists() and leftovers(tmp_path) == []


def test_a_refused_step_leaves_an_old_log_alone(tmp_path: Path) -> None:
    path = scenario(tmp_path, GATE.replace("weapon=HPistol", "weapon=Laser"))
    log = tmp_path / "gate.jsonl"
    log.write_bytes(b"old\n")
    result = run("run", str(path), "-o", str(log), "--force")
    assert result.exit_code == 2
    assert log.read_bytes() == b"old\n"


BAD_STEPS = {
    "unknown field": ('[[steps]]\nactr = "alice"\n', 1, "steps[0].actr: unknown field (did you mean 'actor'?)"),
    "join and actor": ('[[steps]]\nactor = "alice"\njoin = "mira"\n', 1, "not both a post and an arrival"),
    "bad action": ('[[steps]]\nactor = "alice"\ndo = ["attack bob"]\n', 1, "steps[0].do[0]: expected key=value, got 'bob'"),
    "missing combatant": (
        '[[steps]]\nactor = "alice"\ndo = ["attack target=zed weapon=Rifle"]\n', 1, "step 1 (alice): 'zed' is not in the fight"
    ),
    "missing weapon": (
        '[[steps]]\nactor = "alice"\ndo = ["attack target=bob weapon=Laser"]\n', 1, "step 1 (alice): alice carries no weapon"
    ),
    "actor not in the scene": ('[[steps]]\nactor = "mira"\n', 1, "step 1 (mira): "),
    "out of turn": ('[[steps]]\nactor = "alice"\nend_turn = true\n[[steps]]\nactor = "alice"\n', 2, "step 2 (alice): out of turn"),
    "arrival after no one": ('[[steps]]\njoin = "mira"\nafter = "zed"\n', 1, "step 1 (mira arrives): "),
}

HEAD = f"""\
ruleset = "roe7"
roster = "{ROSTER}"
join = ["alice", "bob"]
[positions]
alice = [0, 0]
bob = [20, 0]
"""


@pytest.mark.parametrize("case", BAD_STEPS, ids=str)
def test_bad_steps_name_their_line(tmp_path: Path, case: str) -> None:
    body, header, message = BAD_STEPS[case]
    path = scenario(tmp_path, HEAD + body)
    log = tmp_path / "gate.jsonl"
    result = run("run", str(path), "-o", str(log), "--seed", SEED)
    assert_one_line_error(result, f"{path}:{line_of(path, '[[steps]]', header)}", message)
    assert not log.exists()


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('titel = "x"\n' + HEAD, "titel: unknown field (did you mean 'title'?)", "titel ="),
        ('ruleset = "roe7"\nroster = "missing.toml"\n', "roster: no such roster file", "roster ="),
        ('ruleset = "gurps"\n' + f'roster = "{ROSTER}"\n', "ruleset: no installed ruleset 'gurps'", "ruleset ="),
        (HEAD.replace('"bob"]', '"zed"]'), "join[1]: 'zed' is not in the roster (alice, bob, mira, kestrel)", "join ="),
        ("options = { speed = 3 }\n" + HEAD, "option 'speed'", "options ="),
    ],
)
def test_bad_scenarios(tmp_path: Path, text: str, message: str, line: str | None) -> None:
    """Each names the line of the key at fault (a ruleset not installed: the file)."""
    path = scenario(tmp_path, text)
    log = tmp_path / "gate.jsonl"
    where = str(path) if line is None else f"{path}:{_line_starting(path, line)}"
    assert_one_line_error(run("run", str(path), "-o", str(log)), where, message)
    assert not log.exists()


def _line_starting(path: Path, start: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(start))


def test_a_bad_roster_is_named(tmp_path: Path) -> None:
    bad = FIXTURES / "roe7" / "rosters" / "negative-hp.toml"
    path = scenario(tmp_path, f'ruleset = "roe7"\nroster = "{bad}"\n')
    assert_one_line_error(run("run", str(path), "-o", str(tmp_path / "x.jsonl")), f"{bad}:24", "bob: sheet.hp: must be at least 1")


def test_house_options(tmp_path: Path) -> None:
    path, log = scenario(tmp_path, "options = { bleed_turns = 4, dodge_per_shot = true }\n" + HEAD), tmp_path / "g.jsonl"
    house = tmp_path / "house.toml"
    house.write_text("bleed_turns = 2\n")
    assert run("run", str(path), "-o", str(log), "--options", str(house)).exit_code == 0
    first = log.read_text().splitlines()[0]
    assert '"bleed_turns":2' in first and '"dodge_per_shot":true' in first
    house.write_text("bleed = 2\n")
    result = run("run", str(path), "-o", str(tmp_path / "h.jsonl"), "--options", str(house))
    assert_one_line_error(result, f"{house}:1", "bleed: not a roe7 option (did you mean 'bleed_turns'?)")
    assert_one_line_error(run("run", str(path), "-o", str(tmp_path / "h.jsonl"), "--options", str(tmp_path / "none.toml")),
                          str(tmp_path / "none.toml"), "no such file")


def test_the_winner_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake(monkeypatch)
    path = scenario(tmp_path, f'ruleset = "fake"\nroster = "{ROSTER}"\n')
    result = run("run", str(path), "-o", str(tmp_path / "f.jsonl"), "--seed", SEED)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "winner: Alice Vance"


@pytest.mark.parametrize("where", ["dir", "missing-dir"])
def test_unwritable_targets(tmp_path: Path, where: str) -> None:
    path = scenario(tmp_path)
    target = tmp_path if where == "dir" else tmp_path / "nowhere" / "g.jsonl"
    # A fixed seed: with a fresh one, an unlucky fight can end before its last step, and the
    # refusal of that step (naming the scenario) would come before the write.
    result = run("run", str(path), "-o", str(target), "--seed", SEED)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"fightlog: {target}: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [([], "give SCENARIO and -o LOG (or --check DIR)"), (["-o", "x.jsonl", "--seed", "xyz"], "Invalid value for '--seed'")],
)
def test_usage(tmp_path: Path, args: list[str], message: str) -> None:
    assert_usage_error(run("run", str(scenario(tmp_path)), *args), message)


def test_a_missing_scenario(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.toml")
    assert_one_line_error(run("run", missing, "-o", str(tmp_path / "g.jsonl")), missing, "no such file")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_step_answering_an_event_that_is_no_post_is_refused_at_its_line(tmp_path: Path) -> None:
    """`responds_to = 1` (the scene_started) was played and audited clean; `play post
    --responds-to 1` refuses it."""
    path = scenario(tmp_path, CALM.replace('do = ["kneel"]', 'do = ["kneel"]\nresponds_to = 1'))
    log = tmp_path / "calm.jsonl"
    result = run("run", str(path), "-o", str(log), "--seed", SEED)
    assert result.exit_code == 2 and not log.exists()
    step = line_of(path, '[[steps]]')
    assert result.stderr == (f"fightlog: {path}:{step}: step 1 (alice): responds_to 1: seq 1 is a scene_started, "
                             "not a post; give the seq of the post answered\n")


def test_a_log_given_for_a_scenario_is_said_to_be_one(tmp_path: Path) -> None:
    """`fightlog sim fight.jsonl` said "not valid TOML: invalid statement (column 1)"."""
    log = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"
    for args in (("run", str(log), "-o", str(tmp_path / "x.jsonl")), ("sim", str(log), "--fights", "2")):
        result = run(*args)
        assert result.exit_code == 2 and not (tmp_path / "x.jsonl").exists()
        assert result.stderr.startswith(f"fightlog: {log}:1: a fightlog log (JSON Lines), not a scenario")
