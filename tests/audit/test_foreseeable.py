"""``dice.foreseeable``: engine rolls after a void undid the scene end that revealed their
seed (``fightlog.audit.ruled.ForeseenRolls``). ``fightlog rule`` refuses such a void now and
``play`` will not play on after one; a log written by an older fightlog, or by hand, may hold
one, and the audit must not call it clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.audit.auditor import audit_log
from fightlog.dice import FairGenerator, dice_rolled, roll
from fightlog.events.model import AnyEvent, RulingMade, SceneEnded
from fightlog.events.reader import read_log
from fightlog.events.store import FileStore
from tests.cli import run
from tests.conftest import FIXTURES

ALLEY = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"


def read_events(path: str) -> list[AnyEvent]:
    return [event for _, event in read_log(path)]


def _played_on(tmp_path: Path, *, void: bool = True, rolls: int = 2, seedless_end: bool = False) -> Path:
    """The alley duel, its end voided (or not), then ``rolls`` engine rolls drawn from the
    seed the end revealed, as an older fightlog playing on would have drawn them."""
    path = tmp_path / "alley.jsonl"
    events: list[AnyEvent] = list(read_events(str(ALLEY)))
    end = events[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    if seedless_end:  # a hand-run scene's end: nothing revealed
        text = ALLEY.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(text[:-1]))
        FileStore(str(path)).append([SceneEnded(winner=end.winner)], expect=len(events) - 1)
    else:
        path.write_bytes(ALLEY.read_bytes())
    store = FileStore(str(path))
    count = len(events)
    if void:
        store.append([RulingMade(by="gm", action="void", target=end.seq, reason="one more round")], expect=count)
        count += 1
    generator = FairGenerator(end.seed, "alley-duel")
    index = 1 + max(e.index for e in events if getattr(e, "index", None) is not None)  # type: ignore[union-attr]
    for n in range(rolls):
        event = dice_rolled(roll("1d100", generator, index=index + n), roller="vex", purpose="attack")
        store.append([event], expect=count)
        count += 1
    return path


@pytest.mark.parametrize("parallel", [False, True], ids=["one process", "two processes"])
def test_rolls_after_a_voided_revealing_end_are_an_error_at_the_first(tmp_path: Path, parallel: bool) -> None:
    path = _played_on(tmp_path, rolls=3)
    report = audit_log(path, workers=2 if parallel else 1, parallel_min_bytes=0 if parallel else None)
    found = [f for f in report.findings if f.code == "dice.foreseeable"]
    ended = len(read_events(str(ALLEY)))
    assert [(f.seq, f.severity, f.actor) for f in found] == [(ended + 2, "error", "vex")]
    assert found[0].message == (f"vex's roll came after the scene's end at seq {ended} revealed the dice seed, and the "
                                f"ruling at seq {ended + 1} voided that end: anyone holding the log could foresee it; "
                                "so could the 2 engine rolls after it")
    assert found[0].rule == "fightlog dice (docs/dice.md)"
    assert not [f for f in report.findings if f.code == "dice.seed"]  # drawn honestly: only foreseeable


def test_the_cli_exits_1_naming_the_line(tmp_path: Path) -> None:
    path = _played_on(tmp_path, rolls=1)
    ended = len(read_events(str(ALLEY)))
    result = run("audit", str(path))
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(f"seq {ended + 2}    error    dice.foreseeable       vex: vex's roll came after ")


@pytest.mark.parametrize("parallel", [False, True], ids=["one process", "two processes"])
def test_rolls_after_an_end_that_stands_are_foreseeable_too(tmp_path: Path, parallel: bool) -> None:
    """Engine rolls appended after the end (by hand: ``play`` refuses to play on): no ruling."""
    path = _played_on(tmp_path, void=False, rolls=2)
    report = audit_log(path, workers=2 if parallel else 1, parallel_min_bytes=0 if parallel else None)
    ended = len(read_events(str(ALLEY)))
    assert [(f.code, f.seq, f.message) for f in report.findings if f.code.startswith("dice.")] == [
        ("dice.foreseeable", ended + 1, f"vex's roll came after the scene's end at seq {ended} revealed the dice seed: "
         "anyone holding the log could foresee it; so could the 1 engine roll after it")]


def test_a_ruling_that_voids_something_else_counts_each_roll_once(tmp_path: Path) -> None:
    path = _played_on(tmp_path, void=False, rolls=3)
    count = len(path.read_bytes().splitlines())
    FileStore(str(path)).append([RulingMade(by="gm", action="void", target=count, reason="a stray roll")], expect=count)
    found = [f for f in audit_log(path).findings if f.code == "dice.foreseeable"]
    assert len(found) == 1 and found[0].message.endswith("so could the 1 engine roll after it")  # the voided one not counted


@pytest.mark.parametrize("case", ["no roll after", "an end that revealed no seed"])
def test_nothing_foreseeable_without_a_roll_after_a_revealed_seed(tmp_path: Path, case: str) -> None:
    """A void with no engine roll after it; a hand-run end that revealed no seed."""
    path = _played_on(tmp_path, rolls=0 if case == "no roll after" else 2,
                      seedless_end=case == "an end that revealed no seed")
    report = audit_log(path)
    assert "dice.foreseeable" not in {f.code for f in report.findings}


def test_an_open_scene_foresees_nothing_new(tmp_path: Path) -> None:
    """An open scene's seed was public from its start, as its players agreed: voiding its end
    and rolling on reveals nothing more (``rule`` allows it)."""
    path = tmp_path / "open.jsonl"
    roster = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")
    for args in (("start", "--ruleset", "roe7", "--open"),
                 ("join", "--roster", roster, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0"),
                 ("begin",), ("end",)):
        done = run("play", args[0], str(path), *args[1:])
        assert done.exit_code == 0, done.output
    ended = len(path.read_bytes().splitlines())
    assert run("rule", str(path), "void", str(ended), "--by", "gm", "--reason", "on").exit_code == 0
    posted = run("play", "post", str(path), "alice", "Alice fires.", "--do", "attack target=bob weapon=Rifle")
    assert posted.exit_code == 0, posted.output
    assert path.read_bytes().count(b'"dice_rolled"') >= 2  # engine rolls after the voided end
    assert "dice.foreseeable" not in run("audit", str(path), "--format", "json").stdout

