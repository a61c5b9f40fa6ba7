"""Scenario files: loading (every problem one ``InputError`` on the file, with the step's
line and the field path) and playing through a table (here the fake table of
``tests.rules.fake_table``, so what is checked is the scenario's own work: joins, positions,
the default ``end_turn``, arrivals, seeds, refusals located at their step)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fightlog.errors import InputError, RefusedError
from fightlog.events.model import (
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Moved,
    SceneEnded,
    SceneStarted,
    TurnEnded,
)
from fightlog.dice import commitment
from fightlog.kit.house import HouseRules
from fightlog.kit.scenario import run_scenario
from fightlog.kit.scenario_file import DEFAULT_SCENE, ArrivalStep, EndTurnStep, PostStep, load_scenario
from tests.conftest import FIXTURES
from tests.rules.fake_table import install as install_fake

ROSTER = FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml"
SEED = "5eed" * 16

HEAD = f"""\
title = "Test fight"
ruleset = "fake"
roster = "{ROSTER}"
"""


@pytest.fixture(autouse=True)
def fake_table(monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake(monkeypatch)


def scenario(tmp_path: Path, body: str, *, head: str = HEAD, name: str = "fight.toml") -> Path:
    path = tmp_path / name
    path.write_text(head + textwrap.dedent(body))
    return path


def refusal(path: Path, error: type[InputError] = InputError) -> InputError:
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert type(caught.value) is error
    assert caught.value.path == str(path)
    assert "\n" not in str(caught.value)
    return caught.value


def line_of(path: Path, text: str, nth: int = 1) -> int:
    found = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == text]
    return found[nth - 1]


DUEL = """
join = ["alice", "bob"]
[positions]
alice = [0, 0]
bob = [15, 0]

[[steps]]
actor = "alice"
text = "Alice fires at Bob."
do = ["shoot target=bob weapon=M_a_Rifle_Class_(Permanent) gm=-3"]

[[steps]]
actor = "bob"
do = ["flee"]
end_turn = false

[[steps]]
actor = "alice"
text = "Alice answers."
responds_to = 9

[[steps]]
end_turn = true

