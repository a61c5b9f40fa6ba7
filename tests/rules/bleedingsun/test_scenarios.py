"""The bundled bleeding-sun scenarios (``fixtures/bleeding-sun/scenarios``): each plays to its committed log
byte for byte, audits clean, shows the rules it is there to show
(``fightlog.fixtures.bleedingsun_scenarios.EVIDENCE``), and its events and final state match the
snapshots. Regenerate on purpose with ``python -m fightlog.fixtures.bleedingsun_scenarios`` and
``pytest tests/rules/bleedingsun/test_scenarios.py --snapshot-update``, then review the diffs.
"""

from __future__ import annotations

from tests.rules.engine_scenarios import scenario_tests

globals().update(scenario_tests("bleedingsun_scenarios", "fightlog.rules.bleedingsun.table", at_least=6))
