"""``fightlog roll --dialect``: choices from the registry, repeats, pass/fail, refusals."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from fightlog.cli.main import cli
from fightlog.dice.dialects import DIALECTS

SEED = bytes(range(32)).hex()


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["roll", *args], catch_exceptions=False)


def test_help_shows_one_example_per_dialect() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name, dialect in DIALECTS.items():
        if name != "fightlog":
            assert f"--dialect {name} {dialect.example!r}" in result.stdout


def test_an_unknown_dialect_is_refused_naming_the_known_ones() -> None:
    result = run("1d20", "--dialect", "rollem")
    assert result.exit_code == 2 and result.stdout == ""
    assert "'rollem' is not one of 'fightlog', 'avrae', 'dice-maiden', 'roll20', 'rpg-sage'" in result.stderr


def test_each_dialect_example_rolls() -> None:
    for name, dialect in DIALECTS.items():
        result = run(dialect.example, "--dialect", name, "--seed", SEED)
        assert result.exit_code == 0, (name, result.stderr)


def test_repeats_print_one_line_per_roll_and_a_json_list() -> None:
    text = run("6#3d6", "--dialect", "rpg-sage", "--seed", SEED, "--index", "2")
    assert text.exit_code == 0 and len(text.stdout.splitlines()) == 6
    data = json.loads(run("6#3d6", "--dialect", "rpg-sage", "--seed", SEED, "--format", "json").stdout)
    assert [d["index"] for d in data] == [0, 1, 2, 3, 4, 5] and data[0]["dialect"] == "rpg-sage"
    single = run("3d6", "--seed", SEED, "--index", "3")
    assert text.stdout.splitlines()[1] == single.stdout.strip()  # repeat 2 is engine roll 3


def test_a_test_of_the_total_prints_pass_or_fail() -> None:
    result = run("1d20+30 >= 15", "--dialect", "rpg-sage", "--seed", SEED)
    assert result.exit_code == 0 and result.stdout.rstrip().endswith("(pass: >=15)")
    data = json.loads(run("1d20 >= 21", "--dialect", "rpg-sage", "--seed", SEED, "--format", "json").stdout)
    assert data["passed"] is False and data["test"] == ">=21"


def test_fightlog_refuses_another_dialects_reading_with_both_spellings() -> None:
    result = run("6#3d6", "--seed", SEED)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (
        "fightlog: 6#3d6 : did you mean 6 repeats of 3d6 (--dialect rpg-sage) or 6 # 3d6 "
        "(a comment, with a space before #)? at column 2\n"
    )
