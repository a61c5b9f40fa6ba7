"""Everything ``fightlog play post`` refuses is a finding in a hand-run log.

The tables' refusal codes are collected from their source (``refusal_codes``: every finding
code a module the table decides with names, and ``rules.refused`` for a ``RefusedError``
raised without a code), so a code added to a table is enumerated here without anyone
listing it. For each code of each playable ruleset, a hand-run fight
(``fightlog.fixtures.refused_posts``) holds one post the table refuses with it: the audit
reports exactly that (code, seq, actor), and the table, asked to play that post in the state
before it, refuses it with the same code.
"""

from __future__ import annotations

import ast
import random
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.audit.findings import known_codes
from fightlog.errors import RefusedError
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, DeclarationPosted, RoundEnded, SceneStarted
from fightlog.fixtures.audit_fights import by_hand
from fightlog.fixtures.refused_posts import CASES, SEED, RefusedPost
from fightlog.reducers.fold import fold
from fightlog.kit.declared import INCOMPLETE
from fightlog.dice import dice_commitment
from fightlog.kit.table import Post, Scribe, table_for
from tests.rules.d20evasion.test_properties import OPTIONS as D20_OPTIONS
from tests.rules.d20evasion.test_properties import play as d20_play
from tests.rules.roe7.test_properties import choose_action as roe7_action
from tests.rules.roe7.test_properties import opened as roe7_opened

CODES = known_codes()  # the shared codes and every installed ruleset's

RULES = Path(__file__).resolve().parents[2] / "rules"
KIT = RULES.parent / "kit"

PACKAGES = {"roe7": "roe7", "d20-evasion": "d20evasion", "traveller": "traveller", "en51": "en51",
            "bleeding-sun": "bleedingsun"}
"""Playable ruleset -> its package under ``rules/``."""

SHARED = ("declared.py", "table.py", "table_base.py", "fighters.py", "turn_keeping.py")
"""The modules every table decides with (the ruleset kit, ``kit/``)."""

NOT_THE_TABLE = frozenset({"audit.py", "findings.py"})
"""Modules of a ruleset's package that are the audit's, not the table's (and the ``audit_*``
modules the audit is written in)."""

NO_FINDING = {
    INCOMPLETE: "the post says too little for the rules to decide it (how far, which of two weapons) or would "
                "change nothing (a reload not needed, a stance already taken): at the table the player says more; "
                "a log written without the table's notation is not shown wrong by it, so the audit reports nothing",
}
UNREACHABLE: dict[str, dict[str, str]] = {"roe7": dict(NO_FINDING), "d20-evasion": dict(NO_FINDING),
                                          "traveller": dict(NO_FINDING), "en51": dict(NO_FINDING),
                                          "bleeding-sun": dict(NO_FINDING)}
"""Ruleset -> a refusal code no logged declaration makes a finding of -> why."""


