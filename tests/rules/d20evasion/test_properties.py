"""Random d20-evasion fights with the real seeded ``Scribe`` (hypothesis picks the seed, the
options and every declaration, defensive turns and held turns included): the same seed gives
the same bytes, a refused post changes nothing, the log folds to the engine's state, HP moves
only through damage and healing, armour takes damage before HP, and every fight audits with
no finding at all (the seed revealed, so the dice are recomputed too)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.auditor import audit_events
from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, AnyEvent, DamageApplied, HealingApplied, SceneStarted
from fightlog.reducers.fold import fold, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.kit.actions import parse_actions
from fightlog.rules.d20evasion.bands import band_between
from fightlog.rules.d20evasion.defence import unanswered
from fightlog.rules.d20evasion.options import DEFAULTS
from fightlog.rules.d20evasion.ruleset import OUT
from fightlog.rules.d20evasion.table import TABLE
from fightlog.dice import dice_commitment
from fightlog.kit.table import Entrant, Post, Scribe
from tests.rules.d20evasion.rigged import PISTOL, SWORD, entrant_of

BOLT = {"name": "Bolt", "mp": 10, "damage": 20, "ranges": ["close", "medium-close", "medium"], "cooldown": 1,
        "effect": {"name": "burning", "damage": 5, "rounds": 2}}
WARD = {"name": "Ward", "mp": 5, "target": "ally", "damage_taken_percent": 50, "rounds": 2}
NOVA = {"name": "Nova", "mp": 15, "damage": 35, "ranges": ["medium-close", "medium"], "long": True}
HEAL = {"name": "Mend", "mp": 5, "target": "ally", "heal": 25}
CALL = {"name": "Call", "mp": 10, "target": "self", "summons": "hound"}
SPEAR = {"name": "Spear", "kind": "melee", "category": "polearms", "damage": 20, "piercing": True,
         "ranges": ["close", "medium-close"]}
TORCH = {**SWORD, "name": "Torch", "effect": {"name": "burning", "damage": 10, "rounds": 1}}


def entrants() -> list[tuple[Entrant, bool]]:
    """A mixed skirmish: armour, piercing, spells of every kind, items, a hand weapon, a
    minion in reserve. ``(entrant, reserve)``."""
    return [
        (entrant_of("ann", (0, 0), side="a", armour=[{"name": "Vest", "armour": 30, "evasion": 1}],
                    weapons=[PISTOL, SWORD], items=[{"name": "Kit", "count": 2, "heal": 30}], lbe=1), False),
        (entrant_of("mage", (2, 3), side="a", mp=60, spells=[BOLT, WARD, NOVA, HEAL, CALL],
                    weapons=[{**SWORD, "name": "Staff", "damage": 5}], stats={"willpower": 30}), False),
        (entrant_of("orc", (12, 0), side="b", stats={"strength": 30, "dexterity": 15}, level=4,
                    armour=[{"name": "Hide", "armour": 20}], weapons=[SPEAR, TORCH]), False),
        (entrant_of("gob", (30, 4), side="b", weapons=[PISTOL, {**SWORD, "name": "Knuckles", "hand": True,
                                                              "ranges": ["touch"]}], speed_ft=25), False),
        (entrant_of("hound", (1, 0), side="a", owner="mage", weapons=[{**SWORD, "name": "Fangs", "ranges": ["touch"]}],
                    hp=40), True),
    ]


def opened(seed: str, options: dict[str, Any]) -> Scribe:
    scribe = Scribe(EMPTY, seed)
    scribe.emit(SceneStarted(scene="prop", ruleset="d20-evasion", format=FORMAT_VERSION,
                             options=TABLE.options(options), dice=dice_commitment(seed)))
    for entrant, reserve in entrants():
        TABLE.join(scribe, entrant, reserve=reserve, salt=f"{entrant.actor}-salt")
    TABLE.begin(scribe)
    return scribe


OPTIONS = st.fixed_dictionaries({}, optional={
    "mode": st.sampled_from(["quest", "duel"]),
    "initiative": st.sampled_from(["party", "individual"]),
    "initiative_tie": st.sampled_from(["bonus", "reroll"]),
    "round_halves": st.sampled_from(["up", "down"]),
    "defence_tie": st.sampled_from(["attacker", "defender"]),
    "counter_penalty_scope": st.sampled_from(["attack", "defensive-turn"]),
    "one_defence_per_attack": st.booleans(),
    "natural_20_hits": st.booleans(),
    "natural_1_misses": st.booleans(),
    "dot_bypasses_armour": st.booleans(),
    "broken_armour_keeps_evasion": st.booleans(),
    "ambush": st.sampled_from(["", "a", "b"]),
})

BANDS = ["touch", "close", "medium-close", "medium", "far"]


def one(rnd: random.Random, state: SceneState, actor: str) -> str:
    """One action for ``actor``: mostly sensible (an enemy, a weapon carried), now and then
    not (the table must refuse it cleanly)."""
    me = state.combatants[actor]
    enemies = sorted(a for a, c in state.combatants.items() if c.side != me.side and "dead" not in c.statuses)
    others = sorted(a for a in state.combatants if a != actor)
    target = rnd.choice(enemies if enemies and rnd.randrange(5) else others)
    kind = rnd.choice(["attack", "attack", "attack", "attack", "move", "move", "sprint", "cast", "cast",
                       "use_item", "disarm", "draw", "pick_up", "skill", "say", "lateral"])
    carried = [str(w["name"]) for w in me.sheet.get("weapons", [])]
    weapon = rnd.choice([*carried, *carried, "unarmed", "Pistol"])
    if kind == "attack" and rnd.randrange(4):  # one that reaches, when there is one
        reach = _reaching(state, actor)
        if reach:
            target, weapon = rnd.choice(reach)
    if kind == "attack":
        return f"attack target={target} weapon={weapon}"
    if kind == "move":
        return f"move target={target} range={rnd.choice(BANDS)}"
    if kind == "lateral":
        return "move lateral=true"
    if kind == "cast":
        spell = rnd.choice(["Bolt", "Ward", "Nova", "Mend", "Call"])
        return f"cast spell={spell} target={rnd.choice([target, actor])}"
    if kind == "use_item":
        return f"use_item item=Kit target={rnd.choice([target, actor])}"
    if kind == "disarm":
        return f"disarm target={target}"
    if kind in ("draw", "pick_up"):
        return f"{kind} weapon={weapon}" if kind == "draw" else "pick_up"
    if kind == "skill":
        return "skill name=tracking"
    return kind


def _reaching(state: SceneState, actor: str) -> list[tuple[str, str]]:
    """(enemy, weapon) pairs within the weapon's ranges."""
    me = state.combatants[actor]
    out: list[tuple[str, str]] = []
    for other, them in sorted(state.combatants.items()):
        if them.side == me.side or not OUT.isdisjoint(them.statuses) or me.position is None or them.position is None:
            continue
        band = band_between(me.position, them.position, DEFAULTS)
        out.extend((other, str(w["name"])) for w in me.sheet.get("weapons", []) if band in w["ranges"])
    return out


