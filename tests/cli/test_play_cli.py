"""``fightlog play``: a live fight with the RoE table, command by command; the seed file;
refusals that write nothing; the ``expect`` guard against a log that moved on between the
fold and the append; one-line errors and usage errors without tracebacks."""

from __future__ import annotations

import json
import os
import shlex
import stat
from pathlib import Path
from typing import Any

import pytest

import fightlog.cli.play_moves
import fightlog.cli.seed_file
from fightlog.cli.output import json_text
from fightlog.events.model import DeclarationPosted
from fightlog.events.store import FileStore
from fightlog.history.states import state_at
from fightlog.dice import commitment
from tests.cli import assert_one_line_error, assert_usage_error, run
from tests.conftest import FIXTURES
from tests.rules.fake_table import install as install_fake

ROSTER = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")
SEED = "5eed" * 16
RIFLE = "attack target=bob weapon=Rifle mode=auto"


def play(*args: str) -> str:
    result = run("play", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "gate.jsonl"


@pytest.fixture
def fight(log: Path) -> Path:
    """A begun fight: alice (at 0,0) and bob (at 20,0), alice's turn open."""
    play("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--scene", "gate", "--title", "Gate", "--gm", "Gemma")
    play("join", str(log), "--roster", ROSTER, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0")
    play("begin", str(log))
    return log


# --------------------------------------------------------------------------- a whole fight


def test_a_fight_from_start_to_end(log: Path) -> None:
    out = play("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--scene", "gate", "--title", "Gate", "--gm", "Gemma")
    assert out.splitlines() == [
        '1  Scene gate (roe7): "Gate", GM Gemma, dice seed committed',
        f"dice commitment: {commitment(SEED)}; the seed is in {log}.seed until `fightlog play end`",
    ]
    first = lines(log)[0]
    assert first["kind"] == "scene_started" and first["dice"] == {"scheme": "hmac-sha256-v1", "commitment": commitment(SEED)}
    assert first["options"]["dodge_per_shot"] is False  # every option recorded, defaults included

    out = play("join", str(log), "--roster", ROSTER, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0")
    assert out.splitlines()[0].startswith("2  Alice Vance joins (side colony)")
    assert [e["kind"] for e in lines(log)[1:]] == ["combatant_joined", "moved", "combatant_joined", "moved"]

    out = play("begin", str(log))
    assert "Posting order (order joined): Alice Vance, Bob Kade" in out and "Alice Vance's turn" in out

    out = play("post", str(log), "alice", "Alice fires a burst.", "--do", RIFLE)
    assert 'Alice Vance: "Alice fires a burst." [attack Bob Kade with Rifle, auto]' in out
    assert "Alice Vance rolls attack [engine #1]" in out
    seqs = [int(line.split()[0]) for line in out.splitlines() if line.split()[0].isdigit()]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one line per appended event
    told = [line.strip() for line in out.splitlines() if not line.split()[0].isdigit()]  # what they changed
    assert any(line.startswith("Bob Kade HP 120 -> ") for line in told), out  # a new user: HP never shown

    out = play("end-turn", str(log))
    assert "End of Alice Vance's turn" in out and "Bob Kade's turn" in out

    out = play("end", str(log), "--reason", "time")
    assert "Scene ends: time; dice seed revealed" in out
    assert out.splitlines()[-2:] == [
        f"dice seed revealed: {SEED}; check every roll with `fightlog verify --dice {log}`",
        f"removed {log}.seed: the seed is public in scene_ended",
    ]
    assert lines(log)[-1]["seed"] == SEED
    assert not Path(f"{log}.seed").exists()

    verified = run("verify", "--dice", str(log))
    assert verified.exit_code == 0, verified.output
    assert "no problems" in verified.stdout


def test_the_seed_file_is_private_and_matches(fight: Path) -> None:
    seed_file = Path(f"{fight}.seed")
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    assert seed_file.read_text() == SEED + "\n"
    assert state_at(fight, cache=False).scene.commitment == commitment(SEED)  # type: ignore[union-attr]


def test_a_fresh_seed_by_default(log: Path) -> None:
    play("start", str(log), "--ruleset", "roe7")
    seed = Path(f"{log}.seed").read_text().strip()
    assert len(seed) == 64 and seed != SEED
    assert lines(log)[0]["dice"]["commitment"] == commitment(seed)
    assert lines(log)[0]["scene"] == "scene"  # never the file's name: it feeds the dice


def test_the_same_seed_plays_the_same_fight_whatever_the_log_is_called(tmp_path: Path) -> None:
    made = []
    for name in ("a.jsonl", "renamed-copy.jsonl"):
        log = tmp_path / name
        play("start", str(log), "--ruleset", "roe7", "--seed", "7")
        play("join", str(log), "--roster", ROSTER, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0")
        play("begin", str(log))
        play("post", str(log), "alice", "Fire.", "--do", "attack target=bob weapon=Rifle")
        made.append(log.read_bytes())
    assert made[0] == made[1]


def test_open_mode_needs_no_seed_file(log: Path) -> None:
    out = play("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--open", "--scene", "duel-1")
    assert out.splitlines()[-1] == f"dice seed (open): {SEED}"
    assert not Path(f"{log}.seed").exists()
    assert lines(log)[0]["dice"]["seed"] == SEED and lines(log)[0]["scene"] == "duel-1"
    play("join", str(log), "--roster", ROSTER, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0")
    play("begin", str(log))
    play("post", str(log), "alice", "--do", RIFLE)  # rolls from the open seed
    play("end", str(log))
    assert lines(log)[-1]["kind"] == "scene_ended" and lines(log)[-1]["seed"] == SEED


def test_house_options_are_recorded(log: Path, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("dodge_per_shot = true\nbleed_turns = 3\n")
    play("start", str(log), "--ruleset", "roe7", "--options", str(house))
    options = lines(log)[0]["options"]
    assert options["dodge_per_shot"] is True and options["bleed_turns"] == 3


def test_join_defaults_to_everyone_not_in_yet(log: Path) -> None:
    play("start", str(log), "--ruleset", "roe7", "--seed", SEED)
    play("join", str(log), "--roster", ROSTER, "bob")
    play("join", str(log), "--roster", ROSTER)
    joined = [e["actor"] for e in lines(log) if e["kind"] == "combatant_joined"]
    assert joined == ["bob", "alice", "mira", "kestrel"]
    result = run("play", "join", str(log), "--roster", ROSTER)
    assert_one_line_error(result, ROSTER, "everyone in the roster has joined already")


def test_join_reserve_arrival_and_salt(fight: Path) -> None:
    play("join", str(fight), "--roster", ROSTER, "kestrel", "--reserve")
    play("join", str(fight), "--roster", ROSTER, "mira", "--arrival", "--after", "alice", "--salt", "9F3A61")
    events = [e for e in lines(fight) if e["kind"] == "combatant_joined"]
    assert events[-1]["arrival"] is True and events[-1]["after"] == "alice" and events[-1]["salt"] == "9f3a61"
    statuses = {(e["actor"], e["status"]) for e in lines(fight) if e["kind"] == "status_changed"}
    assert {("kestrel", "reserve"), ("mira", "arriving")} <= statuses


@pytest.mark.parametrize(("ruleset", "roster", "who", "because"), [
    ("traveller", "traveller/rosters/crew.toml", "kesh", "traveller has no way to bring a reserve into the fight"),
    ("bleeding-sun", "bleeding-sun/rosters/ash-market.toml", "dray", "bleeding-sun has no way to bring a reserve"),
    ("en51", "en51/rosters/tavern.toml", "vell", "en51 has no way to bring a reserve into the fight"),
    ("d20-evasion", "d20-evasion/rosters/scenarios/sunken-archive.toml", "archer", "only a minion"),
])
def test_a_reserve_nothing_can_bring_in_is_refused(log: Path, ruleset: str, roster: str, who: str,
                                                   because: str) -> None:
    """play join --reserve: off the posting order until a com call (roe7) or a summon (a
    d20-evasion minion). Elsewhere it was accepted and did nothing: the reserve fought from
    round 1 (a tester); in d20-evasion one with no owner waited for ever."""
    play("start", str(log), "--ruleset", ruleset, "--seed", SEED)
    before = log.read_bytes()
    result = run("play", "join", str(log), "--roster", str(FIXTURES / roster), who, "--reserve")
    assert_one_line_error(result, str(log), f"{who} cannot join in reserve: ")
    assert because in result.stderr
    assert log.read_bytes() == before


def test_one_arriving_is_no_target_until_their_round_and_the_audit_agrees(fight: Path) -> None:
    """Entering a Combat in Progress: the arrival's slot comes next round. Mira, arriving, was
    shot in round 1 and the audit said nothing (a tester); a reserve was already refused."""
    play("join", str(fight), "--roster", ROSTER, "mira", "--arrival", "--after", "alice", "--at", "mira=0,5")
    before = fight.read_bytes()
    result = run("play", "post", str(fight), "alice", "--do", "attack target=mira weapon=HPistol")
    assert_one_line_error(result, str(fight), "refused: mira arrives in round 2: not in the fight yet")
    assert fight.read_bytes() == before
    play("post", str(fight), "alice", "--do", "attack target=bob weapon=HPistol")
    from fightlog.audit.one_process import audit_events
    from fightlog.events.codec import decode_line
    from fightlog.events.model import DeclarationPosted, Origin
    from msgspec.structs import replace

    events = [decode_line(line) for line in fight.read_bytes().splitlines()]
    shot = next(e for e in events if isinstance(e, DeclarationPosted) and e.actor == "alice")
    hand_kept = replace(shot, origin=Origin(medium="manual"),
                        actions=[replace(shot.actions[0], target="mira")])  # as a hand-kept log would record it
    found = [(f.code, f.message) for f in audit_events([hand_kept if e is shot else e for e in events]).findings
             if f.code == "rules.target"]
    assert found == [("rules.target", "the rules refuse alice's post: mira arrives in round 2: not in the fight yet")]


# --------------------------------------------------------------------------- refusals write nothing


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["post", "bob", "Bob swings.", "--do", "attack target=alice"], "refused: out of turn: it is alice's turn to post"),
        (["post", "alice", "--do", "attack target=zed weapon=Rifle"], "refused: 'zed' is not in the fight"),
        (["post", "alice", "--do", "attack target=bob weapon=Laser"], "refused: alice carries no weapon 'Laser'"),
        (["post", "alice", "--do", "dance"], "refused: unknown action 'dance'"),
        (["begin"], "refused: the fight has begun already"),
        (["join", "--roster", ROSTER, "alice"], "refused: alice has joined already"),
    ],
)
def test_a_refusal_writes_nothing(fight: Path, args: list[str], message: str) -> None:
    before = fight.read_bytes()
    command, *rest = args
    result = run("play", command, str(fight), *rest)
    assert_one_line_error(result, str(fight), message)
    assert fight.read_bytes() == before


def test_a_post_after_the_end_is_refused(fight: Path) -> None:
    play("end", str(fight))
    before = fight.read_bytes()
    assert_one_line_error(run("play", "post", str(fight), "alice", "--do", RIFLE), str(fight), "refused: the scene ")
    assert "has ended" in run("play", "post", str(fight), "alice", "--do", RIFLE).output
    assert fight.read_bytes() == before


def test_the_log_moved_on_between_fold_and_append(fight: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    intruder = DeclarationPosted(actor="bob", text="(posted from another terminal)", ooc=True)

    def fold_then_someone_posts(path: str, at: int | None = None, *, cache: bool = True) -> Any:
        folded = state_at(path, at, cache=cache)
        FileStore(path).append([intruder])
        return folded

    monkeypatch.setattr(fightlog.cli.play_moves, "state_at", fold_then_someone_posts)
    before = fight.read_bytes()
    result = run("play", "post", str(fight), "alice", "--do", RIFLE)
    assert_one_line_error(result, str(fight), "the log moved on")
    assert "nothing written, try again" in result.stderr
    after = fight.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1  # the intruder only


# --------------------------------------------------------------------------- start refuses


def test_start_refuses_a_log_that_exists(fight: Path) -> None:
    before = fight.read_bytes()
    assert_one_line_error(run("play", "start", str(fight), "--ruleset", "roe7"), str(fight), "already holds a log")
    assert fight.read_bytes() == before
    assert Path(f"{fight}.seed").read_text() == SEED + "\n"
    roster = fight.parent / "crew.toml"  # a roster given as the log: said as what it is not
    roster.write_text(Path(ROSTER).read_text())
    assert_one_line_error(run("play", "start", str(roster), "--ruleset", "roe7"), str(roster),
                          "is not empty and is not a fightlog log: start the new scene in a new file")
    assert_one_line_error(run("play", "start", str(fight.parent), "--ruleset", "roe7"), str(fight.parent),
                          "is a directory, not a log file")
    pipe = fight.parent / "pipe"
    os.mkfifo(pipe)  # was "fightlog: Invalid argument", naming nothing
    assert_one_line_error(run("play", "start", str(pipe), "--ruleset", "roe7"), str(pipe), "is not a regular file")


def test_start_may_use_an_empty_file(log: Path) -> None:
    log.write_bytes(b"")
    play("start", str(log), "--ruleset", "roe7")
    assert lines(log)[0]["kind"] == "scene_started"


def test_start_refuses_an_existing_seed_file(log: Path) -> None:
    Path(f"{log}.seed").write_text("someone else's seed\n")
    result = run("play", "start", str(log), "--ruleset", "roe7")
    assert_one_line_error(result, f"{log}.seed", "exists already")
    assert not log.exists()
    assert Path(f"{log}.seed").read_text() == "someone else's seed\n"


@pytest.mark.parametrize(
    ("house", "message"),
    [
        ("speed = 3\n", "speed: not a roe7 option (docs/rulesets/roe7.md lists them)"),
        ("bleed_turns = 'x'\n", "bleed_turns: expected an integer >= 1, got 'x'"),
        ("# house\ninitiative = 'd20'\n", "initiative: expected one of 'd100', 'joined', got 'd20'"),
        ("ruleset = 'd20-evasion'\n", "ruleset: these house rules are for 'd20-evasion', the fight plays 'roe7'"),
    ],
)
def test_start_refuses_bad_house_options(log: Path, tmp_path: Path, house: str, message: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(house)
    result = run("play", "start", str(log), "--ruleset", "roe7", "--options", str(path))
    assert_one_line_error(result, f"{path}:{house.count(chr(10))}", message)
    assert not log.exists() and not Path(f"{log}.seed").exists()


@pytest.mark.parametrize(
    ("ruleset", "message"),
    [
        ("gurps", "no installed ruleset 'gurps' (installed: bleeding-sun, d20-evasion, en51, roe7, traveller)"),
        ("roe8", "no installed ruleset 'roe8': did you mean roe7? "
                 "(installed: bleeding-sun, d20-evasion, en51, roe7, traveller)"),
    ],
)
def test_start_refuses_a_ruleset_not_installed(log: Path, ruleset: str, message: str) -> None:
    result = run("play", "start", str(log), "--ruleset", ruleset)
    assert_usage_error(result, f"Invalid value for '--ruleset': {message}")
    assert "yet" not in result.output
    assert not log.exists() and not Path(f"{log}.seed").exists()


@pytest.mark.parametrize("seed", ["xyz", "abcd", "5eed" * 15 + "5ee"])
def test_start_refuses_a_bad_seed(log: Path, seed: str) -> None:
    assert_usage_error(run("play", "start", str(log), "--ruleset", "roe7", "--seed", seed), "Invalid value for '--seed'")
    assert not log.exists()


# --------------------------------------------------------------------------- the seed at the end


def test_end_needs_the_seed_file(fight: Path) -> None:
    os.unlink(f"{fight}.seed")
    before = fight.read_bytes()
    assert_one_line_error(run("play", "end", str(fight)), f"{fight}.seed", "no such file: the scene's secret dice seed is kept "
                          "here, beside the log, and ending the scene reveals it (a log moved or renamed takes its LOG.seed "
                          "with it)")
    assert fight.read_bytes() == before


def test_an_empty_seed_file_is_said_to_be_empty(fight: Path) -> None:
    """It said 'the seed must be an even number of hex digits' (a tester)."""
    Path(f"{fight}.seed").write_text("\n")
    before = fight.read_bytes()
    assert_one_line_error(run("play", "end", str(fight)), f"{fight}.seed", "the seed file is empty: it holds the "
                          "scene's seed in hex digits (restore it from a copy; a new one cannot match the commitment)")
    assert fight.read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_seed_file_that_is_no_file_is_refused_at_once(fight: Path, kind: str) -> None:
    """A tester's `LOG.seed` made a FIFO: `play end` waited for a writer forever."""
    seed = Path(f"{fight}.seed")
    seed.unlink()
    os.mkfifo(seed) if kind == "fifo" else seed.mkdir()
    before = fight.read_bytes()
    assert_one_line_error(run("play", "end", str(fight)), str(seed), "is not a regular file: the seed is kept in a "
                          "file fightlog wrote (restore it from a copy)")
    assert fight.read_bytes() == before


def test_a_seed_file_of_another_scene_is_refused(fight: Path) -> None:
    Path(f"{fight}.seed").write_text("ab" * 32 + "\n")
    before = fight.read_bytes()
    assert_one_line_error(run("play", "end", str(fight)), f"{fight}.seed", "does not match the dice commitment")
    assert_one_line_error(run("play", "post", str(fight), "alice", "--do", RIFLE), f"{fight}.seed", "does not match")
    assert fight.read_bytes() == before


def test_a_seed_file_that_cannot_be_removed_is_said_to_be_public(fight: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: str) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(fightlog.cli.seed_file.os, "unlink", refuse)
    out = play("end", str(fight))
    assert out.splitlines()[-1] == f"{fight}.seed: could not be removed (Permission denied); the seed in it is public now"
    assert lines(fight)[-1]["seed"] == SEED and Path(f"{fight}.seed").exists()


def test_an_open_scene_has_no_seed_file_to_remove(log: Path) -> None:
    play("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--open")
    out = play("end", str(log))
    # public from the start, not "revealed" (a tester)
    assert out.splitlines()[-1] == (f"dice seed (public from the start): {SEED}; check every roll with `fightlog verify "
                                    f"--dice {log}`")
    assert "Scene ends: dice seed public from the start" in out


def test_rolls_without_the_seed_are_refused(fight: Path) -> None:
    os.unlink(f"{fight}.seed")
    before = fight.read_bytes()
    result = run("play", "post", str(fight), "alice", "--do", RIFLE)
    assert_one_line_error(result, f"{fight}.seed", "no such file: the scene's secret dice seed is kept here, beside "
                          "the log, until `play end` reveals it (a log moved or renamed takes its LOG.seed with it)")
    assert fight.read_bytes() == before


# --------------------------------------------------------------------------- usage and input errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["post", "LOG", "alice", "--do", "attack bob"], "'attack bob': expected key=value, got 'bob'"),
        (["post", "LOG", "alice", "--do", "attack target=bob target=kestrel"], "'target' given twice"),
        (["post", "LOG", "alice", "--responds-to", "0"], "--responds-to"),
        (["post", "LOG", "alice", "--responds-to", "1"],  # a tester: a post answering the scene's start was written
         "Invalid value for '--responds-to': 1: seq 1 is a scene_started, not a post; give the seq of the post "
         "answered"),
        (["post", "LOG", "alice"],  # a new user: an empty post was written, "Alice Vance posts"
         "a post says or does something: give its TEXT, or an action with --do (to pass the turn: fightlog play "
         "end-turn LOG)"),
        (["post", "LOG", "alice", "  "], "a post says or does something"),
        (["join", "LOG", "--roster", ROSTER, "--at", "alice=0"], "expected ID=X,Y in whole metres"),
        (["join", "LOG", "--roster", ROSTER, "--at", "alice=1,2", "--at", "alice=3,4"], "'alice' placed twice"),
        (["join", "LOG", "--roster", ROSTER, "mira", "--at", "mira=-9223372036854775807,0"],
         "'mira=-9223372036854775807,0': a coordinate is at most 1,000,000,000 metres either way"),
        (["post", "LOG", "alice", "--do", "attack target=bob gm=-99999999999"], "'gm': -99999999999 is too large"),
        (["join", "LOG", "--roster", ROSTER, "mira", "--after", "bob"], "--after goes with --arrival"),
        (["join", "LOG", "--roster", ROSTER, "mira", "--arrival", "--reserve"], "exclude each other"),
        (["join", "LOG", "--roster", ROSTER, "mira", "kestrel", "--salt", "ab"], "--salt is one player's"),
        (["join", "LOG", "--roster", ROSTER, "mira", "--at", "kestrel=1,1"], "--at kestrel: kestrel is not joining here"),
        (["join", "LOG", "--roster", ROSTER, "mira", "--salt", "xyz"], "Invalid value for '--salt'"),
        (["join", "LOG", "mira"], "Missing option '--roster'"),
        (["start", "LOG"], "Missing option '--ruleset'"),
        (["start", "LOG", "--ruleset", "roe7", "--scene", ""], "a scene id has 1 to 200 characters"),
    ],
)
def test_usage_errors_write_nothing(fight: Path, args: list[str], message: str) -> None:
    before = fight.read_bytes()
    result = run("play", *[str(fight) if a == "LOG" else a for a in args])
    assert_usage_error(result, message)
    assert fight.read_bytes() == before


def test_responds_to_past_the_log_names_it(fight: Path) -> None:
    """A tester: "--responds-to 999: no such event (the log ends at seq 6)" named no log."""
    result = run("play", "post", str(fight), "alice", "x", "--responds-to", "999")
    assert_usage_error(result, f"999: no such event in {fight} (it ends at seq ")


def test_an_unknown_roster_id(fight: Path) -> None:
    result = run("play", "join", str(fight), "--roster", ROSTER, "zed")
    assert_one_line_error(result, ROSTER, "'zed' is not in the roster (alice, bob, mira, kestrel)")


def test_a_bad_roster(fight: Path) -> None:
    bad = str(FIXTURES / "roe7" / "rosters" / "negative-hp.toml")
    result = run("play", "join", str(fight), "--roster", bad)
    assert_one_line_error(result, f"{bad}:24", "bob: sheet.hp: must be at least 1, got -5")


@pytest.mark.parametrize("command", [["begin"], ["end-turn"], ["end"], ["post", "alice"], ["join", "--roster", ROSTER]])
def test_a_missing_log(tmp_path: Path, command: list[str]) -> None:
    path = str(tmp_path / "none.jsonl")
    name, *rest = command
    assert_one_line_error(run("play", name, path, *rest), path, "no such file")
    assert not os.path.exists(path)


def test_help_lists_the_subcommands() -> None:
    result = run("play", "--help")
    assert result.exit_code == 0
    for name in ("start", "join", "begin", "post", "end-turn", "end"):
        assert f"  {name} " in result.stdout
    top = run("--help").stdout
    assert "  play " in top and "  run " in top


# --------------------------------------------------------------------------- any table


def test_play_drives_any_table(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands know nothing of RoE: the fake table plays the same way."""
    install_fake(monkeypatch)
    play("start", str(log), "--ruleset", "fake", "--seed", SEED)
    play("join", str(log), "--roster", ROSTER, "alice", "bob")
    play("begin", str(log))
    out = play("post", str(log), "alice", "--do", "shoot target=bob")
    assert "Alice Vance rolls attack [engine #0]" in out
    out = play("end", str(log))
    assert "winner Alice Vance" in out


# --------------------------------------------------------------------------- --format json


def play_json(*args: str) -> dict[str, Any]:
    out = play(*args, "--format", "json")
    assert out.endswith("\n") and out.count("\n") == 1
    doc: dict[str, Any] = json.loads(out)
    assert out == json_text(doc) + "\n"  # the one style: compact, keys sorted
    return doc


def test_a_fight_for_a_bot(log: Path) -> None:
    """Each move's document: the events appended exactly as the log has them, their narration,
    who posts next and the round, and what the move says besides (the dice seed)."""
    doc = play_json("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--scene", "gate", "--gm", "Gemma")
    assert doc["appended"] == lines(log) and doc["log"] == str(log)
    assert doc["commitment"] == commitment(SEED) and doc["seed_file"] == f"{log}.seed" and "seed" not in doc
    assert (doc["next"], doc["round"]) == (None, 0)

    before = len(lines(log))
    doc = play_json("join", str(log), "--roster", ROSTER, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0")
    assert doc["appended"] == lines(log)[before:]
    assert [e["kind"] for e in doc["appended"]] == ["combatant_joined", "moved", "combatant_joined", "moved"]
    assert len(doc["narration"]) == 4 and doc["narration"][0].startswith("2  Alice Vance joins")

    doc = play_json("begin", str(log))
    assert (doc["next"], doc["round"]) == ("alice", 1)

    before = len(lines(log))
    doc = play_json("post", str(log), "alice", "Alice fires a burst.", "--do", RIFLE)
    assert doc["appended"] == lines(log)[before:] and doc["appended"][0]["kind"] == "declaration_posted"
    assert any(e["kind"] == "attack_resolved" for e in doc["appended"]) and doc["next"] == "alice"

    doc = play_json("end-turn", str(log))
    assert doc["next"] == "bob"

    doc = play_json("end", str(log), "--reason", "time")
    assert doc["appended"][-1]["kind"] == "scene_ended" and doc["seed"] == SEED and doc["next"] is None
    assert doc["seed_file_note"] == f"removed {log}.seed: the seed is public in scene_ended"


def test_an_open_scene_says_its_seed(log: Path) -> None:
    doc = play_json("start", str(log), "--ruleset", "roe7", "--seed", SEED, "--open")
    assert doc["seed"] == SEED and "commitment" not in doc


def test_a_refusal_for_a_bot_writes_nothing(fight: Path) -> None:
    before = fight.read_bytes()
    result = run("play", "post", str(fight), "bob", "Bob fires.", "--do", "attack target=alice weapon=Rifle",
                 "--format", "json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "refused" and error["path"] == str(fight) and "refused" in error["message"]
    assert len(result.stderr.strip().splitlines()) == 1
    assert fight.read_bytes() == before


def test_a_scene_whose_revealed_seed_end_was_voided_cannot_play_on(tmp_path: Path) -> None:
    """``rule`` refuses such a void now; a log ruled before (or by hand) holds one: every roll
    from there would be known to anyone holding the log, so ``play`` refuses at the end's line.
    A void of any other event leaves the scene playable."""
    from fightlog.events.model import RulingMade

    path = tmp_path / "alley.jsonl"
    path.write_bytes((FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl").read_bytes())
    ended = len(lines(path))
    FileStore(str(path)).append([RulingMade(by="gm", action="void", target=ended, reason="by hand")], expect=ended)
    before = path.read_bytes()
    result = run("play", "post", str(path), "vex", "Vex waits.")
    assert_one_line_error(result, f"{path}:{ended}", f"the scene's end at seq {ended} revealed the dice seed and "
                          f"was voided by the ruling at seq {ended + 1}: every roll from here would be known")
    assert f"withdraw that ruling: fightlog rule LOG withdraw {ended + 1} --reason" in result.stderr
    assert path.read_bytes() == before
    refused = run("rule", str(path), "void", str(ended), "--by", "gm", "--reason", "again")
    assert refused.exit_code == 2 and "it revealed the dice seed" in refused.stderr


def test_a_void_of_another_event_leaves_the_scene_playable(tmp_path: Path) -> None:
    path = tmp_path / "gate.jsonl"
    play("start", str(path), "--ruleset", "roe7", "--title", "Gate", "--gm", "G", "--open")
    play("join", str(path), "--roster", ROSTER)
    play("begin", str(path))
    done = run("rule", str(path), "void", "2", "--by", "G", "--reason", "joined twice")
    # alice has the open turn and is in the order: voided, her join would leave play unable to pass it
    assert done.exit_code == 2 and "alice would be in the posting order but not in the fight" in done.stderr
    done = run("rule", str(path), "amend", "6", "--by", "G", "--reason", "not first", "--set",
               'order=["bob", "alice", "mira", "kestrel"]')
    assert done.exit_code == 0, done.output
    assert run("play", "end", str(path)).exit_code == 0


def test_a_scene_end_written_with_escapes_is_read_as_the_end(tmp_path: Path) -> None:
    """The kind decoded, not the bytes: ``"scene\\u005fended"`` is a scene_ended too (a review)."""
    from fightlog.events.model import RulingMade

    *head, last = (FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl").read_bytes().splitlines(keepends=True)
    assert b'"kind":"scene_ended"' in last
    path = tmp_path / "escaped.jsonl"
    path.write_bytes(b"".join(head) + last.replace(b'"kind":"scene_ended"', b'"kind":"scene\\u005fended"'))
    ended = len(head) + 1
    FileStore(str(path)).append([RulingMade(by="gm", action="void", target=ended, reason="by hand")], expect=ended)
    assert run("verify", str(path)).exit_code == 0
    result = run("play", "post", str(path), "vex", "Vex waits.")
    assert result.exit_code == 2 and "revealed the dice seed" in result.stderr, result.output


def test_an_open_scene_s_end_may_be_voided_and_played_on(tmp_path: Path) -> None:
    """Its seed was public from ``scene_started``: voiding its end reveals nothing new."""
    path = tmp_path / "gate.jsonl"
    play("start", str(path), "--ruleset", "roe7", "--title", "Gate", "--gm", "G", "--open")
    play("join", str(path), "--roster", ROSTER)
    play("begin", str(path))
    play("end", str(path))
    ended = len(lines(path))
    done = run("rule", str(path), "void", str(ended), "--by", "G", "--reason", "not over yet")
    assert done.exit_code == 0, done.output
    assert run("play", "end", str(path)).exit_code == 0


@pytest.mark.parametrize("ruleset, roster", [
    ("roe7", ROSTER), ("traveller", str(FIXTURES / "traveller" / "rosters" / "crew.toml")),
    ("en51", str(FIXTURES / "en51" / "rosters" / "tavern.toml")),
    ("bleeding-sun", str(FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml")),
])
def test_nothing_is_played_after_the_end(tmp_path: Path, ruleset: str, roster: str) -> None:
    """``end-turn`` wrote turns and rounds after ``scene_ended`` (exit 0), and ``begin``
    rolled initiative from the seed the end had just made public; both are refused, as a
    post is, and what a log holds after its end is an audit finding (``scene.after-end``)."""
    log = tmp_path / "ended.jsonl"
    play("start", str(log), "--ruleset", ruleset, "--seed", SEED)
    play("join", str(log), "--roster", roster)
    play("end", str(log))
    before = log.read_bytes()
    for command in (["begin"], ["end-turn"], ["join", "--roster", roster]):  # join said "everyone has joined already"
        assert_one_line_error(run("play", command[0], str(log), *command[1:]), str(log),
                              "has ended: nothing more can be written to it")
    assert log.read_bytes() == before
    store = FileStore(str(log))
    store.append([DeclarationPosted(actor=lines(log)[1]["actor"], text="one more"),
                  DeclarationPosted(actor=lines(log)[1]["actor"], text="and another")])
    result = run("audit", str(log), "--format", "json")
    assert result.exit_code == 1
    late = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "scene.after-end"]
    end = len(before.splitlines())
    assert [(f["seq"], f["severity"], f["message"]) for f in late] == [
        (end + 1, "error", f"this declaration_posted was written after the scene ended at seq {end} (and 1 more event "
                           "after it): the fight was over, and only a GM's ruling may follow its end")]


def test_the_live_play_example_prints_what_docs_play_md_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/play.md's published seed makes its example play the same every time: the first
    post prints the lines the page shows (they had drifted from what it printed)."""
    text = (FIXTURES.parent / "docs" / "play.md").read_text()
    commands = text.split("## Live play\n\n```sh\n", 1)[1].split("\n```", 1)[0].splitlines()
    shown = text.split("who posts next and the round; docs/cli.md:\n\n```\n", 1)[1].split("\n```", 1)[0]
    monkeypatch.chdir(FIXTURES.parent)
    log = str(tmp_path / "gate.jsonl")
    out = ""
    for command in commands[:5]:
        words = shlex.split(command, comments=True)
        out = play(*[log if word == "gate.jsonl" else word for word in words[2:]])
    printed = out.splitlines()
    parts = [part.strip("\n").splitlines() for part in shown.split("...")]
    assert printed[: len(parts[0])] == parts[0]
    at = printed.index(parts[1][0])  # a later run of lines, as shown (HP and reloading under their events)
    assert printed[at: at + len(parts[1])] == parts[1]


def test_an_attack_waiting_for_its_defender_is_said(tmp_path: Path) -> None:
    """A GM in a d20-evasion duel saw only the declaration; `play end-turn` then resolved the
    attack with no defence, with no word that the defender could answer (a tester)."""
    log = tmp_path / "duel.jsonl"
    house = tmp_path / "duel.toml"
    house.write_text('mode = "duel"\n')
    roster = FIXTURES / "d20-evasion" / "rosters" / "scenarios" / "ashfall-duel.toml"
    assert run("play", "start", str(log), "--ruleset", "d20-evasion", "--options", str(house), "--seed", "5").exit_code == 0
    assert run("play", "join", str(log), "--roster", str(roster)).exit_code == 0
    assert run("play", "begin", str(log)).exit_code == 0
    posted = run("play", "post", str(log), "vera", "Vera lunges.", "--do", "attack target=kade weapon=Rapier range=close")
    assert posted.exit_code == 0, posted.output
    seq = next(e.seq for _, e in FileStore(str(log)).read() if isinstance(e, DeclarationPosted) and e.actor == "vera")
    assert posted.stdout.splitlines()[-1] == (
        f"waiting: kade may answer seq {seq} (counter, dodge, parry, take): fightlog play post {log} kade TEXT --do ... "
        f"--responds-to {seq}; play end-turn resolves it unanswered")
    answered = run("play", "post", str(log), "kade", "Kade ducks.", "--do", "dodge", "--responds-to", str(seq))
    assert answered.exit_code == 0 and "waiting:" not in answered.stdout, answered.output


def test_an_en51_attack_waiting_for_its_defender_is_said(tmp_path: Path) -> None:
    """en5.1 attacks wait for an answer (counter, take, ignore), alone or with a move: play
    post said nothing (a tester)."""
    log = tmp_path / "tavern.jsonl"
    roster = FIXTURES / "en51" / "rosters" / "tavern.toml"
    assert run("play", "start", str(log), "--ruleset", "en51", "--seed", "5").exit_code == 0
    assert run("play", "join", str(log), "--roster", str(roster), "mira", "tobin", "rask").exit_code == 0
    assert run("play", "begin", str(log)).exit_code == 0
    posted = run("play", "post", str(log), "mira", "Mira lunges.", "--do", "attack target=rask weapon=Sabre")
    assert posted.exit_code == 0, posted.output
    seq = next(e.seq for _, e in FileStore(str(log)).read() if isinstance(e, DeclarationPosted) and e.actor == "mira")
    assert posted.stdout.splitlines()[-1].startswith(f"waiting: rask may answer seq {seq} (")
    answered = run("play", "post", str(log), "rask", "Rask takes it.", "--do", "take", "--responds-to", str(seq))
    assert answered.exit_code == 0 and "waiting:" not in answered.stdout, answered.output
    assert run("play", "end-turn", str(log)).exit_code == 0
    charged = run("play", "post", str(log), "tobin", "Tobin charges.", "--do", "move distance=3", "--do",
                  "attack target=mira weapon=Cudgel")
    assert charged.exit_code == 0, charged.output
    assert charged.stdout.splitlines()[-1].startswith("waiting: mira may answer seq "), charged.output


def test_the_waiting_line_offers_only_the_answers_the_rules_allow_now(tmp_path: Path) -> None:
    """The waiting: line listed every answer the ruleset has: Mira, who had acted this turn,
    was offered a counterattack and refused it when she posted it (a tester)."""
    log = tmp_path / "e.jsonl"
    roster = FIXTURES / "en51" / "rosters" / "tavern.toml"
    assert run("play", "start", str(log), "--ruleset", "en51", "--seed", "21").exit_code == 0
    assert run("play", "join", str(log), "--roster", str(roster), "mira", "rask").exit_code == 0
    assert run("play", "begin", str(log)).exit_code == 0
    assert run("play", "post", str(log), "mira", "Mira hides", "--do", "hide").exit_code == 0
    assert run("play", "end-turn", str(log)).exit_code == 0
    posted = run("play", "post", str(log), "rask", "Rask swings.", "--do", "attack target=mira weapon=Cutlass")
    assert posted.exit_code == 0, posted.output
    assert " may answer seq " in posted.stdout and "(ignore, take):" in posted.stdout.splitlines()[-1], posted.output


def test_a_traveller_attack_waiting_for_a_reaction_is_said(tmp_path: Path) -> None:
    """docs/play.md: an attack left waiting for its defender's answer is said on a waiting:
    line. A Traveller attack waits for the target's reaction: play post said nothing, and the
    table learnt of it from a refusal (a tester)."""
    log = tmp_path / "t.jsonl"
    crew = FIXTURES / "traveller" / "rosters" / "crew.toml"
    assert run("play", "start", str(log), "--ruleset", "traveller", "--seed", "33").exit_code == 0
    assert run("play", "join", str(log), "--roster", str(crew), "--at", "vance=0,0", "--at", "ilsa=2,0", "--at",
               "dorn=6,2", "--at", "kesh=20,0").exit_code == 0
    assert run("play", "begin", str(log)).exit_code == 0
    posted = run("play", "post", str(log), "kesh", "Kesh fires at Ilsa.", "--do", "attack target=ilsa weapon=Shotgun")
    assert posted.exit_code == 0, posted.output
    seq = next(e.seq for _, e in FileStore(str(log)).read() if isinstance(e, DeclarationPosted) and e.actor == "kesh")
    # (a parry answers a melee attack only: not offered against a shotgun)
    assert posted.stdout.splitlines()[-1].startswith(f"waiting: ilsa may answer seq {seq} (dive, dodge, take):"), \
        posted.output
    answered = run("play", "post", str(log), "ilsa", "Ilsa dives.", "--do", "dodge", "--responds-to", str(seq))
    assert answered.exit_code == 0 and "waiting:" not in answered.stdout, answered.output


@pytest.mark.parametrize("do", ["skill target=nobody", "attack target=nobody weapon=Rifle"])
def test_a_target_nobody_joined_as_is_refused_in_every_ruleset(tmp_path: Path, do: str) -> None:
    """d20-evasion's `skill target=nobody` was posted, and audited clean (a fuzzer)."""
    path = tmp_path / "quest.jsonl"
    play("start", str(path), "--ruleset", "d20-evasion", "--open")
    play("join", str(path), "--roster", str(FIXTURES / "d20-evasion" / "rosters" / "john.toml"))
    play("begin", str(path))
    before = path.read_bytes()
    from fightlog.reducers.fold import fold
    from fightlog.events.codec import decode_line

    actor = fold([decode_line(x) for x in before.splitlines()]).turn.current
    result = run("play", "post", str(path), str(actor), "--do", do)
    assert result.exit_code == 2 and "'nobody' is not in the fight (combatants: " in result.stderr, result.output
    assert path.read_bytes() == before
