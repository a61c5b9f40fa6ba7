"""Benchmark of a Traveller fight: the fold and the audit, as same-run ratios.

    python bench/bench_traveller.py [--events 1000000] [--rounds 5]

The fight is played through the Traveller table (``fightlog.rules.traveller.table.TABLE``)
on one ``Scribe`` with a fixed dice seed, as ``fightlog run`` plays a scenario (the seed
committed, then revealed): eight fighters on two sides in a 40 x 20 m compound, with a
billion points in STR, DEX and END so that nobody falls (more than any sheet gives: the
audit reports each join, ``scene.joined-pools``, the only findings the fight may have). A deterministic policy
(``random.Random(POLICY_SEED)``) picks each turn's post: ranged, melee and thrown attacks
(answered by dodges, parries, dives for cover or nothing), aiming, moves, cover, stances,
draws and reloads, Leadership and its DM+1s, grapples, deferred turns; a refused post is
replaced by the next candidate. Out-of-character posts fill up to ``count - 1`` events and
``scene_ended`` reveals the seed. The log is written once to
``bench/out/traveller-fight-N.jsonl`` and reused.

1. decode + fold of that log into ``SceneState`` vs bare msgspec decoding of the same lines,
   interleaved round by round (target >= 0.33x);
2. ``audit_log`` of it (which must find nothing but the eight joins) vs bare decoding
   (target >= 0.2x).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import long_fight  # noqa: E402
from baselines import bare_decode, decode_and_fold  # noqa: E402
from figures import events_label, figure, rate  # noqa: E402
from measure import build_measured, interleaved  # noqa: E402

from fightlog.audit.auditor import audit_log  # noqa: E402
from fightlog.dice import dice_commitment  # noqa: E402
from fightlog.errors import RefusedError  # noqa: E402
from fightlog.events.model import FORMAT_VERSION, AnyEvent, SceneStarted  # noqa: E402
from fightlog.kit.actions import parse_actions  # noqa: E402
from fightlog.kit.table import Entrant, Post, Scribe  # noqa: E402
from fightlog.reducers.state import EMPTY, SceneState  # noqa: E402
from fightlog.rules.traveller.reactions import unanswered  # noqa: E402
from fightlog.rules.traveller.sheet import Combatant, joined  # noqa: E402
from fightlog.rules.traveller.table import TABLE  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
SEED = "7a5e11e7" * 8
POLICY_SEED = 20261127
BIG = 1_000_000_000
BOX = (40, 20)

RIFLE = {"name": "Rifle", "kind": "ranged", "damage": "3D", "range_m": 100, "magazine": 30}
PISTOL = {"name": "Pistol", "kind": "ranged", "damage": "3D-3", "range_m": 10, "magazine": 15}
SHOTGUN = {"name": "Shotgun", "kind": "ranged", "damage": "4D", "range_m": 50, "magazine": 6}
BLADE = {"name": "Blade", "kind": "melee", "damage": "2D"}
CUDGEL = {"name": "Cudgel", "kind": "melee", "damage": "2D"}
GRENADE = {"name": "Rock", "kind": "thrown", "damage": "1D", "range_m": 20}
KITS = [[RIFLE, BLADE], [PISTOL, CUDGEL, GRENADE], [SHOTGUN, BLADE], [BLADE, GRENADE]]
SKILLS = {"gun_combat": 2, "melee": 1, "athletics": 1, "leadership": 1, "tactics": 1, "medic": 1}


def entrant(index: int) -> Entrant:
    actor = f"f{index}"
    sheet = {"characteristics": {"STR": 7 + index % 5, "DEX": 6 + index % 7, "END": 8, "INT": 7, "EDU": 8, "SOC": 6},
             "skills": SKILLS, "weapons": KITS[index % 4], "armour": index % 3 * 2, "gear": ["medikit"]}
    combatant = Combatant.model_validate({"id": actor, "name": actor.upper(), "side": "ab"[index % 2],
                                          "sheet": sheet})
    event = joined(combatant)
    pools = {name: BIG for name in event.pools}
    return Entrant(actor=actor, joined=type(event)(**{**{f: getattr(event, f) for f in event.__struct_fields__},
                                                      "pools": pools, "pool_max": pools}),
                   position=(index * 5 % BOX[0], index * 3 % BOX[1]))


def candidates(rng: random.Random, state: SceneState, actor: str) -> Iterator[list[str]]:
    me = state.combatants[actor]
    enemies = sorted(a for a, c in state.combatants.items() if c.side != me.side)
    target = rng.choice(enemies)
    weapons = [str(w["name"]) for w in me.sheet["weapons"]]
    x, y = me.position or (0, 0)
    move = f"move x={min(BOX[0], max(0, x + rng.randint(-5, 5)))} y={min(BOX[1], max(0, y + rng.randint(-5, 5)))}"
    pick = rng.random()
    if pick < 0.1:
        yield ["aim", "aim"] if rng.random() < 0.5 else ["aim", f"attack target={target}"]
    elif pick < 0.15:
        yield ["leadership", f"encourage target={rng.choice(sorted(state.combatants))}"]
    elif pick < 0.2:
        yield [f"grapple target={target} choice={rng.choice(['prone', 'damage', 'escape', 'drag', 'continue'])}"]
    elif pick < 0.23:
        yield ["defer"]
    elif pick < 0.3:
        yield [f"cover behind={rng.choice(['stone_wall', 'vegetation', 'tree_trunk'])}", f"attack target={target}"]
    for weapon in rng.sample(weapons, len(weapons)):
        yield [f"draw weapon={weapon}", f"attack target={target} weapon={weapon}"]
        yield [f"reload weapon={weapon}", f"stance to={rng.choice(['stand', 'crouch', 'prone'])}"]
    yield [move, f"attack target={target}"]
    yield [move, move]
    yield ["stance to=stand"]
    yield []


def events(count: int, *, tail: int = 200) -> Iterator[list[AnyEvent]]:
    rng = random.Random(POLICY_SEED)
    scribe = Scribe(EMPTY, SEED)
    scribe.emit(SceneStarted(scene="traveller-long-fight", ruleset="traveller", format=FORMAT_VERSION,
                             options=TABLE.options({}), dice=dice_commitment(SEED), title="The long firefight"))
    for index in range(8):
        TABLE.join(scribe, entrant(index))
    TABLE.begin(scribe)
    while scribe.state.seq < count - tail:
        actor = scribe.state.turn.current
        assert actor is not None
        for do in candidates(rng, scribe.state, actor):
            try:
                TABLE.post(scribe, Post(actor=actor, text=f"{actor} acts.", actions=parse_actions(do)))
                break
            except RefusedError:
                continue
        for waiting in unanswered(scribe.state, actor):
            reaction = rng.choice(["dodge", "parry", "dive", "dive cover=vegetation", "take", "take"])
            try:
                TABLE.post(scribe, Post(actor=waiting.target, text="!", actions=parse_actions([reaction])))
            except RefusedError:
                pass
        if scribe.state.turn.current == actor:
            TABLE.end_turn(scribe)
        if len(scribe.events) >= 10_000:
            yield scribe.events
            scribe.events = []
    while scribe.state.seq < count - 1:
        TABLE.post(scribe, Post(actor=f"f{rng.randrange(8)}", text="brb", ooc=True))
    TABLE.end(scribe, reveal=SEED)
    yield scribe.events


def write_fight(count: int) -> str:
    return long_fight.write_fight(os.path.join(OUT, f"traveller-fight-{count}.jsonl"), count, play=events)


JOINED = "scene.joined-pools"
"""The findings the fight has by design: each fighter joins with a billion points a
characteristic, more than the sheet gives."""


def unexpected(findings: list[Any]) -> list[Any]:
    """The findings but the eight joins' (``JOINED``, one a fighter, at the joins)."""
    joins = [f for f in findings if f.code == JOINED]
    return [f for f in findings if f.code != JOINED] + ([] if len(joins) == 8 else joins)