[[steps]]
join = "mira"
after = "bob"
at = [40, 0]
"""


# --------------------------------------------------------------------------- loading


def test_a_scenario_loads(tmp_path: Path) -> None:
    path = scenario(tmp_path, DUEL, name="pump-house.toml")
    loaded = load_scenario(path)
    assert loaded.scene == DEFAULT_SCENE == "scene"  # never the file's name
    assert loaded.roster == str(ROSTER)
    assert [type(s.spec) for s in loaded.steps] == [PostStep, PostStep, PostStep, EndTurnStep, ArrivalStep]
    assert [s.number for s in loaded.steps] == [1, 2, 3, 4, 5]
    assert [s.line for s in loaded.steps] == [line_of(path, "[[steps]]", n) for n in range(1, 6)]
    first = loaded.steps[0]
    assert first.actions[0].type == "shoot" and first.actions[0].params == {"gm": -3}
    assert loaded.file.positions == {"alice": (0, 0), "bob": (15, 0)}
    arrival = loaded.steps[4].spec
    assert isinstance(arrival, ArrivalStep) and arrival.at == (40, 0) and arrival.after == "bob"


def test_the_roster_is_relative_to_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "rosters").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "rosters" / "r.toml").write_bytes(ROSTER.read_bytes())
    path = scenario(tmp_path, "", head='ruleset = "fake"\nroster = "../rosters/r.toml"\n', name="scenarios/s.toml")
    assert Path(load_scenario(path).roster).resolve() == (tmp_path / "rosters" / "r.toml").resolve()


def test_steps_written_inline_have_no_line(tmp_path: Path) -> None:
    path = scenario(tmp_path, 'steps = [{ actor = "alice", do = ["attack bob"] }]\n')
    error = refusal(path)
    assert error.line is None
    assert error.message == "steps[0].do[0]: expected key=value, got 'bob'"


@pytest.mark.parametrize(
    ("body", "header", "message"),
    [
        ('[[steps]]\nactor = "alice"\n[[steps]]\nactr = "bob"\n', 2,
         "steps[1].actr: unknown field (did you mean 'actor'?)"),
        ('[[steps]]\nactor = "alice"\njoin = "mira"\n', 1,
         "steps[0]: a step is a post (actor), an arrival (join) or a bare end_turn = true, not both a post "
         "and an arrival: it has actor and join"),
        ('[[steps]]\ntext = "hi"\ndo = ["flee"]\nafter = "bob"\nat = [1, 1]\n', 1, "it has do, text and after, at"),
        ('[[steps]]\n', 1, "steps[0]: an empty step"),
        ('[[steps]]\nend_turn = false\n', 1, "steps[0].end_turn: a step with only end_turn must say end_turn = true"),
        ('[[steps]]\nactor = "alice"\n[[steps]]\nactor = "bob"\ndo = ["flee", "attack bob"]\n', 2,
         "steps[1].do[1]: expected key=value, got 'bob'"),
        ('[[steps]]\nactor = "alice"\ndo = ["attack target=bob target=kestrel"]\n', 1,
         "steps[0].do[0]: 'target' given twice"),
        ('[[steps]]\nactor = "alice"\nresponds_to = "seq 4"\n', 1, "steps[0].responds_to: expected an integer, got 'seq 4'"),
        ('[[steps]]\nactor = "alice"\nend_turn = 1\n', 1, "steps[0].end_turn: expected true or false, got 1"),
        ('[[steps]]\nactor = "alice"\ndo = "flee"\n', 1, "steps[0].do: expected an array, got 'flee'"),
        ('[[steps]]\ntext = "no one posts this"\n', 1, "steps[0].actor: required field is missing"),
        ('[[steps]]\nafter = "bob"\n', 1, "steps[0].join: required field is missing"),
        ('[[steps]]\njoin = "mira"\nat = [1, 2, 3]\n', 1, "steps[0].at:"),
        ('[[steps]]\njoin = "mira"\nend_turn = true\n', 1, "steps[0].end_turn: unknown field"),
        ('[[steps]]\njoin = "mira"\n[[steps]]\njoin = "mira"\n', 2, "steps[1].join: 'mira' already joins in steps[0]"),
        ('reserve = ["mira"]\n[[steps]]\njoin = "mira"\n', 1, "steps[0].join: 'mira' already joins in reserve"),
    ],
)
def test_a_bad_step_is_named_with_its_line(tmp_path: Path, body: str, header: int, message: str) -> None:
    path = scenario(tmp_path, body)
    error = refusal(path)
    assert message in error.message
    assert error.line == line_of(path, "[[steps]]", header)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('titel = "x"\n', "titel: unknown field (did you mean 'title'?)"),
        ('seeds = "ab"\n', "seeds: unknown field (did you mean 'seed'?)"),
        ("join = 3\n", "join: expected an array, got 3"),
        ('join = ["alice", "alice"]\n', "join[1]: 'alice' is already in join"),
        ('join = ["alice"]\nreserve = ["alice"]\n', "reserve[0]: 'alice' is already in join"),
        ("[positions]\nalice = [0.5, 1]\n", "positions.alice[0]: expected an integer, got 0.5 (a float"),
        ('[positions]\nalice = "here"\n', "positions.alice: expected an array, got 'here'"),
        ('seed = "zz"\n', "seed: expected an integer (0 to 2**256-1) or 64 hex digits, got 'zz'"),
        ('seed = "abcd"\n', "seed: expected an integer (0 to 2**256-1) or 64 hex digits, got 'abcd'"),
        ("seed = -1\n", "seed: expected an integer (0 to 2**256-1) or 64 hex digits, got -1"),
        ('scene = ""\n', "scene: "),
        ("options = 3\n", "options: expected a table, got 3"),
    ],
)
def test_a_bad_field_is_named(tmp_path: Path, body: str, message: str) -> None:
    """At the line of the key at fault (the one the message names last: ``alice`` of
    ``positions.alice[0]``; ``join`` of ``join[1]``)."""
    path = scenario(tmp_path, body)
    error = refusal(path)
    assert message in error.message
    key = message.split(":")[0].split("[")[0].split(".")[-1]
    assert error.line == next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                              if text.startswith(f"{key} ="))


def test_missing_fields(tmp_path: Path) -> None:
    error = refusal(scenario(tmp_path, "", head='ruleset = "fake"\n'))
    assert error.message == "roster: required field is missing"


def test_a_missing_roster_file(tmp_path: Path) -> None:
    error = refusal(scenario(tmp_path, "", head='ruleset = "fake"\nroster = "nowhere.toml"\n'))
    assert error.message == f"roster: no such roster file {str(tmp_path / 'nowhere.toml')!r}"


@pytest.mark.parametrize(("roster", "said"), [(".", "is a directory, not a roster file"),
                                              ("/dev/zero", "is not a regular file (a roster is a TOML file)")])
def test_a_roster_that_is_no_file(tmp_path: Path, roster: str, said: str) -> None:
    """A tester's `roster = "."` was "no such roster file '.'": it exists."""
    error = refusal(scenario(tmp_path, "", head=f'ruleset = "fake"\nroster = "{roster}"\n'))
    assert error.message == f"roster: {str(tmp_path / roster) if roster == '.' else roster!r} {said}"


