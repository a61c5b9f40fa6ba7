"""``play_fight``: a scenario played in memory with a fixed seed, as the same plain data the
CLI prints (state, replay, audit), and the syrupy extension that stores it."""

from __future__ import annotations

import json
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import msgspec
import pytest

from fightlog.errors import InputError
from fightlog.events.reader import read_log
from fightlog.testing.fight import Fight, play_fight, seed_hex
from fightlog.testing.snapshot import FightSnapshotExtension, plain
from tests.cli import run
from tests.conftest import FIXTURES

SCENARIOS = FIXTURES / "roe7" / "scenarios"
DUEL = SCENARIOS / "alley-duel.toml"


@pytest.fixture(scope="module")
def duel() -> Fight:
    return play_fight(DUEL, seed=7)


def test_the_plugin_is_registered_as_a_pytest11_entry_point() -> None:
    (found,) = [e for e in entry_points(group="pytest11") if e.name == "fightlog"]
    assert found.value == "fightlog.testing.plugin"


def test_the_fight_is_the_log_fightlog_run_writes(duel: Fight, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    assert run("run", str(DUEL), "-o", str(log), "--seed", seed_hex(7)).exit_code == 0
    assert duel.jsonl == log.read_text()
    events = [msgspec.to_builtins(event) for _, event in read_log(log)]
    assert duel.log == [{k: v for k, v in event.items() if k != "prev"} for event in events]
    assert duel.seed == seed_hex(7) and duel.options == events[0]["options"]


def test_state_replay_and_audit_are_what_the_cli_prints(duel: Fight, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    log.write_text(duel.jsonl)
    assert duel.state == json.loads(run("state", str(log), "--format", "json", "--no-cache").stdout)
    assert duel.replay + "\n" == run("replay", str(log)).stdout
    audited = run("audit", str(log))
    assert duel.audit + "\n" == audited.stdout and audited.exit_code == 0
    assert duel.findings == json.loads(run("audit", str(log), "--format", "json").stdout)["findings"] == []
    assert duel.winner == duel.log[-1]["winner"] == "dockhands"


def test_a_seed_is_an_integer_or_hex() -> None:
    assert seed_hex(7) == "00" * 31 + "07" and seed_hex("ab" * 32) == "ab" * 32
    for bad in (-1, 1 << 256, True, 2.5):
        with pytest.raises(InputError, match=r"seed=\.\.\.\): expected an integer"):
            seed_hex(bad)  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_fight_and_another_seed_another(duel: Fight) -> None:
    assert play_fight(DUEL, seed=7) == duel
    assert play_fight(DUEL, seed=8).log != duel.log


def test_without_a_seed_the_scenarios_own_is_used_and_without_either_it_is_refused(tmp_path: Path) -> None:
    fight = play_fight(DUEL)
    assert fight.jsonl == (SCENARIOS / "alley-duel.jsonl").read_text()
    shutil.copytree(FIXTURES / "roe7" / "rosters" / "scenarios", tmp_path / "rosters" / "scenarios")
    unseeded = tmp_path / "scenarios" / "duel.toml"
    unseeded.parent.mkdir()
    unseeded.write_text("\n".join(line for line in DUEL.read_text().splitlines() if not line.startswith("seed =")))
    with pytest.raises(InputError, match="no fixed seed") as caught:
        play_fight(unseeded)
    assert caught.value.path == str(unseeded)


def test_house_rules_and_options_are_recorded_and_change_the_fight(duel: Fight, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('ruleset = "roe7"\nmodifier_cap = 20\nbleed_turns = 2\n')
    strict = play_fight(DUEL, seed=7, house=house)
    assert (strict.options["modifier_cap"], strict.options["bleed_turns"]) == (20, 2)
    assert strict.log[0]["options"] == strict.options and strict.replay != duel.replay
    both = play_fight(DUEL, seed=7, house=house, options={"modifier_cap": 25})
    assert (both.options["modifier_cap"], both.options["bleed_turns"]) == (25, 2)
    with pytest.raises(InputError) as caught:
        play_fight(DUEL, seed=7, house=house, options={"modifier_cap": -1})
    assert str(caught.value) == f"{DUEL}: options: modifier_cap: expected an integer >= 0, got -1"


def test_plain_data_splits_multi_line_text_and_unwraps_structs(duel: Fight) -> None:
    assert plain("a\nb") == ["a", "b"] and plain("one line") == "one line"
    assert plain({"r": duel.replay})["r"] == duel.replay.split("\n")
    data = plain(duel)
    assert "jsonl" not in data and data["replay"][0].startswith(" 1  Scene alley-duel (roe7)")
    assert plain(read_log) is read_log  # anything else is left to syrupy


def test_the_extension_writes_sorted_indented_json_one_line_per_replay_line(duel: Fight) -> None:
    text = FightSnapshotExtension().serialize({"replay": duel.replay, "winner": duel.winner})
    assert json.loads(text) == {"replay": duel.replay.split("\n"), "winner": "dockhands"}
    assert text.count("\n") == len(duel.replay.split("\n")) + 5  # {, "replay": [, the lines, ], "winner", }


def test_a_d20_evasion_duel_plays_through_the_same_fixture() -> None:
    """Nothing in the plugin is RoE-shaped: the d20 scenario comes back as the same data."""
    d20 = FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.toml"
    fight = play_fight(d20)
    assert fight.jsonl == d20.with_suffix(".jsonl").read_text()
    assert fight.findings == [] and fight.options["mode"] == "duel"
    assert play_fight(d20, options={"round_halves": "down"}).options["round_halves"] == "down"


@pytest.mark.parametrize(
    ("house", "message"),
    [
        ('mode = "duel"\n', None),  # a d20-evasion option: fine without a ruleset key
        ("modifier_cap = 20\n", None),
        ("", None),
        ('mode = "duel"\nmodifier_cap = 20\n', "not a "),  # no one ruleset takes both
        ('ruleset = "d20-evasion"\nmodifier_cap = 20\n', "2: modifier_cap: not a d20-evasion option"),
        ('mode = "brawl"\n', "1: mode: expected one of 'duel', 'quest', got 'brawl'"),
    ],
)
def test_house_rules_are_checked_against_the_rulesets_that_could_take_them(tmp_path: Path, house: str,
                                                                         message: str | None) -> None:
    from fightlog.testing.fight import check_house_rules

    path = tmp_path / "house.toml"
    path.write_text(house)
    if message is None:
        assert check_house_rules(path).path == str(path)
        return
    with pytest.raises(InputError) as caught:
        check_house_rules(path)
    assert message in str(caught.value) and str(caught.value).startswith(f"{path}:")


def test_a_snapshot_diff_shows_every_change_not_only_the_first() -> None:
    """syrupy's own diff stops a few lines after the first change: a lowered cap showed the
    HP that moved and hid the option that moved it, which docs/testing.md says is shown."""
    from fightlog.testing.snapshot import FightSnapshotExtension

    old = "\n".join(["{", '  "hp": 54,', *(f'  "k{i}": {i},' for i in range(40)), '  "modifier_cap": 30', "}"])
    new = old.replace('"hp": 54', '"hp": 57').replace('"modifier_cap": 30', '"modifier_cap": 20')
    lines = list(FightSnapshotExtension().diff_lines(new, old))  # type: ignore[arg-type]
    assert lines == ["  {", '-   "hp": 54,', '+   "hp": 57,', '    "k0": 0,', "  ...", '    "k39": 39,',
                     '-   "modifier_cap": 30', '+   "modifier_cap": 20', "  }"]


def test_a_snapshot_diff_of_a_replay_that_grew_past_99_events_shows_the_changed_lines_only() -> None:
    """The seq column is as wide as the log's last seq: a house rule that took a fight past
    99 events marked every replay line changed (a user's snapshot diff of 247 lines)."""
    from fightlog.testing.snapshot import FightSnapshotExtension

    def replay(last: int, hp: int) -> str:
        width = len(str(last))
        lines = [f'    "{seq:>{width}}  event {seq}",' for seq in range(1, 8)]
        lines[3] = f'    "{4:>{width}}  Bob takes 5 damage",'
        lines.insert(4, f'    "{"":>{width}}    HP {hp}",')
        return "\n".join(['{', '  "replay": [', *lines, f'    "{last:>{width}}  the end"', "  ]", "}"])

    lines = list(FightSnapshotExtension().diff_lines(replay(100, 12), replay(99, 15)))  # type: ignore[arg-type]
    assert lines == ["  ...", "  @ replay", '      "  4  Bob takes 5 damage",', '-     "      HP 15",',
                     '+     "       HP 12",', '      "  5  event 5",', "  ...", "  @ replay", '      "  7  event 7",',
                     '-     "99  the end"', '+     "100  the end"', "    ]"]


def test_a_snapshot_diff_of_a_log_names_the_event_by_its_index() -> None:
    """A `.log` snapshot's hunk was headed `@ []`: which event changed was not said."""
    import json

    from fightlog.testing.snapshot import FightSnapshotExtension

    def log(against: int) -> str:
        events = [{"seq": n, "kind": "dice_rolled", "total": n} for n in range(1, 16)]
        events.append({"seq": 16, "kind": "attack_resolved", "against": against,
                       "modifiers": [{"value": 1, "source": "aim"}, {"value": against - 6, "source": "cover"}]})
        return json.dumps(events, indent=2)

    lines = list(FightSnapshotExtension().diff_lines(log(5), log(8)))  # type: ignore[arg-type]
    heads = [line for line in lines if line.startswith("  @ ")]
    assert heads == ["  @ [15]", "  @ [15].modifiers[1]"], lines


def test_a_snapshot_diff_names_the_keys_a_change_sits_under() -> None:
    """A tester's house rule moved an HP: the diff showed `"pools": {` / `- "hp": 54` /
    `+ "hp": 57`, and not whose (the combatant's key was far above the context line)."""
    from fightlog.testing.snapshot import FightSnapshotExtension

    def state(hp: int) -> str:
        fighters = [(name, 54 if name == "rook" else 30) for name in ("mara", "rook", "vex")]
        lines = ["{", '  "combatants": {']
        for at, (name, base) in enumerate(fighters):
            lines += [f'    "{name}": {{', '      "pools": {', f'        "hp": {hp if name == "rook" else base}',
                      "      },", *(f'      "k{i}": {i},' for i in range(5)), '      "side": "a"',
                      "    }" + ("," if at < 2 else "")]
        return "\n".join([*lines, "  }", "}"])

    lines = list(FightSnapshotExtension().diff_lines(state(57), state(54)))  # type: ignore[arg-type]
    assert lines == ["  ...", "  @ combatants.rook.pools", '        "pools": {', '-         "hp": 54',
                     '+         "hp": 57', "        },"]