def clean_audit(path: str, count: int) -> Any:
    report = audit_log(path)
    if unexpected(report.findings) or report.summary.events != count:
        for finding in report.findings[:10]:
            print(f"  {finding.seq}: {finding.code}: {finding.message}", file=sys.stderr)
        raise SystemExit(f"the Traveller fight did not audit clean: {len(report.findings)} findings")
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n, size = args.events, events_label(args.events)
    start = time.perf_counter()
    path = write_fight(n)
    print(f"{path}: {n} events ({time.perf_counter() - start:.1f} s to play or find)", file=sys.stderr)
    clean_audit(path, n)
    folds = interleaved({"decode": lambda: bare_decode(path), "fold": lambda: decode_and_fold(path)}, args.rounds)
    figure(f"decode + fold into `SceneState`, {size}-event Traveller fight",
           f"bare decoding, {rate(n, folds.median('decode'))}", rate(n, folds.median("fold")),
           folds.ratio("decode", "fold"), ">= 0.33", folds.load, args.rounds)
    audits = interleaved({"decode": lambda: bare_decode(path), "audit": lambda: audit_log(path)}, args.rounds)
    figure(f"`audit_log` throughput, {size}-event Traveller fight",
           f"bare decoding, {rate(n, audits.median('decode'))}", rate(n, audits.median("audit")),
           audits.ratio("decode", "audit"), ">= 0.2", audits.load, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
