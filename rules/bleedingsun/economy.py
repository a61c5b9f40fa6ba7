"""The action economy (Actions; Combat Actions & Cost): each round a standard action, two
move actions, a free action and an immediate action; a full round action takes the standard,
move and free actions; the standard may be traded for a third move action; each kind of move
action but movement once a round; movement points bought a move action at a time (pace
each), at the movement table's costs.

``spent`` reads what a fighter's own-turn posts of the open turn have used; ``check``
refuses a post that would overspend (``rules.allowance``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.arithmetic import move_cost
from fightlog.rules.bleedingsun.readying import expanded

STANDARD: Final = frozenset({"attack", "stabilize", "extinguish", "break_free"})
MANEUVERS: Final = frozenset({"trip", "grapple"})
MOVE: Final = frozenset({"aim", "reload", "draw", "stance", "throw", "sprint", "cook", "pick_up", "perceive"})
FREE: Final = frozenset({"say", "drop", "setting"})
FULL: Final = frozenset({"total_defense", "coup_de_grace", "delay", "escape"})
IMMEDIATE: Final = frozenset({"dodge", "block", "resist", "aoo", "stop_aim", "jump"})
NO_DROP: Final = frozenset({"take", "say"})
"""Answers and immediate posts that do not drop one in the sequence."""

STANCE_MA: Final = {frozenset({None, "crouched"}): 1, frozenset({"crouched", "prone"}): 1,
                    frozenset({None, "prone"}): 2}
"""Stance change -> move actions (standing is ``None``)."""


class Spent(NamedTuple):
    standard: int
    free: int
    full: int
    move_actions: int
    kinds: tuple[str, ...]
    mp: int
    attacks: int


def stance_named(value: object) -> str | None:
    """A stance as a post writes it (``to=``, the table's ``from``): ``None`` for standing."""
    return None if value in (None, "standing", "stand") else str(value)


def opening_stance(actions: Sequence[Action], stance: str | None) -> str | None:
    """The stance a post's actions start from: the ``from`` the table writes into its first
    stance change, else ``stance`` (the folded one)."""
    first = next((a for a in actions if a.type == "stance" and "from" in a.params), None)
    return stance if first is None else stance_named(first.params["from"])


def stance_cost(action: Action, current: str | None) -> int:
    """Move actions a stance change costs, from the stance it records (``from``, which the
    table writes in) or else ``current``."""
    was = action.params.get("from")
    if was is not None:
        current = stance_named(was)
    wanted = stance_named(action.params.get("to"))
    if wanted == current:
        return 0
    if current == "knocked":
        return 2
    return STANCE_MA.get(frozenset({current, wanted}), 2)


def stance_kind(action: Action, current: str | None) -> str:
    """The kind of move action a stance change is: its row of the table (Crouching to
    Standing or vice versa; Crouching to Prone...; Prone to Standing...; Standing from
    Knockdown), each once a round like any other kind."""
    was = action.params.get("from")
    if was is not None:
        current = stance_named(was)
    if current == "knocked":
        return "standing from knockdown"
    ends = sorted(name or "standing" for name in {current, stance_named(action.params.get("to"))})
    return f"stance ({' and '.join(ends)})"


def spent(actions: Sequence[Action], *, pace: int, stance: str | None, maneuver_cost: str) -> Spent:
    """What ``actions`` (one fighter's own-turn actions, in order) use; a move marked
    ``frozen=true`` (``marked``) costs 1 MP a hex more."""
    actions = expanded(actions)  # a ready pays for the actions it sets aside
    standard = free = full = ma = mp = attacks = 0
    kinds: list[str] = []
    stance = opening_stance(actions, stance)  # the stance the turn started in
    for action in actions:
        kind = action.type
        if kind in ("attack",):
            attacks += 1
        if kind in STANDARD:
            standard = max(standard, 1) if kind == "attack" else standard + 1
            effort = action.params.get("effort", 0)
            ma += effort if isinstance(effort, int) and not isinstance(effort, bool) and effort > 0 else 0
        elif kind in MANEUVERS:
            if maneuver_cost == "standard":
                standard += 1
            free += 1
        elif kind in FREE:
            free += 1
        elif kind in FULL:
            full += 1
        elif kind == "move":
            hexes = action.params.get("hexes", action.distance or 0)  # not a count: the move refuses it
            mp += move_cost(hexes if isinstance(hexes, int) and not isinstance(hexes, bool) else 0, stance=stance,
                            terrain=str(action.params.get("terrain", "open")),
                            cautious=bool(action.params.get("cautious", False)),
                            extra=int(action.params.get("frozen") is True))
        elif kind == "stance":
            cost = stance_cost(action, stance)
            if cost:  # each change its own row of the table, so its own kind (crouched and prone...)
                ma += cost
                kinds.append(stance_kind(action, stance))
            stance = stance_named(action.params.get("to"))
        elif kind == "draw" and action.params.get("holstered"):
            free += 1
        elif kind in MOVE:
            ma += 1
            kinds.append(kind)
    if attacks > 1:
        free += 1
    ma += -(-mp // pace) if mp else 0
    return Spent(standard, free, full, ma, tuple(kinds), mp, attacks)


def own_actions(state: SceneState, actor: str) -> list[Action]:
    """The actions ``actor`` posted in their own open turn."""
    return [a for p in state.pending if p.actor == actor and p.responds_to is None for a in p.actions]


def marked(state: SceneState, actor: str, frozen_since: int | None) -> list[Action]:
    """``own_actions`` as the economy prices them: each move made frozen marked ``frozen=true``.
    The table records the mark (``table._from``: a freeze since broken free of does not make
    the move cheaper); a hand-kept log's move records nothing, and one posted after
    ``frozen_since`` (the ``seq`` of the freeze in force) is taken for one made frozen."""
    return [made_frozen(a) if a.type == "move" and frozen_since is not None and p.seq > frozen_since else a
            for p in state.pending if p.actor == actor and p.responds_to is None for a in p.actions]


def made_frozen(action: Action) -> Action:
    """``action`` (a move) marked made frozen: +1 MP a hex."""
    return action if action.params.get("frozen") is True else replace(action, params={**action.params, "frozen": True})


def check(earlier: Sequence[Action], actions: Sequence[Action], *, pace: int, stance: str | None,
          maneuver_cost: str, stunned: bool = False, frozen_now: bool = False) -> Spent:
    """Refuse (``rules.allowance``) a post that overspends the round's actions; what the turn has
    used with it. ``pace``: the movement points a move action buys (stagger may have lowered
    it); ``earlier``: the turn's actions as priced (``marked``); ``frozen_now``: the post's moves
    cost 1 MP a hex more."""
    every = [*earlier, *(made_frozen(a) if frozen_now and a.type == "move" else a for a in actions)]
    used = spent(every, pace=pace, stance=stance, maneuver_cost=maneuver_cost)
    problems = []
    if stunned and any(a.type not in ("say",) for a in actions):
        problems.append("stunned: every action but the immediate is lost this turn")
    if used.full and (used.standard or used.move_actions or used.free or used.full > 1):
        problems.append("a full round action takes the standard, move and free actions")
    if used.standard > 1:
        problems.append(f"{used.standard} standard actions (one a round)")
    if used.free > 1:
        problems.append(f"{used.free} free actions (one a round; several attacks take it)")
    allowed = 2 + (0 if used.standard or used.full else 1)
    if used.move_actions > allowed:
        problems.append(f"{used.move_actions} move actions ({allowed} left with "
                        f"{'the standard action used' if used.standard else 'the standard traded'}; "
                        f"{used.mp} MP at pace {pace} is {-(-used.mp // pace) if used.mp else 0})")
    doubled = sorted({k for k in used.kinds if used.kinds.count(k) > 1})
    if doubled:
        problems.append(f"{', '.join(doubled)} twice (each kind of move action once a round)")
    if any(a.type == "delay" for a in every) and len(every) > 1:
        problems.append("delaying takes the whole turn: nothing else in it")
    throws = sum(1 for a in every if a.type == "throw")
    if throws > 1:
        problems.append("a second grenade this round (one a round)")
    if problems:
        raise RefusedError("the action economy: " + "; ".join(problems), code="rules.allowance")
    return used
