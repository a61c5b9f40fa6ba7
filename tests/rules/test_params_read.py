"""A param or field its action does not read is refused by every ruleset's table (``kit.declared.
unread_param`` with each ruleset's ``PARAMS_READ`` and ``FIELDS_READ``; bleeding-sun's own
``post_params``): a misspelt ``coverr=half`` was rolled as if not written, and ``reload
weapon=Rifle target=bob`` reloaded as if no target were named."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.errors import RefusedError
from fightlog.kit.actions import parse_actions
from fightlog.kit.declared import FIELD_KEYS, unread_param
from fightlog.rules.bleedingsun.planning import ATTACKS
from fightlog.rules.bleedingsun.post_params import FIELDS_BY, check_said
from fightlog.rules.bleedingsun.ruleset import ACTION_TYPES as BS_TYPES
from fightlog.rules.d20evasion.ruleset import ACTION_TYPES as D20_TYPES, FIELDS_READ as D20_FIELDS, PARAMS_READ as D20_READ
from fightlog.rules.en51.ruleset import ACTION_TYPES as EN51_TYPES, FIELDS_READ as EN51_FIELDS, PARAMS_READ as EN51_READ
from fightlog.rules.roe7.ruleset import ACTION_TYPES as ROE7_TYPES, FIELDS_READ as ROE7_FIELDS, PARAMS_READ as ROE7_READ
from fightlog.rules.traveller.ruleset import (ACTION_TYPES as TRAVELLER_TYPES, FIELDS_READ as TRAVELLER_FIELDS,
                                              PARAMS_READ as TRAVELLER_READ)
from tests.conftest import FIXTURES
from tests.rules.refusals import refused, run

TABLES = {"roe7": (ROE7_TYPES, ROE7_READ, ROE7_FIELDS), "d20-evasion": (D20_TYPES, D20_READ, D20_FIELDS),
          "traveller": (TRAVELLER_TYPES, TRAVELLER_READ, TRAVELLER_FIELDS), "en51": (EN51_TYPES, EN51_READ, EN51_FIELDS)}


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_every_action_type_read_is_one_the_ruleset_has(ruleset: str) -> None:
    types, read, _ = TABLES[ruleset]
    assert set(read) <= set(types)
    assert read["say"] == ("text",)


@pytest.mark.parametrize(("ruleset", "do", "said"), [
    ("roe7", "attack target=bob weapon=Rifle coverr=half",
     "coverr=half is not read by attack (it reads shots, offhand, offhand_target, secondaries, through, gm)"),
    ("roe7", "reload weapon=Rifle fast=true", "fast=true is not read by reload (it reads none)"),
    ("traveller", "move x=1 y=2 terain=rough", "terain=rough is not read by move (it reads x, y, terrain)"),
    ("en51", "cover vaule=2", "vaule=2 is not read by cover (it reads value)"),
    ("d20-evasion", "move lateral=true speed=3", "speed=3 is not read by move (it reads lateral, points)"),
])
def test_a_param_no_action_reads_is_refused(ruleset: str, do: str, said: str) -> None:
    with pytest.raises(RefusedError) as caught:
        unread_param(parse_actions([do]), TABLES[ruleset][1])
    assert caught.value.code == "rules.incomplete" and said in str(caught.value)


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_every_field_read_is_a_field_of_an_action_type_the_ruleset_has(ruleset: str) -> None:
    types, _, fields = TABLES[ruleset]
    assert set(fields) <= set(types)
    assert all(set(read) <= set(FIELD_KEYS) for read in fields.values())
    assert set(FIELDS_BY) <= set(BS_TYPES) - ATTACKS and all(set(r) <= set(FIELD_KEYS) for r in FIELDS_BY.values())


@pytest.mark.parametrize(("ruleset", "do", "said"), [
    ("roe7", "reload weapon=Rifle target=bob", "target=bob is not read by reload (it reads weapon)"),
    ("roe7", "attack target=bob weapon=Rifle item=Frag",
     "item=Frag is not read by attack (it reads target, weapon, mode, range, distance, shots, offhand, "),
    ("roe7", "sprint distance=12", "distance=12 is not read by sprint (it reads none)"),
    ("d20-evasion", "dodge weapon=Sword attack=3", "weapon=Sword is not read by dodge (it reads attack)"),
    ("traveller", "reload weapon=Pistol cost=minor", "cost=minor: what a reload spends of the turn is the rules' to say"),
    ("roe7", "sprint cost=free", "cost=free: what a sprint spends of the turn is the rules' to say (leave cost out)"),
    ("d20-evasion", "attack target=gunman range=close cost=free", "cost=free: what an attack spends of the turn is"),
    ("traveller", "aim target=bob", "target=bob is not read by aim (it reads none)"),
    ("en51", "move distance=3 targets=a,b", "targets=a,b is not read by move (it reads distance)"),
    ("en51", "attack target=bob weapon=Bow range=far",
     "range=far is not read by attack (it reads target, weapon, mode, distance, unaware, roll, turn, cover, gm)"),
])
def test_a_field_no_action_reads_is_refused(ruleset: str, do: str, said: str) -> None:
    _, read, fields = TABLES[ruleset]
    unread_param(parse_actions([do]), read)  # fields are checked only when given
    with pytest.raises(RefusedError) as caught:
        unread_param(parse_actions([do]), read, fields)
    assert caught.value.code == ("rules.allowance" if "cost=" in do else "rules.incomplete") and said in str(caught.value)


@pytest.mark.parametrize(("do", "said"), [
    ("reload weapon=Rifle target=vex", "target=vex is not read by reload (it reads weapon)"),
    ("stance to=prone weapon=Rifle", "weapon=Rifle is not read by stance (it reads to, from)"),
    ("move distance=3 cost=free", "cost=free: what a move spends of the turn is the rules' to say (leave cost out)"),
    ("move hexes=1 distance=5", "hexes=1 and distance=5: say how far once"),
])
def test_bleeding_sun_refuses_a_field_an_action_other_than_an_attack_does_not_read(do: str, said: str) -> None:
    with pytest.raises(RefusedError) as caught:
        check_said(parse_actions([do]), ATTACKS)
    assert caught.value.code in ("rules.incomplete", "rules.allowance") and said in str(caught.value)
    check_said(parse_actions(["pick_up weapon=Knife", "drop item=Medkit", "perceive target=vex", "reload weapon=Rifle"]),
               ATTACKS)  # what the declaration alone says (the GM reads it) passes


def test_what_each_action_reads_passes() -> None:
    unread_param(parse_actions(["attack target=bob weapon=Rifle shots=2 gm=-3", "say text=hi"]), ROE7_READ)
    unread_param(parse_actions(["attack target=bob weapon=Rifle mode=auto range=close shots=2",
                                "reload weapon=Rifle", "throw target=bob item=Frag x=3 y=4"]), ROE7_READ, ROE7_FIELDS)


def test_a_misspelt_param_is_refused_at_the_table_and_nothing_written(tmp_path: Path) -> None:
    log = tmp_path / "gate.jsonl"
    gate = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")
    assert run("play", "start", str(log), "--ruleset", "roe7", "--seed", "5")[0] == 0
    at = ("--at", "alice=0,0", "--at", "bob=20,0")
    assert run("play", "join", str(log), "--roster", gate, "alice", "bob", *at)[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    out = refused(log, "alice", "Alice fires.", "--do", "attack target=bob weapon=Rifle mode=auto coverr=half")
    assert "refused: coverr=half is not read by attack" in out
    out = refused(log, "alice", "Alice reloads.", "--do", "reload weapon=Rifle target=bob")
    assert "refused: target=bob is not read by reload (it reads weapon)" in out
    out = refused(log, "alice", "Alice fires.", "--do", "attack target=bob weapon=Rifle distance=40")  # bob: 20 m
    assert "refused: distance=40: bob is 20 m away on the map (the rules measure it there: leave distance= out)" in out
    out = refused(log, "alice", "Alice runs 3 m.", "--do", "move x=0 y=6 m=3")  # (0, 6) is 6 m away
    assert "refused: m=3: (0, 6) is 6 m from alice on the map (the rules measure it there: leave m= out)" in out
    out = refused(log, "alice", "Alice runs 3 m.", "--do", "move x=0 y=6 distance=3")
    assert "refused: distance=3: (0, 6) is 6 m from alice on the map" in out
    code, out = run("play", "post", str(log), "alice", "--do", "move x=4 y=0 m=4", "--do",
                    "attack target=bob weapon=HPistol distance=16")  # from where the move left her
    assert code == 0, out
    out = refused(log, "alice", "Alice sprints, free.", "--do", "sprint cost=free")  # a cost was an action more
    assert "refused: cost=free: what a sprint spends of the turn is the rules' to say (leave cost out)" in out


def test_a_log_an_earlier_table_wrote_with_an_unread_param_is_still_disputed(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Its post is played again as recorded (``Post.recorded``): the param changed nothing then,
    so the fork is not refused and the log does not depart from the rules."""
    from fightlog.events.codec import decode_line
    from fightlog.events.model import DiceRolled
    from fightlog.rules.roe7.table import Roe7Table

    log = tmp_path / "old.jsonl"
    gate = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")
    assert run("play", "start", str(log), "--ruleset", "roe7", "--seed", "5", "--open")[0] == 0
    at = ("--at", "alice=0,0", "--at", "bob=20,0")
    assert run("play", "join", str(log), "--roster", gate, "alice", "bob", *at)[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    with monkeypatch.context() as old:
        old.setattr(Roe7Table, "params_read", None)  # the table before it checked params
        code, out = run("play", "post", str(log), "alice", "--do", "attack target=bob weapon=Rifle coverr=half")
        assert code == 0, out
    rolls = [e.seq for e in map(decode_line, log.read_bytes().splitlines()) if isinstance(e, DiceRolled)]
    code, out = run("dispute", str(log), "--at", str(rolls[-1]), "--set", "dice[0].face=1")
    assert code in (0, 1) and "cannot play the post" not in out and "departs" not in out, out
