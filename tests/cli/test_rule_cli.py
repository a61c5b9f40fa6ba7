"""``fightlog rule``: a ruling is checked as hard as the event it changes.

A refused ruling is one line, exit 2, naming the field and what is allowed, with the message
``fightlog dispute --set`` gives for the same change, and the log's bytes unchanged. A ruling
written leaves a log that ``state``, ``replay`` and ``audit`` take without a traceback (a
property over random amendments and voids of the bundled logs), and a roll forged through a
ruling is an audit finding.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fightlog.audit.amendment import RULING_FIXED, ruling_reach
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, CombatantJoined, DiceRolled, SceneStarted
from tests.cli import DISPUTED, SAMPLE, SCENARIO_LOGS, assert_one_line_error, run
from tests.conftest import FIXTURES

ALLEY = SCENARIO_LOGS / "alley-duel.jsonl"
ASHFALL = FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.jsonl"
BUNDLED = (DISPUTED, SAMPLE, ALLEY, ASHFALL)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def events_of(path: Path) -> list[AnyEvent]:
    return [DECODER.decode(line) for line in path.read_bytes().splitlines()]


def rule(log: Path, *args: str) -> Result:
    return run("rule", str(log), *args, "--by", "Gemma", "--reason", "the table agreed")


# --------------------------------------------------------------------------- refusals


REFUSED: list[tuple[Path, tuple[str, ...], int, str]] = [
    # scene_started: another ruleset or format, options the ruleset refuses
    (DISPUTED, ("amend", "1", "--set", 'ruleset="d20-evasion"'), 1,
     "--set ruleset: bad PATH: a ruling cannot change a scene_started's ruleset: the fight was played under it"),
    (DISPUTED, ("amend", "1", "--set", "format=2"), 1, "--set format: bad PATH: a ruling cannot change a "
     "scene_started's format"),
    (ALLEY, ("amend", "1", "--set", 'dice.commitment="00"'), 1, "--set dice.commitment: bad PATH: a ruling "
     "cannot change a scene_started's dice: it is the commitment every engine roll is checked against"),
    (ALLEY, ("amend", "1", "--set", 'options.modifier_cap="x"'), 1,
     "--set options.modifier_cap: bad VALUE: roe7 option 'modifier_cap': expected an integer >= 0, got 'x'"),
    (ALLEY, ("amend", "1", "--set", 'options.modifer_cap=5'), 1,
     "--set options.modifer_cap: bad VALUE: unknown roe7 option 'modifer_cap' (did you mean 'modifier_cap'?)"),
    (ASHFALL, ("amend", "1", "--set", "options.touch_max_m=100"), 1,
     "--set options.touch_max_m: bad VALUE: d20-evasion options: 'touch_max_m' (100) must be less than 'close_max_m'"),
    (DISPUTED, ("amend", "1", "--set", "options=5"), 1, "--set: bad VALUE for options: Expected `object`, got `int`"),
    (DISPUTED, ("void", "1"), 1, "the scene_started event cannot be voided"),
    (ALLEY, ("void", "88"), 88, "the scene_ended event cannot be voided: it revealed the dice seed, so every roll "
     "after it would be known in advance"),
    (ALLEY, ("amend", "88", "--set", 'seed="ab"'), 88, "--set seed: bad PATH: a ruling cannot change a "
     "scene_ended's seed: it reveals the seed every engine roll is checked against"),
    # combatant_joined: a sheet the rules can no longer read
    (ALLEY, ("amend", "2", "--set", 'sheet.race="Nope"'), 2,
     "--set sheet.race: bad VALUE: the roe7 rules cannot read this sheet: sheet.race: unknown race 'Nope'"),
    (DISPUTED, ("amend", "2", "--set", 'sheet.size="huge"'), 2,  # a hand-kept sheet
     "--set sheet.size: bad VALUE: the roe7 rules cannot read this sheet: sheet.size_class: expected 'small', "
     "'medium' or 'large', got 'huge'"),
    (ALLEY, ("amend", "2", "--set", "sheet.hp=0"), 2,
     "--set sheet.hp: bad VALUE: the roe7 rules cannot read this sheet: sheet.hp: must be at least 1, got 0"),
    (ALLEY, ("amend", "2", "--set", "sheet.hp=1000000000000"), 2, "--set sheet.hp: bad VALUE: the roe7 "
     "rules cannot read this sheet: sheet.hp: must be at most 1000000000, got 1000000000000"),
    (ASHFALL, ("amend", "2", "--set", 'sheet.weapons=["knife"]'), 2,
     "--set sheet.weapons: bad VALUE: the d20-evasion rules cannot read this sheet: sheet.weapons[0]: Expected `object`"),
    (ALLEY, ("amend", "2", "--set", "pools.hp=x"), 2, "--set: bad VALUE for pools.hp: Expected `int`, got `str`"),
    # dice_rolled: faces off the die, dice that do not add up, wrong types, provenance
    (DISPUTED, ("amend", "4", "--set", "dice[0].face=101"), 4,
     "--set: bad VALUE: dice[0] shows 101 on a d100, which has faces 1 to 100"),
    (DISPUTED, ("amend", "4", "--set", "dice[0].face=0"), 4,
     "--set: bad VALUE: dice[0] shows 0 on a d100, which has faces 1 to 100"),
    (DISPUTED, ("amend", "4", "--set", "total=999"), 4,
     "--set total: bad VALUE: a total of 999 is not what the dice and modifiers add up to (58)"),
    (DISPUTED, ("amend", "4", "--set", "dice[0].face=60", "--set", "total=58"), 4,
     "--set total: bad VALUE: a total of 58 is not what the dice and modifiers add up to (60)"),
    (DISPUTED, ("amend", "4", "--set", 'total="abc"'), 4, "--set: bad VALUE for total: Expected `int`, got `str`"),
    (DISPUTED, ("amend", "4", "--set", "dice=[]"), 4, "--set: bad VALUE: 1d100 : 1d100 needs 1 die, 0 recorded"),
    (DISPUTED, ("amend", "4", "--set", 'notation="2d6"'), 4, "--set: bad VALUE: 2d6 : 2d6 needs 2 dice, 1 recorded"),
    (DISPUTED, ("amend", "4", "--set", "dice[1].face=3"), 4, "--set dice[1].face: bad PATH: dice has 1 item"),
    (DISPUTED, ("amend", "4", "--set", "dice[0].facee=3"), 4, "--set dice[0].facee: bad PATH: dice[0] has no facee"),
    (DISPUTED, ("amend", "4", "--set", 'generator="engine"'), 4,
     "--set generator: bad PATH: a ruling cannot change a dice_rolled's generator: it says where the roll came from"),
    (ALLEY, ("amend", "6", "--set", "index=5"), 6,
     "--set index: bad PATH: a ruling cannot change a dice_rolled's index"),
    (DISPUTED, ("amend", "4", "--set", "seq=9"), 4, "--set seq: bad PATH: the seq of an event cannot be changed"),
    (DISPUTED, ("amend", "4", "--set", "foo=1"), 4, "--set foo: bad PATH: a dice_rolled event has no field 'foo' "
     "(fields: at, dialect, dice, for_seq, label, modifiers, notation, origin, purpose, roller, tool, total, unread; "),
    (DISPUTED, ("amend", "4", "--set", "total=58"), 4, "--set total: seq 4 records that already: nothing to amend"),
    # declarations and rulings
    (DISPUTED, ("amend", "11", "--set", "actor=5"), 11, "--set: bad VALUE for actor: Expected `str`, got `int`"),
    (DISPUTED, ("amend", "11", "--set", "actions=5"), 11, "--set: bad VALUE for actions: Expected `array`, got `int`"),
    # a damage's pool: one its target has
    (DISPUTED, ("amend", "17", "--set", "pool=HP"), 17,
     "--set pool: damage to alice's pool 'HP', which they do not have (pools: hp)"),
    (DISPUTED, ("amend", "37", "--set", 'reason="no"'), 37,
     "seq 37 is a ruling: a ruling is withdrawn, not amended (fightlog rule LOG withdraw 37 --reason ...; then rule "
     "again)"),
]


@pytest.mark.parametrize(("log", "args", "line", "message"), REFUSED,
                         ids=[f"{log.stem}-{' '.join(args)}" for log, args, _, _ in REFUSED])
def test_a_refused_ruling_is_one_line_and_writes_nothing(
    tmp_path: Path, log: Path, args: tuple[str, ...], line: int, message: str
) -> None:
    copy = Path(shutil.copy(log, tmp_path / log.name))
    before = digest(copy)
    result = rule(copy, *args)
    assert_one_line_error(result, f"{copy}:{line}", message)
    assert digest(copy) == before


DISPUTABLE: list[tuple[int, str]] = [
    (41, "dice[0].face=101"),
    (41, "dice[0].face=0"),
    (41, "dice[0].face=high"),
    (41, "dice[0].facee=3"),
    (41, "dice[2].face=3"),
    (41, "dice=[]"),
    (41, "modifiers[0].value=x"),
    (39, "actions[0].tagret=rook"),
    (39, "actions=5"),
    (39, "actor=5"),
]


@pytest.mark.parametrize(("seq", "change"), DISPUTABLE)
def test_the_same_message_as_dispute(tmp_path: Path, seq: int, change: str) -> None:
    """One set of checks: ``rule ... amend`` refuses what ``dispute --set`` refuses, in the
    same words (after ``fightlog: LOG:SEQ:``)."""
    copy = Path(shutil.copy(ALLEY, tmp_path / ALLEY.name))
    ruled = rule(copy, "amend", str(seq), "--set", change)
    disputed = run("dispute", str(ALLEY), "--at", str(seq), "--set", change)
    assert_one_line_error(ruled, f"{copy}:{seq}", "--set")
    assert_one_line_error(disputed, f"{ALLEY}:{seq}", "--set")
    assert ruled.stderr.removeprefix(f"fightlog: {copy}:{seq}: ") == disputed.stderr.removeprefix(
        f"fightlog: {ALLEY}:{seq}: "
    )


def test_what_a_ruling_may_not_change() -> None:
    assert ruling_reach(SceneStarted).fields == {"at", "origin", "options", "title", "gm"}
    assert "salt" not in ruling_reach(CombatantJoined).fields and "sheet" in ruling_reach(CombatantJoined).fields
    assert ruling_reach(DiceRolled).fields.isdisjoint({"generator", "index", "kind", "seq", "prev"})
    assert all(set(fixed) <= set(kind.__struct_fields__) for kind, fixed in RULING_FIXED.items())


# --------------------------------------------------------------------------- what is written


def test_a_corrected_roll_records_its_total(tmp_path: Path) -> None:
    copy = Path(shutil.copy(DISPUTED, tmp_path / DISPUTED.name))
    result = rule(copy, "amend", "4", "--set", "dice[0].face=60")
    assert result.exit_code == 0, result.output
    assert "amend seq 4 (dice_rolled): dice = [{\"sides\":100,\"face\":60}], total = 60;" in result.stdout
    ruling = events_of(copy)[-1]
    assert msgspec.to_builtins(ruling)["changes"] == {"dice": [{"sides": 100, "face": 60}], "total": 60}
    assert run("audit", str(copy)).exit_code == 0  # an external roll, within its die and adding up


def test_a_roll_forged_through_a_ruling_is_an_audit_finding(tmp_path: Path) -> None:
    copy = Path(shutil.copy(ALLEY, tmp_path / ALLEY.name))
    assert run("audit", str(copy)).exit_code == 0
    roll = events_of(copy)[5]
    assert isinstance(roll, DiceRolled) and roll.generator == "engine" and roll.dice[0].face != 99
    result = rule(copy, "amend", "6", "--set", "dice[0].face=99")  # within its die, the total recomputed
    assert result.exit_code == 0, result.output
    audit = run("audit", str(copy))
    assert audit.exit_code == 1
    [line] = [text for text in audit.stdout.splitlines() if "dice.ruled" in text]
    assert line.startswith("seq 6 ") and "error" in line
    assert f"as amended by the ruling at seq 89: roll #0 by vex (1d100): face 99 ruled, seed gives {roll.dice[0].face}" in line
    assert run("verify", "--dice", str(copy)).exit_code == 0  # as recorded, the roll is the seed's
    # the table may let it stand
    accepted = rule(copy, "accept", "6", "--finding", "dice.ruled")
    assert accepted.exit_code == 0, accepted.output
    assert run("audit", str(copy)).exit_code == 0


# --------------------------------------------------------------------------- the property


def _paths(value: Any, prefix: str) -> list[tuple[str, Any]]:
    """Every path into ``value`` (an event as plain data) with the value there."""
    out = [(prefix, value)]
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(key, str) and key.isidentifier():
                out += _paths(inner, f"{prefix}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            out += _paths(inner, f"{prefix}[{index}]")
    return out


def _events(log: Path) -> list[AnyEvent]:
    return _CACHE.setdefault(log, events_of(log))


_CACHE: dict[Path, list[AnyEvent]] = {}

_VALUES = st.one_of(
    st.integers(-2, 120),
    st.sampled_from([0, 1, 6, 20, 100, 101, 10**12, -(10**12)]),
    st.booleans(),
    st.none(),
    st.sampled_from(["", "x", "vex", "rook", "alice", "bob", "roe7", "d20-evasion", "1d100", "engine", "external"]),
    st.just([]),
    st.just({}),
    st.just([{"sides": 100, "face": 50}]),
)


@st.composite
def rulings(draw: st.DrawFn) -> tuple[Path, list[str]]:
    log = draw(st.sampled_from(BUNDLED))
    events = _events(log)
    event = draw(st.sampled_from(events))
    if draw(st.booleans()) and event.seq > 1:
        return log, ["void", str(event.seq)]
    data = msgspec.to_builtins(event)
    paths = [p for top, v in data.items() if top not in ("kind", "seq", "prev") for p in _paths(v, top)]
    if not paths:
        return log, ["void", str(event.seq)]
    leaves = [(p, v) for p, v in paths if not isinstance(v, (dict, list))] or paths
    sets: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        path, current = draw(st.sampled_from(leaves if draw(st.booleans()) else paths))
        value: Any = draw(_VALUES)
        if draw(st.booleans()):  # a plausible value: a number nearby, a word of the same log, the other bool
            if isinstance(current, bool):
                value = not current
            elif isinstance(current, int):
                value = current + draw(st.integers(-3, 3))
            elif isinstance(current, str):
                value = draw(st.sampled_from(_words(log)))
        sets += ["--set", f"{path}={msgspec.json.encode(value).decode()}"]
    return log, ["amend", str(event.seq), *sets]


def _words(log: Path) -> list[str]:
    """The short strings the log holds (actor ids, weapons, purposes...)."""
    found = {v for e in _events(log) for _, v in _paths(msgspec.to_builtins(e), "e") if isinstance(v, str) and len(v) < 40}
    return sorted(found)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulings())
def test_a_ruling_is_refused_cleanly_or_leaves_a_log_every_command_reads(case: tuple[Path, list[str]]) -> None:
    log, args = case
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(shutil.copy(log, Path(folder) / log.name))
        before = digest(copy)
        result = rule(copy, *args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert result.exit_code in (0, 2), (args, result.output)
        event(f"{args[0]}: {'refused' if result.exit_code else 'recorded'}")
        if result.exit_code == 2:
            assert result.stderr.startswith("fightlog: ") and result.stderr.count("\n") == 1, result.stderr
            assert digest(copy) == before
            return
        for command in ("state", "replay", "audit"):
            after = run(command, str(copy))
            assert after.exception is None or isinstance(after.exception, SystemExit), (args, command, after.exception)
            assert after.exit_code in (0, 1), (args, command, after.output)


def test_a_field_set_back_to_its_default_is_recorded(tmp_path: Path) -> None:
    """The log omits default values: an amendment to one still names the field."""
    copy = Path(shutil.copy(DISPUTED, tmp_path / DISPUTED.name))
    result = rule(copy, "amend", "4", "--set", "tool=null")
    assert result.exit_code == 0, result.output
    assert msgspec.to_builtins(events_of(copy)[-1])["changes"] == {"tool": None}
    assert run("state", str(copy)).exit_code == 0


def test_a_set_without_a_value_is_a_usage_error(tmp_path: Path) -> None:
    copy = Path(shutil.copy(DISPUTED, tmp_path / DISPUTED.name))
    before = digest(copy)
    result = rule(copy, "amend", "4", "--set", "tool")
    assert result.exit_code == 2 and "Invalid value for '--set': 'tool': expected PATH=VALUE" in result.stderr
    assert "Traceback" not in result.output and digest(copy) == before


def test_a_second_amend_of_an_event_is_refused_until_the_first_is_withdrawn(tmp_path: Path) -> None:
    """The fold applies the latest amend of an event whole: a second one would silently undo
    the first's changes, so it is refused (log unchanged) until the first is withdrawn."""
    log = tmp_path / "sd.jsonl"
    log.write_bytes((FIXTURES / "roe7" / "sample-duel.jsonl").read_bytes())
    first = run("rule", str(log), "amend", "11", "--set", "text=Alice fires.", "--by", "G", "--reason", "typo")
    assert first.exit_code == 0, first.output
    ruling = int(first.stdout.split()[1].rstrip(":"))
    before = log.read_bytes()
    second = run("rule", str(log), "void", "11", "--by", "G", "--reason", "again")
    assert second.exit_code == 2 and second.stderr.count("\n") == 1, second.output
    assert f"already amended by the ruling at seq {ruling}, in force: withdraw it first" in second.stderr
    assert log.read_bytes() == before
    assert run("rule", str(log), "withdraw", str(ruling), "--by", "G", "--reason", "redo").exit_code == 0
    assert run("rule", str(log), "amend", "11", "--set", "text=Alice fires once.", "--by", "G", "--reason", "typo").exit_code == 0


