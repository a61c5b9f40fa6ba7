"""``d20-evasion`` as the shared code sees it: who is out of the posting order, who holds a
turn, what each action costs, and the names of a sheet's weapons.

Found through its ``fightlog.rulesets`` entry point when a log first names ``d20-evasion``. Light on
purpose: the fold imports this, so it imports neither pydantic nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from fightlog.events.model import Action
from fightlog.kit.ruleset import GenericRules, read_pools, read_problem, weapon_names
from fightlog.rules.d20evasion.findings import SECTIONS

if TYPE_CHECKING:  # the audit's interface imports the state, which imports the ruleset interface
    from fightlog.kit.checks import Check

RULESET_ID: Final = "d20-evasion"

OUT: Final = frozenset({"mortally_wounded", "dead", "fled", "left", "reserve", "summoned"})
"""Statuses that take a combatant out of the posting order: mortally wounded (no actions for
the two rounds; Mortally Wounded), killed, gone, and minions not yet summoned or summoned
but not yet acting (Minions)."""

WAITING: Final = frozenset({"holding"})
"""Holding one's turn to act later in the round (Holding a Turn)."""

DEFENSIVE: Final = frozenset({"dodge", "counter", "parry", "take"})
"""A duel's defensive responses (Defensive Turns); ``take`` is no defence at all."""

ACTION_TYPES: Final[Mapping[str, str | None]] = {
    # the movement (Movement): movement points, recorded on the action as ``points``
    "move": "move",
    # one action (Actions)
    "attack": "action",
    "cast": "action",
    "disarm": "action",
    "sprint": "action",
    "draw": "action",
    "pick_up": "action",
    "skill": "action",
    # two actions (Items) unless the item says otherwise
    "use_item": "both",
    # the whole turn: holding it for later, assisting another
    "hold": "full",
    "assist": "full",
    # free: speech; a duel's defensive responses are answers, not turn actions
    "say": None,
    "dodge": None,
    "counter": None,
    "parry": None,
    "take": None,
}
"""Every action type ``d20-evasion`` understands and the part of the turn it spends. The table
writes ``cost`` on an action when it differs (``both`` for a long cast, ``free`` for a draw
with load-bearing equipment, ``full`` for a skill that takes the whole turn)."""

PARAMS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "move": ("lateral", "points"),
    "attack": ("defensive_turn",),
    "cast": ("spell", "defensive_turn"),
    "disarm": ("knock",),
    "skill": ("full", "actions", "name"),
    "dodge": ("attack",), "counter": ("attack",), "parry": ("attack",), "take": ("attack",),
    "say": ("text",),
}
"""The params each action type reads (one not here reads none; ``points``, ``defensive_turn``,
``attack``, ``knock`` are mostly the table's own, kept in the logged post; a skill's ``name``
is a label): the table refuses any other (``kit.declared.unread_param``)."""

FIELDS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("target", "weapon", "range"), "cast": ("target", "range"), "disarm": ("target", "range"),
    "draw": ("weapon",), "use_item": ("item", "target", "range"), "assist": ("target",),
    "move": ("target", "range"), "counter": ("weapon",), "parry": ("weapon",),
    "skill": ("target",),  # the GM's call: whom the skill is used on
    "pick_up": ("weapon",),  # the weapon on the ground (the table writes it when not named)
}
"""The ``Action`` fields each action type reads (``kit.declared.FIELD_KEYS``): the table
refuses any other written. None is ``cost``: what an action spends is the rules' (the table
writes it where it differs: a long cast, a free draw; a player's ``cost=free`` took an action
more than the turn allows)."""

COST_ACTIONS: Final[Mapping[str, int]] = {"action": 1, "both": 2}
"""Actions a cost spends (``full`` spends them all, and the movement)."""


class D20Rules(GenericRules):
    """The ``Ruleset`` of d20 evasion quests and duels."""

    id = RULESET_ID
    sections = SECTIONS
    table_module = "fightlog.rules.d20evasion.table"
    policy_module = "fightlog.rules.d20evasion.policy"
    answer_actions = DEFENSIVE  # a duel's (Defensive Turns)
    spent_words = {"both": ("use of both actions", "uses of both actions")}  # an item, a long cast (Actions)

    def harm_period(self, effect: str, params: Mapping[str, Any]) -> str | None:
        return "turn" if params.get("dot") is True else None  # damage over time (``harm.is_dot``)

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def waiting_statuses(self) -> frozenset[str]:
        return WAITING

    def action_cost(self, action: Action) -> str | None:
        if action.cost is not None:
            return None if action.cost == "free" else action.cost
        return ACTION_TYPES.get(action.type, "action")

    def arrival_delay(self) -> int:
        """Minions and arrivals take their slot from the next round."""
        return 1

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        return weapon_names(sheet)

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        """The sheet as the rules read it: its card (``read_card``)."""
        from fightlog.rules.d20evasion.card import read_card

        return read_problem(read_card, sheet)

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        from fightlog.rules.d20evasion.card import card_pools, read_card

        return read_pools(read_card, card_pools, sheet)

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        from fightlog.rules.d20evasion.options import read_options

        return read_problem(read_options, options)

    def with_options(self, options: Mapping[str, Any]) -> D20Rules:
        return self

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """Weapons never reload here (the rulebook has no ammunition)."""
        return fired + amount, False, 0

    def audit_checks(self) -> Mapping[type, Check]:
        """The checks of one audited scene (``fightlog.rules.d20evasion.audit``, loaded here
        and not before)."""
        from fightlog.rules.d20evasion import audit

        return audit.checks()


RULES: Final = D20Rules()
