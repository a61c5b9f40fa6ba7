"""The narration's table (``fightlog.report.narration``): every event kind of the log format
has its line, said by exactly one event family's module."""

from __future__ import annotations

import typing
from collections import Counter

from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.events.model import Action, AnyEvent
from fightlog.reducers.state import EMPTY
from fightlog.report.narration import actions_text, combat, course, effects, rolls, rulings, unit_of
from fightlog.report.narration.kinds import _DESCRIBE
from tests.conftest import FIXTURES

FAMILIES = (course, rolls, combat, effects, rulings)


def test_every_kind_has_its_line_in_one_family() -> None:
    said = Counter(kind for family in FAMILIES for kind in family.DESCRIBE)
    assert [kind.__name__ for kind, n in said.items() if n > 1] == []
    assert set(said) == set(typing.get_args(AnyEvent))
    assert _DESCRIBE == {kind: line for family in FAMILIES for kind, line in family.DESCRIBE.items()}


def test_distances_are_told_in_the_rulesets_unit() -> None:
    """Bleeding Sun counts hexes (``Ruleset.distance_unit``), the others metres."""
    spread = CliRunner().invoke(cli, ["replay", str(FIXTURES / "bleeding-sun" / "scenarios" / "shotgun-spread.jsonl")])
    assert spread.exit_code == 0
    assert "[attack Vex, Dray with Shotgun 2 hexes, d_dray 5]" in spread.output
    assert unit_of(EMPTY) == "m"
    who = {"bob": "Bob"}.get
    move, near = Action(type="move", distance=8), Action(type="attack", target="bob", distance=1)
    assert actions_text([move, near], lambda a: who(a or "") or "?", "m") == "move 8 m; attack Bob 1 m"
    assert actions_text([move, near], lambda a: who(a or "") or "?", "hex") == "move 8 hexes; attack Bob 1 hex"


def test_damage_over_time_is_told_per_turn_or_round_and_any_other_magnitude_as_one() -> None:
    """An aim's bonus or a penalty was told as damage a turn (``aim: 2/turn``, ``suppressed:
    -15/turn``); only what the ruleset deals each turn (``Ruleset.harm_period``) is."""
    from fightlog.kit.ruleset import ruleset_for

    periods = {
        ("roe7", "bleed", ()): "turn", ("roe7", "chemical_burn", ()): "turn", ("roe7", "suppressed", ()): None,
        ("d20-evasion", "poisoned", (("dot", True),)): "turn", ("d20-evasion", "guard", ()): None,
        ("bleeding-sun", "bleeding", ()): "round", ("bleeding-sun", "fatigue", ()): None,
        ("traveller", "cover", ()): None, ("en51", "aim", ()): None, ("generic", "bleed", ()): None,
    }
    for (ruleset, name, params), period in periods.items():
        assert ruleset_for(ruleset).harm_period(name, dict(params)) == period, (ruleset, name)
    told = {path.name: CliRunner().invoke(cli, ["replay", str(path)]).output for path in (
        FIXTURES / "roe7" / "scenarios" / "gate-ambush.jsonl", FIXTURES / "bleeding-sun" / "scenarios" / "bleed-out.jsonl")}
    assert "suppressed on Tess Harrow: 1 turn, magnitude -15" in told["gate-ambush.jsonl"]
    assert "bleeding on Jory: until removed, 1/round" in told["bleed-out.jsonl"]


def test_an_outcome_that_lands_below_what_it_had_to_beat_catches() -> None:
    """A blast catches those near where it lands, a spread lands below the threshold: told
    as a miss and a hit of the same throw before ("misses Tess: 1 vs 3", "hits Bruno: 1 vs 3")."""
    from fightlog.events.model import AttackResolved
    from fightlog.report.narration.combat import _resolved
    from fightlog.report.narration.lines import Scene

    scene = Scene(lambda actor: actor or "?")
    told = {(hit, margin, critical): _resolved(AttackResolved(attacker="ghoul", target="bruno", hit=hit, score=1,
                                                             against=1 - margin, margin=margin, critical=critical,
                                                             weapon="Frag"), scene).split(":")[0]
            for hit, margin, critical in ((True, -2, None), (False, -2, None), (True, 0, None), (True, -2, "success"))}
    assert told == {(True, -2, None): "ghoul catches bruno with Frag", (False, -2, None): "ghoul misses bruno with Frag",
                    (True, 0, None): "ghoul hits bruno with Frag", (True, -2, "success"): "ghoul hits bruno with Frag"}


