"""``fightlog run --check DIR``: every scenario replayed against its stored log, and which
fights changed, at which event and how."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli import assert_usage_error, run
from tests.conftest import FIXTURES


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    """A copy of the bundled RoE scenarios and their rosters (paths stay relative)."""
    shutil.copytree(FIXTURES / "roe7" / "scenarios", tmp_path / "scenarios")
    shutil.copytree(FIXTURES / "roe7" / "rosters" / "scenarios", tmp_path / "rosters" / "scenarios")
    return tmp_path / "scenarios"


def test_unchanged_fights_check_clean(scenarios: Path) -> None:
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in scenarios.glob("*.toml"))
    assert [line.split()[1].rstrip(":") for line in result.stdout.splitlines()[:-1]] == names
    assert result.stdout.splitlines()[-1] == f"checked {len(names)} scenarios: {len(names)} same, 0 changed, 0 without a stored log, 0 unusable"


def test_a_roster_or_house_rules_beside_the_scenarios_is_skipped(scenarios: Path) -> None:
    """Every ``*.toml`` was played as a scenario: a roster or a house-rules file kept beside
    them made the whole check UNUSABLE, exit 2."""
    shutil.copy(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml", scenarios / "gate-skirmish.toml")
    (scenarios / "house.toml").write_bytes(b"\xef\xbb\xbfmodifier_cap = 20\n")  # saved by Notepad
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == ["skipped  gate-skirmish.toml: not a scenario (no roster key, no [[steps]]: a roster or house rules?)",
                         "skipped  house.toml: not a scenario (no roster key, no [[steps]]: a roster or house rules?)"]
    assert lines[-1].endswith(" 0 unusable; 2 other TOML files skipped")


def test_a_changed_step_is_found_at_its_first_event(scenarios: Path) -> None:
    path = scenarios / "melee-brawl.toml"
    path.write_text(path.read_text().replace("ece4ef09", "ece4ef0a", 1))  # another seed
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 1, result.output
    line = next(x for x in result.stdout.splitlines() if "melee-brawl" in x)
    assert line.startswith("CHANGED  melee-brawl.toml: seq 1 (scene_started): dice.commitment ")
    assert "0 unusable" in result.stdout.splitlines()[-1]


def test_a_house_rule_shows_the_rules_changed_and_the_first_consequence(scenarios: Path, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("bleed_damage = 9\n")
    result = run("run", "--check", str(scenarios), "--options", str(house))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert "         melee-brawl.toml: house rules changed: bleed_damage 5 -> 9" in lines
    changed = next(x for x in lines if x.startswith("CHANGED  melee-brawl.toml"))
    assert "(effect_applied): magnitude 5 -> 9" in changed
    assert any(x.startswith("same     alley-duel.toml") for x in lines)  # no bleed there


def test_a_scenario_without_a_stored_log_is_a_finding(scenarios: Path) -> None:
    (scenarios / "alley-duel.jsonl").unlink()
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 1
    assert "UNSTORED alley-duel.toml: no alley-duel.jsonl (write it: fightlog run " in result.stdout


def test_a_scenario_that_cannot_play_is_unusable_stored_or_not(scenarios: Path) -> None:
    """With no stored log, a scenario whose step the rules refuse was UNSTORED (exit 1),
    suggesting a command that fails."""
    text = (scenarios / "alley-duel.toml").read_text()
    assert "attack target=vex" in text
    (scenarios / "alley-duel.toml").write_text(text.replace("attack target=vex", "attack target=nobody"))
    (scenarios / "alley-duel.jsonl").unlink()
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 2
    line = next(x for x in result.stdout.splitlines() if "alley-duel" in x)
    assert line.startswith("UNUSABLE alley-duel.toml: ") and "'nobody' is not in the fight" in line


def test_an_unusable_scenario_is_named_and_exits_2(scenarios: Path) -> None:
    (scenarios / "broken.toml").write_text("title = \n")
    (scenarios / "broken.jsonl").write_bytes((scenarios / "alley-duel.jsonl").read_bytes())
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 2
    line = next(x for x in result.stdout.splitlines() if "broken" in x)
    assert line.startswith("UNUSABLE broken.toml: ") and "not valid TOML" in line
    assert "Traceback" not in result.output


def test_a_scenario_whose_ruleset_does_not_load_is_unusable_and_the_others_are_checked(
        scenarios: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import EntryPoint

    from fightlog.reducers import fold_rules
    from tests.kit import with_points

    with_points(monkeypatch, EntryPoint("bada", "no_such_module_for_fightlog.rulset:RULES", fold_rules.GROUP))
    text = (scenarios / "alley-duel.toml").read_text()
    (scenarios / "bada.toml").write_text(text.replace('ruleset = "roe7"', 'ruleset = "bada"'))
    assert 'ruleset = "bada"' in (scenarios / "bada.toml").read_text()
    result = run("run", "--check", str(scenarios))
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert [x for x in lines if "bada" in x] == [
        "UNUSABLE bada.toml: ruleset 'bada': its entry point fightlog.rulesets:bada "
        "(no_such_module_for_fightlog.rulset:RULES) does not load: ModuleNotFoundError: No module named "
        "'no_such_module_for_fightlog'"]
    assert any(x.startswith("same") and "alley-duel.toml" in x for x in lines) and lines[-1].endswith("1 unusable")


def test_check_refuses_a_scenario_or_an_output_too(scenarios: Path) -> None:
    assert_usage_error(run("run", "--check", str(scenarios), "-o", "x.jsonl"), "--check DIR takes no SCENARIO")


def test_check_needs_a_directory_of_scenarios(tmp_path: Path) -> None:
    result = run("run", "--check", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"fightlog: {tmp_path}: no scenario files (*.toml with a roster or [[steps]]) here"


def test_the_bundled_house_rules_change_the_fights_they_touch(scenarios: Path) -> None:
    result = run("run", "--check", str(scenarios), "--options", str(FIXTURES / "roe7" / "house-rules.toml"))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert "         melee-brawl.toml: house rules changed: modifier_cap 30 -> 20, bleed_turns 5 -> 3" in lines
    assert "CHANGED  melee-brawl.toml: seq 63 (effect_applied): duration 5 -> 3; 169 events expected, 169 now" in lines
    assert lines[-1] == "checked 8 scenarios: 4 same, 4 changed, 0 without a stored log, 0 unusable"


def test_house_rules_for_another_ruleset_leave_these_fights_as_stored(scenarios: Path, tmp_path: Path) -> None:
    """A rules author's d20-evasion house file made every roe7 fight UNUSABLE ("these house
    rules are for 'd20-evasion', the fight plays 'roe7'"), exit 2: they play without it."""
    house = tmp_path / "d20.toml"
    house.write_text('ruleset = "d20-evasion"\nnatural_20_hits = true\n')
    result = run("run", "--check", str(scenarios), "--options", str(house))
    assert result.exit_code == 0, result.output
    assert "UNUSABLE" not in result.output and "house rules changed" not in result.output
    house.write_text('ruleset = "roe7"\nmodifier_cap = 20\n')
    assert run("run", "--check", str(scenarios), "--options", str(house)).exit_code == 1  # the roe7 fights change


