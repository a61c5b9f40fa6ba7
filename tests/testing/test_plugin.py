"""The pytest plugin, run the way a user runs it: pytest's ``pytester`` builds a temporary
project (a scenario, its roster, a test file) and runs pytest on it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import FIXTURES, REPO

pytest_plugins = ["pytester"]

ADDOPTS = "--snapshot-default-extension=fightlog.testing.snapshot.FightSnapshotExtension -p no:cacheprovider"

TESTS = """
    def test_state(fight, snapshot):
        assert fight("duel.toml", seed=7).state == snapshot

    def test_replay(fight, snapshot):
        assert fight("duel.toml", seed=7).replay == snapshot

    def test_audit_is_clean(fight):
        assert fight("duel.toml", seed=7).findings == []
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A user's repo: pyproject (the JSON extension for every snapshot), a scenario with its
    roster, and tests that snapshot the fight's state and replay. Its sessions run as a
    user's would, not as workers of this suite's pytest-xdist (syrupy leaves reporting unused
    snapshots to the xdist controller when it sees a worker's variables)."""
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makefile(".toml", pyproject=f'[tool.pytest.ini_options]\naddopts = "{ADDOPTS}"\n')
    roster = FIXTURES / "roe7" / "rosters" / "scenarios" / "alley-duel.toml"
    shutil.copy(roster, pytester.path / "roster.toml")
    scenario = (FIXTURES / "roe7" / "scenarios" / "alley-duel.toml").read_text()
    scenario = scenario.replace("../rosters/scenarios/alley-duel.toml", "roster.toml").replace('scene = "alley-duel"', 'scene = "duel"')
    (pytester.path / "duel.toml").write_text(scenario)
    pytester.makepyfile(test_duel=textwrap.dedent(TESTS))
    return pytester


def test_snapshots_are_written_as_readable_json_then_match(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    stored = project.path / "__snapshots__" / "test_duel"
    assert sorted(p.name for p in stored.iterdir()) == ["test_replay.json", "test_state.json"]
    replay = (stored / "test_replay.json").read_text().splitlines()
    assert replay[0] == "[" and replay[1].startswith('  " 1  Scene duel (roe7): ')
    project.runpytest().assert_outcomes(passed=3)


def test_a_changed_house_rule_fails_the_snapshots_with_a_line_by_line_diff(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    (project.path / "house.toml").write_text('ruleset = "roe7"\nmodifier_cap = 20\n')
    result = project.runpytest("--fightlog-house-rules", "house.toml")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "fightlog: every fight under the house rules in" in out
    # The state: the option recorded in scene_started, old and new on their own lines.
    result.stdout.fnmatch_lines(['*-*"modifier_cap": 30,', '*+*"modifier_cap": 20,'])
    # The replay: the first roll the cap changed, before and after.
    result.stdout.fnmatch_lines(
        [
            '*-*"16      Vex Marlowe rolls attack [[]engine #3]: 1d100 (33) + 30 *cap +30 -2] = 63 # shot 1",',
            '*+*"16      Vex Marlowe rolls attack [[]engine #3]: 1d100 (33) + 20 *cap +20 -12] = 53 # shot 1",',
        ]
    )
    assert "Traceback" not in out


def test_the_house_rules_can_be_the_projects_own(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    (project.path / "house.toml").write_text("modifier_cap = 20\n")
    project.makefile(".toml", pyproject=f'[tool.pytest.ini_options]\naddopts = "{ADDOPTS}"\nfightlog_house_rules = "house.toml"\n')
    project.runpytest().assert_outcomes(passed=1, failed=2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda text: text.replace('"attack target=vex weapon=Rifle"', '"attack target=nobody weapon=Rifle"', 1),
            "fightlog: */duel.toml:2[0-9]: step 2 (rook): *nobody*",
        ),
        (lambda text: text.replace('ruleset = "roe7"', 'ruleset = "roe8"'), "fightlog: */duel.toml:[0-9]*: ruleset: no installed ruleset 'roe8': did you mean roe7?*"),
        (lambda text: text + "[[steps]\n", "fightlog: */duel.toml:*: not valid TOML*"),
    ],
)
def test_a_scenario_error_is_one_clean_line_not_a_traceback(project: pytest.Pytester, change: object, message: str) -> None:
    path = project.path / "duel.toml"
    path.write_text(change(path.read_text()))  # type: ignore[operator]
    result = project.runpytest()
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines([message])
    out = result.stdout.str()
    assert "Traceback" not in out and "During handling" not in out and ".py:" not in out.split("FAILURES")[1].split("short test summary")[0]


@pytest.mark.parametrize(("call", "message"), [
    ('fight("duel.toml", seed=7, options="modifier_cap=20")',
     "fightlog: */duel.toml: fight(..., options=...): a mapping of option names to values, such as "
     "{'modifier_cap': 20}, not str 'modifier_cap=20'"),
    ('fight("duel.toml", seed=1.5)',
     "fightlog: */duel.toml: fight(..., seed=...): expected an integer (0 to 2**256-1) or 64 hex digits, got 1.5 (float)"),
    ("fight(42, seed=7)", "fightlog: fight(..., scenario=...): a file's path (str or os.PathLike), not int 42"),
    ('fight("duel.toml", seed=7, house=42)',
     "fightlog: fight(..., house=...): a file's path (str or os.PathLike), not int 42"),
])
def test_a_bad_argument_to_fight_is_one_clean_line(project: pytest.Pytester, call: str, message: str) -> None:
    """``options="modifier_cap=20"`` was an AttributeError with a traceback, ``seed=1.5`` a
    message naming ``<input>`` and the type alone, a scenario or house of 42 the plugin's own
    TypeError."""
    project.makepyfile(test_bad=f"def test_bad(fight):\n    {call}\n")
    result = project.runpytest("test_bad.py")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([message])
    assert "Traceback" not in result.stdout.str() and "AttributeError" not in result.stdout.str()


BROKEN_SCENARIOS = [
    pytest.param(lambda text: text + "[[steps]\n", id="bad TOML"),
    pytest.param(lambda text: text.replace('"attack target=vex weapon=Rifle"', '"attack target=nobody weapon=Rifle"', 1),
                 id="a refused step"),
]


@pytest.mark.parametrize(
    ("house", "message"),
    [
        ("# stricter\nboth_natural_ones = 'never'\n",
         "*/house.toml:2: both_natural_ones: expected one of 'hit', 'miss', got 'never'"),
        ('ruleset = "roe7"\nmodifer_cap = 20\n', "*/house.toml:2: modifer_cap: not a roe7 option (did you mean 'modifier_cap'?)"),
        ("modifer_cap = 20\n", "*/house.toml:1: modifer_cap: not an option of any playable ruleset (*did you mean 'modifier_cap'?)"),
        ('ruleset = "roe9"\n', "*/house.toml:1: ruleset: no installed ruleset 'roe9': did you mean roe7?*"),
        ("modifier_cap = \n", "*/house.toml:1: not valid TOML*"),
        (None, "*/house.toml: no such file*"),
    ],
)
def test_a_bad_house_rules_file_is_a_usage_error_before_any_test_runs(project: pytest.Pytester, house: str | None,
                                                                      message: str) -> None:
    if house is not None:
        (project.path / "house.toml").write_text(house)
    result = project.runpytest("--fightlog-house-rules", "house.toml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR == 4
    result.stderr.fnmatch_lines([f"ERROR: --fightlog-house-rules: fightlog: {message}"])
    assert "collected" not in result.stdout.str() and "passed" not in result.stdout.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_a_bad_house_rules_file_in_the_ini_is_named_as_such(project: pytest.Pytester) -> None:
    project.makefile(".toml", pyproject=f'[tool.pytest.ini_options]\naddopts = "{ADDOPTS}"\nfightlog_house_rules = "gone.toml"\n')
    result = project.runpytest()
    assert result.ret == 4
    result.stderr.fnmatch_lines(["ERROR: fightlog_house_rules (ini): fightlog: */gone.toml: no such file*"])
    assert project.runpytest("--help").ret == 0  # --help still works


@pytest.mark.parametrize("change", BROKEN_SCENARIOS)
def test_a_scenario_error_keeps_the_tests_snapshots(project: pytest.Pytester, change: object) -> None:
    """A test a fight failed in never reached its snapshot assertion: syrupy must not call
    its snapshots unused, and --snapshot-update (what syrupy advises for unused ones) must
    not delete them: once the scenario is fixed, they match again."""
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    stored = project.path / "__snapshots__" / "test_duel"
    before = {p.name: p.read_bytes() for p in stored.iterdir()}
    path = project.path / "duel.toml"
    good = path.read_text()
    path.write_text(change(good))  # type: ignore[operator]
    for args in ((), ("--snapshot-update",), ("test_duel.py::test_state", "--snapshot-update"), ("-k", "state", "--snapshot-update")):
        result = project.runpytest(*args)
        out = result.stdout.str()
        assert result.ret == pytest.ExitCode.TESTS_FAILED, out
        assert "unused" not in out and "deleted" not in out, out
        assert {p.name: p.read_bytes() for p in stored.iterdir()} == before
    path.write_text(good)
    result = project.runpytest()
    result.assert_outcomes(passed=3)
    assert "2 snapshots passed." in result.stdout.str()


def test_a_snapshot_whose_test_is_gone_is_still_reported_unused(project: pytest.Pytester) -> None:
    """Only the tests a fight failed in keep their snapshots: syrupy's own cleanup still works."""
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    project.makepyfile(test_duel=textwrap.dedent(TESTS).split("def test_replay")[0])
    result = project.runpytest()
    assert "1 snapshot unused." in result.stdout.str()


def test_each_fight_is_played_once_per_session_and_tests_get_their_own_copy(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_cache="""
        import fightlog.testing.fight as fights

        played = []
        real = fights.play_fight

        def counting(*args, **kwargs):
            played.append(args)
            return real(*args, **kwargs)

        fights.play_fight = counting

        def test_first(fight):
            fight("duel.toml", seed=7).log.clear()

        def test_second(fight):
            assert fight("duel.toml", seed=7).log != []
            fight("duel.toml", seed=8)
            assert len(played) == 2
        """
    )
    project.runpytest("test_cache.py").assert_outcomes(passed=2)


def test_the_entry_point_loads_the_plugin_in_a_fresh_interpreter(project: pytest.Pytester) -> None:
    """No conftest, no -p: pytest finds the plugin through fightlog's pytest11 entry point."""
    result = project.runpytest_subprocess("--snapshot-update", "test_duel.py")
    result.assert_outcomes(passed=3)


def test_the_walkthrough_in_docs_testing_md_works_as_written(pytester: pytest.Pytester) -> None:
    """docs/testing.md's scenario, test file, pyproject and house rules, copied from the page."""
    doc = (REPO / "docs" / "testing.md").read_text()
    blocks = re.findall(r"```(\w*)\n(.*?)```", doc, re.S)
    scenario, pyproject, house = [body for kind, body in blocks if kind == "toml"]
    (tests := pytester.path / "tests").mkdir()
    (tests / "rosters").mkdir()
    shutil.copy(FIXTURES / "roe7" / "rosters" / "scenarios" / "alley-duel.toml", tests / "rosters" / "duel.toml")
    (tests / "duel.toml").write_text(scenario)
    (tests / "test_fights.py").write_text(next(body for kind, body in blocks if kind == "python"))
    (pytester.path / "pyproject.toml").write_text(pyproject)
    (pytester.path / "house-rules.toml").write_text(house)
    pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=3)
    assert (tests / "__snapshots__" / "test_fights" / "test_duel_state.json").exists()
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=3)
    result = pytester.runpytest("-p", "no:cacheprovider", "-vv", "--fightlog-house-rules", "house-rules.toml")
    result.assert_outcomes(passed=1, failed=2)
    shown = [line for line in doc.splitlines() if line.startswith("E         -") or line.startswith("E         +")]
    result.stdout.fnmatch_lines([line.replace("[", "[[]") for line in shown])


def test_loading_the_plugin_imports_neither_pydantic_nor_a_ruleset() -> None:
    """pytest loads the plugin in every run of every project that has fightlog installed."""
    code = "import sys, fightlog.testing.plugin; print(sorted(m for m in sys.modules if m == 'pydantic' or m.startswith('fightlog.rules')))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_house_rules_files_apply_each_to_the_ruleset_it_names(project: pytest.Pytester) -> None:
    """A rules author's project with fights of two rulesets: a d20-evasion house file made
    every roe7 fight fail ("these house rules are for 'd20-evasion', the fight plays
    'roe7'"). A file naming its ruleset applies to that ruleset's fights; two for one are refused."""
    project.runpytest("--snapshot-update").assert_outcomes(passed=3)
    (project.path / "d20.toml").write_text('ruleset = "d20-evasion"\nnatural_20_hits = true\n')
    project.runpytest("--fightlog-house-rules", "d20.toml").assert_outcomes(passed=3)  # no roe7 rule in it
    (project.path / "roe7.toml").write_text('ruleset = "roe7"\nmodifier_cap = 20\n')
    result = project.runpytest("--fightlog-house-rules", "d20.toml", "--fightlog-house-rules", "roe7.toml")
    result.assert_outcomes(passed=1, failed=2)  # the roe7 file's cap reaches the roe7 fight
    assert "each for the ruleset it names" in result.stdout.str()
    (project.path / "again.toml").write_text('ruleset = "roe7"\nmodifier_cap = 25\n')
    result = project.runpytest("--fightlog-house-rules", "roe7.toml", "--fightlog-house-rules", "again.toml")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["ERROR: --fightlog-house-rules: */roe7.toml and */again.toml: two house-rules files "
                                 "for roe7: keep one"])
