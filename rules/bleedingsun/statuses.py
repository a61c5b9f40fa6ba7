"""Status effects and their saves (Status Affect Saves; Knockdown; Stagger; Combat Maneuver
Saves): a save is an attribute pool against the kicker's rating; a save above it (exceeds),
equal to it (equals) or below it (fails) gives that column's outcome. Outcomes are effects
and statuses that tick at the start of the victim's turn (burning, confusion) and expire at
the end of their next turn (staggered, stunned), after a count of rounds (fleeing), or when
broken free from or put out (frozen, burning).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from fightlog.events.model import EffectApplied, EffectCountedDown, EffectExpired, EffectTicked, StatusChanged
from fightlog.kit.table import Scribe
from fightlog.rules.bleedingsun import harm
from fightlog.rules.bleedingsun.arithmetic import soak_pool
from fightlog.rules.bleedingsun.fighters import IMMUNE, STAGGERED, STUNNED, Fighter
from fightlog.rules.bleedingsun.pools import roll_pool


class Save(NamedTuple):
    """A status's save: the attribute rolled, and the outcomes when the save exceeds, equals
    and fails the rating (``None``: nothing)."""

    attribute: str
    exceeds: str | None
    equals: str | None
    fails: str


SAVES: Final[dict[str, Save]] = {
    "knockdown": Save("vigor", None, "staggered", "prone"),
    "trip": Save("vigor", None, "staggered", "prone"),
    "nausea": Save("grit", "immune", "staggered", "stunned"),
    "confusion": Save("willpower", None, "staggered", "confused"),
    "stagger": Save("willpower", None, "staggered", "staggered_mp"),
    "frozen": Save("vigor", None, "staggered", "frozen"),
    "burning": Save("grit", None, "staggered", "burning"),
    "poison": Save("grit", None, "staggered", "fatigue_short"),
    "stunned": Save("willpower", None, "staggered", "stunned"),
    "irradiated": Save("grit", "irradiated", "irradiated_fatigue", "irradiated_short"),
    "fatigue": Save("grit", None, "fatigue_temp", "fatigue_short"),
    "fear": Save("grit", "immune", "fleeing_1", "fleeing"),
    "terror": Save("grit", "immune", "fleeing_1", "terror"),
}

NEXT_TURN: Final = frozenset({STAGGERED, STUNNED})
"""Effects that last until the end of the victim's next turn."""


def column(hits: int, rating: int) -> str:
    return "exceeds" if hits > rating else "equals" if hits == rating else "fails"


def save(scribe: Scribe, target: str, status: str, rating: int, cause: int, *, bonus: int = 0,
         bonus_why: str = "") -> None:
    """``target`` saves against ``status`` at ``rating`` and takes the column's outcome."""
    who = Fighter(scribe.state, target)
    if who.has("dead") or any(e.params.get("status") == status for e in who.effects(IMMUNE)):
        return
    rule = SAVES[status]
    dice = who.check_pool(rule.attribute) + bonus
    label = f"{status} save: {rule.attribute} {who.attr(rule.attribute)} vs {rating}"
    if bonus:
        label += f", +{bonus} {bonus_why}"
    if who.stagger():
        label += f", -{who.stagger()} staggered"
    rolled = roll_pool(scribe, dice, who.options, roller=target, purpose="save", label=label, for_seq=cause)
    found = column(rolled.hits, rating)
    outcome = {"exceeds": rule.exceeds, "equals": rule.equals, "fails": rule.fails}[found]
    if outcome is not None:
        apply(scribe, target, outcome, status, rolled.seq or cause, net=max(0, rating - rolled.hits))


def apply(scribe: Scribe, target: str, outcome: str, status: str, cause: int, *, net: int = 0) -> None:
    """An outcome of the status chart on ``target``."""
    ident = f"{outcome}-{target}-{cause}"
    if outcome in ("staggered", "staggered_mp"):
        scribe.emit(EffectApplied(effect=ident, name=STAGGERED, target=target, cause=cause, magnitude=1,
                                  params={"from": status, "mp": outcome == "staggered_mp"}))
    elif outcome == "stunned":
        scribe.emit(EffectApplied(effect=ident, name=STUNNED, target=target, cause=cause, params={"from": status}))
    elif outcome == "prone":
        who = Fighter(scribe.state, target)
        if who.has("crouched"):
            scribe.emit(StatusChanged(actor=target, status="crouched", on=False, cause=cause))
        if not who.has("prone"):
            scribe.emit(StatusChanged(actor=target, status="prone", cause=cause, note=f"knocked prone ({status})"))
    elif outcome == "immune":
        scribe.emit(EffectApplied(effect=ident, name=IMMUNE, target=target, cause=cause, params={"status": status}))
    elif outcome in ("fatigue_temp", "fatigue_short"):
        harm.fatigue(scribe, target, cause, outcome.split("_")[1].replace("temp", "temporary"), status)
    elif outcome in ("frozen", "burning", "confused", "irradiated"):
        if Fighter(scribe.state, target).effects(outcome):
            return  # on fire (frozen, confused) already: it does not stack
        scribe.emit(EffectApplied(effect=ident, name=outcome, target=target, cause=cause, params={"from": status}))
        if outcome == "frozen":
            harm.fatigue(scribe, target, cause, "temporary", "frozen")
    elif outcome in ("irradiated_fatigue", "irradiated_short"):
        scribe.emit(EffectApplied(effect=ident, name="irradiated", target=target, cause=cause,
                                  params={"from": status, "poisoning": outcome == "irradiated_short"}))
        harm.fatigue(scribe, target, cause, "temporary" if outcome == "irradiated_fatigue" else "short", status)
    elif outcome in ("fleeing_1", "fleeing", "terror"):
        rounds = 1 if outcome == "fleeing_1" else net + 1
        scribe.emit(EffectApplied(effect=ident, name="fleeing", target=target, cause=cause, duration=rounds,
                                  counts_on=target, params={"from": status}))
        if outcome == "terror":
            harm.fatigue(scribe, target, cause, "temporary", "terror")


