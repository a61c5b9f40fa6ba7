"""Simulated fights without Dask: fight seeds, the four rulesets' default policies (engine
fights audit clean), a ruleset bug reported with the fight's index, a ruleset without a
policy, and the replay of one fight of a run (hypothesis: the same bytes as the run
played, and the log verifies and audits)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.one_process import audit_events
from fightlog.errors import InputError
from fightlog.events.model import AttackResolved, RoundEnded, RoundStarted, SceneEnded
from fightlog.events.store import MemoryStore
from fightlog.kit.house import read_house_rules
from fightlog.kit.ruleset import policy_for
from fightlog.scale.fights import fight_events, fight_summary, summarize
from fightlog.scale.runs import audited, chunks, play_chunk
from fightlog.scale.seeds import fight_seed, master_seed
from fightlog.scale.setup import load_setup
from tests.conftest import FIXTURES
from tests.scale.conftest import DUEL

MASTER = master_seed(7)
SOURCES = {
    "roe7": FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml",
    "d20-evasion": FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.toml",
    "traveller": FIXTURES / "traveller" / "rosters" / "crew.toml",
    "en51": FIXTURES / "en51" / "rosters" / "tavern.toml",
    "bleeding-sun": FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml",
}


def test_fight_seeds_are_hmac_of_master_and_index() -> None:
    assert fight_seed(MASTER, 0) != fight_seed(MASTER, 1) != fight_seed(master_seed(8), 1)
    assert fight_seed(MASTER, 41) == fight_seed(MASTER, 41)
    assert len(fight_seed(MASTER, 2**40)) == 64


@pytest.mark.parametrize("ruleset", sorted(SOURCES))
def test_each_ruleset_policy_plays_fights_that_end_and_audit_clean(ruleset: str) -> None:
    setup = load_setup(str(SOURCES[ruleset]))
    assert setup.ruleset == ruleset and policy_for(ruleset) is not None
    for index in range(3):
        events = fight_events(setup, MASTER, index)
        assert isinstance(events[-1], SceneEnded) and events[-1].seed == fight_seed(MASTER, index)
        report = audit_events(events)
        assert report.findings == [], [f"{f.seq} {f.code}: {f.message}" for f in report.findings]
        summary = summarize(index, events)
        assert summary.rounds >= 1 and sum(summary.taken.values()) > 0
    assert fight_summary(setup, MASTER, 0).winner in (*setup.sides, "")


def test_en51_shooters_shoot() -> None:
    """en5.1 keeps no map and a shot names its distance: the policy's attacks named none, so
    every shot was refused and the shooters reloaded fresh weapons all fight long."""
    setup = load_setup(str(FIXTURES / "en51" / "rosters" / "ridge.toml"))
    shooters: set[str] = set()
    for index in range(4):
        events = fight_events(setup, MASTER, index)
        assert audit_events(events).findings == []
        shooters |= {e.attacker for e in events if isinstance(e, AttackResolved) and e.weapon in RIDGE_GUNS}
    assert shooters == {"drago", "oskar", "sela", "ines"}


RIDGE_GUNS = {"Rifle", "SMG", "Carbine", "Pistol"}


def test_same_seed_same_fight_other_seed_other_fight() -> None:
    setup = load_setup(str(SOURCES["roe7"]))
    first = msgspec.json.encode(fight_events(setup, MASTER, 3))
    assert first == msgspec.json.encode(fight_events(setup, MASTER, 3))
    assert first != msgspec.json.encode(fight_events(setup, MASTER, 4))


def test_a_clean_ruleset_gives_no_findings(example_with_policy: None) -> None:
    tally = play_chunk(load_setup(str(DUEL)), MASTER, 0, 6, 1)
    assert tally.fights == tally.audited == 6 and tally.findings == [] and tally.codes == {}


def test_a_ruleset_bug_is_a_finding_with_the_fight_index(example_with_policy: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The table counts a hit from 3 below the mark; its audit (the rule as written) flags
    every such attack, in the sampled fights only, each with its fight's index."""
    import fightlog_example.audit  # noqa: F401  (binds the rule as written, before the patch)
    import fightlog_example.table as table

    monkeypatch.setattr(table, "hit", lambda score, options: score >= options.hit_on - 3)
    tally = play_chunk(load_setup(str(DUEL)), MASTER, 0, 8, 2)
    assert tally.audited == 4
    assert tally.findings and {f.fight for f in tally.findings} <= {0, 2, 4, 6}
    assert set(tally.codes) == {"rules.outcome"}


