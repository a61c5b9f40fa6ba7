"""Notation: what parses, what each operation does (with scripted faces), and bad input."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import DiceError, DiceLimitError, DiceSyntaxError, DiceValueError
from fightlog.dice import compile_expression, limits
from fightlog.dice import lexer as lexer_module
from fightlog.dice.expression import Expression
from tests.dice.conftest import ModuloStream, ScriptedStream



def roll_with(
    expr: str, faces: Iterable[int], scripted: type[ScriptedStream]
) -> tuple[int, list[tuple[int, ...]]]:
    """Roll ``expr`` with scripted faces; return the value and each term's faces."""
    stream = scripted(faces)
    result = compile_expression(expr).roll(stream)
    assert stream.pos == len(stream.faces), "not every scripted face was drawn"
    return result.value, [t.faces for t in result.terms]


# --------------------------------------------------------------------------- acceptance


@pytest.mark.parametrize(
    ("expr", "count", "sides"),
    [
        ("1d20", 1, 20),
        ("d20", 1, 20),
        ("3d6", 3, 6),
        ("d%", 1, 100),
        ("2d%", 2, 100),
        ("1D20", 1, 20),
        ("2D", 2, 6),
        ("D", 1, 6),
        ("1d100", 1, 100),
        ("1d70", 1, 70),
        ("1d60", 1, 60),
        ("1d40", 1, 40),
        ("1d10", 1, 10),
        ("1d1", 1, 1),
        ("BW", 2, 20),
        ("bw", 2, 20),
        ("1000d6", 1000, 6),
        ("1d1000000", 1, 1_000_000),
    ],
)
def test_dice_terms(expr: str, count: int, sides: int) -> None:
    (term,) = compile_expression(expr).terms
    assert (term.count, term.sides) == (count, sides)


def test_labels_and_notation() -> None:
    e = compile_expression("1d20+5 # attack")
    assert (e.notation, e.label) == ("1d20+5", "attack")
    e = compile_expression("  1d20 #")
    assert (e.notation, e.label) == ("1d20", None)
    e = compile_expression("1d20 # à l'épée #2")
    assert e.label == "à l'épée #2"


def test_whitespace_between_tokens() -> None:
    spaced = compile_expression(" 4d6 kh3 + 1d4\t- 2 ")
    assert [t.text for t in spaced.terms] == ["4d6kh3", "1d4"]
    assert spaced.bounds() == compile_expression("4d6kh3+1d4-2").bounds()


def test_compiled_expressions_are_cached() -> None:
    assert compile_expression("3d20kh1+5") is compile_expression("3d20kh1+5")


# --------------------------------------------------------------------------- semantics


def test_sum_and_arithmetic(scripted: type[ScriptedStream]) -> None:
    assert roll_with("2d6+2", [3, 4], scripted) == (9, [(3, 4)])
    assert roll_with("1d6+2*3", [5], scripted)[0] == 11
    assert roll_with("(1d6+2)*3", [5], scripted)[0] == 21
    assert roll_with("-1d4", [3], scripted)[0] == -3
    assert roll_with("--1d4", [3], scripted)[0] == 3
    assert roll_with("1d6-1d6", [2, 5], scripted)[0] == -3
    assert roll_with("10//3", [], scripted)[0] == 3
    assert roll_with("-7//2", [], scripted)[0] == -4  # floor division rounds down
    assert roll_with("(1d6-7)//2", [2], scripted)[0] == -3
    assert roll_with("7", [], scripted)[0] == 7