def check_new_events(before: SceneState, events: list[AnyEvent]) -> None:
    state = before
    for event in events:
        after = reduce(state, event)
        if isinstance(event, DamageApplied):
            assert event.reduced_by == 0 and 0 <= event.taken <= event.raw
            if event.pool == "hp" and event.taken and event.damage_type != "piercing":
                prior = state.combatants[event.target].pools.get("armour", 0)
                assert prior == 0, f"HP damage while armour {prior} is left: {event}"
        for actor, who in after.combatants.items():
            old = state.combatants.get(actor)
            if old is None:
                continue
            for pool in ("hp", "armour"):
                change = who.pools.get(pool, 0) - old.pools.get(pool, 0)
                if not change:
                    continue
                if isinstance(event, DamageApplied):
                    assert event.target == actor and event.pool == pool and change == -event.taken
                else:
                    assert isinstance(event, HealingApplied) and event.target == actor and change == event.amount
        state = after


def attempt(scribe: Scribe, post: Post) -> bool:
    """Post; a refusal must leave the scribe as it was. Whether it was taken."""
    state, count = scribe.state, len(scribe.events)
    try:
        TABLE.post(scribe, post)
    except RefusedError:
        assert scribe.state == state and len(scribe.events) == count
        return False
    check_new_events(state, scribe.events[count:])
    return True


