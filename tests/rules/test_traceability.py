"""Each ruleset's doc traces a rule to code and tests (``docs/rulesets/<id>.md``: the tables
``| # | clause | section | code | test | status |``); the names it gives must exist, so the
doc cannot drift from the code it cites.

In the ``code`` column, a name in backticks that starts with one of the ruleset's modules
(``attack.resolve``), a class (``Roe7Table.joined``, looked up in the ruleset's modules,
imported names included) or a ``fightlog`` package (``kit.declared.by_table``) must resolve
to an attribute; a ``*.py`` file must exist. Other names there (finding codes such as
``rules.range``, options, statuses) are words, not code. In the ``test`` column, every
``test_*`` name must be a test function of the suite (in the file named, when one is).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import REPO

RULESETS = {"roe7": "roe7", "d20-evasion": "d20evasion", "traveller": "traveller", "en51": "en51",
            "bleeding-sun": "bleedingsun"}
"""Ruleset id (its doc's name) -> its package under ``rules/``."""

PACKAGES = {"kit", "audit", "reducers", "dice", "events", "importing", "report", "scale", "history", "testing", "api"}
"""``fightlog`` packages a ruleset's doc may cite code from."""

DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
TEST = re.compile(r"(?:(test_\w+\.py)::)?(test_\w+)")


@cache
def suite_tests() -> dict[str, frozenset[str]]:
    """Every test function of the suite by name -> the files (base names) defining it."""
    found: dict[str, set[str]] = {}
    for path in (REPO / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                found.setdefault(node.name, set()).add(path.name)
    return {name: frozenset(files) for name, files in found.items()}


def rows(ruleset: str) -> list[dict[str, str]]:
    """The rows of the doc's rule tables, by column."""
    found: list[dict[str, str]] = []
    header: list[str] | None = None
    for line in (REPO / "docs" / "rulesets" / f"{ruleset}.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
        elif line.startswith("| # |"):
            header = [cell.strip() for cell in line.strip("|").split("|")]
        elif header is not None and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if len(cells) == len(header) and "code" in header and "test" in header:
                found.append(dict(zip(header, cells)))
    return found


def _has(thing: object, names: list[str]) -> bool:
    for name in names:
        if not hasattr(thing, name):
            return False
        thing = getattr(thing, name)
    return True


def cites(package: str, name: str) -> bool | None:
    """Whether the code name ``name`` in the doc of ``rules/<package>`` exists; ``None`` for
    a name that is not code."""
    modules = sorted(p.stem for p in (REPO / "rules" / package).glob("*.py"))
    if name.endswith(".py"):
        return (REPO / "rules" / package / name).exists() or (REPO / name).exists()
    if not DOTTED.fullmatch(name):
        return None
    first, *rest = name.split(".")
    if first in modules:
        return _has(importlib.import_module(f"fightlog.rules.{package}.{first}"), rest)
    if first[0].isupper():
        for module in modules:
            found = getattr(importlib.import_module(f"fightlog.rules.{package}.{module}"), first, None)
            if inspect.isclass(found):
                return _has(found, rest)
        return False
    if first in PACKAGES:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                imported = importlib.import_module("fightlog." + ".".join(parts[:cut]))
            except ImportError:
                continue
            return _has(imported, parts[cut:])
        return False
    return None


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_code_a_ruleset_doc_cites_exists(ruleset: str) -> None:
    package = RULESETS[ruleset]
    checked, missing = 0, []
    for row in rows(ruleset):
        for name in re.findall(r"`([^`]+)`", row["code"]):
            found = cites(package, name)
            if found is not None:
                checked += 1
                if not found:
                    missing.append(f"{row['#']}: {name}")
    assert missing == []
    assert checked >= 40  # the tables were read: each doc cites dozens of functions


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_tests_a_ruleset_doc_cites_exist(ruleset: str) -> None:
    known = suite_tests()
    checked, missing = 0, []
    for row in rows(ruleset):
        for name in re.findall(r"`([^`]+)`", row["test"]):
            matched = TEST.fullmatch(name)
            if matched is None:
                continue
            checked += 1
            where = known.get(matched.group(2), frozenset())
            if not where or (matched.group(1) is not None and matched.group(1) not in where):
                missing.append(f"{row['#']}: {name}")
    assert missing == []
    assert checked >= 40


def test_a_name_that_does_not_exist_is_caught() -> None:
    assert cites("roe7", "table.free_costs") is True
    assert cites("roe7", "table._free_costs") is False
    assert cites("roe7", "Roe7Table.joined") is True and cites("roe7", "Roe7Table.nothing") is False
    assert cites("roe7", "kit.declared.by_table") is True and cites("roe7", "kit.declared.nothing") is False
    assert cites("roe7", "rules.range") is None and cites("roe7", "melee_reach") is None
    assert cites("roe7", "sheet.py") is True and cites("roe7", "nothing.py") is False
