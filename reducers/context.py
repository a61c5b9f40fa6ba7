"""What a slice reducer may read besides its own slice: the state before the event and the
ruleset that governs the log (looked up from ``scene_started``; never an I/O handle)."""

from __future__ import annotations

from typing import NamedTuple

from fightlog.reducers.state import SceneState
from fightlog.rules.ruleset import Ruleset


class Context(NamedTuple):
    before: SceneState
    rules: Ruleset
