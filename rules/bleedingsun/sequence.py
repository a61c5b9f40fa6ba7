"""Sequence (Sequence; Initiative; Drop in Initiative).

Everyone rolls Savvy + Agility (and perks) as a pool; the most hits act first. Ties (option
``tiebreak``): "sequence" by the pool, then Savvy, then Agility; "initiative" by Perception,
then Agility; then those still tied roll a d6 each until the faces part them. The order
holds through the fight; an immediate action drops its maker ``immediate_drop`` places (they
act after whoever acted right after them).
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import InitiativeRolled, InitiativeSet
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.arithmetic import drop
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.options import BleedingSunOptions, options_of
from fightlog.rules.bleedingsun.pools import roll_pool
from fightlog.rules.bleedingsun.ruleset import OUT

SEQUENCE = "sequence"
DROPPED = "immediate action"


def pool(who: Fighter) -> int:
    return who.attr("savvy") + who.attr("agility") + who.card.perk_sum("sequence")


def tiebreak(who: Fighter, options: BleedingSunOptions) -> list[int]:
    if options.tiebreak == "sequence":
        return [pool(who), who.attr("savvy"), who.attr("agility")]
    return [who.attr("perception"), who.attr("agility")]


def roll_all(scribe: Scribe, actors: Sequence[str]) -> None:
    """Everyone's sequence roll, then roll-offs until no two are tied."""
    options = options_of(scribe.state)
    for actor in actors:
        who = Fighter(scribe.state, actor)
        rolled = roll_pool(scribe, pool(who), options, roller=actor, purpose="sequence",
                           label=f"sequence: savvy {who.attr('savvy')} + agility {who.attr('agility')}")
        scribe.emit(InitiativeRolled(actor=actor, score=rolled.hits, roll=rolled.seq, tiebreak=tiebreak(who, options)))
    for _ in range(20):
        tied = _tied(scribe.state, actors)
        if not tied:
            return
        for actor in tied:
            score = scribe.state.turn.initiative[actor]
            result, seq = scribe.roll("1d6", roller=actor, purpose="sequence roll-off", label="roll-off")
            scribe.emit(InitiativeRolled(actor=actor, score=score[0], roll=seq, tiebreak=[*score[1:], result.total]))


def _tied(state: SceneState, actors: Sequence[str]) -> list[str]:
    keys: dict[tuple[int, ...], list[str]] = {}
    for actor in actors:
        keys.setdefault(state.turn.initiative.get(actor, (0,)), []).append(actor)
    return [a for group in keys.values() if len(group) > 1 for a in group]


def order(state: SceneState, actors: Sequence[str]) -> list[str]:
    """The order by hits, then the tie-breaks and roll-offs (highest first), then as joined."""
    return sorted(actors, key=lambda a: (tuple(-v for v in state.turn.initiative.get(a, (0,))),
                                         state.combatants[a].joined))


def begin(scribe: Scribe, actors: Sequence[str]) -> None:
    roll_all(scribe, actors)
    scribe.emit(InitiativeSet(order=order(scribe.state, actors), reason=SEQUENCE))


def down(state: SceneState) -> frozenset[str]:
    """Those in the order who no longer act (unconscious or dead): a drop passes them over."""
    return frozenset(a for a, who in state.combatants.items() if not OUT.isdisjoint(who.statuses))


def dropped(scribe: Scribe, actor: str, what: str, cause: int) -> None:
    """``actor`` used an immediate action (their post at ``cause``): drop them in the order."""
    places = options_of(scribe.state).immediate_drop
    before = list(scribe.state.turn.order)
    after = drop(before, actor, places, down(scribe.state))
    scribe.emit(InitiativeSet(order=after, reason=f"{DROPPED}: {actor} drops {places} ({what})", cause=cause))
