"""What a turn allows (Actions; Movement; Sprinting; Holding a Turn): movement and two
actions, in either order, split as the player likes.

Movement is counted in movement points (one per 10 Dexterity), written on each ``move``
action as ``points`` when the table reads it; a sprint spends an action to add the turn's
movement again (twice: tripled). An item costs two actions, a long cast both, holding or
assisting the whole turn (``ruleset.ACTION_TYPES``, and the ``cost`` the table writes).

Pure: the table refuses what ``breach`` names, and the audit reports it on a logged post.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import Action
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.fighters import Breach, Fighter
from fightlog.rules.d20evasion.ruleset import COST_ACTIONS, RULES


def points_of(action: Action) -> int:
    points = action.params.get("points", 0)
    return points if isinstance(points, int) and not isinstance(points, bool) else 0


def turn_actions(state: SceneState, actor: str, responds_to: int | None) -> list[Action]:
    """What ``actor`` has declared so far in the turn that a post of theirs belongs to: in
    their own turn, their posts of it; a held turn (a post answering another) is one post."""
    if responds_to is not None:
        return []
    return [a for p in state.pending if p.actor == actor and p.responds_to is None for a in p.actions]


def breach(who: Fighter, earlier: Sequence[Action], new: Sequence[Action]) -> Breach | None:
    """Whether ``new``, after ``earlier`` in the same turn, goes beyond ``who``'s turn."""
    actions = [*earlier, *new]
    costs = [RULES.action_cost(a) for a in actions]
    used = sum(COST_ACTIONS.get(c or "", 0) for c in costs)
    points = sum(points_of(a) for a in actions if a.type == "move")
    full = [a for a, c in zip(actions, costs) if c == "full"]
    if full:
        if len(full) > 1 or used or points:
            return Breach("rules.allowance", f"{who.actor}: {full[0].type} takes the whole turn (movement and both actions)")
        return None
    limit = who.options.actions_per_turn
    if used > limit:
        return Breach("rules.allowance", f"{who.actor} has {limit} action{'s' if limit != 1 else ''} a turn, and this post would make {used}")
    sprints = sum(1 for a in actions if a.type == "sprint")
    base = who.movement_points()
    available = base * (1 + sprints)
    if points > available:
        spent = sum(points_of(a) for a in earlier if a.type == "move")
        so_far = f" ({spent} spent already)" if spent else ""
        has = f"{who.actor} has {base} a turn" + (f", {available} sprinting" if sprints else "")
        if base == 0:
            has = f"{who.actor} has no movement this turn (a fumbled dodge, or a mangled limb)"
        return Breach("rules.allowance", f"{who.actor} would spend {points} movement point{'s' if points != 1 else ''} "
                      f"this turn{so_far}; {has}")
    return None
