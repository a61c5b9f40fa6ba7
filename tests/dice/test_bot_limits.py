"""What the bots' own sources say, checked: Dice Maiden's explosions and limits, avrae's d20
roll limit, and fightlog's own ``d%`` (each test failed before its fix).

Sources: Dice Maiden's ``src/dice_maiden_logic.rb`` (``check_roll``) and Humblemonk/Dice-Bag's
``lib/dicebag/roll_part.rb`` (``handle_explode``: ``r >= explode``); avrae/d20's
``d20/dice.py`` (``RollContext.count_roll``: every die, reroll and explosion counted, refused
past 1000) and ``d20/expression.py`` (``Die._add_roll``: ``d%`` is a tens die).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast
from unittest import mock

import d20
import d20.expression
import pytest
from click.testing import CliRunner, Result

from fightlog.cli.main import cli
from fightlog.errors import DiceError, DiceLimitError, DiceSyntaxError, DiceValueError
from fightlog.dice import FairGenerator, RollVerifier, compile_expression, dice_commitment, dice_rolled, read_roll, roll
from fightlog.dice.dialects import compile_in
from fightlog.dice.external import check_reply
from fightlog.dice.limits import AVRAE, DICE_MAIDEN, check_rolls
from fightlog.dice.replies import read_reply
from fightlog.events.model import FORMAT_VERSION, AnyEvent, SceneEnded, SceneStarted
from fightlog.events.store import MemoryStore
from tests.dice.conftest import ModuloStream, ScriptedStream

SEED = bytes(range(32)).hex()


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def maiden(request: str, tally: str, result: int) -> str:
    return f"Alice Request: `[{request}]` Roll: `[{tally}]` Result: `{result}`"


def avrae(notation: str, faces: list[str], total: int) -> str:
    return f"<@42>  :game_die:\n**Result**: {notation} ({', '.join(faces)})\n**Total**: {total}"


def codes(text: str) -> list[str]:
    read = read_reply(text)
    assert read is not None
    return [d.code for d in check_reply(read)]


# --------------------------------------------------------------------------- 1: Dice Maiden's eN / ieN


@pytest.mark.parametrize(
    ("expr", "faces", "total", "added"),
    [
        ("3d6 e5", [6, 5, 3, 4, 2], 20, 2),  # the 6 and the 5 explode, once each
        ("3d6 e5", [6, 5, 3, 6, 5], 25, 2),  # the added dice do not explode again
        ("3d6e5", [6, 2, 3, 4], 15, 1),
        ("3d6 ie5", [6, 5, 3, 5, 2, 1], 22, 3),  # the added 5 explodes in turn
        ("3d6 e", [6, 5, 3, 2], 16, 1),  # no number: the highest face
        ("3d6 e0", [6, 5, 3], 14, 0),  # dicebag's 0 is off
        ("3d6 ie0", [6, 5, 3], 14, 0),
        ("3d6 e7", [6, 5, 3], 14, 0),
        ("2d6 e1", [2, 3, 6, 6], 17, 2),  # once: every die adds one, and it ends
    ],
)
def test_dice_maiden_explodes_on_n_or_more(expr: str, faces: list[int], total: int, added: int) -> None:
    result = compile_in(expr, "dice-maiden").roll(ScriptedStream(faces))
    assert result.total == total
    assert sum(d.exploded for d in result.dice) == added


def test_the_testers_roll_explodes_the_six_too() -> None:
    out = run("roll", "--seed", "7", "--dialect", "dice-maiden", "3d6 e5")
    assert out.exit_code == 0
    assert out.stdout == "3d6e5 (6, 5, 5, +4, +6, +4) = 30\n"


def test_the_bots_reply_exploding_a_six_on_e5_adds_up() -> None:
    text = maiden("3d6 e5", "6, 5, 3], [4, 2", 20)
    assert codes(text) == []
    out = run("read-roll", text)
    assert out.exit_code == 0, out.stdout
    assert out.stdout == "Dice Maiden by Alice: 3d6e5 (6, 5, 3, +4, +2) = 20 [dialect dice-maiden]\n"


def test_a_reply_missing_an_explosion_of_a_face_above_n_is_named() -> None:
    assert codes(maiden("3d6 e5", "6, 5, 3], [4", 18)) == ["roll-explode"]


@pytest.mark.parametrize(("expr", "written"), [("2d6 ie1", "ie1"), ("1d6ie1", "ie1"), ("1d20 ie1 t10", "ie1")])
def test_dice_maiden_explosions_that_would_never_stop_are_refused(expr: str, written: str) -> None:
    with pytest.raises(DiceValueError, match=f"{written} matches every face of a d"):
        compile_in(expr, "dice-maiden")
    out = run("roll", "--dialect", "dice-maiden", expr)
    assert out.exit_code == 2 and "it would never stop" in out.stderr


# --------------------------------------------------------------------------- 2: avrae's 1000 rolls


class _Gen:
    """A generator whose roll draws ``raw % sides + 1`` from a list (fightlog's ``roll``
    and a patched d20 then see the same faces)."""

    def __init__(self, raws: list[int]) -> None:
        self.raws = raws

    def stream(self, index: int) -> ModuloStream:
        return ModuloStream(self.raws)


def _d20_refuses(expr: str, raws: list[int]) -> bool:
    draws: Iterator[int] = iter(raws)

    def randrange(size: int, *rest: int) -> int:
        return next(draws) % size

    with mock.patch.object(d20.expression.random, "randrange", randrange):
        try:
            d20.roll(expr)
        except d20.TooManyRolls:
            return True
    return False


def _fightlog_refuses(expr: str, raws: list[int]) -> bool:
    try:
        roll(expr, cast(FairGenerator, _Gen(raws)), 0, dialect="avrae")
    except DiceLimitError as exc:
        assert exc.limit == "rolls" and exc.maximum == 1000
        return True
    return False


@pytest.mark.parametrize(
    ("expr", "raws", "refused"),
    [
        ("999d6e6", [5] + [0] * 998 + [0], False),  # one 6: 1000 dice rolled
        ("999d6e6", [5, 5] + [0] * 997 + [0, 0], True),  # two 6s: 1001
        ("998d6e6", [5, 5] + [0] * 996 + [5, 0, 0], True),  # an added 6 explodes in turn: 1001
        ("990d6rr1", [0] * 10 + [3] * 990 + [3] * 10, False),  # ten rerolls: 1000
        ("990d6rr1", [0] * 11 + [3] * 989 + [3] * 11, True),
        ("500d6+500d6", [2] * 1000, False),
        ("1d20rr<20", [0] * 999 + [19], False),
        ("1d20rr<20", [0] * 1000 + [19], True),
    ],
)
def test_avrae_refuses_a_roll_past_1000_dice_exactly_where_d20_does(expr: str, raws: list[int], refused: bool) -> None:
    assert _d20_refuses(expr, raws) is refused
    assert _fightlog_refuses(expr, raws) is refused


def test_random_rolls_near_the_limit_agree_with_d20() -> None:
    rng = random.Random(20)
    for expr in ("995d6e6", "990d4rr1", "900d10e>8", "997d6ra6"):
        for _ in range(10):
            raws = [rng.getrandbits(32) for _ in range(3000)]
            assert _fightlog_refuses(expr, raws) is _d20_refuses(expr, raws), expr


@pytest.mark.parametrize("expr", ["1000d6e6", "1000d1000000rr<1000000"])
def test_the_testers_avrae_rolls_are_refused_naming_the_limit(expr: str) -> None:
    out = run("roll", "--seed", "7", "--dialect", "avrae", expr)
    assert out.exit_code == 2 and out.stdout == ""
    line = out.stderr.strip()
    assert "\n" not in line and line.endswith("avrae's d20 rolls at most 1000 dice per roll")
    assert line.startswith(f"fightlog: {expr} : ") and "dice rolled, rerolls and explosions included" in line


def test_the_roll_limit_is_avraes_only() -> None:
    gen = FairGenerator(SEED, "duel-1")
    assert roll("1000d6!", gen, 0).dice  # fightlog's own: draws past 1000 are fine (limit 10,000)
    assert roll("400d6 ie6", gen, 0, dialect="dice-maiden").dice
    check_rolls("x", 10**6, DICE_MAIDEN)  # no roll limit
    check_rolls("x", 1000, AVRAE)
    with pytest.raises(DiceLimitError, match="1001 dice rolled"):
        check_rolls("x", 1001, AVRAE)


def test_an_old_log_holding_an_avrae_roll_past_the_limit_still_verifies() -> None:
    gen = FairGenerator(SEED, "duel-1")
    old = compile_in("1000d6e6", "avrae").roll(gen.stream(0), index=0)  # rolled before the limit
    assert len(old.dice) > 1000
    rolled = dice_rolled(old, roller="bob")
    assert rolled.dialect == "avrae"
    events: list[AnyEvent] = [
        SceneStarted(scene="duel-1", ruleset="roe7", format=FORMAT_VERSION, dice=dice_commitment(SEED)),
        rolled,
        SceneEnded(seed=SEED, winner="bob"),
    ]
    store = MemoryStore()
    store.append(events)
    verifier = RollVerifier(SEED)
    for line, event in store.read():
        verifier.feed(line, event)
    assert verifier.finish() == []


def _rerolled(dice: int, rerolls: int) -> str:
    faces = ["**~~1~~**, 4"] * rerolls + ["4"] * (dice - rerolls)
    return avrae(f"{dice}d6rr1", faces, 4 * dice)


def test_an_avrae_reply_showing_more_than_1000_dice_rolled_could_not_exist() -> None:
    assert codes(_rerolled(700, 300)) == []  # 1000 dice rolled: d20 prints it
    read = read_reply(_rerolled(700, 301))
    assert read is not None and not read.problems
    (found,) = check_reply(read)
    assert found.code == "roll-limit"
    assert found.message == (
        "Avrae reply (700d6rr1): over the avrae dialect's limits: 700d6rr1 : 1001 dice rolled, "
        "rerolls and explosions included; avrae's d20 rolls at most 1000 dice per roll"
    )
    out = run("read-roll", _rerolled(700, 301))
    assert out.exit_code == 1 and "roll-limit: " in out.stdout and "700d6rr1 : 1001 dice rolled" in out.stdout


def test_an_avrae_reply_past_the_engines_1000_dice_is_named_too() -> None:
    faces = ["**6!**", "**6!**"] + ["2"] * 997 + ["3", "4"]  # 999d6e6: 1001 dice shown, read up to 1000
    read = read_reply(avrae("999d6e6", faces, 12 + 2 * 997 + 7))
    assert read is not None and read.problems  # read only in part
    assert [d.code for d in check_reply(read)] == ["roll-limit"]
    assert "999d6e6 : 1001 dice rolled" in check_reply(read)[0].message


# --------------------------------------------------------------------------- 3: Dice Maiden's limits


@pytest.mark.parametrize(
    ("expr", "limit", "maximum", "message"),
    [
        ("501d6", "pool", 500, "501d6 : 501 dice in one pool at column 1; Dice Maiden rolls at most 500 dice per pool"),
        ("1d20 + 501d6 k3", "pool", 500, "501 dice in one pool at column 8"),
        ("1d1001", "sides", 1000, "1d1001 : a die of 1001 sides at column 1; Dice Maiden rolls dice of at most 1000"),
        ("2 1d1001", "sides", 1000, "Dice Maiden rolls dice of at most 1000 sides"),
    ],
)
def test_dice_maiden_limits(expr: str, limit: str, maximum: int, message: str) -> None:
    with pytest.raises(DiceLimitError, match=message) as info:
        compile_in(expr, "dice-maiden")
    assert (info.value.limit, info.value.maximum) == (limit, maximum)


@pytest.mark.parametrize("expr", ["1d1", "d1", "3d1 + 1d6", "+d1"])
def test_dice_maiden_refuses_dice_of_one_side(expr: str) -> None:
    with pytest.raises(DiceValueError, match="a die of 1 side at column .*; Dice Maiden rolls dice of 2 sides or more"):
        compile_in(expr, "dice-maiden")


@pytest.mark.parametrize("expr", ["500d6", "1d1000", "1d2", "300d6 + 300d6", "2d%", "4dF"])
def test_dice_maiden_rolls_up_to_its_limits(expr: str) -> None:
    compile_in(expr, "dice-maiden")


@pytest.mark.parametrize("dialect", ["fightlog", "avrae", "roll20", "rpg-sage"])
def test_dice_maidens_limits_hold_in_its_dialect_only(dialect: str) -> None:
    for expr in ("501d6", "1d1001", "1d1"):
        compile_in(expr, dialect)


def test_a_dice_maiden_reply_the_bot_would_have_refused_is_named() -> None:
    tally = ", ".join(["3"] * 501)
    assert codes(maiden("501d6", tally, 1503)) == ["roll-limit"]
    assert codes(maiden("1d1", "1", 1)) == ["roll-notation"]


# --------------------------------------------------------------------------- 4: fightlog's d%


@pytest.mark.parametrize(
    ("expr", "column", "spelled"), [("1d%", 3, "1d100"), ("d%", 2, "d100"), ("2d%+5 # loot", 3, "2d100+5 # loot")]
)
def test_fightlogs_d_percent_is_refused_naming_both_readings(expr: str, column: int, spelled: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        roll(expr, FairGenerator(SEED, "duel-1"), 0)
    message = str(info.value)
    assert info.value.column == column
    assert "as a d100 (1 to 100)" in message and "avrae's d20 as a tens die (0, 10, ..., 90)" in message
    assert f"write {spelled} or --dialect avrae '{expr.partition('#')[0].strip()}'" in message
    out = run("roll", expr)
    assert out.exit_code == 2 and "is ambiguous" in out.stderr


def test_d_percent_reads_on_in_the_dialects_and_in_old_logs() -> None:
    gen = FairGenerator(SEED, "duel-1")
    assert roll("1d%", gen, 0, dialect="avrae").total % 10 == 0
    assert 1 <= roll("1d%", gen, 0, dialect="dice-maiden").total <= 100
    old = compile_expression("1d%").roll(gen.stream(3), index=3)  # rolled before the refusal
    assert read_roll(dice_rolled(old, roller="bob")).total == old.total
    assert compile_expression("1d%").terms[0].sides == 100


def test_d20_itself_reads_d_percent_as_a_tens_die() -> None:
    for _ in range(50):
        assert d20.roll("1d%").total in range(0, 100, 10)


def test_bot_limit_refusals_are_dice_errors() -> None:
    for expr, dialect in (("501d6", "dice-maiden"), ("1d1", "dice-maiden"), ("2d6 ie1", "dice-maiden")):
        with pytest.raises(DiceError):
            compile_in(expr, dialect)


def test_a_limit_the_reply_and_its_event_are_both_over_is_named_once() -> None:
    """2000 dice shown: read up to the engine's 1000 (the reply's own ``roll-limit``) and the
    event re-checked against avrae's limits (the same finding): said once, not twice."""
    read = read_reply(avrae("2000d2", ["1"] * 2000, 2000))
    assert read is not None and read.problems
    assert [d.code for d in check_reply(read)] == ["roll-limit"]
