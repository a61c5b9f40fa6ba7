"""A long, realistic engine fight for the audit benchmark (``bench/bench_audit.py``).

    python bench/long_fight.py [--events 1000000]      # writes bench/out/fight-N.jsonl

The fight is played through the RoE table (``fightlog.rules.roe7.table.TABLE``) on one
``Scribe`` with a fixed dice seed, exactly as ``fightlog run`` plays a scenario: the scene is
committed to the seed in ``scene_started`` and the seed revealed in ``scene_ended``, every die
is an engine roll. So the log is the audit's normal input and audits with no finding.

Eight fighters on two sides, with a billion HP each so that nobody falls, in a 24 x 14 m
yard. A deterministic policy (``random.Random(POLICY_SEED)``) picks each turn's post:
single, automatic, suppressive, dual-wielded, aimed and melee attacks with sixteen weapons
of thirteen classes (rifles, a pistol, an MG, an AMR, a shotgun, a heavy pistol, an SMG, a
flamer, clubs, blades, swords, a whip, magika), moves (toward, away, to a spot, into cover), stances, aiming, reloads when a
weapon needs one, skill rolls, the odd grenade, and plain talk when the fighter cannot act
(stunned, a lost turn). A post the rules refuse is replaced by the next candidate. Bleeds,
burns, stuns, suppression and criticals tick and expire on their own.

The fight runs until ``count - 1`` events minus a short tail, then out-of-character posts
fill up to exactly ``count - 1`` and ``scene_ended`` reveals the seed: exactly ``count``
events. A million events take about 20 s to play on the benchmark machine (the table folds
every event it emits) and 216 MB; the file is reused when it is already complete (delete it
after changing the policy).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, AnyEvent, CombatantJoined, SceneStarted
from fightlog.events.store import FileStore
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.dice import dice_commitment
from fightlog.rules.roe7.sheet import Sheet
from fightlog.rules.roe7.table import TABLE
from fightlog.rules.roe7.tokens import parse_token
from fightlog.kit.table import Entrant, Post, Scribe

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")

SEED = "5eedf19470a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b"
"""The scene's dice seed (committed at the start, revealed at the end)."""

POLICY_SEED = 20261120
"""Seed of the policy's choices (``random.Random``), not of the dice."""

HP = 1_000_000_000
BOX = (24, 14)
"""The yard: x in 0..24, y in 0..14 metres (close range mostly, medium range at times)."""

ROSTER: list[dict[str, Any]] = [
    # side north
    dict(actor="ash", side="north", at=(2, 1), race="human", racial="violent-upbringing", size_class="medium",
         modifiers=[{"source": "stats", "applies_to": "accuracy", "value": 10, "origin": "Dexterity"}],
         dr={"all": 5, "ballistic": 5},
         weapons=["M_a_Rifle_Class_(Permanent)", "S_s_Pistol_Class_(Permanent)"],
         grenades=[{"name": "Frag", "count": 20}]),
    dict(actor="bryn", side="north", at=(6, 2), race="brute", racial="tough-hide", size_class="large",
         modifiers=[{"source": "stats", "applies_to": "melee_accuracy", "value": 10, "origin": "Strength"}],
         dr={"melee": 10},
         weapons=["L_a_MG_Class_(Permanent)", "L_b_Club_Class_(Permanent)"]),
    dict(actor="cole", side="north", at=(10, 1), race="caste", racial="scholar-caste", size_class="medium",
         modifiers=[{"source": "stats", "applies_to": "ranged_accuracy", "value": 15, "origin": "Perception"}],
         dr={"all": 5},
         weapons=["L_s_AMR_Class_(Permanent)", "S_s_Blade_Class_(Permanent)"]),
    dict(actor="dara", side="north", at=(14, 2), race="drevii", racial="drevii-technology", size_class="medium",
         modifiers=[{"source": "skills", "applies_to": "magika_accuracy", "value": 10, "origin": "Channeling"},
                    {"source": "skills", "applies_to": "melee_accuracy", "value": 10, "origin": "Whips"}],
         dr={"magika": 5},
         weapons=["M_m_Magika_Class_(Permanent)", "M_w_Whip_Class_(Permanent)"], magika=["Red_Stone"]),
    # side south
    dict(actor="eli", side="south", at=(3, 9), race="human", racial="earth-adapted", size_class="medium",
         modifiers=[{"source": "skills", "applies_to": "ranged_accuracy", "value": 10, "origin": "Shotguns"}],
         dr={"all": 5},
         weapons=["M_s_Shotgun_Class_(Permanent)", "S_s_HPistol_Class_(Permanent)"],
         grenades=[{"name": "Frag", "count": 20}]),
    dict(actor="fenn", side="south", at=(7, 10), race="brute", racial="adaptability", size_class="large",
         modifiers=[{"source": "stats", "applies_to": "accuracy", "value": 5, "origin": "Dexterity"}],
         dr={"explosive": 10},
         weapons=["L_a_ChemThrower_Class_(Permanent)", "M_s_Sword_Class_(Permanent)"]),
    dict(actor="gus", side="south", at=(11, 9), race="feral", racial="simply-speedy", size_class="medium",
         modifiers=[{"source": "skills", "applies_to": "dodge", "value": 10, "origin": "Evasion"}],
         weapons=["S_a_SMG_Class_(Permanent)", "S_s_Blade_Class_(Permanent)"]),
    dict(actor="hale", side="south", at=(15, 10), race="splicer", racial="healing-factor", size_class="medium",
         modifiers=[{"source": "skills", "applies_to": "melee_accuracy", "value": 15, "origin": "Fencing"}],
         dr={"melee": 5},
         weapons=["M_s_Rifle_Class_(Permanent)", "M_p_Sword_Class_(Permanent)", "S_b_Club_Class_(Permanent)"]),
]

