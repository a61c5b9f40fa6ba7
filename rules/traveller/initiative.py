"""Pre-combat (Ambush; Initiative; Tactics).

Each combatant rolls 2D + DEX or INT DM (the better, ``initiative_characteristic``); the
Effect (total - 8) is their initiative for the whole combat. A side's best tactician rolls
2D + Tactics, and its Effect is added to the whole side's initiative (not for a side being
ambushed). The order is by initiative, then DEX, then as joined (simultaneous). In the first
round only, ambushers add DM+6 and the ambushed DM-6.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import InitiativeRolled
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import Fighter, options_of
from fightlog.rules.traveller.options import TravellerOptions


def side_of(state: SceneState, actor: str) -> str:
    who = state.combatants[actor]
    return who.side or who.actor


def roll_all(scribe: Scribe, actors: Sequence[str], options: TravellerOptions) -> None:
    """Tactics for each side that may, then everyone's initiative."""
    tactics = _tactics(scribe, actors, options) if options.tactics else {}
    for actor in actors:
        who = Fighter(scribe.state, actor)
        if options.initiative_characteristic == "better":
            dm, name = who.best("DEX", "INT")
        else:
            name = options.initiative_characteristic
            dm = who.dm(name)
        mods = [(dm, f"{name} DM")] if dm else []
        rolled, seq = scribe.roll("2d6", roller=actor, purpose="initiative", modifiers=mods)
        bonus = tactics.get(side_of(scribe.state, actor), 0)
        scribe.emit(InitiativeRolled(actor=actor, score=effect(rolled.total, options) + bonus, roll=seq,
                                     tiebreak=[who.value("DEX")]))


def _tactics(scribe: Scribe, actors: Sequence[str], options: TravellerOptions) -> dict[str, int]:
    """Each side's Tactics Effect: its member with the most Tactics (first joined on a tie)
    rolls, unless the side is ambushed."""
    best: dict[str, tuple[int, str]] = {}
    for actor in actors:
        level = Fighter(scribe.state, actor).card.skills.get("tactics")
        side = side_of(scribe.state, actor)
        if level is not None and (side not in best or level > best[side][0]):
            best[side] = (level, actor)
    out: dict[str, int] = {}
    for side, (level, actor) in sorted(best.items(), key=lambda kv: scribe.state.combatants[kv[1][1]].joined):
        if options.ambush and side != options.ambush:
            continue  # Skip if being ambushed
        mods = [(level, f"tactics {level}")] if level else []
        rolled, _ = scribe.roll("2d6", roller=actor, purpose="tactics", modifiers=mods)
        out[side] = effect(rolled.total, options)
    return out


def order(state: SceneState, actors: Sequence[str], *, first_round: bool) -> list[str]:
    """The posting order: initiative (with the ambush DM in the first round), then DEX, then
    as joined."""
    return sorted(actors, key=lambda actor: (*slot(state, actor, first_round=first_round),
                                             state.combatants[actor].joined))


def slot(state: SceneState, actor: str, *, first_round: bool) -> tuple[int, int]:
    """An initiative slot's sort key: minus the initiative (with the ambush DM in the first
    round), minus DEX. Combatants with one key act simultaneously."""
    score: tuple[int, ...] = state.turn.initiative.get(actor, (0, 0))
    ambush, dm = _ambush(state)
    shift = 0
    if first_round and ambush:
        shift = dm if side_of(state, actor) == ambush else -dm
    dex = score[1] if len(score) > 1 else 0
    return (-(score[0] + shift), -dex)


def together(state: SceneState, one: str, other: str) -> bool:
    """Whether ``one`` and ``other`` act in one initiative slot now."""
    first = state.turn.round <= 1
    return slot(state, one, first_round=first) == slot(state, other, first_round=first)


def _ambush(state: SceneState) -> tuple[str, int]:
    options = options_of(state)
    return options.ambush, options.ambush_dm
