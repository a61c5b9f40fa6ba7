"""``outcome.undeclared``: the poster's attacks answer the post they cite
(``fightlog.audit.answers``), for every ruleset, on one process and on two alike."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightlog.audit.answers import CODE, Beside, problem
from fightlog.audit.lean_kinds import LeanOutcome, LeanPost, LeanTurn
from fightlog.audit.auditor import audit_log
from fightlog.audit.dice_checks import DiceAudit, DiceFinding
from fightlog.audit.reading import checked
from fightlog.audit.recorded import RecordChecks
from fightlog.events.codec import DECODER, link_decoder
from fightlog.events.base import Origin
from fightlog.events.model import (GENESIS, Action, AnyEvent, AttackResolved, CombatantJoined, DeclarationPosted,
                                   SceneStarted, TurnStarted)
from fightlog.events.scene_kinds import Transcript
from fightlog.events.store import seal
from fightlog.kit.ruleset import GENERIC, ruleset_for
from tests.cli import run
from tests.conftest import FIXTURES

ROE7 = ruleset_for("roe7")


def post(*actions: Action, actor: str = "ash", seq: int = 10, responds_to: int | None = None) -> DeclarationPosted:
    return DeclarationPosted(seq=seq, actor=actor, text="!", actions=list(actions), responds_to=responds_to)


def outcome(attacker: str, target: str, declaration: int = 10, seq: int = 12) -> AttackResolved:
    return AttackResolved(seq=seq, attacker=attacker, target=target, hit=True, score=1, against=0,
                          rolls=[11], declaration=declaration)


# --------------------------------------------------------------------------- whom a post names


def test_the_targets_a_post_names() -> None:
    assert GENERIC.resolution_targets(post(Action(type="attack", target="bo"))) == {"bo"}
    assert GENERIC.resolution_targets(post(Action(type="attack", target="bo", targets=["bo", "cy"]),
                                           Action(type="move"))) == {"bo", "cy"}
    assert GENERIC.resolution_targets(post(Action(type="move"))) is None  # names nobody: not judged
    assert GENERIC.resolution_targets(post(Action(type="counter"), responds_to=4)) is None
    # roe7: automatic fire into a melee, a shot past an ally, the off hand's target
    secondaries = Action(type="attack", target="bo", params={"secondaries": "cy,dee", "through": "eli"})
    assert ROE7.resolution_targets(post(secondaries)) == {"bo", "cy", "dee", "eli"}
    assert GENERIC.resolution_targets(post(secondaries)) == {"bo"}
    # a grenade's blast decides whom it hits
    assert ROE7.resolution_targets(post(Action(type="throw", target="bo"))) is None
    assert ruleset_for("bleeding-sun").resolution_targets(post(Action(type="throw", target="bo"))) is None


def test_what_is_judged() -> None:
    declared = post(Action(type="attack", target="bo"), Action(type="move"))
    assert problem(GENERIC, "ash", "bo", 10, declared) is None
    found = problem(GENERIC, "ash", "cy", 10, declared)
    assert found == "ash's attack on cy cites the post at seq 10, which declared attack on bo, move, not cy"
    assert problem(GENERIC, "cy", "ash", 10, declared) is None  # another's roll against the poster
    assert problem(GENERIC, "cy", "dee", 10, declared) is None  # the posting order's to judge
    assert problem(GENERIC, "ash", "ash", 10, declared) is None  # on oneself (first aid, a fall)


NAMES = st.sampled_from(["ash", "bo", "cy", "dee", "eli"])


@given(poster=NAMES, named=st.lists(NAMES, max_size=3), attacker=NAMES, target=NAMES)
def test_a_finding_exactly_for_the_posters_attack_on_someone_unnamed(
    poster: str, named: list[str], attacker: str, target: str
) -> None:
    actions = [Action(type="attack", target=name) for name in named] or [Action(type="aim")]
    found = problem(GENERIC, attacker, target, 10, post(*actions, actor=poster))
    wrong = bool(named) and attacker == poster and target != poster and target not in named
    assert (found is not None) == wrong
    if found is not None:
        assert found.startswith(f"{poster}'s attack on {target} cites the post at seq 10")


def test_beside_the_dice_it_reaches_as_far_as_the_folds_window() -> None:
    """The child's copy looks back to the previous turn's opening, as ``Window`` does."""
    found: list[DiceFinding] = []
    beside = Beside(GENERIC, found)
    feed = [
        TurnStarted(seq=1, actor="ash", round=1),
        post(Action(type="attack", target="bo"), seq=2),
        TurnStarted(seq=3, actor="bo", round=1),
        outcome("ash", "cy", declaration=2, seq=4),  # the previous turn's post: in reach
        TurnStarted(seq=5, actor="cy", round=1),
        outcome("ash", "cy", declaration=2, seq=6),  # two turns back: out of reach
    ]
    for event in feed:
        beside.readers[type(event)](event)
    assert [(f.code, f.seq, f.actor) for f in found] == [(CODE, 4, "ash")]


# --------------------------------------------------------------------------- edited logs


def retargeted(log: Path, tmp_path: Path, *, imported: bool = False) -> tuple[Path, list[int]]:
    """``log`` with its first post of one attack on one target, without parameters, edited to
    another combatant (or a stranger, in a duel), re-chained: the path and the seqs of the
    post's outcomes. ``imported``: the scene made an imported one, the outcomes citing a
    transcript message."""
    events: list[AnyEvent] = [DECODER.decode(line) for line in log.read_bytes().splitlines()]
    if imported:
        scene = events[0]
        assert isinstance(scene, SceneStarted)
        events[0] = msgspec.structs.replace(scene, transcript=Transcript(
            format="discord-json", file="fight.json", sha256="0" * 64, importer="1"))
    joined = sorted({e.actor for e in events if isinstance(e, CombatantJoined)})
    for at, event in enumerate(events):
        if not isinstance(event, DeclarationPosted) or len(event.actions) != 1 or event.responds_to is not None:
            continue
        action = event.actions[0]
        answers = [e.seq for e in events if isinstance(e, AttackResolved) and e.declaration == event.seq]
        if action.type != "attack" or not action.target or action.params or not answers:
            continue
        other = next((n for n in joined if n not in (event.actor, action.target)), "a-stranger")
        events[at] = msgspec.structs.replace(event, actions=[msgspec.structs.replace(action, target=other)])
        if imported:
            events = [msgspec.structs.replace(e, origin=Origin(medium="discord", ref=f"msg-{e.seq}"))
                      if e.seq in answers else e for e in events]
        _, data, _ = seal([msgspec.structs.replace(e, seq=0, prev="") for e in events], 0, GENESIS)
        path = tmp_path / log.name
        path.write_bytes(data)
        return path, answers
    raise AssertionError(f"{log.name}: no single-target attack to retarget")


LOGS = [
    FIXTURES / "roe7" / "scenarios" / "gate-ambush.jsonl",
    FIXTURES / "roe7" / "audit" / "tampered-hud-dice.jsonl",  # hand-run: its posts are played dry, and pass
    FIXTURES / "d20-evasion" / "scenarios" / "ford-ambush.jsonl",
    FIXTURES / "traveller" / "scenarios" / "firefight-in-the-refinery.jsonl",
    FIXTURES / "bleeding-sun" / "scenarios" / "melee-gang-up.jsonl",
    FIXTURES / "en51" / "scenarios" / "ridge-firefight.jsonl",
]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.parent.name}-{p.parent.name}")
def test_a_post_edited_to_another_target(log: Path, tmp_path: Path) -> None:
    assert not [f for f in audit_log(log).findings if f.code == CODE]
    path, answers = retargeted(log, tmp_path)
    one = audit_log(path, workers=1)
    two = audit_log(path, workers=2, parallel_min_bytes=1)
    assert msgspec.json.encode(one) == msgspec.json.encode(two)
    assert sorted({f.seq for f in one.findings if f.code == CODE}) == answers
    assert all(f.severity == "error" and "(docs/audit.md)" in f.rule for f in one.findings if f.code == CODE)


def test_an_imported_fights_findings_cite_the_transcript_on_both_paths(tmp_path: Path) -> None:
    path, answers = retargeted(FIXTURES / "traveller" / "scenarios" / "firefight-in-the-refinery.jsonl", tmp_path,
                               imported=True)
    one = audit_log(path, workers=1)
    two = audit_log(path, workers=2, parallel_min_bytes=1)
    assert msgspec.json.encode(one) == msgspec.json.encode(two)
    assert [(f.seq, f.ref) for f in one.findings if f.code == CODE] == [(s, f"msg-{s}") for s in answers]


def test_the_cli_exits_1_and_names_the_outcome(tmp_path: Path) -> None:
    path, answers = retargeted(FIXTURES / "roe7" / "scenarios" / "gate-ambush.jsonl", tmp_path)
    result = run("audit", str(path))
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if CODE in line]
    assert [int(line.split()[1]) for line in lines] == answers
    assert "which declared attack on" in lines[0]


def test_the_child_reads_posts_turns_and_outcomes_lean() -> None:
    """Through the child's own reader (``RecordChecks.feeds``, ``checked`` with ``links``):
    posts, turn openings and outcomes come as the lean kinds, and a post's text is not read."""
    log = FIXTURES / "traveller" / "scenarios" / "firefight-in-the-refinery.jsonl"
    record = RecordChecks(DiceAudit(None).feed)
    with open(log, "rb") as stream:
        kinds = {type(e) for e in checked(stream, str(log), None, record.feeds, links=True)}
    assert {LeanPost, LeanTurn, LeanOutcome} <= kinds
    assert not kinds & {DeclarationPosted, TurnStarted, AttackResolved}
    assert record.findings == []


