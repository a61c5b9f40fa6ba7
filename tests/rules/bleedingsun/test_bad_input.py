"""Bad input is one line naming the file (and line) or the post, exit 2, nothing written: a
sheet out of range (roster files), and through ``fightlog play post``: a pool below 1 after
penalties (option ``low_pool = "no_roll"``), a fire mode the weapon lacks, a second grenade
in one round, an immediate action already spent, a param an attack would ignore."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.events.codec import decode_line
from fightlog.reducers.fold import fold
from fightlog.rules.bleedingsun.roster import load_roster
from tests.conftest import FIXTURES
from tests.rules.refusals import refused, run

ROSTER = FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("hp = 12\n", "hp = 0\n", "kade: sheet.hp: must be at least 1, got 0"),
    ("rof = 3, ranges = [10, 20, 40, 80] },\n  { name = \"Knife\"", "rof = 12, ranges = [10, 20, 40, 80] },\n"
     "  { name = \"Knife\"", "kade: sheet.weapons[0].rof: must be at most 10, got 12"),
    ('fire = ["SA", "3RB"]', 'fire = ["SA", "4RB"]', "kade: sheet.weapons[0].fire[1]"),
    ('fire = ["SA", "3RB"]', 'fire = ["SA", "3RB", "SA"]', "kade: sheet.weapons[0].fire: SA listed twice: each fire "
     "type once"),
    ("ranges = [10, 20, 40, 80] },\n  { name = \"Knife\"", "ranges = [10, 40, 20, 80] },\n  { name = \"Knife\"",
     "kade: sheet.weapons[0].ranges: four increasing range limits"),
    ("agility = 4\nbody = 4", "agility = 21\nbody = 4", "kade: sheet.agility: must be at most 20, got 21"),
    ('dv = 0, blast = 7 }', 'dv = 0, blast = 7, fuse = 11 }', "sheet.weapons[0].fuse: must be at most 10, got 11"),
    ('ranges = [5, 10, 20, 40] },\n]', 'ranges = [5, 10, 20, 40], fuse = 1 },\n]', "fuse: only an explosive has a fuse"),
    ("ranges = [10, 20, 40, 80] },\n  { name = \"Knife\"", "ranges = [10, 20, 40, 80], blast = 4 },\n"
     "  { name = \"Knife\"", "kade: sheet.weapons[0].blast: only an explosive weapon has blast (this one is ranged)"),
    ("dv = 3, small = true }", "dv = 3, small = true, ranges = [1, 2, 3, 4] }",
     "kade: sheet.weapons[1].ranges: only a ranged or a thrown or an explosive weapon has ranges (this one is melee)"),
    ("dv = 0, blast = 7 }", "dv = 0, blast = 7, reach = 3 }", "sheet.weapons[0].reach: only a melee weapon has reach"),
    ('perks = [{ name = "Marksman", ranged = 1 }]', 'perks = [{ name = "Marksman", ranged = 1 }, '
     '{ name = "Marksman", ranged = 1 }]', "kade: sheet.perks[1].name: 'Marksman' is already a perk of this sheet (a "
     "perk counts once: give one entry its whole bonus)"),
    ('kickers = [{ status = "stunned", rating = 2 }]', 'kickers = [{ status = "stunned", rating = 2 }, '
     '{ status = "stunned", rating = 3 }]', "sheet.weapons[0].kickers[1].status: 'stunned' is already a kicker of "
     "this weapon (each status once, with its rating)"),
])
def test_a_sheet_out_of_range_is_one_line_naming_file_line_and_field(tmp_path: Path, old: str, new: str,
                                                                      said: str) -> None:
    path = tmp_path / "roster.toml"
    text = ROSTER.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(InputError) as caught:
        load_roster(path)
    shown = str(caught.value)
    assert "\n" not in shown and shown.startswith(f"{path}:") and said in shown, shown


def test_a_roster_of_another_ruleset_is_named_so() -> None:
    from fightlog.rules.roe7.roster import load_roster as load_roe7_roster

    with pytest.raises(InputError) as caught:
        load_roe7_roster(ROSTER)  # not its first sheet problem among 200
    assert str(caught.value) == (f"{ROSTER}:2: ruleset: expected 'roe7', got 'bleeding-sun': a roster for another "
                                 "ruleset")
    gate = FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml"
    with pytest.raises(InputError) as caught:
        load_roster(gate)
    assert "ruleset: expected 'bleeding-sun', got 'roe7'" in str(caught.value)


def current(log: Path) -> str:
    state = fold([decode_line(line) for line in log.read_bytes().splitlines()])
    assert state.turn.current is not None
    return state.turn.current


@pytest.fixture
def fight(tmp_path: Path) -> Path:
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "bleeding-sun", "--seed", "7")[0] == 0
    assert run("play", "join", str(log), "--roster", str(ROSTER), "mara", "vex")[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    return log


def _other(actor: str) -> str:
    return "vex" if actor == "mara" else "mara"


def test_a_pool_below_one_after_penalties_is_no_roll(fight: Path) -> None:
    actor = current(fight)
    weapon = "SMG" if actor == "mara" else "Rifle"
    out = refused(fight, actor, "--do", f"attack target={_other(actor)} weapon={weapon} range=long cover=total")
    assert "nothing to roll (option low_pool = no_roll)" in out


def test_a_fire_mode_the_weapon_lacks(fight: Path) -> None:
    actor = current(fight)
    weapon = "SMG" if actor == "mara" else "Rifle"
    assert "cannot fire 3rb" in refused(fight, actor, "--do", f"attack target={_other(actor)} weapon={weapon} mode=3rb")


@pytest.mark.parametrize(("do", "said"), [
    ("move hexes=-1", "move: hexes=-1: how far, a whole number of hexes from 1 to 1000"),
    ("move hexes=0", "move: hexes=0: how far, a whole number of hexes from 1 to 1000"),
    ("move", "move: how far (hexes=N)"),
    ("sprint hexes=-3", "sprint: hexes=-3: how far, a whole number of hexes from 1 to 1000"),
    ("move hexes=two", "move: hexes=two: how far, a whole number of hexes from 1 to 1000"),  # was exit 3
    ("move hexes=1e3", "move: hexes=1e3: how far, a whole number of hexes from 1 to 1000"),
])
def test_a_move_says_what_is_wrong_with_how_far(fight: Path, do: str, said: str) -> None:
    assert said in refused(fight, current(fight), "--do", do)


def test_a_move_of_no_count_in_the_log_folds(fight: Path) -> None:
    """A ruling amended a move's hexes to "two": every `state` and `play post` after it
    crashed (the action economy read the count with int())."""
    actor = current(fight)
    assert run("play", "post", str(fight), actor, "--do", "move hexes=2")[0] == 0
    seq = len(fight.read_bytes().splitlines()) - 1  # the post, before its moved
    code, said = run("rule", str(fight), "amend", str(seq), "--set", "actions[0].params.hexes=two", "--by", "GM",
                     "--reason", "typo")
    assert code in (0, 2), said
    assert run("state", str(fight))[0] == 0
    assert run("play", "post", str(fight), actor, "--do", "say")[0] in (0, 2)


def test_a_second_grenade_in_one_round(fight: Path) -> None:
    if current(fight) != "mara":
        assert run("play", "post", str(fight), "vex", "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
    throw = "throw weapon=Frag target=vex"
    assert "a second grenade this round" in refused(fight, "mara", "--do", throw, "--do", throw)


def test_cooking_a_grenade_without_a_delay_left(fight: Path) -> None:
    if current(fight) != "mara":
        assert run("play", "post", str(fight), "vex", "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
    assert "the Frag has no delay left to cook (fuse 0)" in refused(fight, "mara", "--do", "cook weapon=Frag")
    assert "the SMG is not an explosive to cook" in refused(fight, "mara", "--do", "cook weapon=SMG")


def test_an_immediate_action_already_spent(fight: Path) -> None:
    for _ in range(3):  # talk until Vex's turn in round 2: nobody is flat-footed any more
        assert run("play", "post", str(fight), current(fight), "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
        if current(fight) == "vex" and fold([decode_line(x) for x in fight.read_bytes().splitlines()]).turn.round == 2:
            break
    assert current(fight) == "vex"
    assert run("play", "post", str(fight), "vex", "--do", "attack target=mara weapon=Rifle range=short")[0] == 0
    assert run("play", "post", str(fight), "mara", "--do", "dodge")[0] == 0
    assert "has spent the immediate action this round" in refused(fight, "mara", "--do", "stop_aim")


def test_jumping_on_no_grenade_waiting(fight: Path) -> None:
    for _ in range(2):  # a round of talk: nobody is flat-footed any more
        assert run("play", "post", str(fight), current(fight), "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
    other = _other(current(fight))
    assert "no grenade is waiting" in refused(fight, other, "--do", "jump distance=1")


@pytest.mark.parametrize(("do", "said"), [
    ("attack target={them} weapon={gun} range=short high=yes", "high=yes: write high=true or high=false"),
    ("attack target={them} weapon={gun} range=short coverr=medium", "coverr=medium is not read by an attack"),
    ("attack target={them} weapon={gun} range=short d_{them}=3", "d_{them}=3 is not read by an attack"),
])
def test_a_param_the_attack_would_ignore(fight: Path, do: str, said: str) -> None:
    actor = current(fight)
    them, gun = _other(actor), "SMG" if actor == "mara" else "Rifle"
    assert said.format(them=them) in refused(fight, actor, "--do", do.format(them=them, gun=gun))


def test_cover_on_a_spread_or_a_blast_is_each_targets_own(fight: Path) -> None:
    if current(fight) != "mara":
        assert run("play", "post", str(fight), "vex", "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
    out = refused(fight, "mara", "--do", "throw weapon=Frag target=vex cover=medium")
    assert "a blast's cover is each target's own, added to soak: write cover_ID=medium" in out


def test_a_fire_mode_on_a_melee_weapon(fight: Path) -> None:
    if current(fight) != "vex":
        assert run("play", "post", str(fight), "mara", "--do", "say")[0] == 0
        assert run("play", "end-turn", str(fight))[0] == 0
    out = refused(fight, "vex", "--do", "attack target=mara weapon=Machete distance=1 mode=3rb")
    assert "mode=3rb: the Machete fires no modes (a melee weapon)" in out


def test_a_position_is_refused_bleeding_sun_keeps_no_map(tmp_path: Path) -> None:
    """``--at`` (and a scenario's ``[positions]``) recorded positions nothing read: each attack
    says how far. Refused, nothing written."""
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "bleeding-sun", "--seed", "7")[0] == 0
    before = log.read_bytes()
    code, out = run("play", "join", str(log), "--roster", str(ROSTER), "kade", "vex", "--at", "kade=0,0")
    assert code == 2 and out.strip().endswith("refused: kade: a position is given, but bleeding-sun keeps no map: "
                                              "each attack says how far, distance=N (hexes), or at what range band, "
                                              "range=BAND"), out
    assert log.read_bytes() == before
    scenario = FIXTURES / "bleeding-sun" / "scenarios" / "shotgun-spread.toml"
    text = scenario.read_text().replace('join = ["rook", "vex", "dray"]\n',
                                        'join = ["rook", "vex", "dray"]\n\n[positions]\nvex = [4, 0]\n')
    placed = tmp_path / "scenarios" / "placed.toml"
    placed.parent.mkdir()
    placed.write_text(text.replace("../rosters/ash-market.toml", str(ROSTER)))
    code, out = run("run", str(placed), "-o", str(tmp_path / "out.jsonl"))
    line = text.splitlines().index("vex = [4, 0]") + 1
    assert code == 2 and out.startswith(f"fightlog: {placed}:{line}: join[1] (vex): vex: a position is given"), out
