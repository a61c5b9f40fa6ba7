"""What the bundled d20-evasion scenarios (``fixtures/d20-evasion/scenarios``) are there to
show: every rule below left its evidence in some log, and each is named with the scenario
written (and seeded) to show it. ``tests/test_scenarios.py`` holds every scenario to its
committed bytes and snapshots; here, a rule that goes missing is named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from fightlog.events.codec import decode_line
from fightlog.events.model import (
    AnyEvent,
    AttackResolved,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    EffectApplied,
    EffectExpired,
    EffectTicked,
    InitiativeRolled,
    InitiativeSet,
    Moved,
    ResourceSpent,
    StatusChanged,
    TurnStarted,
)
from tests.conftest import FIXTURES

SCENARIOS_DIR = FIXTURES / "d20-evasion" / "scenarios"
SCENARIOS = sorted(SCENARIOS_DIR.glob("*.toml"))


class Log:
    def __init__(self, name: str, events: list[AnyEvent]) -> None:
        self.name = name
        self.events = events
        self.by_seq = {e.seq: e for e in events}

    def of(self, kind: type[Any]) -> Iterator[Any]:
        return (e for e in self.events if isinstance(e, kind))

    def actions(self, kind: str) -> list[tuple[DeclarationPosted, Any]]:
        return [(p, a) for p in self.of(DeclarationPosted) for a in p.actions if a.type == kind]

    def rolls(self, purpose: str) -> list[DiceRolled]:
        return [r for r in self.of(DiceRolled) if r.purpose == purpose]

    def statuses(self, name: str) -> list[StatusChanged]:
        return [s for s in self.of(StatusChanged) if s.status == name and s.on]

    def effects(self, name: str) -> list[EffectApplied]:
        return [e for e in self.of(EffectApplied) if e.name == name]


@cache
def logs() -> tuple[Log, ...]:
    return tuple(Log(p.stem, [decode_line(line) for line in p.with_suffix(".jsonl").read_bytes().splitlines()])
                 for p in SCENARIOS)


def defended(log: Log, kind: str, held: bool) -> bool:
    """A ``kind`` defence roll higher than the attack roll it answered (``held``: no hit),
    or lower than an attack that hit."""
    for r in log.of(AttackResolved):
        cited = [c for c in (log.by_seq[s] for s in r.rolls[1:]) if isinstance(c, DiceRolled) and c.purpose == kind]
        if held and any(c.total > r.score for c in cited) and not r.hit:
            return True
        if not held and any(c.total < r.score for c in cited) and r.hit:
            return True
    return False


def countered(log: Log) -> bool:
    """A counterattack that landed while its maker was hit too, and the Evasion it cost."""
    for r in log.of(AttackResolved):
        if "counterattack" in r.notes and r.hit:
            post = log.by_seq[r.declaration or 0]
            assert isinstance(post, DeclarationPosted)
            answered = [o for o in log.of(AttackResolved) if o.declaration == post.responds_to and o.hit]
            if answered and any("Evasion lowered by 1 (counterattack)" in n for o in answered for n in o.notes):
                return True
    return False


def armour_first(log: Log) -> bool:
    events = log.events
    return any(isinstance(a, DamageApplied) and a.pool == "armour" and isinstance(b, DamageApplied)
               and b.pool == "hp" and b.cause == a.cause and b.raw == a.raw - a.taken for a, b in zip(events, events[1:]))


def party_roll(log: Log) -> bool:
    return any(len(r.group) > 1 for r in log.of(InitiativeRolled)) and any(
        s.reason == "initiative" for s in log.of(InitiativeSet))


def reason(log: Log, why: str) -> bool:
    return any(s.reason == why for s in log.of(InitiativeSet))


def dot_ticks(log: Log) -> bool:
    for tick in log.of(EffectTicked):
        index = log.events.index(tick)
        if isinstance(log.events[index - 1], TurnStarted) and log.events[index - 1].actor == tick.target:
            return True
    return False


def rounded(log: Log) -> bool:
    return any(any("altered by 50%" in n and n.endswith(": 20") and "35 damage" in n for n in r.notes)
               for r in log.of(AttackResolved))


def minion_after(log: Log) -> bool:
    for order in log.of(InitiativeSet):
        if order.reason == "minions after their summoner":
            return True
    return False


def interrupted(log: Log) -> bool:
    for post in log.of(DeclarationPosted):
        if post.responds_to and any(a.type == "attack" for a in post.actions):
            answered = log.by_seq[post.responds_to]
            if isinstance(answered, DeclarationPosted) and answered.actor != post.actor:
                if any(s.status == "holding" and not s.on and s.actor == post.actor for s in log.of(StatusChanged)):
                    return True
    return False


def sprinted(log: Log, times: int) -> bool:
    return any(sum(1 for a in p.actions if a.type == "sprint") == times for p in log.of(DeclarationPosted))


class Rule(NamedTuple):
    what: str
    seen: Callable[[Log], bool]


RULES: dict[str, Rule] = {
    "dodge held": Rule("a dodge higher than the attack roll: no damage", lambda g: defended(g, "dodge", True)),
    "dodge failed": Rule("a dodge below the attack roll: full damage", lambda g: defended(g, "dodge", False)),
    "parry held": Rule("a parry stopping a melee attack", lambda g: defended(g, "parry", True)),
    "parried: no counter": Rule("a parried attacker barred from countering", lambda g: bool(g.effects("no_counter"))),
    "counterattack": Rule("a counter that lands though its maker is hit, at Evasion - 1", countered),
    "take": Rule("an attack simply taken", lambda g: bool(g.actions("take"))),
    "armour first": Rule("armour absorbing a hit, the rest off HP", armour_first),
    "piercing": Rule("piercing damage past intact armour",
                     lambda g: any(d.damage_type == "piercing" for d in g.of(DamageApplied))),
    "rounded to 5": Rule("Protect halving 35 to 17.5, rounded to 20", rounded),
    "damage over time": Rule("burning taken at the start of the target's turn", dot_ticks),
    "party initiative": Rule("one roll for a whole party", party_roll),
    "individual initiative": Rule("initiative rolled per combatant",
                                  lambda g: sum(1 for r in g.of(InitiativeRolled) if not r.group) >= 3),
    "ambush": Rule("ambushers first without a roll", lambda g: reason(g, "ambush") and not g.rolls("initiative")),
    "first strike": Rule("a first-strike skill winning initiative", lambda g: reason(g, "first strike")),
    "move and two actions": Rule("a move and two attacks in one post",
                                 lambda g: any([a.type for a in p.actions].count("attack") == 2 and
                                               any(a.type == "move" for a in p.actions) for p in g.of(DeclarationPosted))),
    "sprint once": Rule("a sprint with one action", lambda g: sprinted(g, 1)),
    "sprint twice": Rule("a sprint with both actions", lambda g: sprinted(g, 2)),
    "lateral move": Rule("a move within a band for 1 point",
                         lambda g: any(m.points == 1 and m.band is None for m in g.of(Moved) if m.cause)),
    "item": Rule("an item used with two actions", lambda g: any(a.cost == "both" for _, a in g.actions("use_item"))),
    "spell mp": Rule("a spell's MP spent", lambda g: any(s.resource == "mp" for s in g.of(ResourceSpent))),
    "cooldown": Rule("a spell cooling down", lambda g: bool(g.effects("cooldown"))),
    "long cast": Rule("a long cast taking both actions", lambda g: any(a.cost == "both" for _, a in g.actions("cast"))),
    "minion": Rule("a minion summoned, acting after its summoner from the next round", minion_after),
    "hold and interrupt": Rule("a held turn interrupting an enemy after the move, before the attack", interrupted),
    "disarm": Rule("a disarm against Evasion + 3", lambda g: bool(g.effects("disarmed"))),
    "pick up": Rule("a weapon picked up", lambda g: any(e.reason == "picked up" for e in g.of(EffectExpired))),
    "free draw": Rule("a draw free with load-bearing equipment", lambda g: any(a.cost == "free" for _, a in g.actions("draw"))),
    "hand weapon": Rule("a hand weapon used",
                        lambda g: any(r.weapon == "Brass knuckles" for r in g.of(AttackResolved))),
    "mortally wounded": Rule("0 HP: mortally wounded and the d20 injury roll",
                             lambda g: bool(g.statuses("mortally_wounded")) and bool(g.rolls("injury"))),
    "bled out": Rule("dead after two rounds untreated",
                     lambda g: any(s.note and "bled out" in s.note for s in g.statuses("dead"))),
    "killed outright": Rule("killed outright at -75",
                            lambda g: any(s.note and "killed outright" in s.note for s in g.statuses("dead"))),
    "healing": Rule("a med kit healing", lambda g: any(a.item == "Med kit" for _, a in g.actions("use_item"))),
}

SHOWN_BY: dict[str, tuple[str, ...]] = {
    "ashfall-duel": ("dodge held", "dodge failed", "parry held", "parried: no counter", "counterattack", "take",
                     "piercing", "mortally wounded"),
    "sunken-archive": ("party initiative", "armour first", "rounded to 5", "damage over time", "sprint once", "item",
                       "spell mp", "cooldown", "bled out", "healing", "lateral move"),
    "ford-ambush": ("ambush", "killed outright", "piercing"),
    "wolf-and-ward": ("minion", "hold and interrupt", "long cast"),
    "yard-brawl": ("individual initiative", "first strike", "disarm", "pick up", "free draw", "sprint twice",
                   "hand weapon", "move and two actions"),
}


def test_every_scenario_is_listed() -> None:
    assert sorted(SHOWN_BY) == [p.stem for p in SCENARIOS]
    assert not [r for rules in SHOWN_BY.values() for r in rules if r not in RULES]


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_is_exercised(rule: str) -> None:
    what, seen = RULES[rule]
    meant = [name for name, rules in SHOWN_BY.items() if rule in rules]
    found = [log.name for log in logs() if seen(log)]
    assert found, f"rule not exercised: {rule} ({what}); it was {', '.join(meant) or 'no scenario'}'s to show"
    for name in meant:
        assert name in found, f"{name} no longer shows {rule} ({what})"


def test_the_logs_are_there() -> None:
    for scenario in SCENARIOS:
        assert Path(scenario.with_suffix(".jsonl")).is_file()


def test_folding_and_auditing_a_d20_log_loads_neither_pydantic_nor_the_table() -> None:
    import subprocess
    import sys

    log = SCENARIOS[0].with_suffix(".jsonl")
    code = (
        "import sys\n"
        "from fightlog.history.states import state_at\n"
        "from fightlog.audit.auditor import audit_log\n"
        f"state_at({str(log)!r}, cache=False)\n"
        f"assert not audit_log({str(log)!r}).findings\n"
        "heavy = ('pydantic', 'fightlog.rules.d20evasion.table', 'fightlog.rules.d20evasion.roster',\n"
        "         'fightlog.rules.d20evasion.sheet')\n"
        "assert not [m for m in sys.modules if m.startswith(heavy)], sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
