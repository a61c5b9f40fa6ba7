"""A sheet snapshot in the log is read (the ruleset's msgspec card) with the bounds its roster
(the pydantic sheet) puts on every number: a snapshot edited past them reads as no sheet
(``scene.bad-sheet`` in the audit, a refusal in ``play``), never as a fighter with 10**30
Dexterity. Compared on the two JSON schemas, number by number, so a bound added to one
and not the other fails here. Found missing for ``d20-evasion`` (2026-11-28), whose audit
judged damage of 10**30 from an edited weapon."""

from __future__ import annotations

import importlib
from typing import Any

import msgspec
import pytest

CARDS = {"d20-evasion": "d20evasion", "traveller": "traveller", "en51": "en51", "bleeding-sun": "bleedingsun"}
"""Rulesets whose card is a msgspec Struct (roe7 reads its snapshots with the pydantic sheet itself)."""

RENAMED = {"bleeding-sun": {"attributes": "sheet.attributes.*"}}
"""Where a roster's field lands elsewhere in the snapshot: bleeding-sun's attributes are top-level
fields of the sheet and one table in the snapshot."""

WIDER = {("traveller", "sheet.weapons[].range_m"): (0, 100_000)}
"""Where the card is wider on purpose: a Traveller melee weapon's snapshot writes range 0 (none)."""

Bounds = tuple[int | None, int | None]


def integers(schema: dict[str, Any], defs: dict[str, Any], path: str = "sheet") -> dict[str, Bounds]:
    """Every integer in a JSON schema, by path (``sheet.weapons[].damage``, ``sheet.skills.*``),
    with its minimum and maximum."""
    out: dict[str, Bounds] = {}
    if "$ref" in schema:
        return integers(defs[schema["$ref"].rsplit("/", 1)[1]], defs, path)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, ()):
            out.update(integers(sub, defs, path))
    if schema.get("type") == "integer":
        out[path] = (schema.get("minimum"), schema.get("maximum"))
    for name, sub in schema.get("properties", {}).items():
        out.update(integers(sub, defs, f"{path}.{name}"))
    if isinstance(schema.get("additionalProperties"), dict):
        out.update(integers(schema["additionalProperties"], defs, f"{path}.*"))
    if isinstance(schema.get("items"), dict):
        out.update(integers(schema["items"], defs, f"{path}[]"))
    return out


def _both(ruleset: str) -> tuple[dict[str, Bounds], dict[str, Bounds]]:
    package = CARDS[ruleset]
    card = msgspec.json.schema(importlib.import_module(f"fightlog.rules.{package}.card").Card)
    sheet = importlib.import_module(f"fightlog.rules.{package}.sheet").Sheet.model_json_schema(by_alias=True)
    return integers(sheet, sheet.get("$defs", {})), integers(card, card.get("$defs", {}))


@pytest.mark.parametrize("ruleset", sorted(CARDS))
def test_every_number_a_roster_bounds_is_bounded_alike_in_the_card(ruleset: str) -> None:
    roster, card = _both(ruleset)
    assert roster and card
    renamed = RENAMED.get(ruleset, {})
    for path, bounds in roster.items():
        field = path.removeprefix("sheet.").split(".")[0].split("[")[0]
        in_card = renamed.get("attributes") if field in _attributes(ruleset) else path
        want = WIDER.get((ruleset, path), bounds)
        assert card.get(in_card or path) == want, (path, bounds, card.get(in_card or path))


def _worked_out() -> dict[tuple[str, str], Bounds]:
    """What a roster works out for the snapshot, with the bounds of what it works it out from."""
    from fightlog.rules.d20evasion.roster import Race
    from fightlog.rules.en51.card import CAPACITY_MAX

    race = integers(Race.model_json_schema(), {})["sheet.evasion"]
    return {
        ("d20-evasion", "sheet.race_evasion"): race,  # a race's Evasion (roster.Race)
        ("en51", "sheet.weapons[].capacity"): (0, CAPACITY_MAX),  # type C, Cn (sheet.weapon_type); 0: none
        ("en51", "sheet.weapons[].auto"): (0, 19),  # type A5-A19; 0: none
    }


@pytest.mark.parametrize("ruleset", sorted(CARDS))
def test_every_number_only_the_card_has_is_bounded_as_what_the_roster_works_it_out_from(ruleset: str) -> None:
    """d20-evasion's race Evasion, en51's weapon capacity: a card narrower than the roster's
    own numbers would make a roster's join an internal error."""
    roster, card = _both(ruleset)
    only = {path: bounds for path, bounds in card.items() if path not in roster and not path.startswith("sheet.attributes")}
    assert only == {path: bounds for (name, path), bounds in _worked_out().items() if name == ruleset}