def test_toml_syntax_errors_have_their_line(tmp_path: Path) -> None:
    path = scenario(tmp_path, '[[steps]]\nactor = "alice\n')
    error = refusal(path)
    assert error.message.startswith("not valid TOML")
    assert error.line == 5


def test_a_missing_scenario_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_scenario(tmp_path / "nothing.toml")


# --------------------------------------------------------------------------- playing


def test_run_plays_every_step(tmp_path: Path) -> None:
    store = run_scenario(scenario(tmp_path, DUEL), seed=SEED)
    events = [event for _, event in store.read()]  # every chain check of the reader
    started, ended = events[0], events[-1]
    assert isinstance(started, SceneStarted) and isinstance(ended, SceneEnded)
    assert started.scene == "scene" and started.title == "Test fight" and started.options == {"house": 0}
    assert started.dice is not None and started.dice.seed is None
    assert started.dice.commitment == commitment(SEED) and ended.seed == SEED
    joined = [e.actor for e in events if isinstance(e, CombatantJoined)]
    assert joined == ["alice", "bob", "mira"]
    assert [(e.actor, e.x, e.y) for e in events if isinstance(e, Moved)] == [
        ("alice", 0, 0), ("bob", 15, 0), ("mira", 40, 0)
    ]
    arrival = [e for e in events if isinstance(e, CombatantJoined)][-1]
    assert arrival.arrival and arrival.after == "bob"
    assert [e.actor for e in events if isinstance(e, DeclarationPosted)] == ["alice", "bob", "alice"]
    assert [e.roller for e in events if isinstance(e, DiceRolled)] == ["alice"]
    # alice posts in her turn (ends it), bob flees with end_turn = false, alice answers in
    # bob's turn (does not end it), the bare end_turn closes bob's.
    assert [e.actor for e in events if isinstance(e, TurnEnded)] == ["alice", "bob"]


def test_run_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    path = scenario(tmp_path, DUEL)
    assert run_scenario(path, seed=SEED).to_bytes() == run_scenario(path, seed=SEED).to_bytes()


def test_the_scene_id_is_the_files_key_not_its_name(tmp_path: Path) -> None:
    """The scene id feeds the dice: a copied and renamed scenario plays the same bytes with
    the same seed, with or without the ``scene`` key; the key changes the dice."""
    keyed = 'scene = "pump-house"\n' + DUEL
    for body in (DUEL, keyed):
        (tmp_path / "a").mkdir(exist_ok=True)
        (tmp_path / "b").mkdir(exist_ok=True)
        first = scenario(tmp_path, body, name="a/pump-house.toml")
        copy = tmp_path / "b" / "renamed copy.toml"
        copy.write_bytes(first.read_bytes())
        assert run_scenario(first, seed=SEED).to_bytes() == run_scenario(copy, seed=SEED).to_bytes()
    started = list(run_scenario(copy, seed=SEED).read())[0][1]
    assert isinstance(started, SceneStarted) and started.scene == "pump-house"
    plain = run_scenario(scenario(tmp_path, DUEL, name="pump-house.toml"), seed=SEED).to_bytes()
    assert run_scenario(copy, seed=SEED).to_bytes() != plain


def test_an_integer_seed_means_the_same_everywhere(tmp_path: Path) -> None:
    as_int = scenario(tmp_path, "seed = 7\n" + DUEL, name="int.toml")
    as_hex = scenario(tmp_path, f'seed = "{"0" * 63}7"\n' + DUEL, name="hex.toml")
    assert load_scenario(as_int).seed == "0" * 63 + "7"
    assert run_scenario(as_int).to_bytes() == run_scenario(as_hex).to_bytes() == run_scenario(as_hex, seed=7).to_bytes()


