"""The public API: what users' code (and ``fightlog.testing``) may import. Everything else
under ``fightlog`` may change between releases; these names keep their meaning.

Each name is re-exported from the package that holds it (docs/api.md lists them):

- playing a scenario in memory: ``run_scenario``, ``scenario_seed``, ``scenario_ruleset``; house rules:
  ``HouseRules``, ``read_house_rules``; the playable rulesets and their options:
  ``playable``, ``table_for``, ``option_fields``;
- the events: ``AnyEvent``, ``SceneStarted``, ``RoundStarted``, ``SceneEnded``,
  ``FORMAT_VERSION``; reading a log: ``read_log``, ``state_at``; writing one: ``FileStore``;
- folding: ``Folder``, ``Step``, ``SceneState``, ``fold_events``;
- the audit: ``audit_events``, ``audit_log``, ``Report``;
- the views, as plain data and text: ``state_data``, ``state_lines``, ``narrate``, ``Line``,
  ``render``, ``replay_text``, ``audit_lines``;
- the seed helpers: ``seed_hex``, ``new_seed``;
- the errors: ``FightlogError`` and its subclasses.
"""

from fightlog.audit.auditor import Report, audit_events, audit_log
from fightlog.dice import new_seed
from fightlog.errors import (
    DiceError,
    DiceSeedError,
    FightlogError,
    InputError,
    LogDamagedError,
    RefusedError,
    StoreError,
)
from fightlog.events.model import FORMAT_VERSION, AnyEvent, RoundStarted, SceneEnded, SceneStarted
from fightlog.events.reader import read_log
from fightlog.events.seeds import seed_hex
from fightlog.events.store import FileStore
from fightlog.history.states import state_at
from fightlog.kit.house import HouseRules, read_house_rules
from fightlog.kit.options import option_fields
from fightlog.kit.scenario import run_scenario, scenario_ruleset, scenario_seed
from fightlog.kit.table import playable, table_for
from fightlog.reducers.folder import Folder, Step
from fightlog.reducers.state import SceneState
from fightlog.report.audit_text import audit_lines
from fightlog.report.narration import Line, narrate
from fightlog.report.replay_text import render, replay_text
from fightlog.report.state_data import fold_events, state_data
from fightlog.report.state_text import state_lines

__all__ = [
    "FORMAT_VERSION",
    "AnyEvent",
    "DiceError",
    "DiceSeedError",
    "FightlogError",
    "FileStore",
    "Folder",
    "HouseRules",
    "InputError",
    "Line",
    "LogDamagedError",
    "RefusedError",
    "Report",
    "RoundStarted",
    "SceneEnded",
    "SceneStarted",
    "SceneState",
    "Step",
    "StoreError",
    "audit_events",
    "audit_lines",
    "audit_log",
    "fold_events",
    "narrate",
    "new_seed",
    "option_fields",
    "playable",
    "read_house_rules",
    "read_log",
    "render",
    "replay_text",
    "run_scenario",
    "scenario_ruleset",
    "scenario_seed",
    "seed_hex",
    "state_at",
    "state_data",
    "state_lines",
    "table_for",
]