def turn_started(scribe: Scribe, actor: str, seq: int) -> bool:
    """What fires at the start of ``actor``'s turn: burning, confusion. Whether the turn is
    lost (confusion's 3-4)."""
    who = Fighter(scribe.state, actor)
    lost = False
    for found in who.effects("burning"):
        burn(scribe, actor, found.effect)
    for found in Fighter(scribe.state, actor).effects("confused"):
        tick = scribe.emit(EffectTicked(effect=found.effect, target=actor))
        result, _ = scribe.roll("1d6", roller=actor, purpose="confusion",
                                label="confusion: 1-2 attack the nearest, 3-4 nothing, 5 normal, 6 clears",
                                for_seq=tick)
        if result.total == 6:
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="rolled 6: no longer confused"))
        elif result.total in (3, 4):
            lost = True
    return lost


def burn(scribe: Scribe, actor: str, effect: str) -> None:
    """A round on fire: a level of temporary fatigue and ``burning_dv`` fire damage, soaked
    with fortitude without armour (Status Affect Saves: Burning)."""
    tick = scribe.emit(EffectTicked(effect=effect, target=actor))
    harm.fatigue(scribe, actor, tick, "temporary", "on fire")
    now = Fighter(scribe.state, actor)
    options = now.options
    dv, soak_dice = burn_pools(now)
    dealt = roll_pool(scribe, dv, options, roller=actor, purpose="damage", label=f"burning: {dv} DV", for_seq=tick)
    soak = roll_pool(scribe, soak_dice, options, roller=actor, purpose="soak", label="soak: fortitude (no armour)",
                     for_seq=tick)
    harm.hurt(scribe, actor, dealt.hits, soak.hits, source="burning", cause=tick, damage_type="fire")


def burn_pools(who: Fighter) -> tuple[int, int]:
    """A burning tick's pools: ``burning_dv`` dice of fire damage, and the soak: fortitude
    without armour, less a stagger."""
    return who.options.burning_dv, soak_pool(who.card.fortitude, who.card.armour, 0, ignore_armour=True) - who.stagger()


def round_started(scribe: Scribe) -> None:
    """At the start of a round, for each fighter out of the fight but alive (unconscious: no
    turn of theirs opens, ``turns.open_next`` passes over them), the round's start stands in
    for their turn, as it does for a bleed (``harm.bleed_all``) and an out thrower's fuse:
    burning ticks (nothing in the chart spares the unconscious, and it can kill), then the
    staggers and stuns on them end (they last until the end of one's next turn: this stand-in
    is it) and fleeing counts down. Confusion does not roll: it decides actions, and the out
    take none."""
    state = scribe.state
    for actor in state.turn.order:
        who = Fighter(scribe.state, actor)
        if not who.out or who.has("dead"):
            continue
        for found in who.effects("burning"):
            if not Fighter(scribe.state, actor).has("dead"):
                burn(scribe, actor, found.effect)
        now = Fighter(scribe.state, actor)
        if now.has("dead"):
            continue
        for found in now.effects():
            if found.name in NEXT_TURN:
                scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="out of the fight: the round "
                                                                                    "began in place of the next turn"))
            elif found.name == "fleeing" and found.remaining is not None:
                _count_down(scribe, actor, found.effect, found.remaining)


def _count_down(scribe: Scribe, actor: str, effect: str, remaining: int) -> None:
    left = remaining - 1
    if left <= 0:
        scribe.emit(EffectExpired(effect=effect, target=actor, reason="duration"))
    else:
        scribe.emit(EffectCountedDown(effect=effect, target=actor, remaining=left))


def turn_ended(scribe: Scribe, actor: str) -> None:
    """At the end of ``actor``'s turn: staggers and stuns in place since before it expire;
    fleeing counts down."""
    who = Fighter(scribe.state, actor)
    for found in who.effects():
        if found.name in NEXT_TURN and who.at_turn_start(found):
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="the end of the next turn"))
        elif found.name == "fleeing" and found.remaining is not None and who.at_turn_start(found):
            _count_down(scribe, actor, found.effect, found.remaining)
