"""Bad input to the Traveller table: one line naming the file (and line) or the post, exit 2,
nothing written (a refused post leaves the log as it was)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.rules.traveller.card import read_card
from fightlog.rules.traveller.sheet import ROSTERS, joins
from tests.conftest import FIXTURES

ROSTERS_DIR = FIXTURES / "traveller" / "rosters"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def started(tmp_path: Path) -> Path:
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "traveller")[0] == 0
    return log


def test_the_crew_roster_reads_with_its_sheet_file() -> None:
    vance, ilsa, dorn, kesh = joins(str(ROSTERS_DIR / "crew.toml"))
    assert vance.pools == {"STR": 8, "DEX": 10, "END": 9}
    card = read_card(vance.sheet)
    assert card.skills["gun_combat"] == 2 and card.armour == 5 and "medikit" in card.gear
    assert [w.skill for w in read_card(dorn.sheet).weapons] == ["melee", "athletics"]
    assert ROSTERS.load_sheet(ROSTERS_DIR / "sheets" / "vance.toml").characteristics.DEX == 10
    assert kesh.side == "raiders" and ilsa.controller == "IlsaPlayer"


@pytest.mark.parametrize(("name", "line", "message"), [
    ("strong-as-an-ox.toml", 10, "ox: sheet.characteristics.STR: must be at most 15, got 16"),
    ("unknown-skill.toml", 11, "ox: sheet.skills: unknown skill 'swordplay'"),
    ("bad-damage.toml", 11, "ox: sheet.weapons[0].damage: expected Traveller dice such as 3D, 2D+2 or 1D-1, got '2d8'"),
    ("rifle-without-range.toml", 11, "ox: sheet.weapons[0].range_m: required for a ranged weapon"),
])
def test_a_bad_roster_is_one_line_naming_the_file_and_line_exit_2_nothing_written(
        tmp_path: Path, name: str, line: int, message: str) -> None:
    log = started(tmp_path)
    before = log.read_bytes()
    path = ROSTERS_DIR / "bad" / name
    code, output = run("play", "join", str(log), "--roster", str(path), "ox")
    assert code == 2
    lines = output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"fightlog: {path}:{line}: ")
    assert message in lines[0]
    assert log.read_bytes() == before


def fight(tmp_path: Path) -> Path:
    log = started(tmp_path)
    roster = str(ROSTERS_DIR / "crew.toml")
    assert run("play", "join", str(log), "--roster", roster, "vance", "kesh", "--at", "vance=0,0",
               "--at", "kesh=3000,0")[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    return log


@pytest.mark.parametrize(("who", "do", "message"), [
    ("current", "attack target=OTHER weapon=Laser", "does not carry 'Laser'"),
    ("other", "dodge", "a reaction answers an attack on the reactor"),
    ("current", "aim|move distance=2", "aiming is lost by doing anything else"),
    ("current", "attack target=OTHER", "four times its range"),  # 3000 m: beyond 4 x 600 m (and 4 x 50 m)
])
def test_a_refused_post_is_one_line_exit_2_and_the_log_unchanged(tmp_path: Path, who: str, do: str,
                                                                 message: str) -> None:
    log = fight(tmp_path)
    state = run("state", str(log), "--format", "json")[1]
    current = "vance" if '"current":"vance"' in state.replace(" ", "") else "kesh"
    other = "kesh" if current == "vance" else "vance"
    actor = current if who == "current" else other
    before = log.read_bytes()
    args = ["play", "post", str(log), actor, "…"]
    for action in do.replace("OTHER", other).split("|"):
        args += ["--do", action]
    code, output = run(*args)
    assert code == 2, output
    assert len(output.strip().splitlines()) == 1 and message in output
    assert log.read_bytes() == before


def test_an_ambush_by_a_side_nobody_is_on_is_refused_at_begin_exit_2_nothing_written(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('ambush = "pirates"\n')
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "traveller", "--options", str(house))[0] == 0
    assert run("play", "join", str(log), "--roster", str(ROSTERS_DIR / "crew.toml"), "vance", "dorn")[0] == 0
    before = log.read_bytes()
    code, output = run("play", "begin", str(log))
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1
    assert "ambush = 'pirates'" in lines[0] and "sides: crew, raiders" in lines[0]
    assert log.read_bytes() == before
