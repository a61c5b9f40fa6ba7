"""The bundled fixtures: each verifies as documented and matches the script that makes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from tests.conftest import FIXTURES

ALL_LOGS = sorted(FIXTURES.rglob("*.jsonl"))
SEEDED = FIXTURES / "dice" / "seeded-rolls.jsonl"
TAMPERED = FIXTURES / "dice" / "seeded-rolls-tampered.jsonl"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("log", ALL_LOGS, ids=[p.name for p in ALL_LOGS])
def test_every_bundled_log_has_an_intact_chain(log: Path) -> None:
    assert run("verify", str(log))[0] == 0


@pytest.mark.parametrize("log", [p for p in ALL_LOGS if "tampered" not in p.name], ids=lambda p: p.name)
def test_every_honest_bundled_log_passes_the_dice_check(log: Path) -> None:
    code, out, _ = run("verify", "--dice", str(log))
    assert code == 0, out
    assert out.splitlines()[-1].endswith("; no problems")


def test_seeded_rolls_are_recomputed_from_the_revealed_seed() -> None:
    code, out, _ = run("verify", "--dice", str(SEEDED))
    assert code == 0
    assert out.splitlines()[-1] == "dice: 9 engine rolls recomputed from the seed revealed in scene_ended; no problems"


def test_a_re_chained_forgery_passes_the_chain_but_not_the_dice() -> None:
    assert run("verify", str(TAMPERED))[0] == 0
    code, out, _ = run("verify", "--dice", str(TAMPERED))
    assert code == 1
    lines = out.splitlines()
    assert lines[1] == f"{TAMPERED}:8: roll #3 by bob (1d100): face 83 recorded, seed gives 85"
    # its total follows from the face named (one problem, as the audit counts it)
    assert lines[-1].endswith("; 1 problem") and len(lines) == 3


def test_a_wrong_seed_is_named() -> None:
    """A --seed the scene does not commit to is refused as bad input (the log is not at fault)."""
    code, out, err = run("verify", "--seed", "ab" * 32, str(SEEDED))
    assert code == 2 and out == ""
    assert "'--seed': it is not the scene's seed" in err and "commits to" in err


def test_a_seed_that_is_not_hex_is_bad_input() -> None:
    code, out, err = run("verify", "--seed", "not-hex", str(SEEDED))
    assert code == 2 and out == ""
    assert "Invalid value for '--seed': expected an integer (0 to 2**256-1) or 64 hex digits, got 'not-hex'" in err


def test_dice_findings_in_json() -> None:
    import json

    code, out, _ = run("verify", "--dice", "--format", "json", str(TAMPERED))
    assert code == 1
    doc = json.loads(out)
    assert doc["ok"] is False and doc["intact"] is True  # the chain holds; the dice do not (a bot read "ok": true)
    assert [f["code"] for f in doc["dice"]["findings"]] == ["roll-dice"]
    assert {f["line"] for f in doc["dice"]["findings"]} == {8}


def test_dice_are_not_judged_past_a_broken_chain(tmp_path: Path) -> None:
    lines = TAMPERED.read_bytes().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines[:5] + lines[6:]))
    code, out, _ = run("verify", "--dice", str(broken))
    assert code == 1
    assert out == f"{broken}:6: seq 7 follows seq 5: seq 6 missing here (removed or reordered lines?)\n"


@pytest.mark.parametrize(
    ("module", "files"),
    [
        ("fightlog.fixtures.sample_duel", ["roe7/sample-duel.jsonl"]),
        ("fightlog.fixtures.seeded_rolls", ["dice/seeded-rolls.jsonl", "dice/seeded-rolls-tampered.jsonl"]),
    ],
)
def test_fixtures_match_their_scripts(module: str, files: list[str], tmp_path: Path) -> None:
    if module.endswith("sample_duel"):
        subprocess.run([sys.executable, "-m", module, str(tmp_path / Path(files[0]).name)], check=True)
    else:
        subprocess.run([sys.executable, "-m", module, str(tmp_path)], check=True)
    for name in files:
        assert (tmp_path / Path(name).name).read_bytes() == (FIXTURES / name).read_bytes(), name


@pytest.mark.parametrize("ruleset", ["roe7", "d20-evasion"])
def test_every_bundled_scenario_replays_to_its_log(ruleset: str) -> None:
    directory = FIXTURES / ruleset / "scenarios"
    code, out, _ = run("run", "--check", str(directory))
    assert code == 0, out
    count = len(list(directory.glob("*.toml")))
    assert out.splitlines()[-1] == f"checked {count} scenarios: {count} same, 0 changed, 0 without a stored log, 0 unusable"
