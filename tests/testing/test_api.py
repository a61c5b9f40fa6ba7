"""``fightlog.api``, the public API: every name it exports is there and documented in
docs/api.md, and its views are the ones the CLI prints."""

from __future__ import annotations

import re
from pathlib import Path

import fightlog.api as api
from tests.cli import run
from tests.conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]
SCENARIO = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"


def test_every_exported_name_exists_and_is_documented() -> None:
    documented = set(re.findall(r"`([A-Za-z_]+)[(`]", (REPO / "docs" / "api.md").read_text(encoding="utf-8")))
    assert [name for name in api.__all__ if not hasattr(api, name)] == []
    assert sorted(set(api.__all__) - documented) == []


def test_the_views_are_what_the_commands_print(tmp_path: Path) -> None:
    store = api.run_scenario(SCENARIO, seed=7)
    log = tmp_path / "fight.jsonl"
    log.write_bytes(store.to_bytes())
    events = [event for _, event in store.read()]
    assert api.replay_text(events) + "\n" == run("replay", str(log)).stdout
    state = api.fold_events(events)
    assert "\n".join(api.state_lines(state, {state.seq: events[-1]})) + "\n" == run("state", str(log)).stdout
    assert "\n".join(api.audit_lines(api.audit_events(events))) + "\n" == run("audit", str(log)).stdout


def test_run_scenario_takes_seed_0_and_a_house_rules_path(tmp_path: Path) -> None:
    """0 is a seed, as ``--seed 0`` takes it; ``house=`` takes the file's path as ``--options`` does."""
    ended = [event for _, event in api.run_scenario(SCENARIO, seed=0).read()][-1]
    assert getattr(ended, "seed", None) == "0" * 64
    house = FIXTURES / "roe7" / "house-rules.toml"
    by_path = api.run_scenario(SCENARIO, seed=7, house=str(house)).to_bytes()
    assert by_path == api.run_scenario(SCENARIO, seed=7, house=api.read_house_rules(house)).to_bytes()
    assert by_path != api.run_scenario(SCENARIO, seed=7).to_bytes()
    log = tmp_path / "fight.jsonl"
    assert run("run", str(SCENARIO), "--seed", "7", "--options", str(house), "-o", str(log)).exit_code == 0
    assert log.read_bytes() == by_path


def test_each_name_is_defined_where_the_table_says() -> None:
    """docs/api.md's last column names the module (or package) each name is defined in."""
    rows = [line.split(" | ") for line in (REPO / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and line.count(" | ") == 2 and not line.startswith("| to |")]
    wrong = []
    for name in api.__all__:
        module = getattr(getattr(api, name), "__module__", "")
        if not module.startswith("fightlog."):
            continue  # a type alias (AnyEvent): typing's
        row = [r for r in rows if re.search(rf"`{name}[(`]", r[1])][-1]  # the row that lists it, not one that mentions it
        places = re.findall(r"`([\w.]+)`", row[2])
        if not any(module == p or module.startswith(p + ".") for p in places):
            wrong.append(f"{name}: {module} not in {places}")
    assert wrong == []


def test_an_audit_takes_a_seed_as_seed_option_does(tmp_path: Path) -> None:
    """``audit_log(path, seed=7)`` raised ``AttributeError`` ('int' object has no attribute
    'strip'), and ``seed="7"`` was refused in ``--seed``'s words while ``"07"`` was taken as a
    one-byte seed: the API reads a seed as ``--seed`` does (``seed_hex``)."""
    import pytest

    from fightlog.errors import DiceSeedError

    log = tmp_path / "live.jsonl"
    run("play", "start", str(log), "--ruleset", "roe7", "--seed", "7")
    run("play", "join", str(log), "--roster", str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml"))
    for seed in (7, "7", "07", api.seed_hex(7)):
        assert [f.code for f in api.audit_log(log, seed=seed).findings if f.code.startswith("dice.")] == []
        events = [event for _, event in api.read_log(str(log))]
        assert [f.code for f in api.audit_events(events, seed=seed).findings if f.code.startswith("dice.")] == []
    assert [f.code for f in api.audit_log(log, seed=8).findings if f.code.startswith("dice.")] == ["dice.seed"]
    with pytest.raises(DiceSeedError, match="expected an integer"):
        api.audit_log(log, seed="xyz")


def test_state_at_refuses_a_seq_that_is_no_whole_number() -> None:
    import pytest

    from fightlog.errors import InputError

    for at in (-1, "x", 1.5):
        with pytest.raises(InputError, match="a seq is a whole number"):
            api.state_at(FIXTURES / "roe7" / "disputed-duel.jsonl", at=at)  # type: ignore[arg-type]
