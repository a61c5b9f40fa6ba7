"""Scene state: what a log folds into, as immutable slices.

``SceneState`` combines the slices: the scene (``SceneInfo``), the combatants, the turn order,
the active effects, the pending declarations and the rulings applied. Every object is a
frozen msgspec Struct; a reducer returns new objects for what changed and shares the rest, so
the state after any event can be kept (checkpoints, replay) without copying.

Maps are plain dicts that are never mutated after construction (copy on write). Collections
whose order carries no meaning are kept sorted (statuses), so equal states encode to equal
bytes. Derived facts (who posts next, a combatant's place in the order) are functions in
``fightlog.reducers.derive``, not fields.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec import Struct

from fightlog.events.model import Action


class SceneInfo(Struct, frozen=True, gc=False):
    """From ``scene_started`` and ``scene_ended``; ``rolls`` is the next engine roll index
    and ``salts`` the participants' dice salts in log order (what the next roll mixes in)."""

    scene: str
    ruleset: str
    format: int
    options: dict[str, Any] = {}
    title: str | None = None
    gm: str | None = None
    commitment: str | None = None
    ended: bool = False
    winner: str | None = None
    end_reason: str | None = None
    seed: str | None = None
    rolls: int = 0
    salts: tuple[str, ...] = ()


class WeaponState(Struct, frozen=True, gc=False):
    """A carried weapon: rounds fired since the last reload, whether it must be readied
    again before firing (reload, bolt, shell), and turns of cooldown left."""

    fired: int = 0
    needs_reload: bool = False
    cooldown: int = 0


class Combatant(Struct, frozen=True, gc=False):
    """One combatant. ``pools`` are current values (HP may go below zero where the ruleset
    allows it); ``spent`` counts things used up that are not pools (flee attempts, grenades);
    ``band``/``relative_to`` the range band known between this combatant and another (a move
    of either to a band sets it on both; a move of either that names no band forgets it,
    unless it covers no ground: d20-evasion's lateral move),
    ``moved`` metres moved this turn,
    ``position`` the last ``(x, y)`` in metres a ``moved`` event gave."""

    actor: str
    name: str
    joined: int
    side: str | None = None
    role: str = "pc"
    controller: str | None = None
    owner: str | None = None
    pools: dict[str, int] = {}
    pool_max: dict[str, int] = {}
    statuses: tuple[str, ...] = ()
    weapons: dict[str, WeaponState] = {}
    spent: dict[str, int] = {}
    band: str | None = None
    relative_to: str | None = None
    moved: int = 0
    sheet: dict[str, Any] = {}
    position: tuple[int, int] | None = None


class Arrival(Struct, frozen=True, gc=False):
    """A combatant waiting to take a posting slot: after ``after`` from round ``round``."""

    actor: str
    after: str | None
    round: int


class TurnState(Struct, frozen=True, gc=False):
    """The turn order slice. ``order`` is the posting order; ``initiative`` the scores with
    their tie-breakers; ``current`` whose turn is open; ``acted`` who has finished a turn this
    round, in order; ``spent`` what the open turn has spent, by cost type; ``started`` the
    ``seq`` of the open (or last) ``turn_started``, which tells effects in place at the turn's
    start from those applied during it."""

    order: tuple[str, ...] = ()
    initiative: dict[str, tuple[int, ...]] = {}
    round: int = 0
    in_round: bool = False
    current: str | None = None
    acted: tuple[str, ...] = ()
    spent: dict[str, int] = {}
    arrivals: tuple[Arrival, ...] = ()
    started: int = 0


class ActiveEffect(Struct, frozen=True, gc=False):
    """An effect in force. ``remaining`` is turns left (``None``: until removed);
    ``counts_on`` whose turns count it down; ``ticks`` how often it has fired."""

    effect: str
    name: str
    target: str
    applied: int
    source: str | None = None
    stacks: int = 1
    remaining: int | None = None
    counts_on: str | None = None
    magnitude: int | None = None
    dice: str | None = None
    ticks: int = 0
    params: dict[str, Any] = {}


class PendingDeclaration(Struct, frozen=True, gc=False):
    """A post of the open turn (cleared when the turn ends). ``resolved``: the targets of
    the ``attack_resolved`` events citing it as their ``declaration`` (its attacks on them
    have been resolved; a GM's void of a resolution leaves it out), in the order resolved."""

    seq: int
    actor: str
    actions: tuple[Action, ...] = ()
    responds_to: int | None = None
    resolved: tuple[str, ...] = ()


class AppliedRuling(Struct, frozen=True, gc=False):
    """A ruling in force: ``seq`` of the ruling, what it did to which event."""

    seq: int
    action: str
    target: int
    by: str
    reason: str = ""
    finding: str | None = None
    changes: dict[str, Any] = {}


class SceneState(Struct, frozen=True, gc=False):
    """The state after event ``seq`` (0: before the first event)."""

    seq: int = 0
    scene: SceneInfo | None = None
    combatants: dict[str, Combatant] = {}
    turn: TurnState = TurnState()
    effects: dict[str, ActiveEffect] = {}
    pending: tuple[PendingDeclaration, ...] = ()
    rulings: tuple[AppliedRuling, ...] = ()


EMPTY = SceneState()
"""The state before any event."""


_NUMBERED = re.compile(r"(.*?\D)(\d+)")


def numbered(pool: str) -> tuple[str, int] | None:
    """A pool named with a stem and a number (``w12``: ``("w", 12)``), else ``None``."""
    match = _NUMBERED.fullmatch(pool)
    return None if match is None else (match.group(1), int(match.group(2)))


def pool_order(pool: str) -> tuple[bool, str, int]:
    """The sort key pools are shown in: HP first, then by name, a numbered pool by its
    number (en5.1's wound circles ``w1``, ``w2`` ... ``w10``, not ``w1``, ``w10``, ``w2``)."""
    found = numbered(pool)
    return (pool != "hp", pool, -1) if found is None else (pool != "hp", *found)