def test_a_ruleset_without_a_policy_is_refused(example: None) -> None:
    with pytest.raises(InputError, match="has no policy to simulate fights with"):
        load_setup(str(DUEL))


def test_a_scenario_or_the_command_may_name_another_policy(example: None, tmp_path: Path) -> None:
    named = tmp_path / "duel.toml"
    named.write_text(DUEL.read_text(encoding="utf-8").replace(
        'roster = "roster.toml"', f'roster = "{DUEL.parent / "roster.toml"}"\npolicy = "tests.scale.example_policy"'),
        encoding="utf-8")
    setup = load_setup(str(named))
    assert setup.policy == "tests.scale.example_policy"
    assert play_chunk(setup, MASTER, 0, 3, 1).fights == 3
    assert load_setup(str(DUEL), policy="tests.scale.example_policy:POLICY").policy is not None
    with pytest.raises(InputError, match="policy 'no.such.module' does not load: ModuleNotFoundError"):
        load_setup(str(DUEL), policy="no.such.module")
    with pytest.raises(InputError, match="is not a policy"):
        load_setup(str(DUEL), policy="tests.scale.example_policy:OUT")


def test_bad_setups_are_one_line_input_errors(tmp_path: Path) -> None:
    text = (FIXTURES / "en51" / "rosters" / "tavern.toml").read_text(encoding="utf-8")
    nobody = tmp_path / "nobody.toml"
    nobody.write_text(text.split("\n[[combatants]]", 1)[0] + "\n", encoding="utf-8")
    with pytest.raises(InputError):  # the roster reader's own one-line error
        load_setup(str(nobody))
    one_side = tmp_path / "one-side.toml"
    one_side.write_text(text.replace('side = "smugglers"', 'side = "guards"'), encoding="utf-8")
    with pytest.raises(InputError, match="a fight needs two sides"):
        load_setup(str(one_side))
    unarmed = tmp_path / "unarmed.toml"
    unarmed.write_text(_without_weapons(text), encoding="utf-8")
    with pytest.raises(InputError, match="nobody carries a weapon"):
        load_setup(str(unarmed))
    neither = tmp_path / "neither.toml"
    neither.write_text('title = "x"\n', encoding="utf-8")
    with pytest.raises(InputError, match="neither a scenario"):
        load_setup(str(neither))
    with pytest.raises(InputError, match="no such file"):
        load_setup(str(tmp_path / "missing.toml"))


def test_house_rules_reach_every_fight() -> None:
    house = read_house_rules(FIXTURES / "roe7" / "house-rules.toml")
    plain, ruled = load_setup(str(SOURCES["roe7"])), load_setup(str(SOURCES["roe7"]), house)
    assert plain.options != ruled.options
    assert all(ruled.options[k] == v for k, v in house.values.items())


def test_chunks_cover_every_fight_once_and_sampling_is_by_index() -> None:
    for fights, workers in ((1, 2), (7, 2), (1000, 2), (100_000, 64)):
        parts = chunks(fights, workers)
        assert [i for a, b in parts for i in range(a, b)] == list(range(fights))
        assert max(b - a for a, b in parts) <= 500
    huge = chunks(10**9, 2)  # computed as asked, never held whole
    assert len(huge) == 2_000_000 and huge[0] == (0, 500) and huge[-1] == (10**9 - 500, 10**9)
    assert list(chunks(7, 2)[1:3]) == [(1, 2), (2, 3)]
    with pytest.raises(IndexError):
        chunks(7, 2)[7]
    assert [i for i in range(3000) if audited(i, 1000)] == [0, 1000, 2000]
    assert not any(audited(i, 0) for i in range(10))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(master=st.binary(min_size=32, max_size=32), fights=st.integers(1, 4), data=st.data())