def test_seed_precedence(tmp_path: Path) -> None:
    other = "ab" * 32
    path = scenario(tmp_path, f'seed = "{other}"\n' + DUEL)

    def revealed(seed: str | None) -> str | None:
        ended = list(run_scenario(path, seed=seed).read())[-1][1]
        assert isinstance(ended, SceneEnded)
        return ended.seed

    assert revealed(SEED) == SEED
    assert revealed(None) == other
    plain = scenario(tmp_path, DUEL, name="plain.toml")
    fresh = list(run_scenario(plain).read())[-1][1]
    assert isinstance(fresh, SceneEnded) and fresh.seed is not None and len(fresh.seed) == 64


def test_default_join_leaves_out_reserves_and_arrivals(tmp_path: Path) -> None:
    body = 'reserve = ["kestrel"]\n[[steps]]\njoin = "mira"\n'
    events = [e for _, e in run_scenario(scenario(tmp_path, body), seed=SEED).read()]
    joined = [(e.actor, e.role, e.arrival) for e in events if isinstance(e, CombatantJoined)]
    assert joined == [("alice", "pc", False), ("bob", "pc", False), ("kestrel", "reserve", False), ("mira", "pc", True)]


def test_a_refused_step_names_the_step_and_its_line(tmp_path: Path) -> None:
    body = '[[steps]]\nactor = "alice"\n[[steps]]\nactor = "bob"\ndo = ["attack target=zed"]\n'
    path = scenario(tmp_path, body)
    with pytest.raises(RefusedError) as caught:
        run_scenario(path, seed=SEED)
    error = caught.value
    assert error.path == str(path) and error.line == line_of(path, "[[steps]]", 2)
    assert error.message == "step 2 (bob): no combatant 'zed' in the scene"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[steps]]\nactor = "alice"\ndo = ["attack weapon=Laser"]\n', "step 1 (alice): alice carries no weapon 'Laser'"),
        ('[[steps]]\nactor = "zed"\n', "step 1 (zed): 'zed' is not in the scene"),
        ('[[steps]]\nactor = "bob"\n', "step 1 (bob): it is alice's turn, not bob's"),
        ('[[steps]]\njoin = "mira"\nafter = "zed"\n', "step 1 (mira arrives): zed is not in the scene"),
    ],
)
def test_refusals_at_steps(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(RefusedError) as caught:
        run_scenario(scenario(tmp_path, body), seed=SEED)
    assert caught.value.message == message
    assert caught.value.line is not None


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('join = ["alice", "zed"]\n', "join[1]: 'zed' is not in the roster (alice, bob, mira, kestrel)"),
        ('reserve = ["zed"]\n', "reserve[0]: 'zed' is not in the roster"),
        ("[positions]\nzed = [1, 1]\n", "positions.zed: 'zed' is not in the roster"),
        ('[[steps]]\njoin = "zed"\n', "steps[0].join: 'zed' is not in the roster"),
        ("options = { speed = 3 }\n", "fake options: unknown option 'speed'"),
    ],
)
def test_names_the_roster_lacks(tmp_path: Path, body: str, message: str) -> None:
    path = scenario(tmp_path, body)
    with pytest.raises(InputError) as caught:
        run_scenario(path, seed=SEED)
    assert caught.value.path == str(path)
    assert message in caught.value.message


def test_unplayable_ruleset(tmp_path: Path) -> None:
    path = scenario(tmp_path, "", head=f'ruleset = "gurps"\nroster = "{ROSTER}"\n')
    with pytest.raises(InputError) as caught:
        run_scenario(path)
    assert type(caught.value) is InputError and caught.value.path == str(path)
    assert caught.value.message.startswith("ruleset: no installed ruleset 'gurps' (installed: bleeding-sun, d20-evasion, ")


def test_overrides(tmp_path: Path) -> None:
    path = scenario(tmp_path, "options = { house = 1 }\n")
    started = list(run_scenario(path, seed=SEED).read())[0][1]
    assert isinstance(started, SceneStarted) and started.options == {"house": 1}
    house = HouseRules(path="house.toml", values={"house": 2}, lines={"house": 3})
    started = list(run_scenario(path, seed=SEED, house=house).read())[0][1]
    assert isinstance(started, SceneStarted) and started.options == {"house": 2}
    with pytest.raises(InputError) as caught:
        run_scenario(path, seed=SEED, house=HouseRules(path="house.toml", values={"speed": 2}, lines={"speed": 4}))
    assert (caught.value.path, caught.value.line) == ("house.toml", 4)
    assert caught.value.message == "speed: not a fake option (docs/rulesets/fake.md lists them)"
