"""Rosters: the bundled valid roster, and every kind of bad input as one ``InputError`` that
names the file, the field path and what was expected (and the line, for TOML syntax)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.rules.roe7.roster import Roster, load_roster, load_sheet
from tests.conftest import FIXTURES

ROSTERS = FIXTURES / "roe7" / "rosters"
VALID = ROSTERS / "gate-skirmish.toml"


def refusal(path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        load_roster(path)
    error = caught.value
    assert "\n" not in str(error)
    assert type(error) is InputError
    return error


# --------------------------------------------------------------------------- the valid roster


def test_the_valid_roster_loads() -> None:
    roster = load_roster(VALID)
    assert isinstance(roster, Roster)
    assert [c.id for c in roster.combatants] == ["alice", "bob", "mira", "kestrel"]
    assert {c.side for c in roster.combatants} == {"colony", "raiders"}
    tokens = [w.parsed() for c in roster.combatants for w in c.sheet.weapons]
    assert {t.family for t in tokens} == {"firearm", "melee", "magika"}
    assert any(t.sniper for t in tokens) and any(t.heavy_pistol for t in tokens)
    assert any(w.attachments for c in roster.combatants for w in c.sheet.weapons)
    assert all(c.sheet.cybernetics for c in roster.combatants[:2])
    assert {c.sheet.size_class for c in roster.combatants} == {"small", "medium", "large"}


def test_sheet_files_are_read_relative_to_the_roster() -> None:
    kestrel = load_roster(VALID).combatants[3]
    assert kestrel.sheet_file == "sheets/kestrel.toml"
    assert kestrel.sheet == load_sheet(ROSTERS / "sheets" / "kestrel.toml")
    assert kestrel.sheet.weapons[1].token == "S_s_StunGun_Class(Permanent)"
    weapon = kestrel.sheet.weapons[0]
    assert kestrel.sheet.uncapped_total("ranged_accuracy", weapon) == 40
    assert kestrel.sheet.total("ranged_accuracy", weapon) == 30


def test_racial_extra_slots_in_the_valid_roster() -> None:
    alice, bob, mira, _ = load_roster(VALID).combatants
    assert len(bob.sheet.cybernetics) == 4 and bob.sheet.racial == "neural-net"
    assert len(mira.sheet.magika) == 4 and mira.sheet.racial == "venus-born"
    assert alice.sheet.total("ballistic_damage") == 5
    assert alice.sheet.dr_for("ballistic") == 15


def test_the_roster_works_from_a_relative_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROSTERS.parent)
    assert len(load_roster("rosters/gate-skirmish.toml").combatants) == 4
    error = refusal(Path("rosters/negative-hp.toml"))
    assert str(error) == "rosters/negative-hp.toml:24: bob: sheet.hp: must be at least 1, got -5"


# --------------------------------------------------------------------------- bundled bad input


@dataclass(frozen=True)
class Bad:
    file: str
    message: str
    line: int | None = None
    at: str | None = None  # the file the error names, when not the roster


BAD = [
    Bad("bad-token.toml", "bob: sheet.weapons[0].token: 'X_q_Banana_Class_(Permanent)' is not a weapon token: size 'X' is not one of S, M, L, H", line=28),
    Bad("bad-token-size.toml", "bob: sheet.weapons[1].token: 'Z_s_Sword_Class_(Permanent)' is not a weapon token: size 'Z'", line=28),
    Bad("negative-hp.toml", "bob: sheet.hp: must be at least 1, got -5", line=24),
    Bad("four-cybernetics.toml", "bob: sheet.cybernetics: at most 3 cybernetics unless a racial allows more, got 4", line=28),
    Bad("wrong-race-racial.toml", "bob: sheet.racial: 'venus-born' is a racial of drevii, not of android", line=26),
    Bad("third-attachment.toml", "bob: sheet.weapons[0].attachments: at most 2 attachments per weapon, got 3", line=31),
    Bad("duplicate-attachment.toml", "bob: sheet.weapons[0].attachments: attachment 'Scope' appears more than once", line=31),
    Bad("missing-field.toml", "bob: sheet.size_class: required field is missing", line=23),
    Bad("wrong-type.toml", "bob: sheet.hp: expected an integer, got '120'", line=24),
    Bad("unknown-field.toml", "bob: sid: unknown field (did you mean 'side'?)", line=20),
    Bad("syntax-error.toml", "not valid TOML: invalid value (column 5)", line=9),
    Bad("missing-sheet-file.toml", "bob: sheet_file: no such sheet file", line=22),
    Bad("bad-sheet-file.toml", "vex: hp: must be at least 1, got 0 (the sheet_file of vex in", line=2, at="sheets/bad-hp.toml"),
]


@pytest.mark.parametrize("bad", BAD, ids=[b.file for b in BAD])
def test_bundled_bad_rosters(bad: Bad) -> None:
    path = ROSTERS / bad.file
    error = refusal(path)
    assert error.path == str(ROSTERS / bad.at if bad.at else path)
    assert error.message.startswith(bad.message)
    assert error.line == bad.line
    assert str(error).startswith(f"{error.path}:{bad.line}: " if bad.line else f"{error.path}: ")


def test_every_bad_fixture_is_tested() -> None:
    bundled = {p.name for p in ROSTERS.glob("*.toml")} - {VALID.name}
    assert bundled == {b.file for b in BAD}


# --------------------------------------------------------------------------- files


def test_missing_file(tmp_path: Path) -> None:
    error = refusal(tmp_path / "nope.toml")
    assert (error.path, error.message, error.line) == (str(tmp_path / "nope.toml"), "no such file", None)


def test_directory() -> None:
    error = refusal(ROSTERS)
    assert (error.path, error.message) == (str(ROSTERS), "is a directory, not a roster file")


def write(tmp_path: Path, text: str, name: str = "roster.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


ALICE = """
[[combatants]]
id = "alice"
name = "Alice Vance"
side = "colony"
controller = "AliceResident"
"""
SHEET = """
[combatants.sheet]
hp = 100
race = "human"
racial = "compassionate"
size_class = "medium"
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (ALICE + SHEET.replace("hp = 100", "hp = 100.5"), "alice: sheet.hp: expected an integer, got 100.5 (a float: game numbers are integers)"),
        (ALICE + SHEET.replace("hp = 100", "hp = true"), "alice: sheet.hp: expected an integer, got true"),
        (ALICE + SHEET + ALICE + SHEET, "alice: id: 'alice' is already the id of combatants[0]"),
        ("combatants = []", "combatants: needs at least 1 entry, got 0"),
        ('title = "empty"', "combatants: required field is missing"),
        ('ruleset = "en51"\n' + ALICE + SHEET, "ruleset: expected 'roe7', got 'en51'"),
        (ALICE, "alice: sheet: required: a [combatants.sheet] table or a sheet_file path"),
        (ALICE + 'sheet = "sheets/a.toml"\n', "alice: sheet: expected a table, got 'sheets/a.toml' (a path to a sheet file goes in sheet_file)"),
        (ALICE + 'sheet_file = "a.toml"\n' + SHEET, "alice: give a sheet table or a sheet_file, not both"),
        (ALICE + "sheet_file = 5\n", "alice: sheet_file: expected a path to a sheet file, got 5"),
        (ALICE + 'sheet_file = "a\\u0000b.toml"\n', "alice: sheet_file: no such sheet file"),
        (ALICE.replace('"alice"', '""') + SHEET, "combatants[0].id: must not be empty"),
        (ALICE + SHEET + 'modifiers = [{ source = "racial", applies_to = "dodge", value = 5 }]\n', "alice: sheet.modifiers: source 'racial' is derived"),
        (ALICE + SHEET + 'modifiers = [{ source = "items", applies_to = "dodging", value = 5 }]\n', "alice: sheet.modifiers[0].applies_to: expected 'accuracy', "),
        (ALICE + SHEET + "weapons = 5\n", "alice: sheet.weapons: expected an array, got 5"),
        (ALICE + SHEET + "weapons = [5]\n", "alice: sheet.weapons[0]: expected a table, got 5"),
        (ALICE + SHEET + 'cybernetics = [{ name = "Arm", modifiers = [{ applies_to = "dodge", value = 5, source = "items" }] }]\n', "alice: sheet.cybernetics[0].modifiers[0].source: unknown field"),
        (ALICE + SHEET.replace('size_class = "medium"', 'size_class = "huge"'), "alice: sheet.size_class: expected 'small', 'medium' or 'large', got 'huge'"),
        (ALICE + SHEET + "hp = 5\n", "not valid TOML: cannot overwrite a value (column 7)"),
    ],
)
def test_bad_roster_text(tmp_path: Path, text: str, message: str) -> None:
    error = refusal(write(tmp_path, text))
    assert error.path == str(tmp_path / "roster.toml")
    assert error.message.startswith(message), error.message


