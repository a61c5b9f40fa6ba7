"""A ruleset's options must be what a house-rules file can set and a log records as it is:
integers, true or false, strings, one of listed values, each with a default of its kind
(``kit.options.option_type_problem``); a table whose options are not is a broken ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from click.testing import CliRunner
from msgspec import Struct

from fightlog.cli.main import cli
from fightlog.kit.options import option_type_problem
from fightlog.kit.ruleset import GenericRules
from fightlog.reducers import fold_rules
from fightlog.rules.bleedingsun.options import BleedingSunOptions
from fightlog.rules.roe7.options import Roe7Options
from tests.kit.bad_options import FloatOptions, OutsideLiteral, WrongDefault


class Fine(Struct, frozen=True, kw_only=True):
    damage: int = 3
    loud: bool = False
    mode: Literal["hot", "cold"] = "hot"
    name: str = ""


@pytest.mark.parametrize("option_type", [Fine, Roe7Options, BleedingSunOptions])
def test_options_of_the_four_kinds_with_defaults_are_fit(option_type: type[Struct]) -> None:
    assert option_type_problem(option_type) is None


@pytest.mark.parametrize(
    ("option_type", "problem"),
    [
        (FloatOptions, "option 'ratio' is a float: an option is an integer, true or false, a string or one of listed "
                       "values"),
        (WrongDefault, "its defaults are not options of their own kinds: Expected `int`, got `str` - at `$.damage`"),
        (OutsideLiteral, "its defaults are not options of their own kinds: Invalid enum value 'warm' - at `$.mode`"),
        (dict, "<class 'dict'> is not a msgspec Struct"),
    ],
    ids=["float", "wrong-default", "outside-literal", "not-a-struct"],
)
def test_options_no_ruleset_may_have(option_type: type, problem: str) -> None:
    assert option_type_problem(option_type) == problem


class FloatRules(GenericRules):
    id = "float-options"
    table_module = "tests.kit.bad_options"


def test_a_ruleset_whose_options_are_unfit_is_broken(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = FloatRules()
    monkeypatch.setattr(fold_rules, "_REGISTRY", {**fold_rules._REGISTRY, rules.id: rules})
    result = CliRunner().invoke(cli, ["rulesets"])
    assert result.exit_code == 1
    assert ("float-options: broken: ruleset 'float-options': its table's options (tests.kit.bad_options.TABLE."
            "option_type) cannot be a ruleset's: option 'ratio' is a float: an option is an integer, true or false, "
            "a string or one of listed values") in result.stdout.splitlines()
    log = tmp_path / "x.jsonl"
    result = CliRunner().invoke(cli, ["play", "start", str(log), "--ruleset", "float-options"])
    assert result.exit_code == 2 and "option 'ratio' is a float" in result.stderr and not log.exists()


def _every_ruleset_option() -> list[tuple[str, str, object]]:
    from fightlog.kit.options import option_fields
    from fightlog.kit.table import table_for

    found = []
    for ruleset in ("roe7", "d20-evasion", "traveller", "en51", "bleeding-sun"):
        for name, field in option_fields(table_for(ruleset).option_type).items():
            found.append((ruleset, name, field.type))
    return found


@pytest.mark.parametrize(("ruleset", "name", "kind"), _every_ruleset_option(), ids=lambda v: str(v)[:30])
def test_an_option_the_dice_read_is_bounded_as_the_dice_are(ruleset: str, name: str, kind: object) -> None:
    """A house rule's `grenade_die = 1000000000` passed (options were bounded at 10**9): the
    grenade then could not be rolled, and no turn of the fight could end."""
    import msgspec

    from fightlog.dice.limits import MAX_MODIFIER, MAX_SIDES

    if not isinstance(kind, msgspec.inspect.IntType):
        return
    if name.endswith("_die"):
        assert kind.le is not None and kind.le <= MAX_SIDES
    if any(word in name.split("_") for word in ("bonus", "penalty", "dm")) and not name.endswith("_step"):
        assert kind.le is not None and kind.le <= MAX_MODIFIER
