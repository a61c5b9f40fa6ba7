"""An effect counted down a turn at a time (``fightlog.kit.countdowns``, roe7 and d20-evasion):
one turn off what was left, in the turn of whom it counts on (a tester: a stun counted 2 -> 0
in one turn, Protect and burning the same, and a bleed moved to count on its source's turns,
all audited clean)."""

from __future__ import annotations

import pytest

from fightlog.audit.one_process import audit_events
from fightlog.events.model import EffectApplied, EffectCountedDown
from fightlog.events.reader import read_log
from fightlog.fixtures.tampering import Tamper
from tests.conftest import FIXTURES

FIGHTS = [FIXTURES / "roe7" / "scenarios" / "melee-brawl.jsonl",
          FIXTURES / "d20-evasion" / "scenarios" / "sunken-archive.jsonl"]


@pytest.mark.parametrize("path", FIGHTS, ids=[p.name for p in FIGHTS])
def test_a_countdown_of_more_than_a_turn_or_on_anothers_turn(path: object) -> None:
    events = [e for _, e in read_log(path)]  # type: ignore[arg-type]
    assert [f for f in audit_events(events).findings if f.code == "rules.tick-wrong"] == []
    names = {e.effect: e.name for e in events if isinstance(e, EffectApplied)}
    counted = next(e for e in events if isinstance(e, EffectCountedDown) and e.remaining >= 1
                   and names[e.effect] not in ("bleeding_out", "grenade"))  # counted otherwise, judged apart
    name = names[counted.effect]
    log = Tamper(events)
    log.change(log.find(EffectCountedDown, seq=counted.seq), remaining=counted.remaining - 1)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.tick-wrong"]
    assert found[0] == (f"{name} on {counted.target}: counted down from {counted.remaining + 1} to "
                        f"{counted.remaining - 1} turns left; one turn takes one (to {counted.remaining})")
    someone = next(c for c in sorted({e.actor for e in events if hasattr(e, "actor") and e.actor}) if c != counted.target
                   and c in {a.actor for a in events if type(a).__name__ == "CombatantJoined"})
    log = Tamper(events)
    log.change(log.find(EffectApplied, effect=counted.effect), counts_on=someone)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.tick-wrong"]
    assert any(f"it counts down at the end of {someone}'s turns" in message for message in found), found