def _attributes(ruleset: str) -> tuple[str, ...]:
    if ruleset != "bleeding-sun":
        return ()
    from fightlog.rules.bleedingsun.card import ATTRIBUTES

    return ATTRIBUTES


@pytest.mark.parametrize(("ruleset", "table", "entry", "value", "said"), [
    ("bleeding-sun", "attributes", "grit", 99, "sheet.attributes.grit: Expected `int` <= 20"),
    ("bleeding-sun", "attributes", "my grit", 99, "sheet.attributes.my grit: Expected `int` <= 20"),
    ("bleeding-sun", "attributes", "g" * 100, 99, f"sheet.attributes.{'g' * 60}... (100 characters): Expected `int` <= 20"),
    ("traveller", "skills", "melee", "two", "sheet.skills.melee: Expected `int`, got `str`"),
    ("d20-evasion", "class_bonuses", "firearms", -500, "sheet.class_bonuses.firearms: Expected `int` >= -100"),
])
def test_a_table_s_entry_is_named(ruleset: str, table: str, entry: str, value: object, said: str) -> None:
    """msgspec says ``$.attributes[...]`` for a table's entry: the reader finds which (a review,
    2026-11-28: every bleeding-sun attribute read ``sheet.attributes[...]``)."""
    import json

    from fightlog.kit.ruleset import rules_for_scene
    from tests.conftest import FIXTURES

    source = sorted((FIXTURES / ruleset / "scenarios").glob("*.jsonl"))[0]
    sheet = next(line["sheet"] for line in map(json.loads, source.read_bytes().splitlines())
                 if line["kind"] == "combatant_joined")
    edited = {**sheet, table: {**sheet.get(table, {}), entry: value}}
    assert rules_for_scene(ruleset, {}).sheet_problem(edited) == said


def test_a_large_table_is_not_searched_entry_by_entry() -> None:
    """Each entry is read alone: in a table of thousands (a hand-edited line may hold 1 MiB),
    that cost seconds a read (a review, 2026-11-28); past ``NAMED_ENTRIES_MAX`` the path is
    msgspec's."""
    import json

    from fightlog.kit.cards import NAMED_ENTRIES_MAX
    from fightlog.kit.ruleset import rules_for_scene
    from tests.conftest import FIXTURES

    source = sorted((FIXTURES / "bleeding-sun" / "scenarios").glob("*.jsonl"))[0]
    sheet = next(line["sheet"] for line in map(json.loads, source.read_bytes().splitlines())
                 if line["kind"] == "combatant_joined")
    many = {f"a{i}": 1 for i in range(NAMED_ENTRIES_MAX + 1)}
    said = rules_for_scene("bleeding-sun", {}).sheet_problem({**sheet, "attributes": {**many, "grit": 99}})
    assert said == "sheet.attributes[...]: Expected `int` <= 20"


def choices(schema: dict[str, Any], defs: dict[str, Any], path: str = "sheet") -> dict[str, frozenset[object]]:
    """Every closed choice (a ``Literal``) in a JSON schema, by path, with its values."""
    out: dict[str, frozenset[object]] = {}
    if "$ref" in schema:
        return choices(defs[schema["$ref"].rsplit("/", 1)[1]], defs, path)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, ()):
            out.update(choices(sub, defs, path))
    if "enum" in schema:
        out[path] = frozenset(schema["enum"])
    for name, sub in schema.get("properties", {}).items():
        out.update(choices(sub, defs, f"{path}.{name}"))
    for key in ("additionalProperties", "items"):
        if isinstance(schema.get(key), dict):
            out.update(choices(schema[key], defs, f"{path}{'.*' if key == 'additionalProperties' else '[]'}"))
    return out


@pytest.mark.parametrize("ruleset", sorted(CARDS))
def test_every_choice_a_roster_closes_is_closed_alike_in_the_card(ruleset: str) -> None:
    """A kicker's status, a fire type, a spread, a size: a snapshot edited to another value
    reads as no sheet. Found open for bleeding-sun (2026-11-28, a review): a spread of ``x``
    made the audit, ``play`` and ``dispute`` an internal error (``KeyError``)."""
    package = CARDS[ruleset]
    card_schema = msgspec.json.schema(importlib.import_module(f"fightlog.rules.{package}.card").Card)
    sheet = importlib.import_module(f"fightlog.rules.{package}.sheet").Sheet.model_json_schema(by_alias=True)
    roster, card = choices(sheet, sheet.get("$defs", {})), choices(card_schema, card_schema.get("$defs", {}))
    for path, values in roster.items():
        assert card.get(path) == values, (path, sorted(map(str, values)), card.get(path))