def test_a_ruling_by_someone_called_gm_is_not_told_gm_gm() -> None:
    """`fightlog rule LOG void 92 --by GM` was told "GM GM voids seq 92"."""
    from fightlog.events.model import RulingMade
    from fightlog.report.narration.lines import Scene
    from fightlog.report.narration.rulings import _ruled

    scene = Scene(lambda actor: actor or "?")
    told = [_ruled(RulingMade(by=by, action="void", target=3, reason="sheathed"), scene) for by in ("GM", "gm Sev", "Gemma")]
    assert told == ["GM voids seq 3: sheathed", "gm Sev voids seq 3: sheathed", "GM Gemma voids seq 3: sheathed"]


def test_ids_are_told_in_words_and_a_sheets_names_as_written() -> None:
    """Statuses, effects and resources are ids (``mortally_wounded``, ``flee_attempts``): told
    in words; an item a sheet names (``Sleeping Gas``) is told as written, never cut to
    ``Sleeping Ga`` (a review)."""
    from fightlog.events.model import ResourceSpent, StatusChanged
    from fightlog.report.narration.lines import Scene

    scene = Scene(lambda actor: (actor or "?").title())
    spent = [combat._spent(ResourceSpent(actor="finch", resource=r, amount=n), scene)
             for r, n in (("flee_attempts", 1), ("flee_attempts", 2), ("Sleeping Gas", 1), ("grenade", 1))]
    assert spent == ["Finch spends 1 flee attempt", "Finch spends 2 flee attempts", "Finch spends 1 Sleeping Gas",
                     "Finch spends 1 grenade"]
    assert combat._status(StatusChanged(actor="rhea", status="mortally_wounded"), scene) == \
        "Rhea gains status mortally wounded"


def test_a_turns_spending_is_told_in_words_in_every_ruleset() -> None:
    """state's posting column: d20-evasion's item use (cost ``both``) was told "1 both action"
    (a review)."""
    from fightlog.report.state_text import state_lines
    from tests.rules.d20evasion.rigged import Fight

    f = Fight().join("alice", (0, 0), side="a", items=[{"name": "Med kit", "heal": 30}]).join("carl", (0, 0), side="a")
    f.join("bob", (0, 0), side="b", hp=40).started([20, 1])
    f.post("alice", "use_item item='Med kit' target=carl")
    assert any(line.endswith("posting (spent 1 use of both actions)") for line in state_lines(f.state))


def test_an_unopposed_roll_is_told_as_a_success_or_a_failure() -> None:
    """roe7's `skill roll=dodge` was told "Rex Iron hits Rex Iron: 70 vs 50"."""
    from fightlog.events.model import AttackResolved
    from fightlog.report.narration.combat import _resolved
    from fightlog.report.narration.lines import Scene

    scene = Scene(lambda actor: actor or "?")
    told = [_resolved(AttackResolved(attacker="rex", target="rex", hit=hit, score=70, against=50, notes=["dodge roll"]),
                      scene) for hit in (True, False)]
    assert told == ["rex succeeds: 70 vs 50; dodge roll", "rex fails: 70 vs 50; dodge roll"]


def test_state_tells_a_ruling_by_someone_called_gm_as_replay_does(tmp_path: object) -> None:
    """`state` kept its own "GM " in front of the ruling (the review): "GM GM voids seq 10"."""
    import shutil
    from pathlib import Path

    log = Path(str(tmp_path)) / "s.jsonl"
    shutil.copy(FIXTURES / "roe7" / "sample-duel.jsonl", log)
    runner = CliRunner()
    assert runner.invoke(cli, ["rule", str(log), "void", "10", "--by", "GM", "--reason", "misclick"]).exit_code == 0
    state = runner.invoke(cli, ["state", str(log)]).output
    replay = runner.invoke(cli, ["replay", str(log)]).output
    assert "GM voids seq 10" in state and "GM voids seq 10" in replay and "GM GM" not in state + replay
