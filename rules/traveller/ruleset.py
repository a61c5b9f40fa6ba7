"""``traveller`` as the shared code sees it: who is out of the posting order, who waits,
what each action costs, and the names of a sheet's weapons.

Found through its ``fightlog.rulesets`` entry point when a log first names ``traveller``.
Light on purpose: the fold imports this, so it imports neither pydantic nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from fightlog.events.model import Action
from fightlog.kit.ruleset import GenericRules, read_pools, read_problem, weapon_names
from fightlog.rules.traveller.findings import SECTIONS
from fightlog.rules.traveller.options import RULESET_ID

if TYPE_CHECKING:  # the audit's interface imports the state, which imports the ruleset interface
    from fightlog.kit.checks import Check

OUT: Final = frozenset({"unconscious", "dead", "fled"})
"""Out of the posting order: unconscious (two characteristics at zero), dead (all three, by
default), gone."""

WAITING: Final = frozenset({"delaying"})
"""A combatant who deferred their turn to later in the round (Defer Action)."""

REACTIONS: Final = frozenset({"dodge", "dive", "parry", "take"})
"""Answers to an incoming attack; ``take`` is no reaction at all."""

ACTION_TYPES: Final[Mapping[str, str | None]] = {
    # significant actions
    "attack": "significant",
    "leadership": "significant",
    "first_aid": "significant",
    "grapple": "significant",
    "task": "significant",
    # minor actions
    "move": "minor",
    "aim": "minor",
    "stance": "minor",
    "draw": "minor",
    "reload": "minor",
    "cover": "minor",
    "pick_up": "minor",
    # free: talking, deferring; reactions are answers out of turn, costing nothing in the
    # turn they answer (their price is the DM-1 on the reactor's next actions)
    "say": None,
    "defer": None,
    "encourage": None,
    "dodge": None,
    "dive": None,
    "parry": None,
    "take": None,
}
"""Every action type ``traveller`` understands and the part of the turn it spends."""

PARAMS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "first_aid": ("STR", "DEX", "END"),
    "grapple": ("choice", "metres", "x", "y", "terrain"),
    "task": ("skill", "characteristic", "rounds"),
    "move": ("x", "y", "terrain"),
    "stance": ("to",),
    "cover": ("behind",),
    "dive": ("cover", "x", "y"),
    "say": ("text",),
}
"""The params each action type reads (one not here reads none): the table refuses any other
(``kit.declared.unread_param``)."""

FIELDS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("target", "weapon", "distance"), "grapple": ("target", "mode", "distance"),
    "first_aid": ("target", "distance"), "encourage": ("target",), "defer": ("target",),
    "move": ("distance",), "dive": ("distance",), "stance": ("mode",), "cover": ("mode",),
    "draw": ("weapon",), "reload": ("weapon",), "pick_up": ("weapon",),
}
"""The ``Action`` fields each action type reads (``kit.declared.FIELD_KEYS``; one not here
reads none, and none reads ``cost``: the allowance is the action type's, though the fold
still counts a ``cost`` a log recorded in the turn's spent actions): the table refuses any
other written."""


class TravellerRules(GenericRules):
    """The ``Ruleset`` of Traveller 2D6 combat."""

    id = RULESET_ID
    sections = SECTIONS
    table_module = "fightlog.rules.traveller.table"
    policy_module = "fightlog.rules.traveller.policy"
    answer_actions = REACTIONS

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def waiting_statuses(self) -> frozenset[str]:
        return WAITING

    def action_cost(self, action: Action) -> str | None:
        if action.cost is not None:
            return None if action.cost == "free" else action.cost
        return ACTION_TYPES.get(action.type, "significant")

    def arrival_delay(self) -> int:
        return 1

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        return weapon_names(sheet)

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        from fightlog.rules.traveller.card import read_card

        return read_problem(read_card, sheet)

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        from fightlog.rules.traveller.card import card_pools, read_card

        return read_pools(read_card, card_pools, sheet)

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        from fightlog.rules.traveller.options import read_options

        return read_problem(read_options, options)

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """Rounds fired count up; the table reads the magazine from the sheet."""
        return fired + amount, False, 0

    def audit_checks(self) -> Mapping[type, Check]:
        from fightlog.rules.traveller import audit

        return audit.checks()


RULES: Final = TravellerRules()
