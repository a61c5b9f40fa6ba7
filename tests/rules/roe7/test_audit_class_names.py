"""A hand-run log names a weapon as a post may, by its class (``weapon=AMR``, an outcome's
``"weapon": "Rifle"``): the audit reads it as the actor's weapon of that class, as the
table does. It read tokens only, so a sniper's critical named ``AMR`` was "no critical
without a sniper weapon", and an SMG's wrong range die named ``SMG`` was never judged."""

from __future__ import annotations

from datetime import datetime, timezone

from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.events.model import AnyEvent, AttackResolved, DiceRolled
from fightlog.events.reader import read_log
from fightlog.fixtures.roe7_playing import by_hand
from fightlog.rules.roe7.tokens import parse_token
from tests.conftest import FIXTURES

SNIPER = FIXTURES / "roe7" / "scenarios" / "sniper-overwatch.jsonl"
START = datetime(2024, 5, 1, 20, 0, tzinfo=timezone.utc)


def hand_run() -> list[AnyEvent]:
    return by_hand([e for _, e in read_log(SNIPER)], "sniper.txt", START)


def codes(events: list[AnyEvent]) -> list[tuple[str, int]]:
    return [(f.code, f.seq) for f in audit_events(events).findings if f.severity != "info"]


def test_outcomes_naming_class_names_audit_as_those_naming_tokens() -> None:
    events = hand_run()
    named = [replace(e, weapon=parse_token(e.weapon).weapon_class)
             if isinstance(e, AttackResolved) and e.weapon is not None and "_" in e.weapon else e for e in events]
    assert named != events and any(isinstance(e, AttackResolved) and e.critical for e in named)
    assert codes(named) == codes(events) == []


def test_a_wrong_range_die_is_found_when_the_post_names_the_weapons_class() -> None:
    events = hand_run()
    index, roll = next((i, e) for i, e in enumerate(events) if isinstance(e, DiceRolled) and e.purpose == "attack"
                       and e.dice[0].sides == 20)
    die = roll.dice[0]
    events[index] = replace(roll, notation="1d100", dice=[replace(die, sides=100)])
    assert ("rules.range-die", roll.seq) in codes(events)
