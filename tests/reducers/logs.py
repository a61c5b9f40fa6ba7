"""Random but valid logs for property tests: every kind the reducers handle, rulings aimed
at earlier events (void, amend, withdraw, accept). Seeded, so a failing seed reproduces."""

from __future__ import annotations

import random

import msgspec

from fightlog.events.model import (
    FORMAT_VERSION,
    Action,
    AnyEvent,
    AttackResolved,
    CombatantJoined,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    Die,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    HealingApplied,
    InitiativeRolled,
    InitiativeSet,
    Moved,
    ResourceSpent,
    RoundEnded,
    RoundStarted,
    RulingMade,
    SceneEnded,
    SceneStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
    WeaponReloaded,
)

ACTORS = ("alice", "bob", "cara")
STATUSES = ("stunned", "prone", "fled", "holding", "defeated")


def random_log(seed: int, length: int = 60) -> list[AnyEvent]:
    """A log of about ``length`` events with ``seq`` set (``prev`` is not needed to fold)."""
    rng = random.Random(seed)
    log: list[AnyEvent] = [SceneStarted(scene=f"s{seed}", ruleset=rng.choice(["roe7", "unknown"]), format=FORMAT_VERSION)]
    for actor in ACTORS:
        log.append(
            CombatantJoined(
                actor=actor,
                name=actor.title(),
                pools={"hp": 50, "mp": 10},
                sheet={"weapons": ["gun", "blade"]},
                arrival=actor == "cara" and rng.random() < 0.5,
                after="alice" if actor == "cara" else None,
            )
        )
    log.append(InitiativeRolled(actor="alice", score=rng.randint(1, 100), tiebreak=[rng.randint(0, 5)]))
    log.append(InitiativeSet(order=["alice", "bob"] + (["cara"] if rng.random() < 0.5 else [])))
    round_no = 0
    effects = 0
    while len(log) < length:
        seq = len(log) + 1
        actor = rng.choice(ACTORS)
        other = rng.choice([a for a in ACTORS if a != actor])
        kind = rng.randrange(18)
        event: AnyEvent
        if kind == 0:
            round_no += 1
            event = RoundStarted(round=round_no)
        elif kind == 1:
            event = RoundEnded(round=max(round_no, 1))
        elif kind == 2:
            event = TurnStarted(actor=actor, round=max(round_no, 1))
        elif kind == 3:
            event = TurnEnded(actor=actor, round=max(round_no, 1))
        elif kind == 4:
            actions = [Action(type=rng.choice(["attack", "move", "talk", "reload"]), target=other) for _ in range(rng.randint(0, 2))]
            event = DeclarationPosted(actor=actor, text="...", actions=actions, ooc=rng.random() < 0.1)
        elif kind == 5:
            raw = rng.randint(0, 30)
            event = DamageApplied(target=other, raw=raw, taken=rng.randint(0, raw), pool=rng.choice(["hp", "mp", "armour"]))
        elif kind == 6:
            event = HealingApplied(target=actor, amount=rng.randint(0, 20))
        elif kind == 7:
            event = StatusChanged(actor=actor, status=rng.choice(STATUSES), on=rng.random() < 0.6)
        elif kind == 8:
            effects += 1
            refresh = f"e{rng.randint(1, effects - 1)}" if effects > 1 and rng.random() < 0.2 else None
            event = EffectApplied(effect=f"e{effects}", name=rng.choice(["bleed", "burn", "haste"]), target=other, source=actor,
                                  duration=rng.choice([None, 1, 3, 5]), stacks=rng.randint(1, 3), refreshes=refresh)
        elif kind == 9 and effects:
            event = EffectTicked(effect=f"e{rng.randint(1, effects)}", target=other, remaining=rng.choice([None, 2]))
        elif kind == 10 and effects:
            event = EffectCountedDown(effect=f"e{rng.randint(1, effects)}", target=other, remaining=rng.randint(0, 4))
        elif kind == 11 and effects:
            event = EffectExpired(effect=f"e{rng.randint(1, effects)}", target=other)
        elif kind == 12:
            event = ResourceSpent(actor=actor, resource=rng.choice(["gun", "mp", "flee_attempts", "grenade"]), amount=rng.randint(1, 3))
        elif kind == 13:
            event = WeaponReloaded(actor=actor, weapon=rng.choice(["gun", "blade"]))
        elif kind == 14:
            event = Moved(actor=actor, metres=rng.randint(0, 12), band=rng.choice([None, "close", "medium"]), relative_to=other)
        elif kind == 15:
            event = DiceRolled(roller=actor, notation="1d100", dice=[Die(sides=100, face=rng.randint(1, 100))], total=0, generator="external")
        elif kind == 16:
            event = AttackResolved(attacker=actor, target=other, hit=rng.random() < 0.5, score=rng.randint(1, 100), against=rng.randint(1, 100))
        else:
            event = _ruling(rng, log, seq)
        log.append(msgspec.structs.replace(event, seq=seq))
    if rng.random() < 0.3:
        log.append(SceneEnded(seq=len(log) + 1, winner=rng.choice(ACTORS)))
    return [msgspec.structs.replace(e, seq=i) for i, e in enumerate(log, start=1)]


def _ruling(rng: random.Random, log: list[AnyEvent], seq: int) -> RulingMade:
    target = rng.randint(2, seq - 1)
    aimed = log[target - 1]
    if isinstance(aimed, RulingMade):
        action = rng.choice(["withdraw", "void"])
        return RulingMade(by="gm", action=action, target=target, reason="changed my mind")  # type: ignore[arg-type]
    if isinstance(aimed, DamageApplied) and rng.random() < 0.6:
        return RulingMade(by="gm", action="amend", target=target, reason="DR applies", changes={"taken": rng.randint(0, aimed.raw)})
    if rng.random() < 0.2:
        return RulingMade(by="gm", action="accept", target=target, finding="tie-to-attacker")
    return RulingMade(by="gm", action="void", target=target, reason="posted out of turn")
