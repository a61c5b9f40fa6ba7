"""``KeyLines``: the line a key path is written on, for error messages that name the line."""

from __future__ import annotations

import tomllib

import pytest

from fightlog.kit.toml_lines import KeyLines

TEXT = '''\
ruleset = "roe7"
title = """A title
[[combatants]]
over two lines"""

[[combatants]]
id = "alice"
sheet = { hp = 100 }

[[combatants]]
id = "bob"   # the second
name = "Bob [the] {brave}"

[combatants.sheet]
hp = -5
stats.dexterity = 0
weapons = [
  { token = "S_s_Sword" },
  # a comment [
  { token = "M_a_Rifle", attachments = ["Scope"] },
]

[[combatants.sheet.grenades]]
name = "Frag"

[[combatants.sheet.grenades]]
name = "Smoke"

[races.dwarf]
evasion = 12
'''


@pytest.mark.parametrize(
    ("path", "line"),
    [
        (("ruleset",), 1),
        (("title",), 2),
        (("combatants", 0), 6),
        (("combatants", 0, "id"), 7),
        (("combatants", 0, "sheet", "hp"), 8),  # inside an inline table: the key's line
        (("combatants", 1), 10),
        (("combatants", 1, "name"), 12),
        (("combatants", 1, "sheet"), 14),
        (("combatants", 1, "sheet", "hp"), 15),
        (("combatants", 1, "sheet", "stats", "dexterity"), 16),
        (("combatants", 1, "sheet", "stats", "willpower"), 16),  # missing: where its table is
        (("combatants", 1, "sheet", "size_class"), 14),  # missing: the table's header
        (("combatants", 1, "sheet", "weapons"), 17),
        (("combatants", 1, "sheet", "weapons", 0, "token"), 18),
        (("combatants", 1, "sheet", "weapons", 1, "attachments", 0), 20),
        (("combatants", 1, "sheet", "grenades", 0, "name"), 24),
        (("combatants", 1, "sheet", "grenades", 1), 26),
        (("combatants", 1, "sheet", "grenades", 1, "name"), 27),
        (("races", "dwarf", "evasion"), 30),
        (("nowhere",), None),
    ],
)
def test_the_line_of_a_key_path(path: tuple[str | int, ...], line: int | None) -> None:
    tomllib.loads(TEXT)  # the text is valid TOML
    assert KeyLines(TEXT).line(path) == line


ELEMENTS = '''\
weapons = [
  "Rifle",
  { name = "Knife", fire = ["SS", "SA"] }, "Club",  # two on a line, a ] in a comment
  [1, [2, 3]],
  "a \\" quote, and a [",
]
perks = ["Marksman",
  "Quick"]
'''


@pytest.mark.parametrize(("path", "line"), [
    (("weapons", 0), 2),  # a plain value opens the line, not only an inline table
    (("weapons", 1, "fire", 1), 3),
    (("weapons", 2), 3),
    (("weapons", 3), 4),
    (("weapons", 4), 5),
    (("weapons", 5), 1),  # no such element: the array's key
    (("perks", 0), 7),  # on the key's own line
    (("perks", 1), 8),
])
def test_the_line_of_each_element_of_a_multi_line_array(path: tuple[str | int, ...], line: int) -> None:
    assert len(tomllib.loads(ELEMENTS)["weapons"]) == 5
    assert KeyLines(ELEMENTS).line(path) == line