def test_operations_apply_in_turn(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("4d6dh1kh2").roll(scripted([6, 2, 5, 3]))
    assert r.terms[0].kept == (False, False, True, True)  # drop the highest, then the lowest
    r = compile_expression("4d6rr1ro2").roll(scripted([1, 2, 3, 4, 2, 1, 5]))
    assert r.terms[0].faces == (1, 5, 3, 4)  # rr1: 1 -> 2; ro2 then rerolls both 2s once
    assert r.terms[0].rerolled == ((1, 2), (2,), (), ())


def test_keep_and_drop(scripted: type[ScriptedStream]) -> None:
    e = compile_expression("4d6kh3")
    r = e.roll(scripted([3, 6, 1, 6]))
    assert (r.value, r.terms[0].kept) == (15, (True, True, False, True))
    r = compile_expression("3d20kh1").roll(scripted([17, 4, 9]))
    assert (r.value, r.terms[0].kept) == (17, (True, False, False))
    r = compile_expression("2d20kl").roll(scripted([17, 4]))
    assert r.value == 4
    r = compile_expression("4d6dl1").roll(scripted([1, 1, 4, 6]))
    assert r.terms[0].kept == (False, True, True, True)  # ties: the earlier die goes first
    r = compile_expression("3d6kh1").roll(scripted([5, 5, 2]))
    assert r.terms[0].kept == (True, False, False)
    r = compile_expression("4d6dh2").roll(scripted([6, 2, 6, 3]))
    assert (r.value, r.terms[0].kept) == (5, (False, True, False, True))
    r = compile_expression("3d6kh3").roll(scripted([1, 2, 3]))
    assert r.terms[0].kept is None
    r = compile_expression("2d6dl2").roll(scripted([1, 2]))
    assert r.value == 0


def test_reroll_once(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("4d6ro1").roll(scripted([1, 6, 1, 3, 1, 4]))
    assert r.terms[0].faces == (1, 6, 4, 3)  # rerolled once only, even into a 1
    assert r.terms[0].rerolled == ((1,), (), (1,), ())
    r = compile_expression("2d6ro<=2").roll(scripted([2, 3, 5]))
    assert r.terms[0].faces == (5, 3)


def test_reroll_until(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("2d6rr1").roll(scripted([1, 5, 1, 1, 3]))
    assert r.terms[0].faces == (3, 5)
    assert r.terms[0].rerolled == ((1, 1, 1), ())
    r = compile_expression("1d10rr<3").roll(scripted([2, 1, 9]))
    assert r.terms[0].faces == (9,)


def test_reroll_chain_is_bounded(modulo: type[ModuloStream]) -> None:
    stream = modulo(constant=0)  # every face is 1
    r = compile_expression("1d6rr1").roll(stream)
    assert stream.drawn == 1 + limits.MAX_CHAIN
    assert r.terms[0].faces == (1,)  # the last face stands
    assert r.terms[0].rerolled is not None
    assert len(r.terms[0].rerolled[0]) == limits.MAX_CHAIN


def test_explode(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("3d6!").roll(scripted([6, 2, 6, 6, 1, 3]))
    assert r.terms[0].faces == (6, 2, 6, 6, 1, 3)
    assert r.value == 24
    dice = r.dice
    assert [d.exploded for d in dice] == [False, False, False, True, True, True]
    r = compile_expression("2d10!>=9").roll(scripted([9, 3, 10, 2]))
    assert r.terms[0].faces == (9, 3, 10, 2)
    r = compile_expression("2d6!5").roll(scripted([5, 6, 1]))
    assert r.terms[0].faces == (5, 6, 1)


def test_explosion_chain_is_bounded(modulo: type[ModuloStream]) -> None:
    stream = modulo(constant=5)  # every d6 shows 6
    r = compile_expression("1d6!").roll(stream)
    assert len(r.terms[0].faces) == 1 + limits.MAX_CHAIN


@pytest.mark.parametrize("expr", ["1000d6!", "1000d6rr<6", "1000d6!rr<6", "1000d1000000!>=2"])
def test_draws_per_roll_are_bounded(expr: str, modulo: type[ModuloStream]) -> None:
    stream = modulo(constant=1_000_000 - 1 if "1000000" in expr else 5 if "!" in expr else 0)
    compile_expression(expr).roll(stream)
    assert stream.drawn <= limits.MAX_DRAWS


def test_min_max(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("4d6mi3").roll(scripted([1, 2, 5, 6]))
    assert r.terms[0].faces == (3, 3, 5, 6)
    r = compile_expression("4d6ma4").roll(scripted([1, 2, 5, 6]))
    assert r.terms[0].faces == (1, 2, 4, 4)
    r = compile_expression("3d6kh1mi4").roll(scripted([1, 2, 3]))
    assert r.terms[0].faces == (1, 2, 4)  # only the kept die (the 3) is raised


@pytest.mark.parametrize(
    ("expr", "hits"),
    [("5d6>=5", 2), ("5d6>=6", 1), ("5d6<=3", 3), ("5d6<=2", 2), ("5d6=1", 1), ("5d6=4", 0)],
)
def test_success_counting(expr: str, hits: int, scripted: type[ScriptedStream]) -> None:
    r = compile_expression(expr).roll(scripted([6, 2, 5, 1, 3]))
    assert r.value == r.successes == hits
    assert (r.ones, r.max_faces) == (1, 1)


def test_success_counting_with_keep_and_modifier(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("5d6dl1>=5+1").roll(scripted([6, 2, 5, 1, 6]))
    assert r.value == 4


def test_traveller_effect_and_bw_labels(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("2D+1").roll(scripted([4, 5]))
    assert (r.total, r.effect) == (10, 2)
    r = compile_expression("BW").roll(scripted([17, 2]))
    assert (r.die("black").face, r.die("white").face) == (17, 2)
    with pytest.raises(KeyError):
        r.die("red")


def test_counts_of_ones_and_max_faces(scripted: type[ScriptedStream]) -> None:
    r = compile_expression("8d6").roll(scripted([1, 6, 6, 1, 3, 1, 6, 2]))
    assert (r.ones, r.max_faces) == (3, 3)
    r = compile_expression("3d6dl1").roll(scripted([1, 6, 1]))
    assert (r.ones, r.max_faces) == (1, 1)  # the dropped 1 does not count


def test_draw_order(scripted: type[ScriptedStream]) -> None:
    """Terms left to right, then operations in written order, dice by position."""
    stream = scripted([1, 2, 6, 3, 4])
    compile_expression("2d6ro1!+1d8").roll(stream)
    # 2d6 -> [1, 2]; ro1 rerolls die 1 -> 6; ! explodes it -> 3; then the d8 -> 4
    assert stream.asked == [6, 6, 6, 6, 8]


def test_modifiers(scripted: type[ScriptedStream]) -> None:
    e = compile_expression("1d100")
    r = e.roll(scripted([57]), [(10, "scope"), (5, "racial")])
    assert (r.value, r.total) == (57, 72)
    assert [(m.value, m.source) for m in r.modifiers] == [(10, "scope"), (5, "racial")]
    bad_modifiers: list[list[tuple[object, str]]] = [
        [(True, "x")], [(1.5, "x")], [(1, "")], [(10**8, "gm")]
    ]
    for bad in bad_modifiers:
        with pytest.raises(DiceError):
            e.roll(scripted([57]), bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(
    ("expr", "low", "high"),
    [
        ("1d100+15", 16, 115),
        ("3d20kh1+5", 6, 25),
        ("4d6dl1", 3, 18),
        ("1d6-1d4", -3, 5),
        ("-1d4*2", -8, -2),
        ("(2d6+3)//2", 2, 7),
        ("10//(1d4)", 2, 10),
        ("-10//(1d4)", -10, -3),
        ("5d6>=5", 0, 5),
        ("5d6mi5>=5", 5, 5),
        ("5d6ma4>=5", 0, 0),
        ("4d6mi3", 12, 24),
        ("4d6ro1", 4, 24),
        ("1d6rr<3", 1, 6),  # a chain at its limit keeps its last face
        ("BW", 2, 40),
        ("2D+1", 3, 13),
        ("7", 7, 7),
    ],
)
def test_bounds(expr: str, low: int, high: int) -> None:
    assert compile_expression(expr).bounds() == (low, high)


def test_bounds_of_explosions_are_safe() -> None:
    low, high = compile_expression("3d6!").bounds()
    assert low == 3
    assert high >= 6 * 3 * (1 + limits.MAX_CHAIN) or high == 6 * limits.MAX_DRAWS


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("1d20+", "1d20+ : expected a number at column 6"),
        ("1d20+)", "1d20+) : expected a number, got ')' at column 6"),
        ("d-6", "d-6 : expected the number of sides, got '-' at column 2"),
        ("1d", "1d : expected the number of sides at column 3"),
        ("1d6 1d6", "1d6 1d6 : expected an operator, got '1' at column 5"),
        ("(1d6", "(1d6 : expected ')' at column 5"),
        ("1d6)", "1d6) : unmatched ')' at column 4"),
        (
            "1d6/2",
            "1d6/2 : use // for division (it rounds down): 1d6 //2 (avrae and roll20 divide "
            "exactly: --dialect avrae) at column 4",
        ),
        (
            "1d6!!",
            "1d6!! : compounding explosions (!!) are roll20's: --dialect roll20 (fightlog's ! "
            "adds a die for each explosion) at column 4",
        ),
        ("1d6y", "1d6y : unexpected character 'y' at column 4"),
        ("1d6ro", "1d6ro : expected a number at column 6"),
        ("BWkh1", "BWkh1 : BW takes no dice operations at column 3"),
        ("\u0663d6", "\u0663d6 : non-ASCII digit '\u0663' (use 0-9) at column 1"),
        ("1d\uff16", "1d\uff16 : non-ASCII digit '\uff16' (use 0-9) at column 3"),
        ("1d6+\u00b2", "1d6+\u00b2 : non-ASCII digit '\u00b2' (use 0-9) at column 5"),
        ("1d20\n", "1d20\\u000a : unprintable character U+000A at column 5"),
        ("1d20 # \u202eevil", "1d20 # \\u202eevil : unprintable character U+202E at column 8"),
        (
            "1d20+5>=3",
            "1d20+5>=3 : did you mean the total tested against it with pass or fail, 1d20+5 >=3 "
            "(RPG Sage: --dialect rpg-sage)? at column 7",
        ),
    ],
)
def test_syntax_errors_name_the_column(expr: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        compile_expression(expr)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("", "empty dice expression (try 1d20+5)"),
        ("   ", "empty dice expression (try 1d20+5)"),
        ("# attack", "# attack : no dice expression before the label"),
        ("0d6", "0d6 : roll at least 1 die at column 1"),
        ("d0", "d0 : a die needs at least 1 side at column 2"),
        ("3d0", "3d0 : a die needs at least 1 side at column 3"),
        ("3d6kh4", "3d6kh4 : kh4 keeps 4 dice but only 3 are rolled at column 4"),
        ("2d6dl3", "2d6dl3 : dl3 drops 3 dice but only 2 are rolled at column 4"),
        ("4d6kh2mi1kl3", "4d6kh2mi1kl3 : kl3 keeps 3 dice but only 2 are left at column 10"),
        ("2d6dl2kh1", "2d6dl2kh1 : kh1 keeps 1 die but only 0 are left at column 7"),
        (
            "4d6kh1kl1",
            "4d6kh1kl1 : kl1 right after kh1 is ambiguous (dice bots merge such runs into one "
            "selection; use one keep) at column 7",
        ),
        (
            "4d6dh1dl1",
            "4d6dh1dl1 : dl1 right after dh1 is ambiguous (dice bots merge such runs into one "
            "selection; use one drop) at column 7",
        ),
        (
            "4d6ro1ro2",
            "4d6ro1ro2 : ro2 right after ro1 is ambiguous (dice bots merge such runs into one "
            "selection; use one ro with a comparison, such as ro<=2) at column 7",
        ),
        (
            "4d6!>=5!",
            "4d6!>=5! : ! right after !>=5 is ambiguous (dice bots merge such runs into one "
            "selection; use one ! with a comparison, such as !>=5) at column 8",
        ),
        ("3d6kh0", "3d6kh0 : kh0 selects no dice at column 4"),
        ("1d1!", "1d1! : ! explodes on every face of a d1: it would never stop at column 4"),
        (
            "2d6!>=1",
            "2d6!>=1 : !>=1 explodes on every face of a d6: it would never stop at column 4",
        ),
        ("1d6rr<7", "1d6rr<7 : rr<7 rerolls every face of a d6: it would never stop at column 4"),
        ("1d6mi7", "1d6mi7 : mi7 is above the die's 6 sides at column 4"),
        ("1d6ma0", "1d6ma0 : ma0 is below the lowest face, 1 at column 4"),
        ("1d6//0", "1d6//0 : division by zero at column 4"),
        ("1d6//(1d2-1)", "1d6//(1d2-1) : the divisor can be 0 at column 4"),
    ],
)
def test_value_errors(expr: str, message: str) -> None:
    with pytest.raises(DiceValueError) as info:
        compile_expression(expr)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("expr", "limit"),
    [
        ("1d6+" + "1" * 300, "characters"),
        ("1d20+" + "9" * 200, "digits"),
        ("9" * 8, "digits"),
        ("1001d6", "dice"),
        ("600d6+401d6", "dice"),
        ("1d1000001", "sides"),
        ("(" * 33 + "1" + ")" * 33, "depth"),
        ("-" * 33 + "1", "depth"),
        ("1000000*1000000*1001", "total"),
    ],
)
def test_limits(expr: str, limit: str) -> None:
    with pytest.raises(DiceLimitError) as info:
        compile_expression(expr)
    assert info.value.limit == limit
    assert info.value.value > info.value.maximum
    assert "\n" not in str(info.value) and str(info.value)


def test_limits_at_the_edge_are_accepted() -> None:
    compile_expression("1000d6")
    compile_expression("1d1000000")
    compile_expression("(" * 32 + "1" + ")" * 32)
    compile_expression("1000000*1000000*1000")
    compile_expression("1d6+" + "1" * 7)
    compile_expression("1+" * 127 + "12")  # 256 characters


def test_long_numbers_are_refused_before_conversion(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digit run is measured before int() sees it: int() is never given a long string."""
    seen: list[str] = []

    def guarded_int(text: str) -> int:
        seen.append(text)
        assert len(text) <= limits.MAX_NUMBER_DIGITS
        return int(text)

    monkeypatch.setattr(lexer_module, "int", guarded_int, raising=False)
    with pytest.raises(DiceLimitError):
        lexer_module.tokenize("1d20+" + "9" * 250)
    assert seen == ["1", "20"]


class _NoDice:
    """A generator that fails the test if anything draws from it."""

    def stream(self, index: int) -> object:
        raise AssertionError("rolled before the limit check")

    def new_inner(self) -> object:
        raise AssertionError("rolled before the limit check")

    new_outer = new_inner


@pytest.mark.parametrize("expr", ["1001d6", "1d1000001", "1d20+" + "9" * 200, "x" * 300])
def test_limits_are_checked_before_rolling(expr: str) -> None:
    from fightlog.dice import roll

    with pytest.raises(DiceLimitError):
        roll(expr, _NoDice(), 0)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- properties

DICE_ALPHABET = "0123456789dDkhlrmiao!<>=+-*/()%#BWbw \t\u0663\uff11x\n"


@settings(max_examples=400, database=None, deadline=None)
@given(st.one_of(st.text(max_size=300), st.text(alphabet=DICE_ALPHABET, max_size=40)))
def test_any_string_compiles_or_raises_a_dice_error(text: str) -> None:
    try:
        compiled = compile_expression(text)
    except DiceError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(compiled, Expression)
        low, high = compiled.bounds()
        assert low <= high