def test_replaying_fight_i_writes_the_fight_the_run_played(tmp_path: Path, master: bytes, fights: int,
                                                           data: st.DataObject) -> None:
    """What ``--replay I`` writes is fight I of the run: the tally of the run counts exactly
    the replayed fights, and each replayed log verifies with its dice and audits clean."""
    from click.testing import CliRunner

    from fightlog.cli.main import cli

    setup = load_setup(str(SOURCES["en51"]))
    run = play_chunk(setup, master.hex(), 0, fights, 0)
    index = data.draw(st.integers(0, fights - 1))
    out = tmp_path / f"fight-{master.hex()[:8]}-{index}.jsonl"
    result = CliRunner().invoke(cli, ["sim", str(SOURCES["en51"]), "--seed", master.hex(), "--fights", str(fights),
                                      "--replay", str(index), "-o", str(out), "--force"])
    assert result.exit_code == 0, result.output
    store = MemoryStore()
    store.append(fight_events(setup, master.hex(), index))
    assert out.read_bytes() == store.to_bytes()
    replayed = [summarize(i, fight_events(setup, master.hex(), i)) for i in range(fights)]
    assert sum(s.rounds for s in replayed) == sum(r * c for r, c in run.rounds.items())
    for command in (["verify", "--dice", str(out)], ["audit", str(out)]):
        checked = CliRunner().invoke(cli, command)
        assert checked.exit_code == 0, checked.output


def _without_weapons(roster: str) -> str:
    """The roster with every ``weapons = [...]`` entry (one line or several) taken out."""
    out, skipping = [], False
    for line in roster.splitlines():
        if line.startswith("weapons = ["):
            skipping = not line.rstrip().endswith("]")
            continue
        if skipping:
            skipping = not line.startswith("]")
            continue
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("ruleset", sorted(SOURCES))
def test_a_draw_at_the_round_limit_ends_in_the_last_round(ruleset: str, tmp_path: Path) -> None:
    """A fight still going after ``--max-rounds 2`` opened round 3 before it ended (and was
    counted a 3-round fight): it ends in round 2, and audits clean."""
    setup = load_setup(str(SOURCES[ruleset]), max_rounds=2)
    for index in range(3):
        events = fight_events(setup, MASTER, index)
        summary = summarize(index, events)
        assert summary.rounds <= 2, (index, summary.rounds)
        assert max(getattr(e, "round", 0) or 0 for e in events) <= 2
        assert audit_events(events).findings == []
        if isinstance(events[-2], RoundEnded):  # a draw: the last round closed, and all its end resolves kept
            longer = fight_events(load_setup(str(SOURCES[ruleset]), max_rounds=3), MASTER, index)
            assert events[:-1] == longer[: len(events) - 1]  # the same fight as far as round 2's end


def test_a_fight_decided_in_a_rounds_last_turn_lasts_that_round() -> None:
    """Rook fell in round 4, Vex's turn the last of it; the fight opened round 5 and was
    counted 5 rounds long (and with --max-rounds 5 a win in 5, not a draw after 6)."""
    setup = load_setup(str(FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"))
    for index in range(6):
        events = fight_events(setup, MASTER, index)
        summary = summarize(index, events)
        decided = max(e.round for e in events if isinstance(e, RoundStarted))
        assert not any(isinstance(e, RoundStarted) for e in events[-3:])  # the last round closed, none opened
        assert summary.rounds == decided and isinstance(events[-1], SceneEnded) and events[-1].winner
