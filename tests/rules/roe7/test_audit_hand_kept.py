"""Hand-kept roe7 logs write what the engine's do in their own way, and the audit reads them
as the table would: a weapon named by its class (``weapon=AMR``, an outcome's ``"weapon":
"Rifle"``) is the actor's weapon of that class (it read tokens only, so a sniper's critical
named ``AMR`` was "no critical without a sniper weapon", and an SMG's wrong range die named
``SMG`` was never judged); an effect counted down to 0 has ended whether or not the log
writes its expiry."""

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


def test_effects_counted_down_to_0_end_whether_or_not_the_log_says_they_expired() -> None:
    """Debuffs removes an effect at 0 turns left. A hand-kept log that counts a lost action
    and a burn down to 0 but writes no `effect_expired` had the lost action in force a round
    later and a burn owing a fourth tick: four false errors (a rules tester)."""
    from fightlog.events.model import EffectCountedDown, EffectExpired, RulingMade

    for name in ("com-call", "flee-the-market", "gate-ambush", "melee-brawl"):
        events = by_hand([e for _, e in read_log(FIXTURES / "roe7" / "scenarios" / f"{name}.jsonl")], f"{name}.txt",
                         START)
        at_zero = {e.effect for e in events if isinstance(e, EffectCountedDown) and e.remaining == 0}
        expiries = [e.seq for e in events if isinstance(e, EffectExpired) and e.effect in at_zero]
        assert expiries, name
        unsaid = [*events, *(RulingMade(seq=len(events) + i, by="GM", action="void", target=seq, reason="never written")
                             for i, seq in enumerate(expiries, 1))]
        assert codes(unsaid) == codes(events), name


def test_a_flee_past_the_limit_is_found_from_the_flee_rolls_too() -> None:
    """A hand-kept log rolls its flees but spends no `flee_attempts` (the engine's
    bookkeeping): a third flee audited clean (a rules tester). Here one attempt a combat:
    the second flee of the market fight is past it, spent or only rolled."""
    from fightlog.events.model import ResourceSpent, RulingMade, SceneStarted

    events = by_hand([e for _, e in read_log(FIXTURES / "roe7" / "scenarios" / "flee-the-market.jsonl")],
                     "market.txt", START)
    first = events[0]
    assert isinstance(first, SceneStarted)
    events[0] = replace(first, options={**first.options, "flee_attempts": 1})
    spent = [e.seq for e in events if isinstance(e, ResourceSpent) and e.resource == "flee_attempts"]
    assert len(spent) == 2
    unspent = [*events, *(RulingMade(seq=len(events) + i, by="GM", action="void", target=seq, reason="not kept")
                          for i, seq in enumerate(spent, 1))]
    found = [c for c in codes(events) if c[0] == "rules.flee-limit"]
    assert len(found) == 1 and [c for c in codes(unspent) if c[0] == "rules.flee-limit"] == found


def test_a_stun_during_the_immunity_a_stun_leaves_is_found() -> None:
    """Stun: after a stun ends, the fighter is immune until the end of their next turn. The
    engine refuses a stun then; a hand-kept log that applied one audited clean. Found
    whether the log writes `stun_immunity` or not."""
    from fightlog.events.model import EffectApplied, EffectExpired, TurnStarted

    events = by_hand([e for _, e in read_log(FIXTURES / "roe7" / "scenarios" / "melee-brawl.jsonl")], "brawl.txt",
                     START)
    ended = next(e for e in events if isinstance(e, EffectExpired) and e.effect.startswith("stun-"))
    victim = next(e for e in events if isinstance(e, EffectApplied) and e.effect == ended.effect).target
    at = next(i for i, e in enumerate(events) if e.seq > ended.seq and isinstance(e, TurnStarted))  # the next turn
    stun = EffectApplied(seq=0, effect="stun-again", name="stun", target=victim, source="gm", duration=1)
    for keep_immunity in (True, False):
        changed = [e for e in events
                   if keep_immunity or not (isinstance(e, EffectApplied) and e.name == "stun_immunity")]
        index = changed.index(events[at])
        changed = [*changed[: index + 1], stun, *changed[index + 1:]]
        changed = [replace(e, seq=i) for i, e in enumerate(changed, 1)]
        found = [c for c in codes(changed) if c[0] == "rules.effect-wrong"]
        assert found and found[0][1] == index + 2, (keep_immunity, found)