def test_a_fifo_among_the_scenarios_is_skipped_not_waited_on(tmp_path: Path) -> None:
    """`run --check DIR` hung for ever on a FIFO named `x.toml` (a fuzzer)."""
    import os

    directory = tmp_path / "scenarios"
    directory.mkdir()
    for name in ("alley-duel.toml", "alley-duel.jsonl"):
        shutil.copy(FIXTURES / "roe7" / "scenarios" / name, directory / name)
    os.mkfifo(directory / "pipe.toml")
    result = run("run", "--check", str(directory))
    assert result.exit_code == 2, result.output  # the copied scenario's roster is not beside it: unusable, not a hang
    assert "skipped  pipe.toml: not a regular file (a FIFO, a device or a directory)" in result.stdout


def test_house_rules_every_fight_refuses_are_said_once(scenarios: Path, tmp_path: Path) -> None:
    """A misspelt option printed its refusal once a scenario (eight times)."""
    house = tmp_path / "typo.toml"
    house.write_text('ruleset = "roe7"\nmodifer_cap = 20\n')
    result = run("run", "--check", str(scenarios), "--options", str(house))
    assert result.exit_code == 2
    unusable = [line for line in result.stdout.splitlines() if line.startswith("UNUSABLE")]
    assert len(unusable) == len(list(scenarios.glob("*.toml"))) > 1
    assert f"{house}:2: modifer_cap: not a roe7 option (did you mean 'modifier_cap'?)" in unusable[0]
    assert all(line.endswith(f": the house rules, as above ({house})") for line in unusable[1:])
