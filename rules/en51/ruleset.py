"""``en51`` as the shared code sees it: who is out of the posting order, what each action
costs, the names of a sheet's weapons.

Found through its ``fightlog.rulesets`` entry point when a log first names ``en51``. Light on
purpose: the fold imports this, so it imports neither pydantic nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from fightlog.events.model import Action
from fightlog.kit.ruleset import GenericRules, read_pools, read_problem, weapon_names
from fightlog.rules.en51.findings import SECTIONS

if TYPE_CHECKING:
    from fightlog.kit.checks import Check

RULESET_ID: Final = "en51"

OUT: Final = frozenset({"incapacitated", "dead"})
"""Out of the fight: a Wound higher than Toughness (The Immediate Effects), or dead (The
aftermath)."""

ANSWERS: Final = frozenset({"counter", "take", "ignore"})
"""A defender's answer to a melee or ranged attack on them (Melee attack: the counterattack,
or ignoring it; Roll with it)."""

ACTION_TYPES: Final[Mapping[str, str | None]] = {
    # one combat action a turn (Combat actions)
    "attack": "action",
    "aim": "action",
    "reload": "action",
    "ready": "action",
    "hide": "action",
    "cover": "action",
    "wait": "action",
    "sneak": "action",
    "medicine": "action",
    # a move action, alone or with an attack, Cover or Hide (Movement)
    "move": "move",
    # recovery between fights (Recovery)
    "recover": "full",
    # free (Combat actions: shouting an order, dropping what you hold); the answers
    "say": None,
    "drop": None,
    "counter": None,
    "take": None,
    "ignore": None,
}
"""Every action type ``en51`` understands and the part of the turn it spends."""

PARAMS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("unaware", "roll", "turn", "cover", "gm"),
    "cover": ("value",),
    "wait": ("then",),
    "sneak": ("metres",),
    "medicine": ("bonus",),
    "counter": ("roll", "gm"),
    "take": ("roll",),
    "ignore": ("roll",),
    "say": ("text",),
}
"""The params each action type reads (one not here reads none): the table refuses any other
(``kit.declared.unread_param``)."""

FIELDS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("target", "weapon", "mode", "distance"), "move": ("distance",), "sneak": ("target", "distance"),
    "medicine": ("target",), "ready": ("weapon",), "reload": ("weapon",), "counter": ("weapon",),
    "drop": ("weapon", "item"),  # what is dropped: the declaration is all
}
"""The ``Action`` fields each action type reads (``kit.declared.FIELD_KEYS``; one not here
reads none, and none reads ``cost``: the allowance is the action type's): the table refuses
any other written."""


class En51Rules(GenericRules):
    """The ``Ruleset`` of en5.1 black and white d20 combat."""

    id = RULESET_ID
    sections = SECTIONS
    table_module = "fightlog.rules.en51.table"
    policy_module = "fightlog.rules.en51.policy"
    answer_actions = ANSWERS

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def waiting_statuses(self) -> frozenset[str]:
        return frozenset()

    def action_cost(self, action: Action) -> str | None:
        return ACTION_TYPES.get(action.type, "action")

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        return weapon_names(sheet)

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """Rounds (type C) or automatic turns (type A) since the last reload; the rules read
        the capacity from the sheet (Ammunition)."""
        return fired + amount, False, 0

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        from fightlog.rules.en51.card import read_card

        return read_problem(read_card, sheet)

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        from fightlog.rules.en51.card import card_pools, read_card

        return read_pools(read_card, card_pools, sheet)

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        from fightlog.rules.en51.options import read_options

        return read_problem(read_options, options)

    def audit_checks(self) -> Mapping[type, Check]:
        from fightlog.rules.en51 import audit

        return audit.checks()


RULES: Final = En51Rules()