def refusal_codes(ruleset: str) -> set[str]:
    """The finding codes the ruleset's table refuses with, read from its source."""
    package = RULES / PACKAGES[ruleset]
    modules = [
        p for p in sorted(package.glob("*.py")) if p.name not in NOT_THE_TABLE and not p.name.startswith("audit_")
    ]
    modules += [KIT / name for name in SHARED]
    codes: set[str] = set()
    for module in modules:
        tree = ast.parse(module.read_text(), str(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in CODES:
                codes.add(node.value)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "RefusedError":
                coded = [k.value for k in node.keywords if k.arg == "code"]
                if not coded:
                    codes.add("rules.refused")  # ``RefusedError``'s default code
                elif isinstance(coded[0], ast.Constant) and isinstance(coded[0].value, str):
                    codes.add(coded[0].value)  # a finding code, or one that is no finding (``UNREACHABLE``)
    return codes


CASE_IDS = [(ruleset, name) for ruleset, cases in CASES.items() for name in cases]


@pytest.fixture(scope="module")
def built() -> dict[tuple[str, str], RefusedPost]:
    return {(ruleset, name): CASES[ruleset][name]() for ruleset, name in CASE_IDS}


def test_the_codes_are_read_from_the_tables() -> None:
    assert set(CASES) == set(PACKAGES)
    for ruleset in PACKAGES:
        codes = refusal_codes(ruleset)
        # what the issue names, at the least: unknown actions, weapons not carried, targets
        # not in the fight, acting while down or stunned, more than the turn allows
        assert {"rules.unknown-action", "rules.not-carried", "rules.target", "rules.range", "rules.allowance",
                "order.cannot-act", "order.out-of-turn", "order.not-in-fight", "rules.refused"} <= codes, ruleset
        assert all(code.startswith(("order.", "rules.")) for code in codes)
        assert codes - set(CODES) == {INCOMPLETE}  # every other refusal code is a finding code
    assert {"rules.reload", "rules.flee-limit", "order.arrival-acted"} <= refusal_codes("roe7")
    assert "order.double-post" in refusal_codes("d20-evasion")


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_refusal_code_has_a_flawed_hand_run_log(built: dict[tuple[str, str], RefusedPost], ruleset: str) -> None:
    covered = {built[(ruleset, name)].code for name in CASES[ruleset]}
    missing = refusal_codes(ruleset) - covered - set(UNREACHABLE[ruleset])
    assert not missing, f"{ruleset}: refusal codes with no flawed log in fixtures/refused_posts.py: {sorted(missing)}"
    assert not covered - refusal_codes(ruleset), "a case for a code the table does not refuse with"
    assert not covered & set(UNREACHABLE[ruleset])


@pytest.mark.parametrize(("ruleset", "name"), CASE_IDS, ids=[f"{r}: {n}" for r, n in CASE_IDS])
def test_the_audit_reports_the_refused_post(built: dict[tuple[str, str], RefusedPost], ruleset: str, name: str) -> None:
    case = built[(ruleset, name)]
    report = audit_events(case.events)
    found = [(f.code, f.seq, f.actor) for f in report.findings if f.severity != "info"]
    assert found == [(case.code, case.seq, case.actor)]
    assert {f.code for f in report.findings if f.severity == "info"} <= {"dice.unverifiable"}  # the HUD's rolls
    post = case.events[case.seq - 1]
    assert isinstance(post, DeclarationPosted) and post.origin is not None  # a line of the chat transcript


@pytest.mark.parametrize(("ruleset", "name"), CASE_IDS, ids=[f"{r}: {n}" for r, n in CASE_IDS])
def test_the_table_refuses_it_with_the_same_code(
    built: dict[tuple[str, str], RefusedPost], ruleset: str, name: str
) -> None:
    case = built[(ruleset, name)]
    before = fold(case.events[: case.seq - 1])
    post = case.events[case.seq - 1]
    assert isinstance(post, DeclarationPosted)
    scribe = Scribe(before, SEED)
    asked = Post(actor=post.actor, text=post.text, actions=tuple(post.actions), responds_to=post.responds_to)
    with pytest.raises(RefusedError) as refused:
        table_for(ruleset).post(scribe, asked)
    assert refused.value.code == case.code, refused.value.message
    assert scribe.events == [] and scribe.state is before  # nothing of a refused post is kept


def test_a_post_the_table_made_is_not_played_again() -> None:
    # The same flawed post with no origin, in a scene committed to a seed: the table's own
    # (``rules.declared.by_table``), checked when it was posted; only the checks that read
    # the log report on it, as in every engine fight (none of them reads a weapon's name).
    case = CASES["roe7"]["a weapon Marek does not carry"]()
    events = list(case.events)
    scene = events[0]
    assert isinstance(scene, SceneStarted)
    events[0] = replace(scene, dice=dice_commitment(SEED))
    events[case.seq - 1] = replace(events[case.seq - 1], origin=None)
    assert [f.code for f in audit_events(events).findings if f.severity == "error"] == []
    assert [f.code for f in audit_events(case.events).findings if f.severity == "error"] == ["rules.not-carried"]


# --------------------------------------------------------------------------- engine fights

SCENARIO_LOGS = sorted((Path(__file__).resolve().parents[2] / "fixtures").glob("*/scenarios/*.jsonl"))


def as_hand_run(events: list[AnyEvent]) -> list[AnyEvent]:
    """An engine fight as a hand-run table would have logged it: every post from the chat
    transcript, every roll external, no commitment, so every post is checked."""
    return by_hand(events, "engine.txt", datetime(2024, 1, 1, tzinfo=timezone.utc))


def errors_of(events: list[AnyEvent]) -> list[str]:
    return [f"{f.seq} {f.code}: {f.message}" for f in audit_events(events).findings if f.severity != "info"]


@pytest.mark.parametrize("path", SCENARIO_LOGS, ids=[p.name for p in SCENARIO_LOGS])
def test_engine_fights_audit_clean_with_every_post_checked(path: Path) -> None:
    events = [DECODER.decode(line) for line in path.read_bytes().splitlines()]
    assert errors_of(as_hand_run(events)) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), options=D20_OPTIONS, choices=st.integers(0, 2**32 - 1))
def test_random_d20_fights_pass_their_tables_checks(seed: bytes, options: dict[str, object], choices: int) -> None:
    scribe = d20_play(seed.hex(), dict(options), random.Random(choices))
    assert errors_of(as_hand_run(scribe.events)) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), data=st.data())
def test_random_roe7_fights_pass_their_tables_checks(seed: bytes, data: st.DataObject) -> None:
    from fightlog.rules.roe7.table import TABLE

    scribe = roe7_opened(seed.hex())
    for _ in range(data.draw(st.integers(5, 30))):
        actor = scribe.state.turn.current
        if actor is None:
            break
        try:
            TABLE.post(scribe, Post(actor=actor, actions=roe7_action(data, scribe.state, actor)))
        except RefusedError:
            pass
        if data.draw(st.integers(0, 2)) > 0:
            TABLE.end_turn(scribe)
    assert errors_of(as_hand_run(scribe.events)) == []


def test_a_reinforcement_that_joins_at_a_round_end_was_not_due_in_it() -> None:
    """Mira's com call brings Kestrel in at round 3's end (the order gains him there): he is
    due from round 4, so round 3 ending without his post skipped nobody (hypothesis found it)."""
    from fightlog.events.model import Action, InitiativeSet
    from fightlog.rules.roe7.table import TABLE

    scribe = roe7_opened("00" * 32)
    rounds = [
        [("alice", Action(type="aim", target="bob")), ("bob", Action(type="skill", params={"roll": "strength"})),
         ("mira", Action(type="com_call", params={"calls": "kestrel", "near_base": False}))],
        [("alice", Action(type="flee")), ("bob", Action(type="skill", params={"roll": "strength"})),
         ("mira", Action(type="flee"))],
        [("bob", Action(type="aim", target="alice"))],
    ]
    for posts in rounds:
        for actor, action in posts:
            assert scribe.state.turn.current == actor
            TABLE.post(scribe, Post(actor=actor, actions=(action,)))
            TABLE.end_turn(scribe)
    joined = [e for e in scribe.events if isinstance(e, InitiativeSet) and "kestrel" in e.order]
    ended = [e for e in scribe.events if isinstance(e, RoundEnded) and e.round == 3]
    assert joined and ended and joined[0].seq < ended[0].seq  # in round 3, before its end
    assert errors_of(as_hand_run(scribe.events)) == [] and errors_of(scribe.events) == []
