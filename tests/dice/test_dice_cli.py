"""``fightlog roll``: output, reproducibility, and one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from fightlog.cli.main import cli

SEED = bytes(range(32)).hex()


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["roll", *args], catch_exceptions=False)


def test_roll_prints_the_breakdown() -> None:
    result = run("1d100", "--seed", SEED, "--scene", "duel-1", "--salt", "a1b2c3d4",
                 "--mod", "scope=+10", "--mod", "racial=+5")
    assert result.exit_code == 0
    assert result.stdout == "1d100 (99) + 15 [scope +10, racial +5] = 114\n"
    assert result.stderr == ""


def test_the_same_seed_gives_the_same_faces() -> None:
    first = run("4d6dl1", "--seed", "255", "--index", "3")
    again = run("4d6dl1", "--seed", "00" * 31 + "FF", "--index", "3")
    other = run("4d6dl1", "--seed", "255", "--index", "4")
    assert first.exit_code == again.exit_code == 0
    assert first.stdout == again.stdout != other.stdout


@pytest.mark.parametrize("seed", ["xyz", "00ff", "ab" * 33, "-1", "7e3", "1.5"])
def test_a_seed_is_an_integer_or_64_hex_digits(seed: str) -> None:
    result = CliRunner().invoke(cli, ["roll", "1d20", "--seed", seed])
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert "Invalid value for '--seed': expected an integer (0 to 2**256-1) or 64 hex digits, got " in result.stderr


def test_without_a_seed_the_roll_is_random() -> None:
    outputs = {run("1d1000000").stdout for _ in range(5)}
    assert len(outputs) > 1


def test_words_are_joined_into_one_expression() -> None:
    result = run("1d20", "+", "5", "#", "attack", "--seed", SEED)
    assert result.exit_code == 0
    assert result.stdout.endswith("# attack\n")


def test_json_output_is_plain_data() -> None:
    result = run("5d6>=5", "--seed", SEED, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["notation"] == "5d6>=5"
    assert data["seed"] == SEED and data["scene"] == "cli" and data["index"] == 0
    assert len(data["dice"]) == 5 and data["total"] == data["successes"]
    assert data["breakdown"].startswith("5d6>=5 (")


def test_help_shows_examples() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "fightlog roll 1d100 --mod scope=+10" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1d20+"], "fightlog: 1d20+ : expected a number at column 6"),
        ([""], "fightlog: empty dice expression (try 1d20+5)"),
        (["0d6"], "fightlog: 0d6 : roll at least 1 die at column 1"),
        (["d0"], "fightlog: d0 : a die needs at least 1 side at column 2"),
        (["3d6kh4"], "fightlog: 3d6kh4 : kh4 keeps 4 dice but only 3 are rolled at column 4"),
        (["\u0663d6"], "fightlog: \u0663d6 : non-ASCII digit '\u0663' (use 0-9) at column 1"),
        (["\uff11d6"], "fightlog: \uff11d6 : non-ASCII digit '\uff11' (use 0-9) at column 1"),
        (["1d6//0"], "fightlog: 1d6//0 : division by zero at column 4"),
        (["1001d6"], "fightlog: 1001d6 : 1001 dice; at most 1000 dice per expression"),
        (
            ["1d1000001"],
            "fightlog: 1d1000001 : a die of 1000001 sides at column 3; "
            "dice have at most 1000000 sides",
        ),
        (
            ["1d20", "--mod", "scope"],
            "fightlog: --mod 'scope': expected SOURCE=VALUE, e.g. scope=+10",
        ),
        (  # was "expected SOURCE=VALUE": the value is well formed, only too large
            ["1d20", "--mod", "scope=99999999"],
            "fightlog: --mod 'scope=99999999': modifiers are limited to +/-9999999",
        ),
        (
            ["1d20", "--mod", "scope=-" + "9" * 40],
            f"fightlog: --mod 'scope=-{'9' * 40}': modifiers are limited to +/-9999999",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message + "\n"


@pytest.mark.parametrize(
    ("expr", "limit"),
    [
        ("9" * 300, "characters long"),
        ("1d20+" + "9" * 200, "digits"),
        ("(" * 40 + "1" + ")" * 40, "nesting"),
    ],
)
def test_limits_are_one_line_and_exit_2(expr: str, limit: str) -> None:
    result = run(expr)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert limit in result.stderr


def test_usage_errors_exit_2() -> None:
    assert run().exit_code == 2
    assert run("1d6", "--index", "-1").exit_code == 2


@pytest.mark.parametrize("args", [["--dialect", "rpg-sage", "6#3d6"], ["--dialect", "dice-maiden", "6 4d6 k3"]])
def test_repeated_rolls_past_the_last_index_are_refused(args: list[str]) -> None:
    """A tester's `--index 18446744073709551615 6#3d6` (the help allows the index) was an
    internal error: the repeats' indexes ran past the generator's eight bytes."""
    result = run("--seed", "1", "--index", str((1 << 64) - 1), *args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "6 rolls from index 18446744073709551615 run past the last roll index" in result.stderr
    assert run("--seed", "1", "--index", str((1 << 64) - 6), *args).exit_code == 0


@pytest.mark.parametrize("args", [["-1d20"], ["--dialect", "dice-maiden", "-d20"], ["-(1d4)"], ["-2D6"]])
def test_an_expression_starting_with_a_minus_names_the_double_dash(args: list[str]) -> None:
    # docs/dice.md writes -1d20; Dice Maiden's disadvantage is -d20: click reads them as options
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "(an expression starting with '-' goes after '--', options before it: fightlog roll -- -1d20)" in result.stderr
    assert run(*args[:-1], "--seed", "1", "--", args[-1]).exit_code == 0
    assert "goes after '--'" not in run("-x").stderr  # another unknown option: no such hint
