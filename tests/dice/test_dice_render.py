"""The one-line breakdown and the plain-data rendering."""

from __future__ import annotations

import pytest

from fightlog.dice import as_data, breakdown, compile_expression
from tests.dice.conftest import ScriptedStream



@pytest.mark.parametrize(
    ("expr", "faces", "modifiers", "line"),
    [
        (
            "1d100",
            [57],
            [(10, "scope"), (5, "racial")],
            "1d100 (57) + 15 [scope +10, racial +5] = 72",
        ),
        ("1d100", [57], [(-5, "cover")], "1d100 (57) - 5 [cover -5] = 52"),
        ("1d100", [57], [(5, "a"), (-5, "b")], "1d100 (57) + 0 [a +5, b -5] = 57"),
        ("3d20kh1+5", [17, 4, 9], [], "3d20kh1 (17, [4], [9]) + 5 = 22"),
        ("4d6ro1", [1, 3, 4, 6, 5], [], "4d6ro1 (1->5, 3, 4, 6) = 18"),
        ("2d6rr1", [1, 5, 1, 4], [], "2d6rr1 (1->1->4, 5) = 9"),
        ("3d6!", [6, 2, 4, 6, 3], [], "3d6! (6, 2, 4, +6, +3) = 21"),
        ("5d6>=5", [6, 2, 5, 1, 3], [], "5d6>=5 (6*, 2, 5*, 1, 3) = 2"),
        ("4d6dl1>=4", [1, 4, 5, 2], [], "4d6dl1>=4 ([1], 4*, 5*, 2) = 2"),
        ("BW", [17, 2], [], "BW (black 17, white 2) = 19"),
        ("1d20+5 # attack", [12], [], "1d20 (12) + 5 = 17 # attack"),
        ("2D+1", [3, 4], [], "2D (3, 4) + 1 = 8"),
        ("d%", [100], [], "d% (100) = 100"),
        ("(1d6+2)*3//2", [5], [], "(1d6 (5) + 2) * 3 // 2 = 10"),
        ("-1d4 - -2", [3], [], "-1d4 (3) - -2 = -1"),
        ("4d6 kh3", [2, 5, 5, 6], [], "4d6kh3 ([2], 5, 5, 6) = 16"),
        ("7", [], [(1, "gm")], "7 + 1 [gm +1] = 8"),
    ],
)
def test_breakdown(
    expr: str,
    faces: list[int],
    modifiers: list[tuple[int, str]],
    line: str,
    scripted: type[ScriptedStream],
) -> None:
    result = compile_expression(expr).roll(scripted(faces), modifiers)
    assert breakdown(result) == line


def test_as_data_is_plain_and_complete(scripted: type[ScriptedStream]) -> None:
    pool = compile_expression("5d6>=5 # pool")
    result = pool.roll(scripted([6, 2, 5, 1, 3]), [(1, "aim")], index=4)
    assert as_data(result) == {
        "notation": "5d6>=5",
        "label": "pool",
        "dice": [
            {"sides": 6, "face": 6},
            {"sides": 6, "face": 2},
            {"sides": 6, "face": 5},
            {"sides": 6, "face": 1},
            {"sides": 6, "face": 3},
        ],
        "value": 2,
        "modifiers": [{"value": 1, "source": "aim"}],
        "total": 3,
        "index": 4,
        "generator": "engine",
        "ones": 1,
        "max_faces": 1,
        "successes": 2,
        "breakdown": "5d6>=5 (6*, 2, 5*, 1, 3) + 1 [aim +1] = 3 # pool",
    }


def test_rendering_does_not_change_the_result(scripted: type[ScriptedStream]) -> None:
    result = compile_expression("4d6dl1").roll(scripted([1, 4, 5, 2]))
    before = (result.terms, result.total)
    assert breakdown(result) == breakdown(result)
    as_data(result)
    assert (result.terms, result.total) == before


@pytest.mark.parametrize(
    ("expr", "faces", "line"),
    [
        ("3d20kh1+5", [17, 4, 9], "3d20kh1 (17, ~~4~~, ~~9~~) + 5 = 22"),
        ("4d6ro1kh3", [1, 3, 4, 6, 5], "4d6ro1kh3 (1->5, ~~3~~, 4, 6) = 15"),
        ("3d6", [1, 2, 3], "3d6 (1, 2, 3) = 6"),
    ],
)
def test_breakdown_in_markdown_strikes_dropped_dice_through(
    expr: str, faces: list[int], line: str, scripted: type[ScriptedStream]
) -> None:
    result = compile_expression(expr).roll(scripted(faces), [])
    assert breakdown(result, markdown=True) == line
    assert as_data(result, markdown=True)["breakdown"] == line
    assert "~~" not in breakdown(result)
