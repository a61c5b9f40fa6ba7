"""House-rules files: pydantic validation built from a ruleset's options Struct, errors at
the key's line naming the option and the values allowed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import InputError
from fightlog.kit.house import HouseRules, allowed, read_house_rules, validate
from fightlog.rules.roe7.options import OPTION_NAMES, Roe7Options
from tests.conftest import FIXTURES


def house(tmp_path: Path, text: str) -> HouseRules:
    path = tmp_path / "house.toml"
    path.write_text(text)
    return read_house_rules(path)


def refusal(tmp_path: Path, text: str, ruleset: str = "roe7") -> InputError:
    with pytest.raises(InputError) as caught:
        house(tmp_path, text).overrides(ruleset, Roe7Options)
    assert caught.value.path == str(tmp_path / "house.toml")
    return caught.value


def test_only_the_options_written_are_returned(tmp_path: Path) -> None:
    rules = house(tmp_path, 'ruleset = "roe7"\n# tighter caps\nmodifier_cap = 20\n"dr_cap" = 25\nboth_natural_ones = "hit"\n')
    assert rules.ruleset == "roe7"
    assert rules.overrides("roe7", Roe7Options) == {"both_natural_ones": "hit", "dr_cap": 25, "modifier_cap": 20}


def test_an_empty_file_changes_nothing(tmp_path: Path) -> None:
    assert house(tmp_path, "").overrides("roe7", Roe7Options) == {}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("modifier_cap = 20\nmodifer_cap = 10\n", 2, "modifer_cap: not a roe7 option (did you mean 'modifier_cap'?)"),
        ("xyzzy = 1\n", 1, "xyzzy: not a roe7 option (docs/rulesets/roe7.md lists them)"),
        ("\n\nmodifier_cap = -5\n", 3, "modifier_cap: expected an integer >= 0, got -5"),
        ("bleed_turns = 0\n", 1, "bleed_turns: expected an integer >= 1, got 0"),
        ("bleed_damage = 100000000000000000000\n", 1,  # was taken: HP past 64 bits, sums that no longer agree
         "bleed_damage: expected an integer >= 0 and <= 1000000000, got 100000000000000000000"),
        ("modifier_cap = 2.5\n", 1, "modifier_cap: expected an integer >= 0, got 2.5 (a float: game numbers are integers)"),
        ("modifier_cap = '30'\n", 1, "modifier_cap: expected an integer >= 0, got '30'"),
        ("dodge_per_shot = 1\n", 1, "dodge_per_shot: expected true or false, got 1"),
        ("both_natural_ones = 'maybe'\n", 1, "both_natural_ones: expected one of 'hit', 'miss', got 'maybe'"),
        ("weather = 3\n", 1, "weather: expected a string, got 3"),
        ("# caps\n[caps]\nmodifier_cap = 20\n", 2, "caps: not a roe7 option (did you mean 'dr_cap'?)"),
        ("ruleset = 'traveller'\n", 1, "ruleset: these house rules are for 'traveller', the fight plays 'roe7'"),
        ("ruleset = 7\n", 1, "ruleset: expected a ruleset id (a string), got 7"),
    ],
)
def test_refusals_name_the_line_the_option_and_what_is_allowed(tmp_path: Path, text: str, line: int, message: str) -> None:
    error = refusal(tmp_path, text)
    assert (error.line, error.message) == (line, message)


def test_a_file_that_is_not_toml_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        house(tmp_path, "modifier_cap = 20\nmodifier_cap = 25\n")
    assert caught.value.line == 2 and caught.value.message.startswith("not valid TOML")


def test_every_option_is_described() -> None:
    for name in OPTION_NAMES:
        assert allowed(Roe7Options, name).startswith(("an integer", "true or false", "one of", "a string"))


_VALUES = st.one_of(st.integers(-3, 200), st.booleans(), st.sampled_from(["hit", "miss", "d100", "joined", "x", ""]))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(OPTION_NAMES), _VALUES, max_size=4))
def test_pydantic_accepts_exactly_what_the_options_struct_accepts(values: dict[str, Any]) -> None:
    """The house-rules model is built from the Struct: the two validators never drift apart."""
    try:
        msgspec.convert(values, Roe7Options, strict=True)
        struct_ok = True
    except msgspec.ValidationError:
        struct_ok = False
    try:
        validate(values, "roe7", Roe7Options)
        house_ok = True
    except InputError:
        house_ok = False
    assert house_ok == struct_ok, values


def test_the_same_file_format_serves_every_ruleset(tmp_path: Path) -> None:
    """The pydantic model is built from whichever options Struct the fight's table has."""
    from fightlog.rules.d20evasion.options import D20Options

    rules = house(tmp_path, 'ruleset = "d20-evasion"\nround_halves = "down"\n')
    assert rules.overrides("d20-evasion", D20Options) == {"round_halves": "down"}
    with pytest.raises(InputError) as caught:
        house(tmp_path, "round_halves = 'sideways'\n").overrides("d20-evasion", D20Options)
    assert (caught.value.line, caught.value.message) == (1, "round_halves: expected one of 'down', 'up', got 'sideways'")


