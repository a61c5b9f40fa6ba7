"""dice_rolled events and the RollVerifier: honest logs pass, every kind of tampering is named."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from fightlog.errors import DiceSeedError, DiceValueError
from fightlog.events.model import (
    FORMAT_VERSION,
    AnyEvent,
    CombatantJoined,
    DiceCommitment,
    DiceRolled,
    Die,
    Modifier,
    SceneEnded,
    SceneStarted,
)
from fightlog.events.store import MemoryStore
from fightlog.dice import (
    FairGenerator,
    RollFinding,
    RollVerifier,
    breakdown,
    compile_expression,
    dice_commitment,
    dice_rolled,
    read_roll,
    roll,
)
from tests.dice.conftest import ScriptedStream

SEED = bytes(range(32)).hex()
OTHER_SEED = bytes(range(1, 33)).hex()
SCENE = "duel-1"
replace = msgspec.structs.replace

BEFORE_JOIN = [
    ("alice", "1d100", [(10, "scope"), (5, "racial")]),
    ("bob", "3d20kh1+5", []),
]
AFTER_JOIN = [
    ("alice", "4d6ro1", []),
    ("bob", "3d6!", [(-2, "wounded")]),
    ("alice", "6d6rr<3", []),
    ("bob", "8d6>=5", []),
    ("alice", "BW", []),
    ("bob", "2D+1", []),
    ("alice", "(1d6+2)*3//2 # damage", []),
    ("bob", "10d6!>=5rr1mi2dl2", []),
]
EXTERNAL = DiceRolled(
    roller="carol",
    notation="1d20+3",
    dice=[Die(sides=20, face=14)],
    total=20,
    modifiers=[Modifier(value=3, source="gm")],
    generator="external",
    tool="avrae",
)


def scene_events(
    *, open_mode: bool = False, reveal: bool = True, commit: bool = True
) -> list[AnyEvent]:
    """A scene with salts (one joining mid-scene), engine rolls of every kind and one
    external roll, as the engine would write it."""
    events: list[AnyEvent] = [
        SceneStarted(
            scene=SCENE,
            ruleset="roe7",
            format=FORMAT_VERSION,
            dice=dice_commitment(SEED, open_mode=open_mode) if commit else None,
        ),
        CombatantJoined(actor="alice", name="Alice", salt="a1b2"),
    ]
    gen = FairGenerator(SEED, SCENE, ["a1b2"])
    index = 0
    for roller, expr, mods in BEFORE_JOIN:
        events.append(dice_rolled(roll(expr, gen, index, mods), roller=roller, purpose="attack"))
        index += 1
    events.append(CombatantJoined(actor="bob", name="Bob", salt="c3d4"))
    gen = gen.with_salt("c3d4")
    events.append(EXTERNAL)
    for roller, expr, mods in AFTER_JOIN:
        events.append(dice_rolled(roll(expr, gen, index, mods), roller=roller))
        index += 1
    events.append(SceneEnded(seed=SEED if reveal else None, winner="alice"))
    return events


def verify(
    events: Sequence[AnyEvent], seed: str | None = None
) -> tuple[list[RollFinding], RollVerifier]:
    """Seal the events into a log, read it back as the CLI would, and verify its rolls."""
    store = MemoryStore()
    store.append(list(events))
    verifier = RollVerifier(seed)
    for line, event in store.read():
        verifier.feed(line, event)
    return verifier.finish(), verifier


def roll_line(events: list[AnyEvent], index: int) -> int:
    """The position (0-based) of engine roll ``index`` in ``events``."""
    return next(
        i
        for i, e in enumerate(events)
        if isinstance(e, DiceRolled) and e.generator == "engine" and e.index == index
    )


def codes(findings: list[RollFinding]) -> list[str]:
    return [f.code for f in findings]


# --------------------------------------------------------------------------- events


def test_dice_rolled_event_carries_everything() -> None:
    gen = FairGenerator(SEED, SCENE, ["a1b2c3d4"])  # the test vector of docs/dice.md
    result = roll("1d100 # attack", gen, 0, [(10, "scope"), (5, "racial")])
    event = dice_rolled(result, roller="alice", purpose="attack", for_seq=7)
    assert event.roller == "alice" and event.purpose == "attack" and event.for_seq == 7
    assert event.notation == "1d100" and event.label == "attack"
    assert event.generator == "engine" and event.index == 0
    assert event.dice == [Die(sides=100, face=99)]
    assert event.modifiers == [
        Modifier(value=10, source="scope"),
        Modifier(value=5, source="racial"),
    ]
    assert event.total == 114
    assert dice_rolled(result, roller="a", label="other").label == "other"


def test_events_read_back_into_the_same_result() -> None:
    gen = FairGenerator(SEED, SCENE)
    for i, (_, expr, mods) in enumerate(BEFORE_JOIN + AFTER_JOIN):
        result = roll(expr, gen, i, mods)
        event = dice_rolled(result, roller="x")
        back = read_roll(msgspec.json.decode(msgspec.json.encode(event), type=DiceRolled))
        assert back.terms == result.terms, expr
        assert (back.value, back.total, back.index) == (result.value, result.total, i)
        assert breakdown(back) == breakdown(result)


def test_an_engine_roll_needs_its_index(scripted: type[ScriptedStream]) -> None:
    result = compile_expression("1d6").roll(scripted([3]))
    with pytest.raises(DiceValueError):
        dice_rolled(result, roller="x")


# --------------------------------------------------------------------------- honest logs


def test_an_honest_log_has_no_findings() -> None:
    findings, verifier = verify(scene_events())
    assert findings == []
    s = verifier.summary
    total = len(BEFORE_JOIN) + len(AFTER_JOIN)
    assert (s.engine, s.recomputed, s.external, s.seed) == (total, total, 1, "revealed")
    assert s.describe() == (
        f"dice: {total} engine rolls recomputed from the seed revealed in scene_ended; "
        "1 external roll checked for arithmetic and ranges (honesty unverifiable); no problems"
    )


def test_open_mode_and_a_given_seed() -> None:
    findings, verifier = verify(scene_events(open_mode=True, reveal=False))
    assert findings == [] and verifier.summary.seed == "open"
    findings, verifier = verify(scene_events(reveal=False), seed=SEED)
    assert findings == [] and verifier.summary.seed == "given"


def test_no_seed_yet_is_a_status_not_a_finding() -> None:
    events = [e for e in scene_events(reveal=False) if not isinstance(e, SceneEnded)]
    findings, verifier = verify(events)
    assert findings == []
    s = verifier.summary
    assert (s.seed, s.recomputed) == ("missing", 0)
    assert "checked for arithmetic, ranges and order only (seed not revealed yet)" in s.describe()


# --------------------------------------------------------------------------- tampering


def test_a_changed_face_is_named() -> None:
    events = scene_events()
    at = roll_line(events, 0)
    ev = events[at]
    assert isinstance(ev, DiceRolled)
    events[at] = replace(ev, dice=[replace(ev.dice[0], face=57)])
    findings, _ = verify(events)
    assert [(f.code, f.line, f.seq, str(f)) for f in findings] == [
        (
            "roll-dice",
            at + 1,
            at + 1,
            f"line {at + 1}: roll #0 by alice (1d100): face 57 recorded, seed gives 46",
        )
    ]


def test_a_changed_face_is_named_and_a_total_only_when_it_does_not_follow_from_the_faces() -> None:
    """A face edited with the total to match is one problem, as the audit counts it (the
    total follows from the face named); a total that fits neither the seed nor the recorded
    faces is a second one."""
    events = scene_events()
    at = roll_line(events, 1)
    ev = events[at]
    assert isinstance(ev, DiceRolled)
    kept = next(i for i, d in enumerate(ev.dice) if d.kept)
    dice = list(ev.dice)
    dice[kept] = replace(dice[kept], face=20)
    events[at] = replace(ev, dice=dice, total=25)  # 3d20kh1+5 with a 20 kept: 25, as recorded
    findings, summary = verify(events)
    assert codes(findings) == ["roll-dice"] and summary.summary.findings == 1
    assert f"die {kept + 1}: face 20 recorded, seed gives" in findings[0].message
    assert findings[0].message.startswith("roll #1 by bob (3d20kh1+5): ")
    events[at] = replace(ev, dice=dice, total=26)
    findings, _ = verify(events)
    assert codes(findings) == ["roll-dice", "roll-total"]
    assert "total 26 recorded, seed and modifiers give" in findings[1].message


def test_a_changed_total_is_named() -> None:
    events = scene_events()
    at = roll_line(events, 5)
    ev = events[at]
    assert isinstance(ev, DiceRolled)
    events[at] = replace(ev, total=ev.total + 1)
    findings, _ = verify(events)
    assert codes(findings) == ["roll-total"]
    assert findings[0].message == (
        f"roll #5 by bob (8d6>=5): total {ev.total + 1} recorded, "
        f"seed and modifiers give {ev.total}"
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"kept": False}, "dropped recorded, the notation keeps it"),
        ({"rerolled": [2]}, "rerolled from [2] recorded, seed gives no reroll"),
        ({"exploded": True}, "exploded recorded, seed gives a rolled die"),
        ({"label": "red"}, "label 'red' recorded, the notation gives None"),
    ],
)
def test_changed_die_marks_are_named(change: dict[str, object], words: str) -> None:
    events = scene_events()
    at = roll_line(events, 2)  # 4d6ro1
    ev = events[at]
    assert isinstance(ev, DiceRolled)
    target = next(i for i, d in enumerate(ev.dice) if not d.rerolled)
    dice = list(ev.dice)
    dice[target] = replace(dice[target], **change)
    events[at] = replace(ev, dice=dice)
    findings, _ = verify(events)
    assert "roll-dice" in codes(findings)
    assert f"die {target + 1}: {words}" in findings[0].message


def test_a_removed_die_is_named() -> None:
    events = scene_events()
    at = roll_line(events, 3)  # 3d6!
    ev = events[at]
    assert isinstance(ev, DiceRolled)
    events[at] = replace(ev, dice=ev.dice[:-1])
    findings, _ = verify(events)
    assert f"{len(ev.dice) - 1} dice recorded, seed gives {len(ev.dice)}" in findings[0].message


def test_a_changed_seed_is_named() -> None:
    events = scene_events()
    events[-1] = replace(events[-1], seed=OTHER_SEED)
    findings, verifier = verify(events)
    assert codes(findings) == ["dice-seed-mismatch"]
    assert findings[0].line == len(events)
    assert "the seed revealed in scene_ended does not match the commitment of line 1" in str(
        findings[0]
    )
    assert verifier.summary.seed == "rejected"
    assert verifier.summary.recomputed == 0


def test_a_wrong_given_seed_is_named_and_the_revealed_one_used() -> None:
    findings, verifier = verify(scene_events(), seed=OTHER_SEED)
    assert codes(findings) == ["dice-seed-mismatch"]
    assert findings[0].message.startswith("the seed given does not match the commitment")
    assert verifier.summary.seed == "revealed"


def test_a_seed_that_is_not_hex() -> None:
    events = scene_events()
    events[-1] = replace(events[-1], seed="not hex")
    findings, _ = verify(events)
    assert codes(findings) == ["dice-seed-invalid"]
    with pytest.raises(DiceSeedError):
        RollVerifier("xyz")


def test_a_different_seed_without_commitment_recomputes_differently() -> None:
    events = scene_events(commit=False)
    findings, _ = verify(events, seed=OTHER_SEED)
    assert codes(findings)[0] == "dice-no-commitment"
    assert codes(findings).count("roll-dice") >= 8


def test_a_changed_salt_breaks_the_rolls_after_it() -> None:
    events = scene_events()
    at = next(
        i for i, e in enumerate(events) if isinstance(e, CombatantJoined) and e.actor == "bob"
    )
    events[at] = replace(events[at], salt="ffff")
    findings, _ = verify(events)
    broken = {f.line for f in findings if f.code == "roll-dice"}
    after = {
        i + 1 for i, e in enumerate(events) if isinstance(e, DiceRolled) and e.generator == "engine"
    }
    before = {roll_line(events, 0) + 1, roll_line(events, 1) + 1}
    assert broken and broken <= after - before


def test_a_reordered_index_is_named() -> None:
    events = scene_events()
    a, b = roll_line(events, 3), roll_line(events, 4)
    ea, eb = events[a], events[b]
    assert isinstance(ea, DiceRolled) and isinstance(eb, DiceRolled)
    events[a], events[b] = replace(ea, index=4), replace(eb, index=3)
    findings, _ = verify(events)
    index_findings = [f for f in findings if f.code == "roll-index"]
    assert [f.line for f in index_findings] == [a + 1, b + 1]
    assert index_findings[0].message == (
        "roll #4 by bob (3d6!): index 4 expected #3: roll #3 is missing (re-rolled?)"
    )
    assert "index 3 comes after roll #4 (repeated or out of order)" in index_findings[1].message
    # the dice were not drawn for the index they now claim
    assert {f.line for f in findings if f.code == "roll-dice"} == {a + 1, b + 1}


def test_a_missing_roll_is_named_once() -> None:
    events = scene_events()
    del events[roll_line(events, 4)]
    findings, _ = verify(events)
    assert codes(findings) == ["roll-index"]
    assert "expected #4: roll #4 is missing (re-rolled?)" in findings[0].message


def test_scene_ended_without_seed_and_scene_without_commitment() -> None:
    findings, _ = verify(scene_events(reveal=False))
    assert codes(findings) == ["dice-seed-not-revealed"]
    findings, _ = verify(scene_events(commit=False, reveal=False))
    assert set(codes(findings)) == {"dice-no-commitment", "dice-seed-not-revealed"}


@pytest.mark.parametrize("parallel_min_bytes", [1 << 30, 1], ids=["one process", "two processes"])
def test_a_seed_revealed_without_a_commitment_is_streamed_like_a_held_one(tmp_path, parallel_min_bytes: int) -> None:  # type: ignore[no-untyped-def]
    """``verify --dice`` reads the seed the log's end reveals first (the hint) and recomputes
    each roll as it passes: with no commitment to match it against, the hint is taken as the
    held check takes the revealed seed, and the report is the held one's. (Before, the hint
    was refused for want of a commitment, every pass asked for another, and the command
    stopped with an internal error.)"""
    from fightlog.audit.dice_verify import verify_with_dice

    events = scene_events(commit=False)
    held, verifier = verify(events)
    store = MemoryStore()
    store.append(list(events))
    log = tmp_path / "no-commitment.jsonl"
    log.write_bytes(store.to_bytes())
    result, dice = verify_with_dice(str(log), seed=None, parallel_min_bytes=parallel_min_bytes)
    assert result.ok and dice is not None
    assert codes(dice.findings) == codes(held) == ["dice-no-commitment"]
    assert dice.summary == verifier.summary
    assert (dice.summary.engine, dice.summary.recomputed, dice.summary.seed) == (len(AFTER_JOIN) + 2, len(AFTER_JOIN) + 2, "revealed")


def test_an_index_past_eight_bytes_is_named_and_its_arithmetic_still_checked() -> None:
    events = scene_events()
    at = roll_line(events, 3)
    rolled = events[at]
    assert isinstance(rolled, DiceRolled)
    events[at] = replace(rolled, index=2**64, total=rolled.total + 1)
    # the reader refuses such a line (the index is at most 2**63 - 2 in a log): fed as it is
    verifier = RollVerifier(None)
    for line, event in enumerate(events, 1):
        verifier.feed(line, event)
    findings = verifier.finish()
    # its own index named, its total checked; and the roll after it finds #3 missing
    assert [(f.line, f.code) for f in findings] == [(at + 1, "roll-index"), (at + 1, "roll-total"), (at + 2, "roll-index")]
    assert "index 18446744073709551616 is no roll index (0 to 2**64 - 1)" in findings[0].message
    assert "expected #3: roll #3 is missing" in findings[2].message


def test_an_unknown_scheme() -> None:
    events = scene_events()
    started = events[0]
    assert isinstance(started, SceneStarted)
    events[0] = replace(
        started, dice=DiceCommitment(scheme="sha3-v9", commitment="0" * 64)
    )
    findings, verifier = verify(events)
    assert codes(findings) == ["dice-scheme-unknown"]
    assert verifier.summary.seed == "unsupported"


# --------------------------------------------------------------------------- external rolls


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        ({"total": 21}, "roll-total", "total 21 recorded, dice and modifiers give 20"),
        (
            {"dice": [Die(sides=20, face=21)], "total": 24},
            "roll-range",
            "die 1 shows 21, outside 1..20",
        ),
        ({"dice": [Die(sides=20, face=0)]}, "roll-range", "die 1 shows 0"),
        ({"dice": [Die(sides=20, face=3, rerolled=[25])]}, "roll-range", "die 1 shows 25"),
        ({"dice": [Die(sides=12, face=3)]}, "roll-dice", "die 1 is a d12, 1d20 rolls d20"),
        ({"dice": []}, "roll-dice", "1d20 needs 1 die, 0 recorded"),
        ({"dice": [Die(sides=20, face=14)] * 2}, "roll-dice", "1 recorded dice beyond"),
        (
            {"notation": "1d20+"},
            "roll-notation",
            "the notation is refused: 1d20+ : expected a number",
        ),
    ],
)
def test_external_rolls_are_checked_for_arithmetic_and_ranges(
    change: dict[str, object], code: str, words: str
) -> None:
    events = scene_events()
    at = events.index(EXTERNAL)
    events[at] = replace(EXTERNAL, **change)
    findings, verifier = verify(events)
    assert codes(findings) == [code]
    assert findings[0].message.startswith("external roll by carol (")
    assert words in findings[0].message
    assert verifier.summary.external == 1


def test_external_keep_arithmetic_uses_recorded_kept_faces() -> None:
    external = DiceRolled(
        roller="dm",
        notation="2d20kh1+2",
        dice=[Die(sides=20, face=15), Die(sides=20, face=4, kept=False)],
        total=17,
        generator="external",
    )
    events = scene_events()
    events.insert(3, external)
    findings, _ = verify(events)
    assert findings == []
