"""A combatant entering an imported fight in progress (a cast entry's ``arrives``): joined
as an arrival in the round before, slotted in after the one before them in ``order``, so the
audit does not call them skipped in the rounds before they came."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from fightlog.importing.cast import load_cast
from tests.conftest import FIXTURES
from tests.importing.test_import_cli import run

_FIGHT = (
    "[2024/06/13 23:58:10]  Gemma Sinclair (gemma.resident): ((Round 1. Order: Bob, Alice.))\n"
    "[2024/06/13 23:58:40]  Bob Kade (bob.resident): /me fires at Alice.\n"
    "[2024/06/13 23:58:41]  RoE combat HUD (bob): Bob Kade rolls 1d100 for attack: 73\n"
    "[2024/06/13 23:58:45]  RoE combat HUD (alice): Alice Vance rolls 1d100 for dodge: 35\n"
    "[2024/06/13 23:59:02]  Alice Vance (alice.resident): Alice shoots Bob.\n"
    "[2024/06/13 23:59:10]  Mira Sol (mira.sol): {claim}\n"
    "[2024/06/13 23:59:20]  Gemma Sinclair (gemma.resident): ((Round 2))\n"
    "[2024/06/13 23:59:40]  Bob Kade (bob.resident): /me fires at Alice again.\n"
    "[2024/06/13 23:59:50]  Mira Sol (mira.sol): /me runs in from the gate, drawing a pistol.\n"
    "[2024/06/14 00:00:02]  Alice Vance (alice.resident): Alice shoots Bob.\n"
    "[2024/06/14 00:00:20]  Gemma Sinclair (gemma.resident): ((Round 3))\n"
    "[2024/06/14 00:00:40]  Bob Kade (bob.resident): /me fires at Mira.\n"
    "[2024/06/14 00:00:50]  Mira Sol (mira.sol): /me fires at Bob.\n"
    "[2024/06/14 00:01:02]  Alice Vance (alice.resident): Alice shoots Bob.\n"
)

_CAST = """\
timezone = "America/Los_Angeles"
order = {order}

[[combatants]]
id = "alice"
name = "Alice Vance"
side = "colony"
speakers = ["alice.resident"]

[[combatants]]
id = "bob"
name = "Bob Kade"
side = "raiders"
speakers = ["bob.resident"]

[[combatants]]
id = "mira"
name = "Mira Sol"
side = "colony"
speakers = ["mira.sol"]
{arrives}
[gm]
name = "Gemma"
speakers = ["gemma.resident"]

[[dice]]
speakers = ["RoE combat HUD (*)"]
bot = "sl-hud"
tool = "RoE combat HUD"

