"""A combatant joins with no more in a pool than their sheet gives (``scene.joined-pools``,
``Ruleset.sheet_pools``): a tester started a fighter at 500 HP on a 100 HP sheet, and a
Traveller at END 20 on an END 7 sheet (by hand and by ``rule amend``): both audited clean."""

from __future__ import annotations

import pytest

from fightlog.audit.one_process import audit_events
from fightlog.events.model import CombatantJoined
from fightlog.fixtures.tampering import Tamper
from fightlog.kit.ruleset import rules_for_scene
from tests.audit.test_order import changed, duel, errors


def test_more_hp_than_the_sheet() -> None:
    events = duel()
    joined = events[1]
    assert isinstance(joined, CombatantJoined)
    hp = joined.pools["hp"]
    found = [(f.seq, f.code, f.message) for f in errors(changed(events, 2, pools={"hp": 500}))]
    assert found == [(2, "scene.joined-pools", f"{joined.actor} joins with hp 500, more than the sheet gives (hp {hp})")]
    assert not [f for f in errors(changed(events, 2, pools={"hp": hp - 10}))  # joins hurt: a fight carried on
                if f.code == "scene.joined-pools"]


@pytest.mark.parametrize(("ruleset", "scenario", "pool", "value"), [
    ("traveller", "dive-behind-the-wall", "END", 20),
    ("en51", "tavern-melee", None, None),
    ("bleeding-sun", "melee-gang-up", "hp", 999),
    ("d20-evasion", "ford-ambush", "hp", 999),
])
def test_every_ruleset_says_what_its_sheets_give(ruleset: str, scenario: str, pool: str | None,
                                                value: int | None) -> None:
    from tests.conftest import FIXTURES
    from fightlog.events.reader import read_log

    events = [e for _, e in read_log(FIXTURES / ruleset / "scenarios" / f"{scenario}.jsonl")]
    rules = rules_for_scene(ruleset, {})
    joins = [e for e in events if isinstance(e, CombatantJoined)]
    assert joins and all(rules.sheet_pools(j.sheet) == j.pools for j in joins)  # as the engine joins them
    log = Tamper(events)
    first = joins[0]
    if pool is None:  # en51: a Wound on the sheet left unmarked on the track
        log.change(first, sheet={**first.sheet, "wounds": [5]})
    else:
        log.change(first, pools={**first.pools, pool: value})
    found = [f for f in audit_events(log.done().events).findings if f.code == "scene.joined-pools"]
    assert [f.actor for f in found] == [first.actor]
