"""Random Traveller fights with the real seeded ``Scribe`` (hypothesis picks the seed, the
options and every post, reactions included): the same seed gives the same bytes, a refused
post changes nothing, the log folds to the engine's state, characteristics move only through
damage and healing and never below zero, and every fight audits with no finding at all (the
seed revealed, so the dice are recomputed too)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.one_process import audit_events
from fightlog.dice import dice_commitment
from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, DamageApplied, HealingApplied, SceneStarted
from fightlog.kit.actions import parse_actions
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.reducers.fold import fold, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.rules.traveller.card import PHYSICAL
from fightlog.rules.traveller.reactions import unanswered
from fightlog.rules.traveller.table import TABLE
from tests.rules.traveller.rigged import entrant_of

SHOTGUN = {"name": "Shotgun", "kind": "ranged", "damage": "4D", "range_m": 50, "magazine": 2}
KNIFE = {"name": "Knife", "kind": "melee", "damage": "1D+2"}
GRENADE = {"name": "Rock", "kind": "thrown", "damage": "2D", "range_m": 20}


def entrants() -> list[Entrant]:
    return [
        entrant_of("ann", (0, 0), side="a", skills={"gun_combat": 2, "tactics": 1, "leadership": 1, "medic": 1},
                   gear=["medikit"], armour=3, weapons=[SHOTGUN, KNIFE]),
        entrant_of("ben", (2, 3), side="a", skills={"melee": 2, "athletics": 1}, weapons=[KNIFE, GRENADE],
                   characteristics={"STR": 10, "DEX": 9, "END": 5}),
        entrant_of("orc", (8, 0), side="b", skills={"melee": 1, "gun_combat": 0}, armour=2,
                   characteristics={"STR": 11, "END": 9}),
        entrant_of("gob", (20, 4), side="b", skills={"gun_combat": 1, "athletics": 2}, weapons=[SHOTGUN, GRENADE],
                   characteristics={"DEX": 12, "END": 4}),
    ]


def opened(seed: str, options: dict[str, Any]) -> Scribe:
    scribe = Scribe(EMPTY, seed)
    scribe.emit(SceneStarted(scene="prop", ruleset="traveller", format=FORMAT_VERSION,
                             options=TABLE.options(options), dice=dice_commitment(seed)))
    for entrant in entrants():
        TABLE.join(scribe, entrant, salt=f"{entrant.actor}-salt")
    TABLE.begin(scribe)
    return scribe


OPTIONS = st.fixed_dictionaries({}, optional={
    "ambush": st.sampled_from(["", "a", "b"]),
    "initiative_characteristic": st.sampled_from(["better", "DEX", "INT"]),
    "after_end": st.sampled_from(["higher", "STR", "DEX"]),
    "dead_at_three_zero": st.booleans(),
    "band_edges_inclusive": st.booleans(),
    "melee_characteristic": st.sampled_from(["better", "STR", "DEX"]),
    "grapple_defender_choice": st.sampled_from(["picks", "escape", "continue", "damage", "throw"]),
    "first_aid_needs_kit": st.booleans(),
    "wake_rounds": st.integers(1, 10),
})

KINDS = ["attack", "attack", "attack", "move", "aim", "stance", "draw", "reload", "cover", "grapple", "leadership",
         "encourage", "first_aid", "pick_up", "defer", "say", "task"]


def one(rnd: random.Random, state: SceneState, actor: str) -> str:
    """One action, mostly sensible, now and then not (the table must refuse it cleanly)."""
    me = state.combatants[actor]
    others = sorted(a for a in state.combatants if a != actor)
    enemies = [a for a in others if state.combatants[a].side != me.side] or others
    friends = [a for a in others if state.combatants[a].side == me.side] or others
    target = rnd.choice(enemies)
    weapons = [str(w["name"]) for w in me.sheet.get("weapons", [])] + ["unarmed"]
    kind = rnd.choice(KINDS)
    if kind == "attack":
        return f"attack target={target}" + (f" weapon={rnd.choice(weapons)}" if rnd.randrange(2) else "")
    if kind == "move":
        x, y = me.position or (0, 0)
        return f"move x={x + rnd.randint(-4, 4)} y={y + rnd.randint(-4, 4)}"
    if kind == "stance":
        return f"stance to={rnd.choice(['stand', 'crouch', 'prone'])}"
    if kind in ("draw", "reload", "pick_up"):
        return f"{kind} weapon={rnd.choice(weapons)}"
    if kind == "cover":
        return f"cover behind={rnd.choice(['stone_wall', 'vegetation', 'none', 'tree_trunk'])}"
    if kind == "grapple":
        return f"grapple target={target} choice={rnd.choice(['prone', 'disarm', 'throw', 'damage', 'drag'])}"
    if kind == "encourage":
        return f"encourage target={rnd.choice(friends)}"
    if kind == "task":
        return rnd.choice(["task skill=electronics characteristic=INT rounds=2", "task"])
    if kind == "first_aid":
        return f"first_aid target={rnd.choice([*friends, actor])}"
    return kind


def check_new_events(before: SceneState, events: list[Any]) -> None:
    state = before
    for event in events:
        after = reduce(state, event)
        for actor, who in after.combatants.items():
            old = state.combatants.get(actor)
            if old is None:
                continue
            assert not {"prone", "crouched"} <= set(who.statuses), f"{actor} both prone and crouched"
            for pool in PHYSICAL:
                value = who.pools.get(pool, 0)
                assert value >= 0, f"{actor} {pool} below zero"
                change = value - old.pools.get(pool, 0)
                if change < 0:
                    assert isinstance(event, DamageApplied) and event.pool == pool and change == -event.taken
                elif change > 0:
                    assert isinstance(event, HealingApplied) and event.pool == pool and change == event.amount
        state = after


def attempt(scribe: Scribe, post: Post) -> bool:
    state, count = scribe.state, len(scribe.events)
    try:
        TABLE.post(scribe, post)
    except RefusedError:
        assert scribe.state == state and len(scribe.events) == count
        return False
    check_new_events(state, scribe.events[count:])
    return True


def play(seed: str, options: dict[str, Any], rnd: random.Random) -> Scribe:
    """A random fight: the current actor posts; targets react (mostly); turns end."""
    scribe = opened(seed, options)
    for _ in range(rnd.randint(10, 50)):
        actor = scribe.state.turn.current
        if actor is None:
            break
        do = [one(rnd, scribe.state, actor) for _ in range(rnd.choice([1, 1, 2, 2, 3]))]
        attempt(scribe, Post(actor=actor, actions=parse_actions(do)))
        for waiting in unanswered(scribe.state, actor):
            if rnd.randrange(4):
                reaction = rnd.choice(["dodge", "parry", "dive", "dive cover=vegetation", "take"])
                attempt(scribe, Post(actor=waiting.target, actions=parse_actions([reaction])))
        if rnd.randrange(5) and scribe.state.turn.current is not None:
            before, count = scribe.state, len(scribe.events)
            TABLE.end_turn(scribe)
            check_new_events(before, scribe.events[count:])
    TABLE.end(scribe, reveal=seed)
    return scribe


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), options=OPTIONS, choices=st.integers(0, 2**32 - 1))
def test_random_engine_fights_replay_fold_and_audit_clean(seed: bytes, options: dict[str, Any], choices: int) -> None:
    scribe = play(seed.hex(), options, random.Random(choices))
    assert fold(scribe.events) == scribe.state
    again = play(seed.hex(), options, random.Random(choices))
    assert msgspec.json.encode(again.events) == msgspec.json.encode(scribe.events)
    report = audit_events(scribe.events)
    assert not report.findings, [f"{f.seq} {f.code}: {f.message}" for f in report.findings]