def test_a_house_rule_the_ruleset_refuses_as_a_whole_names_the_house_file(tmp_path: Path) -> None:
    """Per-option checks pass, but the d20 table refuses band limits out of order."""
    from fightlog.kit.scenario import run_scenario

    path = tmp_path / "house.toml"
    path.write_text("touch_max_m = 50\n")
    scenario = FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.toml"
    with pytest.raises(InputError) as caught:
        run_scenario(scenario, house=read_house_rules(path))
    assert (caught.value.path, caught.value.line) == (str(path), 1)  # the line of the option it names
    assert "'touch_max_m' (50) must be less than 'close_max_m' (5): the band limits grow outwards" in caught.value.message


@pytest.mark.parametrize(("ruleset", "scenario", "text", "line", "says"), [
    ("traveller", "traveller/scenarios/dive-behind-the-wall.toml", 'ambush = "nobody"\n', 2,
     "begin: option ambush = 'nobody': nobody in the fight is on that side"),
    ("en51", "en51/scenarios/plated-duel.toml", 'surprise = "side"\nsurprising_side = "nobody"\n', 3,
     "begin: en51 option 'surprising_side': 'nobody' is no side in the fight"),
    ("en51", "en51/scenarios/plated-duel.toml", '# surprise!\nsurprise = "side"\n', 3,
     "en51 option 'surprising_side': required when surprise is 'side'"),
])
def test_a_house_rule_refused_against_the_fight_names_its_line(
        tmp_path: Path, ruleset: str, scenario: str, text: str, line: int, says: str) -> None:
    """Refused at ``begin`` (a side nobody is on) or across options, it was said of the
    scenario file, or of the house file with no line."""
    from fightlog.kit.scenario import run_scenario

    path = tmp_path / "house.toml"
    path.write_text(f'ruleset = "{ruleset}"\n' + text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        run_scenario(FIXTURES / scenario, house=read_house_rules(path))
    assert (caught.value.path, caught.value.line) == (str(path), line)
    assert caught.value.message.startswith(says)


def test_a_scenarios_own_option_refused_at_begin_names_its_line(tmp_path: Path) -> None:
    import shutil

    from fightlog.kit.scenario import run_scenario

    source = FIXTURES / "traveller" / "scenarios" / "ambush-at-the-landing-pad.toml"
    shutil.copytree(source.parent.parent, tmp_path / "traveller")
    copy = tmp_path / "traveller" / "scenarios" / source.name
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace('options = { ambush = "raiders" }', 'options = { ambush = "nobody" }'), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        run_scenario(copy)
    assert (caught.value.path, caught.value.line) == (str(copy), 11)
    assert caught.value.message.startswith("begin: option ambush = 'nobody'")


def test_a_file_naming_no_ruleset_is_checked_against_every_ruleset_given(tmp_path: Path) -> None:
    """``check_any``: the first ruleset that takes every option set; an option none has is
    named with the closest any has; options no one ruleset takes all of get the refusal of
    the ruleset that knows most of them."""
    from fightlog.rules.traveller.options import TravellerOptions

    both = {"roe7": Roe7Options, "traveller": TravellerOptions}
    assert house(tmp_path, "modifier_cap = 20\n").check_any(both) == "roe7"
    with pytest.raises(InputError) as caught:
        house(tmp_path, "\nmodifer_cap = 20\n").check_any(both)
    assert (caught.value.message, caught.value.line) == (
        "modifer_cap: not an option of any playable ruleset (roe7, traveller; did you mean 'modifier_cap'?)", 2)
    with pytest.raises(InputError) as caught:
        house(tmp_path, "modifier_cap = 20\ndr_cap = 25\nambush_dm = 4\n").check_any(both)
    assert caught.value.message.startswith("ambush_dm")  # roe7 knows two of the three: its refusal


@pytest.mark.parametrize(("text", "line", "says"), [
    ("touch_max_m = 50\nclose_max_m = 5\n", 2, "'touch_max_m' (50) must be less than 'close_max_m' (5)"),
    ("# tears\ninjury_tear_max = 25\n", 3, "'injury_tear_max' (25) must be at most 20"),
])
def test_a_check_across_d20_options_names_the_line_of_the_option_it_names(
        tmp_path: Path, text: str, line: int, says: str) -> None:
    """`play start --options` said `h10.toml: d20-evasion options: the band limits must grow
    outwards ...` with no line."""
    from tests.cli import run

    path = tmp_path / "house.toml"
    path.write_text('ruleset = "d20-evasion"\n' + text, encoding="utf-8")
    result = run("play", "start", str(tmp_path / "f.jsonl"), "--ruleset", "d20-evasion", "--options", str(path))
    assert result.exit_code == 2 and result.stderr.startswith(f"fightlog: {path}:{line}: d20-evasion options: {says}")