[hints.roe7]
attack = ['\\b(fires?|shoots?)\\b']
"""

_OOC = "((heard the gunfire: taking the slot after Bob))"


def _import(tmp_path: Path, arrives: str = "arrives = 2", *, claim: str = _OOC, order: str = '["bob", "mira", "alice"]',
            extra: tuple[str, ...] = ()) -> tuple[int, str, Path]:
    transcript = tmp_path / "gate.txt"
    transcript.write_text(_FIGHT.format(claim=claim))
    cast = tmp_path / "cast.toml"
    cast.write_text(_CAST.format(order=order, arrives=arrives))
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast),
                          *extra)
    return code, stderr, out


def _events(log: Path) -> list[dict[str, object]]:
    return [msgspec.json.decode(line) for line in log.read_bytes().splitlines()]


def _order_findings(log: Path) -> list[str]:
    """The audit's posting-order findings (the transcript's attacks roll nothing: warnings of their own)."""
    report = run("audit", str(log))[1]
    return [line.split(None, 4)[3] + " " + line.split(None, 4)[4].split(" [")[0] for line in report.splitlines()
                  if " order." in line]


def test_an_arrival_joins_as_the_round_before_theirs_closes_and_posts_in_their_slot(tmp_path: Path) -> None:
    code, stderr, log = _import(tmp_path)
    assert code == 0, stderr
    events = _events(log)
    assert [e["order"] for e in events if e["kind"] == "initiative_set"] == [["bob", "alice"]]
    flow = [(e["kind"], e.get("round") or e.get("actor"), e.get("after"), e["origin"]["ref"]) for e in events
            if e["kind"] in ("combatant_joined", "round_started", "round_ended") and "origin" in e]
    assert flow == [("round_started", 1, None, "gate.txt:1"), ("round_ended", 1, None, "gate.txt:7"),
                    ("combatant_joined", "mira", "bob", "gate.txt:7"), ("round_started", 2, None, "gate.txt:7"),
                    ("round_ended", 2, None, "gate.txt:11"), ("round_started", 3, None, "gate.txt:11")]
    joined = next(e for e in events if e["kind"] == "combatant_joined" and e["actor"] == "mira")
    assert joined["arrival"] is True and joined["name"] == "Mira Sol"
    turns = [(e["round"], e["actor"]) for e in events if e["kind"] == "turn_started"]
    assert turns == [(1, "bob"), (1, "alice"), (2, "bob"), (2, "mira"), (2, "alice"), (3, "bob"), (3, "mira"), (3, "alice")]
    assert _order_findings(log) == []


def test_without_arrives_the_late_comer_is_skipped_in_the_round_before(tmp_path: Path) -> None:
    code, stderr, log = _import(tmp_path, "")
    assert code == 0, stderr
    assert _order_findings(log) == ["order.skipped mira: mira was skipped: round 1 ended before mira had posted in it"]


def test_a_post_in_character_before_the_arrival_round_is_by_someone_not_in_the_fight(tmp_path: Path) -> None:
    code, stderr, log = _import(tmp_path, claim="/me fires at Bob from the gate.")
    assert code == 0, stderr
    assert _order_findings(log) == ["order.not-in-fight mira: mira posted but has not joined the fight"]


def test_with_a_roster_the_arrival_joins_with_their_sheet(tmp_path: Path) -> None:
    roster = str(FIXTURES / "roe7/rosters/gate-skirmish.toml")
    code, stderr, log = _import(tmp_path, extra=("--roster", roster))
    assert code == 0, stderr
    joined = [(e["actor"], e.get("arrival", False), e.get("after"), bool(e["sheet"])) for e in _events(log)
              if e["kind"] == "combatant_joined"]
    assert joined == [("alice", False, None, True), ("bob", False, None, True), ("mira", True, "bob", True)]
    assert _order_findings(log) == []


def _cast(tmp_path: Path, order: str, arrivals: dict[str, int]) -> Path:
    entries = "".join(f'[[combatants]]\nid = "{who}"\nspeakers = ["{who}.resident"]\n'
                      + (f"arrives = {arrivals[who]}\n" if who in arrivals else "") + "\n"
                      for who in ("alice", "bob", "kestrel", "mira"))
    path = tmp_path / "cast.toml"
    path.write_text(f"order = {order}\n\n{entries}")
    return path


@pytest.mark.parametrize(
    ("order", "arrivals", "slots"),
    [
        ('["bob", "mira", "kestrel", "alice"]', {"mira": 2, "kestrel": 2}, {"mira": (2, "bob"), "kestrel": (2, "mira")}),
        # kestrel, before mira in the order, comes later: mira takes the slot after bob
        ('["bob", "kestrel", "mira", "alice"]', {"mira": 2, "kestrel": 4}, {"mira": (2, "bob"), "kestrel": (4, "bob")}),
        ('["bob", "alice", "kestrel", "mira"]', {"mira": 3, "kestrel": 5}, {"mira": (3, "alice"), "kestrel": (5, "alice")}),
    ],
)
def test_each_arrival_follows_the_nearest_before_them_in_the_fight_by_then(
    tmp_path: Path, order: str, arrivals: dict[str, int], slots: dict[str, tuple[int, str]]
) -> None:
    assert load_cast(_cast(tmp_path, order, arrivals), "roe7").arrivals == slots


@pytest.mark.parametrize(
    ("order", "arrivals", "said"),
    [
        ('["mira", "bob", "alice"]', {"mira": 2},
         "combatants[3].arrives: mira arrives in round 2 but nobody before them in the posting order is in the fight "
         "by then: an arrival takes the slot after someone (move them down `order`)"),
        ('["bob", "alice"]', {"mira": 2},
         "combatants[3].arrives: mira arrives in round 2 but is not in `order`: give their slot there"),
        ('["bob", "mira", "alice"]', {"mira": 1}, "combatants[3].arrives: must be at least 2, got 1"),
    ],
)
def test_an_arrival_without_a_slot_is_refused_at_its_line_and_no_log_is_written(
    tmp_path: Path, order: str, arrivals: dict[str, int], said: str
) -> None:
    cast = _cast(tmp_path, order, arrivals)
    transcript = tmp_path / "gate.txt"
    transcript.write_text(_FIGHT.format(claim=_OOC))
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    line = cast.read_text().splitlines().index("arrives = " + str(arrivals["mira"])) + 1
    assert (code, stderr) == (2, f"fightlog: {cast}:{line}: {said}\n")
    assert not out.exists()


def test_a_status_of_one_not_arrived_yet_is_a_warning_and_not_recorded(tmp_path: Path) -> None:
    """A tester's GM line "Mira is down" before Mira's round: the import took her out (her
    post in her slot became another's) while the log had her status on someone not joined."""
    transcript = tmp_path / "gate.txt"
    transcript.write_text(_FIGHT.format(claim="((coming))").replace(
        "[2024/06/13 23:59:10]  Mira Sol (mira.sol): ((coming))\n",
        "[2024/06/13 23:59:10]  Gemma Sinclair (gemma.resident): ((mira is down))\n"))
    cast = tmp_path / "cast.toml"
    cast.write_text(_CAST.format(order='["bob", "mira", "alice"]', arrives="arrives = 2")
                    + "\n[[status]]\npattern = '(?P<who>\\w+) is down'\nstatus = \"defeated\"\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0
    assert stderr == (f"fightlog: warning: {transcript}:6: mira is not in the fight yet (arrives in round 2): their "
                      "status 'defeated' is not recorded\n")
    assert [e for e in _events(out) if e["kind"] == "status_changed"] == []
    assert _order_findings(out) == []