def play(seed: str, options: dict[str, Any], rnd: random.Random) -> Scribe:
    """A random fight: the current actor posts (or holds); defenders answer the attacks on
    them (mostly); a holder takes the held turn now and then; turns end."""
    scribe = opened(seed, options)
    for _ in range(rnd.randint(10, 60)):
        state = scribe.state
        actor = state.turn.current
        if actor is None:
            break
        do = ["hold"] if rnd.randrange(12) == 0 else [one(rnd, state, actor) for _ in range(rnd.choice([1, 1, 2, 2, 3]))]
        attempt(scribe, Post(actor=actor, actions=parse_actions(do)))
        for post, defender in unanswered(scribe.state):
            if rnd.randrange(5):
                carried = [str(w["name"]) for w in scribe.state.combatants[defender].sheet.get("weapons", [])]
                answers = [rnd.choice(["dodge", "take", f"counter weapon={rnd.choice(carried)}",
                                       f"parry weapon={rnd.choice([*carried, 'unarmed'])}"])
                           for _ in range(rnd.randint(1, 2))]
                attempt(scribe, Post(actor=defender, actions=parse_actions(answers), responds_to=post.seq))
        holders = sorted(a for a, c in scribe.state.combatants.items() if "holding" in c.statuses)
        if holders and scribe.state.pending and rnd.random() < 0.5:
            do = [one(rnd, scribe.state, holders[0]) for _ in range(rnd.choice([1, 2]))]
            attempt(scribe, Post(actor=holders[0], actions=parse_actions(do), responds_to=scribe.state.pending[-1].seq))
        if rnd.randrange(4) > 0 and scribe.state.turn.current is not None:
            before, count = scribe.state, len(scribe.events)
            TABLE.end_turn(scribe)
            check_new_events(before, scribe.events[count:])
    TABLE.end(scribe, reveal=seed)
    return scribe


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), options=OPTIONS, choices=st.integers(0, 2**32 - 1))
def test_random_engine_fights_replay_fold_and_audit_clean(seed: bytes, options: dict[str, Any], choices: int) -> None:
    """Hypothesis picks the seed, the options and (through ``choices``) every post."""
    scribe = play(seed.hex(), options, random.Random(choices))
    assert fold(scribe.events) == scribe.state
    again = play(seed.hex(), options, random.Random(choices))
    assert msgspec.json.encode(again.events) == msgspec.json.encode(scribe.events)
    report = audit_events(scribe.events)
    assert not report.findings, [f"{f.seq} {f.code}: {f.message}" for f in report.findings]


def test_the_same_seed_and_posts_give_the_same_bytes() -> None:
    def fight(seed: str) -> bytes:
        scribe = opened(seed, {"mode": "duel"})
        for _ in range(6):
            actor = scribe.state.turn.current
            assert actor is not None
            target = "orc" if actor in ("ann", "mage", "hound") else "ann"
            try:
                TABLE.post(scribe, Post(actor=actor, actions=parse_actions([f"attack target={target} weapon=Pistol"])))
            except RefusedError:
                pass
            TABLE.end_turn(scribe)
        TABLE.end(scribe, reveal=seed)
        return msgspec.json.encode(scribe.events)

    assert fight("5eed" * 16) == fight("5eed" * 16)
    assert fight("ab" * 32) != fight("5eed" * 16)


def test_bad_options_are_refused_before_the_scene() -> None:
    import pytest

    from fightlog.errors import InputError

    with pytest.raises(InputError, match="unknown d20-evasion option 'mod'"):
        TABLE.options({"mod": "duel"})
    assert Action(type="say").type == "say"


def test_an_option_added_to_rolls_is_bounded_as_a_rolls_modifiers_are() -> None:
    """``stat_bonus_offset = 1000000000`` was accepted, then every roll refused ("modifier
    -999999997 (Dex + level) is too large"), naming no file: the fight could never begin."""
    import pytest

    from fightlog.errors import InputError

    for name in ("stat_bonus_offset", "parry_fumble_penalty", "counter_evasion_penalty", "disarm_difficulty_bonus"):
        with pytest.raises(InputError, match=f"'{name}': expected an integer >= 0 and <= 9999999, got 10000000"):
            TABLE.options({name: 10_000_000})
        assert TABLE.options({name: 9_999_999}) is not None
    with pytest.raises(InputError, match="'killed_at_hp': expected an integer >= -1000000000 and <= 0"):
        TABLE.options({"killed_at_hp": -10**20})