def test_a_ruling_for_a_bot(tmp_path: Path) -> None:
    """``--format json``: the ruling appended, exactly as the log has it, and what it rules."""
    log = tmp_path / "alley.jsonl"
    shutil.copyfile(ALLEY, log)
    result = rule(log, "void", "39", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = msgspec.json.decode(result.stdout)
    last = msgspec.json.decode(log.read_bytes().splitlines()[-1])
    assert doc["log"] == str(log) and doc["appended"] == [last]
    assert last["kind"] == "ruling_made" and last["action"] == "void" and last["target"] == 39
    assert doc["ruling"].startswith("void seq 39")
    refused = rule(log, "void", "999", "--format", "json")
    assert refused.exit_code == 2 and msgspec.json.decode(refused.stdout)["error"]["kind"] == "input"


def test_a_scene_end_that_revealed_no_seed_can_be_voided(tmp_path: Path) -> None:
    """Only a revealed seed makes a scene's end final (a hand-run fight's end reveals none)."""
    from fightlog.events.codec import decode_line
    from fightlog.events.model import SceneEnded

    log = tmp_path / "disputed.jsonl"
    log.write_bytes(DISPUTED.read_bytes())
    last = decode_line(log.read_bytes().splitlines()[-1])
    assert isinstance(last, SceneEnded) and last.seed is None
    before = json.loads(run("audit", "--format", "json", str(log)).stdout)["summary"]["voided"]
    done = run("rule", str(log), "void", str(last.seq), "--by", "G", "--reason", "the fight went on")
    assert done.exit_code == 0, done.output
    assert json.loads(run("audit", "--format", "json", str(log)).stdout)["summary"]["voided"] == before + 1


# --------------------------------------------------------------------------- a fight in progress

GATE = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")


def _live(tmp_path: Path) -> Path:
    """A begun fight (``play``): alice and bob; seq 8 opened alice's turn, the one open."""
    log = tmp_path / "gate.jsonl"
    for args in (("start", str(log), "--ruleset", "roe7", "--seed", "5eed" * 16, "--gm", "Gemma"),
                 ("join", str(log), "--roster", GATE, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0"),
                 ("begin", str(log))):
        result = run("play", *args)
        assert result.exit_code == 0, result.output
    opened = msgspec.to_builtins(events_of(log)[7])
    assert (opened["kind"], opened["actor"]) == ("turn_started", "alice")
    return log


def test_the_open_turn_cannot_be_voided(tmp_path: Path) -> None:
    """Voided, the open turn_started left play contradicting itself ('begin the fight first'
    from end-turn, 'the fight has begun already' from begin): refused, the log unchanged, and
    ending the turn (what the refusal says to do) works."""
    log = _live(tmp_path)
    before = digest(log)
    refused = rule(log, "void", "8")
    assert_one_line_error(refused, f"{log}:8", "seq 8 opened alice's turn, open now: voided, the fight would have "
                          "no turn open and play could neither end it nor begin again (end the turn instead: "
                          f"fightlog play end-turn {log}; or amend who has it: --set actor=ID)")
    assert digest(log) == before
    assert run("play", "end-turn", str(log)).exit_code == 0
    # closed now, its turn_started may be voided: play goes on in bob's turn
    assert rule(log, "void", "8").exit_code == 0
    assert run("play", "post", str(log), "bob", "Bob waits.").exit_code == 0
    assert run("play", "end-turn", str(log)).exit_code == 0
    assert run("audit", str(log)).exit_code in (0, 1)


def test_a_join_ruled_out_from_under_the_order_is_refused(tmp_path: Path) -> None:
    """Alice's join amended to `actor=bob`: bob joined twice, alice was in the order and had
    the turn but was not in the fight, and neither her post nor an end of turn could follow."""
    log = _live(tmp_path)
    before = digest(log)
    said = ("seq 2 joined alice: amended so, alice would be in the posting order but not in the fight, and play could "
            "not pass their turn (amend the posting order first, or leave the join)")
    assert_one_line_error(rule(log, "amend", "2", "--set", "actor=bob"), f"{log}:2", said)
    assert_one_line_error(rule(log, "void", "2"), f"{log}:2", said.replace("amended so", "voided"))
    assert digest(log) == before


def test_the_round_under_way_and_the_only_order_cannot_be_voided(tmp_path: Path) -> None:
    """Voided, the open round_started left the fight in no round (its own turn then audited as
    a skip), the only initiative_set left nobody to pass the turn to: both refused, the log
    unchanged; amending the order (what the refusal says) works, and play follows it."""
    log = _live(tmp_path)
    before = digest(log)
    assert_one_line_error(rule(log, "void", "7"), f"{log}:7", "seq 7 opened round 1, under way: voided, the fight "
                          "would be in no round and play could not go on (end the scene instead: fightlog play end "
                          f"{log}; or void or amend what the round got wrong)")
    assert_one_line_error(rule(log, "void", "6"), f"{log}:6", "seq 6 set the only posting order (alice, bob): "
                          "voided, the fight would have no order and play could pass the turn to nobody (amend it "
                          "instead: --set 'order=[\"ID\", ...]')")
    assert_one_line_error(rule(log, "amend", "6", "--set", "order=[]"), f"{log}:6", "seq 6 set the only posting "
                          "order (alice, bob): amended so, the fight would have no order")
    assert digest(log) == before
    assert rule(log, "amend", "6", "--set", 'order=["bob", "alice"]').exit_code == 0
    assert run("play", "end-turn", str(log)).exit_code == 0
    assert run("play", "post", str(log), "bob", "Bob waits.").exit_code == 0


def test_an_order_another_replaced_may_be_voided(tmp_path: Path) -> None:
    from fightlog.events.model import InitiativeSet
    from fightlog.events.store import FileStore

    log = _live(tmp_path)
    FileStore(str(log)).append([InitiativeSet(seq=9, order=["bob", "alice"], reason="the GM's call")], expect=8)
    assert rule(log, "void", "6").exit_code == 0  # the order in force is seq 9's
    assert_one_line_error(rule(log, "void", "9"), f"{log}:9", "seq 9 set the only posting order (bob, alice)")


def test_the_open_turn_may_be_amended_and_play_follows(tmp_path: Path) -> None:
    log = _live(tmp_path)
    assert rule(log, "amend", "8", "--set", "actor=bob").exit_code == 0
    assert run("play", "post", str(log), "bob", "Bob swings.").exit_code == 0
    assert run("play", "end-turn", str(log)).exit_code == 0


def test_an_amendment_naming_someone_not_in_the_fight_is_refused(tmp_path: Path) -> None:
    """A tester: the open turn amended to 'zed' was written, and play then refused every post
    ('it is zed's turn') and every end of turn ('zed' is not in the fight)."""
    log = _live(tmp_path)
    before = digest(log)
    assert_one_line_error(rule(log, "amend", "8", "--set", "actor=zed"), f"{log}:8",
                          "--set actor: 'zed' is not in the fight (in it: alice, bob)")
    assert_one_line_error(rule(log, "amend", "6", "--set", 'order=["alice", "zed"]'), f"{log}:6",
                          "--set order: 'zed' is not in the fight (in it: alice, bob)")
    assert digest(log) == before


def test_a_log_whose_open_turn_was_voided_before_says_how_to_move_on(tmp_path: Path) -> None:
    """A log ruled before the refusal: play no longer says 'begin the fight first' to a fight
    begun; withdrawing the ruling gives the turn back."""
    from fightlog.events.model import RulingMade
    from fightlog.events.store import FileStore

    log = _live(tmp_path)
    FileStore(str(log)).append([RulingMade(seq=9, by="Gemma", action="void", target=8, reason="old")], expect=8)
    ended = run("play", "end-turn", str(log))
    assert_one_line_error(ended, str(log), "refused: no turn is open in round 1: nobody could take one, or a ruling "
                          "voided the open turn_started (withdraw that ruling, or end the scene)")
    assert "begin the fight first" not in ended.stderr
    assert_one_line_error(run("play", "begin", str(log)), str(log), "refused: the fight has begun already")
    assert rule(log, "withdraw", "9").exit_code == 0
    assert run("play", "end-turn", str(log)).exit_code == 0


def test_an_ended_scene_s_last_turn_may_be_voided(tmp_path: Path) -> None:
    log = _live(tmp_path)
    assert run("play", "end", str(log), "--reason", "called off").exit_code == 0
    assert rule(log, "void", "8").exit_code == 0


@pytest.mark.parametrize("change", ["round=100000000000000000000", 'round=[1, {"a": -9223372036854775809}]'])
def test_an_amended_number_stays_within_64_bits(tmp_path: Path, change: str) -> None:
    """As ``--do`` params are (kit.actions): a round of 10**20 was recorded, and play then
    wrote it into every turn after."""
    log = _live(tmp_path)
    before = digest(log)
    refused = rule(log, "amend", "8", "--set", change)
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.output
    assert "round: VALUE " in refused.stderr and "is too large for a 64-bit integer" in refused.stderr
    assert digest(log) == before
    disputed = run("dispute", str(log), "--at", "8", "--set", change)
    assert disputed.exit_code == 2 and "is too large for a 64-bit integer" in disputed.stderr
    within = rule(log, "amend", "8", "--set", f"round={2**63 - 1}")  # within 64 bits: the rules decide
    assert "64-bit" not in within.output and "Traceback" not in within.output


def test_a_log_the_system_will_not_let_be_written_is_a_system_error(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only log (as another user than root): kind "input" with no path in JSON, where
    docs/cli.md promises kind "system" and the file."""
    import errno
    import os

    copy = Path(shutil.copy(DISPUTED, tmp_path / "ro.jsonl"))
    before = digest(copy)
    real = os.open

    def refused(path: Any, flags: int, *args: Any) -> int:
        if flags & os.O_APPEND:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", refused)
    result = rule(copy, "accept", "4", "--reason", "agreed", "--format", "json")
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["path"], error["message"]) == ("system", str(copy), "cannot open for append: Permission denied")
    result = rule(copy, "accept", "4", "--reason", "agreed")
    assert result.stderr == f"fightlog: {copy}: cannot open for append: Permission denied\n"
    assert digest(copy) == before


@pytest.mark.parametrize(("args", "line", "message"), [
    (("accept", "27", "--reason", "again"), 27, "every finding at seq 27 is already accepted by the ruling at seq 138, in force"),
    (("void", "138", "--reason", "v"), 138, "seq 138 is a ruling: a ruling is withdrawn, not voided"),
    (("amend", "138", "--set", "reason=x", "--reason", "v"), 138, "seq 138 is a ruling: a ruling is withdrawn, not amended"),
    (("withdraw", "27", "--reason", "x"), 27, "seq 27 is an attack_resolved event, not a ruling: only a ruling can be withdrawn"),
    (("accept", "28", "--reason", "x"), 28, "no finding at seq 28 to accept (the audit reports there: none)"),
])
def test_a_ruling_on_a_ruling_or_a_second_accept_is_refused_at_its_line(tmp_path: Path, args: tuple[str, ...], line: int,
                                                                          message: str) -> None:
    """A void of a withdrawn ruling was written (and told as "withdraws"), an accept could be
    written twice, and these errors named no line."""
    copy = Path(shutil.copy(FIXTURES / "roe7/audit/the-tie-that-hit.jsonl", tmp_path / "tie.jsonl"))
    assert rule(copy, "accept", "27", "--reason", "agreed").exit_code == 0  # seq 138
    before = digest(copy)
    assert_one_line_error(rule(copy, *args), f"{copy}:{line}", message)
    assert digest(copy) == before


@pytest.mark.parametrize("by", ["", "   ", "\u202e", "\u200b "])
def test_a_blank_by_is_refused(tmp_path: Path, by: str) -> None:
    copy = Path(shutil.copy(DISPUTED, tmp_path / "d.jsonl"))
    result = run("rule", str(copy), "accept", "4", "--reason", "x", "--by", by)
    assert result.exit_code == 2 and "give a name (leave --by out for the scene's GM)" in result.stderr


@pytest.mark.parametrize("reason", ["", " ", "\u202e", "\u200b\u2060"])
def test_a_reason_that_shows_nothing_is_refused(tmp_path: Path, reason: str) -> None:
    """A tester's `--reason $'\\u202e'` (a bidi control alone) was recorded; a blank one is refused."""
    copy = Path(shutil.copy(DISPUTED, tmp_path / "d.jsonl"))
    before = digest(copy)
    result = run("rule", str(copy), "accept", "4", "--reason", reason)
    assert result.exit_code == 2 and "give the reason in words" in result.stderr
    assert digest(copy) == before


def test_a_void_with_its_consequences_voids_what_stands_on_it_all_at_once(tmp_path: Path) -> None:
    """A void undoes one event: the voided hit's damage roll and damage still counted (the
    audit names each, outcome.voided-cause). --with-consequences voids them too, one ruling
    each, in one append."""
    copy = Path(shutil.copy(FIXTURES / "roe7/audit/the-tie-that-hit.jsonl", tmp_path / "tie.jsonl"))
    result = run("rule", str(copy), "void", "27", "--with-consequences", "--by", "Gemma", "--reason", "no hit")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "seq 138: Gemma rules: void seq 27 (attack_resolved); no hit",
        "seq 139: Gemma rules: void seq 28 (dice_rolled); no hit (follows from seq 27)",
        "seq 140: Gemma rules: void seq 29 (damage_applied); no hit (follows from seq 27)",
    ]
    added = events_of(copy)[137:]
    assert [e.batch for e in added] == [(1, 3), (2, 3), (3, 3)]  # one append: all or none
    audit = json.loads(run("audit", str(copy), "--format", "json").stdout)
    assert not [f for f in audit["findings"] if f["code"] == "outcome.voided-cause"]
    state = json.loads(run("state", str(copy), "--format", "json").stdout)
    assert state["combatants"]["ansel"]["pools"]["hp"] == 71  # the 7 damage of the voided hit gone
    before = digest(copy)
    result = run("rule", str(copy), "amend", "30", "--set", "resource=x", "--with-consequences", "--reason", "x")
    assert result.exit_code == 2 and "--with-consequences is for void" in result.stderr and digest(copy) == before


def _play(log: Path, *moves: tuple[str, ...]) -> None:
    for move in moves:
        result = run("play", move[0], str(log), *move[1:])
        assert result.exit_code == 0, result.output


def test_voiding_a_heal_with_consequences_leaves_the_bleed_out_running(tmp_path: Path) -> None:
    """The heal's end of Zoë's bleed-out named no cause: voided "with consequences", the
    heal took the end with it no more, and she stayed mortally wounded for ever, audit clean."""
    roster = tmp_path / "zoe.toml"
    roster.write_text('ruleset = "d20-evasion"\n[[combatants]]\nid = "zoe"\nname = "Zoe"\nside = "cult"\n'
                      'controller = "GM"\n[combatants.sheet]\nrace = "human"\nlevel = 1\nhp = 40\n'
                      "stats = { strength = 20, dexterity = 20, perception = 20, willpower = 10 }\n"
                      'weapons = [{ name = "Knife", kind = "melee", damage = 5, ranges = ["touch", "close"] }]\n',
                      encoding="utf-8")
    party = str(FIXTURES / "d20-evasion" / "rosters" / "scenarios" / "sunken-archive.toml")
    log = tmp_path / "h.jsonl"
    _play(log, ("start", "--ruleset", "d20-evasion", "--seed", "2"),  # seed 2: both shots hit, Zoe goes down
          ("join", "--roster", party, "john", "tobin", "--at", "john=0,0", "--at", "tobin=1,0"),
          ("join", "--roster", str(roster), "--at", "zoe=4,0"), ("begin",),
          ("post", "john", "shoot", "--do", 'attack target=zoe weapon="9mm pistol"',
           "--do", 'attack target=zoe weapon="9mm pistol"'), ("end-turn",),
          ("post", "tobin", "patch", "--do", 'use_item item="Med kit" target=zoe'))
    events = events_of(log)
    heal = max(e.seq for e in events if type(e).__name__ == "DeclarationPosted")
    ended = [e for e in events if type(e).__name__ == "EffectExpired" and e.reason == "treated"]
    assert ended and ended[0].cause is not None and ended[0].cause > heal  # the healing names it
    assert rule(log, "void", str(heal), "--with-consequences", "--by", "GM", "--reason", "no heal").exit_code == 0
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert any(e["name"] == "bleeding_out" for e in state["effects"].values())  # it runs on: 2 rounds to bleed out


def test_voiding_a_hit_with_consequences_takes_its_bleeds_ticks_and_their_damage(tmp_path: Path) -> None:
    """A tester: the hit that left Jory bleeding out voided "with consequences" took the bleed
    with it but not its tick, the 1 HP the tick dealt nor the bleed's end: they name the
    effect, not a seq, and now count as standing on its ``effect_applied``."""
    log = tmp_path / "bo.jsonl"
    shutil.copy(FIXTURES / "bleeding-sun" / "scenarios" / "bleed-out.jsonl", log)
    events = events_of(log)
    bleed = next(e for e in events if type(e).__name__ == "EffectApplied" and e.name == "bleeding")
    on_it = [e.seq for e in events if getattr(e, "effect", None) == bleed.effect and e.seq != bleed.seq]
    tick = next(e.seq for e in events if type(e).__name__ == "EffectTicked" and e.effect == bleed.effect)
    bled = next(e.seq for e in events if type(e).__name__ == "DamageApplied" and e.cause == tick)
    assert rule(log, "void", str(bleed.cause), "--with-consequences", "--by", "GM", "--reason", "jammed").exit_code == 0
    voided = {e.target for e in events_of(log) if type(e).__name__ == "RulingMade"}
    assert {bleed.seq, *on_it, bled} <= voided
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert state["combatants"]["jory"]["pools"]["hp"] == 2  # none of the hit's harm stands


def test_voiding_a_killing_blow_with_consequences_brings_the_bleed_out_back(tmp_path: Path) -> None:
    """d20-evasion: Pell's death ended his bleed-out without naming a cause, so the killing
    blow voided "with consequences" left him mortally wounded with no countdown."""
    log = tmp_path / "fa.jsonl"
    shutil.copy(FIXTURES / "d20-evasion" / "scenarios" / "ford-ambush.jsonl", log)
    died = next(e for e in events_of(log) if type(e).__name__ == "EffectExpired" and e.reason == "died")
    assert died.cause is not None
    killing = next(e for e in events_of(log) if e.seq == died.cause)
    assert rule(log, "void", str(killing.cause), "--with-consequences", "--by", "GM", "--reason", "jammed").exit_code == 0
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert any(e["name"] == "bleeding_out" and e["target"] == died.target for e in state["effects"].values())


def test_voiding_a_move_with_consequences_puts_back_the_cover_it_left(tmp_path: Path) -> None:
    """A Traveller move out of cover ended the cover with no cause: voided "with
    consequences", the move took the fighter's cover with it for ever. Effects a post ends
    now name it (Traveller, en51, Bleeding Sun)."""
    crew = str(FIXTURES / "traveller" / "rosters" / "crew.toml")
    log = tmp_path / "t.jsonl"
    _play(log, ("start", "--ruleset", "traveller", "--seed", "3"),
          ("join", "--roster", crew, "vance", "dorn", "--at", "vance=0,0", "--at", "dorn=30,0"), ("begin",))
    first = next(e.actor for e in events_of(log) if type(e).__name__ == "TurnStarted")
    other = "dorn" if first == "vance" else "vance"
    _play(log, ("post", first, "down", "--do", "cover behind=stone_wall"), ("end-turn",),
          ("post", other, "wait", "--do", "say"), ("end-turn",),
          ("post", first, "up", "--do", "move x=0 y=3" if first == "vance" else "move x=30 y=3"))
    events = events_of(log)
    move = max(e.seq for e in events if type(e).__name__ == "DeclarationPosted")
    left = [e for e in events if type(e).__name__ == "EffectExpired" and e.reason == "moved"]
    assert left and left[0].cause == move
    assert rule(log, "void", str(move), "--with-consequences", "--by", "GM", "--reason", "stayed put").exit_code == 0
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert any(e["name"] == "cover" and e["target"] == first for e in state["effects"].values())


def _dodged(tmp_path: Path) -> Path:
    """A Bleeding Sun fight in round 2: Vex's attack on Kade, and Kade's dodge of it."""
    roster = str(FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml")
    log = tmp_path / "b.jsonl"
    _play(log, ("start", "--ruleset", "bleeding-sun", "--seed", "0000001e" * 8), ("join", "--roster", roster, "kade", "vex"),
          ("begin",), ("post", "vex", "v", "--do", "attack target=kade weapon=Rifle range=medium"), ("end-turn",),
          ("post", "kade", "k", "--do", "attack target=vex weapon=Rifle range=medium"), ("end-turn",),
          ("post", "vex", "v", "--do", "attack target=kade weapon=Rifle range=medium"), ("post", "kade", "d", "--do", "dodge"))
    return log


def test_voiding_a_dodge_with_consequences_does_not_set_the_attack_waiting_again(tmp_path: Path) -> None:
    """Bleeding Sun: the dodge's end of the attack's wait named the dodge; voided "with
    consequences", the wait came back and the attacker's end of turn resolved the attack a
    second time (the second review)."""
    log = _dodged(tmp_path)
    dodge = max(e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted")
    assert rule(log, "void", str(dodge), "--with-consequences", "--by", "GM", "--reason", "no dodge").exit_code == 0
    _play(log, ("end-turn",))
    resolved = [e.declaration for e in events_of(log) if type(e).__name__ == "AttackResolved"]
    assert len(resolved) == len(set(resolved))  # each attack resolved once


def _duel_dodged(tmp_path: Path) -> tuple[Path, int]:
    """A d20 duel: Kade's attack on Vera, and Vera's dodge of it; the log and the attack's post."""
    (tmp_path / "duel.toml").write_text('mode = "duel"\n', encoding="utf-8")
    roster = str(FIXTURES / "d20-evasion" / "rosters" / "scenarios" / "ashfall-duel.toml")
    log = tmp_path / "d.jsonl"
    _play(log, ("start", "--ruleset", "d20-evasion", "--seed", "7", "--options", str(tmp_path / "duel.toml")),
          ("join", "--roster", roster, "--at", "kade=0,0", "--at", "vera=4,0"), ("begin",),
          ("post", "kade", "cut", "--do", "attack target=vera weapon=Sabre"))
    attack = max(e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted")
    _play(log, ("post", "vera", "dodge", "--responds-to", str(attack), "--do", "dodge"))
    return log, attack


def test_voiding_an_attack_with_consequences_takes_the_defensive_turn_with_it(tmp_path: Path) -> None:
    log, attack = _duel_dodged(tmp_path)
    assert rule(log, "void", str(attack), "--with-consequences", "--by", "Orrin", "--reason", "never happened").exit_code == 0
    voided = {e.target for e in events_of(log) if type(e).__name__ == "RulingMade"}
    answer = [e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted" and e.responds_to == attack]
    assert answer and set(answer) <= voided  # the answer, and its rolls with it
    audited = run("audit", str(log))
    assert audited.exit_code == 0, audited.stdout  # was: order.out-of-turn, answering an attack on nobody


def test_voiding_a_hand_run_post_with_consequences_takes_its_hud_rolls(tmp_path: Path) -> None:
    """A HUD's rolls cite no post (the audit pairs them by turn): voiding Bob's slash of the
    disputed duel "with consequences" took its resolution and left its attack and dodge
    rolls, and an imported post left both its rolls, which the audit then called undeclared
    (a new user). They go with the post."""
    copy = Path(shutil.copy(DISPUTED, tmp_path / "d.jsonl"))
    assert rule(copy, "void", "49", "--with-consequences", "--by", "G", "--reason", "never happened").exit_code == 0
    voided = [e.target for e in events_of(copy) if type(e).__name__ == "RulingMade"][-4:]
    assert voided == [49, 50, 51, 52]
    audited = run("audit", str(copy))
    assert audited.exit_code == 0 and "import.roll-undeclared" not in audited.stdout, audited.stdout
    log = tmp_path / "brawl.jsonl"
    sl = FIXTURES / "import" / "sl"
    assert run("import", "sl", str(sl / "midnight-brawl.txt"), "-o", str(log), "--ruleset", "roe7",
               "--cast", str(sl / "midnight-brawl.cast.toml")).exit_code == 0
    before = run("audit", str(log)).stdout.count("import.roll-undeclared")
    assert rule(log, "void", "9", "--with-consequences", "--by", "G", "--reason", "never happened").exit_code == 0
    assert [e.target for e in events_of(log) if type(e).__name__ == "RulingMade"] == [9, 10, 11]
    assert run("audit", str(log)).stdout.count("import.roll-undeclared") == before


def test_voiding_an_attack_with_consequences_puts_back_the_aim_it_used(tmp_path: Path) -> None:
    """A Traveller attack used the attacker's aim with no cause: voided "with consequences",
    the attack took the aim with it for ever. The aim's end now names the attack."""
    crew = str(FIXTURES / "traveller" / "rosters" / "crew.toml")
    log = tmp_path / "t.jsonl"
    _play(log, ("start", "--ruleset", "traveller", "--seed", "3"),
          ("join", "--roster", crew, "vance", "dorn", "--at", "vance=0,0", "--at", "dorn=8,0"), ("begin",))
    first = next(e.actor for e in events_of(log) if type(e).__name__ == "TurnStarted")
    other = "dorn" if first == "vance" else "vance"
    weapon = "Gauss Rifle" if first == "vance" else "Stone"
    _play(log, ("post", first, "steady", "--do", "aim"), ("end-turn",),
          ("post", other, "wait", "--do", "say"), ("end-turn",))
    _play(log, ("post", first, "fires", "--do", f"attack target={other} weapon='{weapon}'"), ("end-turn",))
    events = events_of(log)
    attack = max(e.seq for e in events if type(e).__name__ == "DeclarationPosted")  # resolved at the turn's end
    used = [e for e in events if type(e).__name__ == "EffectExpired" and e.reason == "used"]
    assert used and used[-1].cause == attack
    assert rule(log, "void", str(attack), "--with-consequences", "--by", "GM", "--reason", "held fire").exit_code == 0
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert any(e["name"] == "aim" and e["target"] == first for e in state["effects"].values())


def test_a_voided_engine_roll_keeps_its_number_and_the_next_roll_is_drawn_after_it(tmp_path: Path) -> None:
    """A GM voided a dodge and its rolls; the target answered again and the engine drew the
    voided roll's number again: the same faces (anyone who saw them knew the "new" roll),
    and the engine's own log failed its audit (`dice.index`)."""
    log = _dodged(tmp_path)
    dodge_roll = max(e.seq for e in events_of(log) if type(e).__name__ == "DiceRolled")
    voided = next(e for e in events_of(log) if e.seq == dodge_roll)
    assert rule(log, "void", str(dodge_roll)).exit_code == 0
    _play(log, ("end-turn",), ("post", "kade", "k", "--do", "attack target=vex weapon=Rifle range=medium"),
          ("end-turn",), ("end",))
    indexes = [e.index for e in events_of(log) if type(e).__name__ == "DiceRolled" and e.generator == "engine"]
    assert indexes.count(voided.index) == 1 and indexes == sorted(indexes)
    findings = json.loads(run("audit", str(log), "--format", "json").stdout)["findings"]
    assert [f["code"] for f in findings] == ["outcome.voided-cause"]  # the GM left the roll's outcome standing


def _countered(tmp_path: Path) -> tuple[Path, int, int]:
    """An en5.1 melee: Mira's attack on Rask, and Rask's counter, resolved together; the log,
    the attack's post and the counter's."""
    roster = str(FIXTURES / "en51" / "rosters" / "tavern.toml")
    log = tmp_path / "e.jsonl"
    _play(log, ("start", "--ruleset", "en51", "--seed", "00000001" * 8), ("join", "--roster", roster, "mira", "rask"),
          ("begin",), ("post", "mira", "cut", "--do", "attack target=rask weapon=Sabre"),
          ("post", "rask", "back", "--do", "counter weapon=Cutlass"))
    posts = [e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted"]
    return log, posts[-2], posts[-1]


def test_voiding_an_answer_does_not_have_its_attack_resolved_again(tmp_path: Path) -> None:
    """en5.1: a GM voided Rask's counter; at the turn's end the engine found Mira's attack
    unanswered and resolved it a second time, with a new roll, beside the first resolution."""
    log, attack, counter = _countered(tmp_path)
    assert rule(log, "void", str(counter), "--by", "GM", "--reason", "wrong channel").exit_code == 0
    again = run("play", "post", str(log), "rask", "back", "--do", "counter weapon=Cutlass")
    assert_one_line_error(again, str(log), "refused: no attack on rask waits for an answer")
    _play(log, ("end-turn",))
    resolved = [e.declaration for e in events_of(log) if type(e).__name__ == "AttackResolved"]
    assert resolved.count(attack) == 1


def test_an_answer_voided_with_its_consequences_leaves_the_attack_to_amend(tmp_path: Path) -> None:
    """The counter's rolls and outcomes go with it; Mira's resolution, read from her own roll,
    stands, the audit says what the rules give without the counter, and the GM's amend to
    that leaves the fight clean."""
    log, attack, counter = _countered(tmp_path)
    assert rule(log, "void", str(counter), "--with-consequences", "--by", "GM", "--reason", "no counter").exit_code == 0
    _play(log, ("end-turn",))
    events = events_of(log)
    mine = [e for e in events if type(e).__name__ == "AttackResolved" and e.declaration == attack]
    assert len(mine) == 1
    findings = json.loads(run("audit", str(log), "--format", "json").stdout)["findings"]
    assert [(f["code"], f["seq"]) for f in findings] == [("rules.outcome", mine[0].seq)]
    given = int(findings[0]["message"].rsplit("the rules give ", 1)[1].split()[0])
    assert rule(log, "amend", str(mine[0].seq), "--set", f"against={given}", "--by", "GM",
                "--reason", "Unarmed Defense").exit_code == 0
    assert run("audit", str(log)).exit_code == 0


def test_a_turn_s_end_without_the_seed_file_is_refused_not_resolved_to_nothing(tmp_path: Path) -> None:
    """en5.1 resolves an unanswered attack at the turn's end; without the seed file the roll
    was refused, the refusal taken for the rules', and the turn ended with the attack
    unresolved for ever."""
    roster = str(FIXTURES / "en51" / "rosters" / "tavern.toml")
    log = tmp_path / "s.jsonl"
    _play(log, ("start", "--ruleset", "en51", "--seed", "00000001" * 8), ("join", "--roster", roster, "mira", "rask"),
          ("begin",), ("post", "mira", "cut", "--do", "attack target=rask weapon=Sabre"))
    Path(f"{log}.seed").unlink()
    before = log.read_bytes()
    ended = run("play", "end-turn", str(log))
    assert_one_line_error(ended, f"{log}.seed", "no such file: the scene's secret dice seed is kept here")
    assert log.read_bytes() == before


def test_voiding_a_defensive_turn_does_not_let_the_defender_answer_again(tmp_path: Path) -> None:
    """A d20 duel: the GM voided Vera's dodge; she dodged again and Kade's attack, resolved
    once, was rolled and resolved a second time (a re-roll by way of a void)."""
    log, attack = _duel_dodged(tmp_path)
    dodge = max(e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted")
    assert rule(log, "void", str(dodge), "--by", "GM", "--reason", "typed in the wrong scene").exit_code == 0
    again = run("play", "post", str(log), "vera", "dodge", "--responds-to", str(attack), "--do", "dodge")
    assert_one_line_error(again, str(log), f"refused: responds_to {attack}: its attacks on vera have been resolved")
    _play(log, ("end-turn",))
    resolved = [e.declaration for e in events_of(log) if type(e).__name__ == "AttackResolved"]
    assert resolved == [attack]


def test_a_dodge_voided_with_its_consequences_takes_its_drop_in_the_order_with_it(tmp_path: Path) -> None:
    """Bleeding Sun: the drop an immediate action owes named no cause, so a void of the dodge
    "with consequences" left Kade dropped for the rest of the fight, audit clean; voided
    alone, the audit credited the standing drop to Vex (the turn's latest post)."""
    log = _dodged(tmp_path)
    dodge = max(e.seq for e in events_of(log) if type(e).__name__ == "DeclarationPosted")
    drop = next(e for e in events_of(log) if type(e).__name__ == "InitiativeSet" and e.seq > dodge)
    assert drop.cause == dodge
    alone = tmp_path / "alone.jsonl"
    shutil.copy(log, alone)
    assert rule(alone, "void", str(dodge), "--by", "GM", "--reason", "no dodge").exit_code == 0
    findings = json.loads(run("audit", str(alone), "--format", "json").stdout)["findings"]
    assert ("outcome.voided-cause", drop.seq) in {(f["code"], f["seq"]) for f in findings}
    assert not any("vex's immediate action" in f["message"] for f in findings)
    assert rule(log, "void", str(dodge), "--with-consequences", "--by", "GM", "--reason", "no dodge").exit_code == 0
    voided = {e.target for e in events_of(log) if type(e).__name__ == "RulingMade"}
    assert drop.seq in voided
    state = json.loads(run("state", str(log), "--format", "json").stdout)
    assert state["turn"]["order"] == ["vex", "kade"]


def test_a_withdrawal_is_not_withdrawn_and_a_withdrawn_ruling_not_again(tmp_path: Path) -> None:
    """``state`` lists a withdrawal among the rulings in force; ``rule`` refused withdrawing
    it as "not in force": it now says what it is, and the log is left as it was."""
    log = tmp_path / "f.jsonl"
    shutil.copy(SCENARIO_LOGS / "alley-duel.jsonl", log)
    assert rule(log, "void", "44").exit_code == 0
    assert rule(log, "withdraw", "89").exit_code == 0
    before = log.read_bytes()
    result = rule(log, "withdraw", "90")
    assert (result.exit_code, result.stderr) == (2, f"fightlog: {log}:90: the ruling at seq 90 is itself a withdrawal "
                                                    "(of seq 89): a withdrawal is not withdrawn; to bring back seq 89's "
                                                    "ruling, rule it again\n")
    result = rule(log, "withdraw", "89")
    assert (result.exit_code, result.stderr) == (2, f"fightlog: {log}:89: the ruling at seq 89 is not in force "
                                                    "(withdrawn or voided already)\n")
    assert log.read_bytes() == before