def test_several_problems_are_counted(tmp_path: Path) -> None:
    text = ALICE + SHEET.replace("hp = 100", "hp = -1").replace('size_class = "medium"', 'size_class = "huge"')
    assert refusal(write(tmp_path, text)).message.endswith("(and 1 more problem)")


def test_toml_errors_carry_their_line(tmp_path: Path) -> None:
    error = refusal(write(tmp_path, ALICE + "[combatants.sheet\n"))
    assert error.line == 7
    assert error.message == "not valid TOML: expected ']' at the end of a table declaration (column 18)"
    error = refusal(write(tmp_path, 'title = "unterminated\n'))
    assert error.line == 1
    unterminated = refusal(write(tmp_path, ALICE + 'title = """never closed\n\n'))
    assert "at the end of the file" in unterminated.message and unterminated.line == 9


def test_not_utf8_and_too_deep_and_too_big(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    path.write_bytes(b'title = "ok"\ntitle2 = "\xff"\n')
    error = refusal(path)
    assert (error.message, error.line) == ("not UTF-8 text (byte 24)", 2)
    error = refusal(write(tmp_path, "a = " + "[" * 5000))
    assert error.message.startswith("not valid TOML")
    path.write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
    assert refusal(path).message.startswith("larger than 1048576 bytes")


def test_problems_in_a_sheet_file_name_the_sheet_file(tmp_path: Path) -> None:
    (tmp_path / "sheets").mkdir()
    write(tmp_path, SHEET.replace("[combatants.sheet]", "").replace("hp = 100", 'hp = 100\ncybernetics = ["A", "B", "C", "D"]'), "sheets/a.toml")
    error = refusal(write(tmp_path, ALICE + 'sheet_file = "sheets/a.toml"\n'))
    assert error.path == str(tmp_path / "sheets" / "a.toml")
    assert error.message.startswith("alice: cybernetics: at most 3 cybernetics unless a racial allows more, got 4 (the sheet_file of alice in ")
    write(tmp_path, "hp = \n", "sheets/a.toml")
    error = refusal(tmp_path / "roster.toml")
    assert (error.path, error.line) == (str(tmp_path / "sheets" / "a.toml"), 1)
    assert error.message.endswith(f"(the sheet_file of alice in {tmp_path / 'roster.toml'}:7)")  # whose it is, too
    error = refusal(write(tmp_path, ALICE + 'sheet_file = "sheets"\n'))
    assert error.path == str(tmp_path / "sheets")
    assert error.message.startswith("is a directory, not a sheet file (the sheet_file of alice in ")


def test_load_sheet_reports_fields_from_the_top(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_sheet(write(tmp_path, "hp = 1\n", "sheet.toml"))
    assert caught.value.message == "race: required field is missing (and 2 more problems)"


def test_the_documented_example_loads(tmp_path: Path) -> None:
    doc = (FIXTURES.parent / "docs" / "rulesets" / "roe7-sheets.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "sheets").mkdir()
    (tmp_path / "sheets" / "kestrel.toml").write_bytes((ROSTERS / "sheets" / "kestrel.toml").read_bytes())
    roster = load_roster(write(tmp_path, example))
    alice = roster.combatants[0]
    assert alice.sheet.total("ranged_accuracy", alice.sheet.weapons[0]) == 20
    assert alice.sheet.dr_for("ballistic") == 15
    assert [m.source for m in alice.sheet.modifiers_for("ballistic_damage")] == ["racial"]