def test_link_decoder_and_the_lean_kinds() -> None:
    """A lean kind is decoded instead of its full kind, even when both are asked for (the
    full kind's reader serves lines read in full); a post's text is not read."""
    line = (b'{"kind":"declaration_posted","seq":2,"prev":"' + b"0" * 64 + b'","actor":"ash","text":"Ash fires.",'
            b'"actions":[{"type":"attack","target":"bo"}]}')
    lean = link_decoder(frozenset({LeanPost, LeanTurn, LeanOutcome})).decode(line)
    assert type(lean) is LeanPost and (lean.seq, lean.actor, lean.actions[0].target) == (2, "ash", "bo")
    assert not hasattr(lean, "text")
    assert type(link_decoder(frozenset({LeanPost, DeclarationPosted})).decode(line)) is LeanPost
    full = link_decoder(frozenset({DeclarationPosted})).decode(line)
    assert type(full) is DeclarationPosted and full.text == "Ash fires."


def test_the_lean_kinds_read_what_the_full_ones_do() -> None:
    """Every line of every bundled log: the lean decoding gives the same ``seq``, ``prev`` and
    fields read as the full one (so the child judges what the fold would)."""
    lean = link_decoder(frozenset({LeanPost, LeanTurn, LeanOutcome}))
    read = 0
    for log in sorted(FIXTURES.glob("**/*.jsonl")):
        for line in log.read_bytes().splitlines():
            full, thin = DECODER.decode(line), lean.decode(line)
            assert (thin.seq, thin.prev) == (full.seq, full.prev)
            if isinstance(full, DeclarationPosted):
                read += 1
                assert (thin.actor, thin.responds_to) == (full.actor, full.responds_to)
                assert [(a.type, a.target, a.targets, a.params) for a in thin.actions] == [
                    (a.type, a.target, a.targets, a.params) for a in full.actions]
            elif isinstance(full, AttackResolved):
                assert (thin.attacker, thin.target, thin.declaration) == (full.attacker, full.target, full.declaration)
    assert read > 400  # posts of all five rulesets, hand-run and engine
