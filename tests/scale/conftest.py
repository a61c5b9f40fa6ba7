"""The kit's example ruleset registered for one test: as shipped (no policy), or with the
policy of ``example_policy``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fightlog.kit.ruleset import register
from fightlog.reducers import fold_rules

EXAMPLE = Path(__file__).resolve().parents[1] / "kit" / "example_ruleset"
DUEL = EXAMPLE / "duel.toml"


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The example ruleset as shipped: a table, no policy."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from fightlog_example.ruleset import RULES

    register(RULES)
    yield
    del fold_rules._REGISTRY[RULES.id]


@pytest.fixture
def example_with_policy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The example ruleset with ``tests.scale.example_policy`` as its policy."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from fightlog_example.ruleset import ExampleRules

    class WithPolicy(ExampleRules):
        policy_module = "tests.scale.example_policy"

    rules = WithPolicy()
    register(rules)
    yield
    del fold_rules._REGISTRY[rules.id]