SAYINGS = (
    "Keep your heads down!",
    "Moving up on the left.",
    "They're reloading, push now!",
    "I've got eyes on the gate.",
    "Watch the flank!",
    "Cover me.",
)


def _entrant(spec: dict[str, Any]) -> Entrant:
    fields = {k: v for k, v in spec.items() if k not in ("actor", "side", "at")}
    snapshot = Sheet.model_validate({"hp": HP, **fields}).to_snapshot()
    actor = spec["actor"]
    joined = CombatantJoined(actor=actor, name=actor.title(), side=spec["side"], controller=f"{actor.title()}Resident",
                             pools={"hp": HP}, sheet=snapshot)
    return Entrant(actor=actor, joined=joined, position=spec["at"])


class Policy:
    """Chooses posts for whoever's turn is open (see the module docstring)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.sides = {spec["actor"]: spec["side"] for spec in ROSTER}
        self.weapons = {spec["actor"]: [parse_token(w) for w in spec["weapons"]] for spec in ROSTER}
        self.name = {spec["actor"]: spec["actor"].title() for spec in ROSTER}

    def posts(self, state: SceneState, actor: str) -> Iterator[Post]:
        """Candidate posts, best first; the last one (plain talk) is always allowed."""
        rng = self.rng
        me = state.combatants[actor]
        enemies = [a for a in self.sides if self.sides[a] != self.sides[actor]]
        target = rng.choice(enemies)
        name, them = self.name[actor], self.name[target]
        effects = {e.name: e for e in state.effects.values() if e.target == actor}
        if "chemical_burn" in effects and rng.random() < 0.5:
            yield Post(actor=actor, text=f"{name} drops and rolls to put out the flames.", actions=(_a("extinguish"),))
        reloading = effects.get("reloading")
        if reloading is not None:
            weapon = str(reloading.params.get("weapon"))
            yield Post(actor=actor, text=f"{name} keeps feeding the belt.", actions=(_a("reload", weapon=weapon),))
        empty = [w for w, s in me.weapons.items() if s.needs_reload]
        if empty and rng.random() < 0.85:
            weapon = rng.choice(sorted(empty))
            yield Post(actor=actor, text=f"{name} reloads.", actions=(_a("reload", weapon=weapon),))
        aim = effects.get("aim")
        ranged = [w for w in self.weapons[actor] if w.family == "firearm"]
        if aim is not None and ranged and rng.random() < 0.9:
            aimed_at = str(aim.params.get("target"))
            weapon = rng.choice(ranged).text
            yield Post(actor=actor, text=f"{name} squeezes off the shot lined up on {self.name[aimed_at]}.",
                       actions=(_a("attack", target=aimed_at, weapon=weapon, mode="aimed"),))
        roll = rng.random()
        movement = self._movement(state, actor, target) if rng.random() < 0.45 else ()
        if roll < 0.40:
            weapon = rng.choice(self.weapons[actor])
            yield Post(actor=actor, text=f"{name} attacks {them} with the {weapon.weapon_class.lower()}.",
                       actions=(*movement, _a("attack", target=target, weapon=weapon.text)))
        elif roll < 0.55:
            autos = [w for w in self.weapons[actor] if w.family == "firearm" and w.fire_mode == "automatic"]
            if autos:
                weapon = rng.choice(autos)
                mode = "suppressive" if rng.random() < 0.2 else "auto"
                yield Post(actor=actor, text=f"{name} opens up on {them} ({mode} fire).",
                           actions=(*movement, _a("attack", target=target, weapon=weapon.text, mode=mode)))
        elif roll < 0.63:
            first, second = self.weapons[actor][:2]
            yield Post(actor=actor, text=f"{name} goes at {them} with both hands.",
                       actions=(*movement, _a("attack", target=target, weapon=first.text, offhand=second.text)))
        elif roll < 0.75:
            melee = [w for w in self.weapons[actor] if w.family != "firearm"]
            if melee:
                weapon = rng.choice(melee)
                close_in = (_a("move", toward=target, m=8),)
                yield Post(actor=actor, text=f"{name} closes on {them} and strikes.",
                           actions=(*close_in, _a("attack", target=target, weapon=weapon.text)))
        elif roll < 0.80:
            yield Post(actor=actor, text=f"{name} takes careful aim at {them}.",
                       actions=(*movement, _a("aim", target=target)))
        elif roll < 0.83:
            yield Post(actor=actor, text=f"{name} scans for movement.",
                       actions=(*movement, _a("skill", target=target, roll="perception", against="stealth")))
        elif roll < 0.84 and any(g.get("count") for g in _grenades(actor)):
            yield Post(actor=actor, text=f"{name} lobs a frag at {them}.",
                       actions=(_a("throw", target=target, item="Frag"),))
        elif roll < 0.92:
            stance = rng.choice(("kneel", "prone", "stand"))
            yield Post(actor=actor, text=f"{name} shifts position.", actions=(_a(stance),))
        # fallbacks: a plain attack with each weapon in turn, a move, then talk
        for weapon in rng.sample(self.weapons[actor], len(self.weapons[actor])):
            yield Post(actor=actor, text=f"{name} attacks {them}.",
                       actions=(*movement, _a("attack", target=target, weapon=weapon.text)))
        if movement:
            yield Post(actor=actor, text=f"{name} repositions.", actions=movement)
        yield Post(actor=actor, text=f"{name}: {rng.choice(SAYINGS)}")

    def _movement(self, state: SceneState, actor: str, target: str) -> tuple[Action, ...]:
        rng = self.rng
        pick = rng.random()
        cover = rng.random() < 0.3
        extra: dict[str, Any] = {"cover": True} if cover else {}
        if pick < 0.5:
            return (_a("move", toward=target, m=rng.randint(1, 6), **extra),)
        here = state.combatants[actor].position or (0, 0)
        x = min(BOX[0], max(0, here[0] + rng.randint(-5, 5)))
        y = min(BOX[1], max(0, here[1] + rng.randint(-5, 5)))
        return (_a("move", x=x, y=y, **extra),)


def _grenades(actor: str) -> list[dict[str, Any]]:
    return next(spec for spec in ROSTER if spec["actor"] == actor).get("grenades", [])


def _a(kind: str, **params: Any) -> Action:
    fields = {k: params.pop(k) for k in ("target", "weapon", "mode", "item") if k in params}
    return Action(type=kind, params=params, **fields)


def events(count: int, *, tail: int = 200) -> Iterator[list[AnyEvent]]:
    """The fight, in batches of events (at most one turn past 10,000 each)."""
    if count < 3 * tail:
        raise ValueError(f"a fight of {count} events is too short (at least {3 * tail})")
    rng = random.Random(POLICY_SEED)
    policy = Policy(rng)
    scribe = Scribe(EMPTY, SEED)
    scribe.emit(SceneStarted(scene="long-fight", ruleset="roe7", format=FORMAT_VERSION, options=TABLE.options({}),
                             dice=dice_commitment(SEED), title="The long fight in the yard", gm="Gemma"))
    for spec in ROSTER:
        TABLE.join(scribe, _entrant(spec))
    TABLE.begin(scribe)
    while scribe.state.seq < count - tail:
        actor = scribe.state.turn.current
        assert actor is not None
        for post in policy.posts(scribe.state, actor):
            try:
                TABLE.post(scribe, post)
                break
            except RefusedError:
                continue
        TABLE.end_turn(scribe)
        if len(scribe.events) >= 10_000:
            yield scribe.events
            scribe.events = []
    while scribe.state.seq < count - 1:
        actor = rng.choice(list(policy.sides))
        TABLE.post(scribe, Post(actor=actor, text=f"({actor}'s player) brb, dinner", ooc=True))
    TABLE.end(scribe, reveal=SEED)
    yield scribe.events


def write_fight(path: str, count: int, play: Callable[[int], Iterator[list[AnyEvent]]] | None = None) -> str:
    """Write the ``count``-event fight ``play`` gives (default: this module's) at ``path``,
    reused if it is there and complete."""
    if os.path.exists(path):
        if FileStore(path, fsync=False).head()[0] == count:
            return path
        os.remove(path)
    partial = path + ".partial"
    if os.path.exists(partial):
        os.remove(partial)
    store = FileStore(partial, fsync=False)
    for batch in (play or events)(count):
        store.append(batch)
    os.replace(partial, path)
    return path


def fight_path(count: int) -> str:
    return os.path.join(OUT, f"fight-{count}.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    start = time.perf_counter()
    path = write_fight(fight_path(args.events), args.events)
    print(f"{path}: {args.events} events ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
