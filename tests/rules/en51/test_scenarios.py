"""The bundled en51 scenarios (``fixtures/en51/scenarios``): each plays to its committed log
byte for byte, audits clean, shows the rules it is there to show
(``fightlog.fixtures.en51_scenarios.EVIDENCE``), and its events and final state match the
snapshots. Regenerate on purpose with ``python -m fightlog.fixtures.en51_scenarios`` and
``pytest tests/rules/en51/test_scenarios.py --snapshot-update``, then review the diffs.
"""

from __future__ import annotations

from tests.rules.engine_scenarios import scenario_tests

globals().update(scenario_tests("en51_scenarios", "fightlog.rules.en51.table", at_least=5))
