"""A policy for the kit's example ruleset (``tests/kit/example_ruleset``), which ships none:
registered by the tests under a subclass that names it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.kit.policy import Straightforward
from fightlog.reducers.state import SceneState

OUT: Final = frozenset({"defeated"})


def plan(state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]:
    return [[f"attack target={target}"]]


POLICY: Final = Straightforward(OUT, plan)
