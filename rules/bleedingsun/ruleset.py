"""``bleeding-sun`` as the shared code sees it: who is out of the posting order, what each
action costs, the names of a sheet's weapons.

Found through its ``fightlog.rulesets`` entry point when a log first names ``bleeding-sun``.
Light on purpose: the fold imports this, so it imports neither pydantic nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from fightlog.events.model import Action
from fightlog.kit.ruleset import GenericRules, read_pools, read_problem, weapon_names
from fightlog.rules.bleedingsun.findings import SECTIONS
from fightlog.rules.bleedingsun.options import RULESET_ID

if TYPE_CHECKING:
    from fightlog.kit.checks import Check
    from fightlog.reducers.state import SceneState

OUT: Final = frozenset({"unconscious", "dead"})
"""Out of the fight: at 0 HP or below (Health and Dying), dead."""

BLEEDING: Final = "bleeding"
"""The effect of bleeding out below 0 HP (``harm``): it ticks at the start of each round."""

WAITING: Final = frozenset({"delaying"})
"""Keeps a place but does not post now: delaying (Readying and Delaying Actions)."""

ANSWERS: Final = frozenset({"dodge", "block", "resist", "take"})
"""What a target posts to answer an attack on them (``take``: no defense, costs nothing)."""

ACTION_TYPES: Final[Mapping[str, str | None]] = {
    # Standard actions (Attacking; Multiple Attacks take the free action too)
    "attack": "standard",
    "stabilize": "standard",
    "extinguish": "standard",
    "break_free": "standard",
    # Combat maneuvers (Standard + Free; option maneuver_cost)
    "trip": "standard",
    "grapple": "standard",
    # Move actions
    "move": "move",
    "sprint": "move",
    "aim": "move",
    "reload": "move",
    "draw": "move",
    "stance": "move",
    "throw": "move",
    "cook": "move",
    "pick_up": "move",
    "perceive": "move",
    # Free actions
    "say": "free",
    "drop": "free",
    "setting": "free",
    # Full round actions
    "total_defense": "full",
    "coup_de_grace": "full",
    "delay": "full",
    "escape": "full",
    # Immediate actions and answers
    "dodge": "immediate",
    "block": "immediate",
    "resist": "immediate",
    "aoo": "immediate",
    "stop_aim": "immediate",
    "jump": "immediate",
    "take": None,
    "hold_aim": None,
    "undelay": None,
    "ready": None,
}
"""Every action type ``bleeding-sun`` understands and the part of the round it spends."""


class BleedingSunRules(GenericRules):
    """The ``Ruleset`` of Bleeding Sun d6 dice-pool combat."""

    id = RULESET_ID
    sections = SECTIONS
    table_module = "fightlog.rules.bleedingsun.table"
    policy_module = "fightlog.rules.bleedingsun.policy"
    area_actions = frozenset({"throw"})  # Explosives: the blast, not the throw, decides who is hit
    distance_unit = "hex"  # Movement: a hex is the unit of every distance and range
    answer_actions = ANSWERS

    def harm_period(self, effect: str, params: Mapping[str, Any]) -> str | None:
        return "round" if effect == BLEEDING else None  # bleeding out, at the start of each round

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def waiting_statuses(self) -> frozenset[str]:
        return WAITING

    def action_cost(self, action: Action) -> str | None:
        return ACTION_TYPES.get(action.type, "standard")

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        return weapon_names(sheet)

    def turn_spent(self, state: SceneState, actor: str) -> Mapping[str, int]:
        """The round's actions as the action economy counts them (``economy.spent``: a
        split pool's attacks are one standard action, and take the free one; move actions
        include the MP moved): ``actor``'s own posts in their turn."""
        from fightlog.errors import FightlogError
        from fightlog.rules.bleedingsun import economy
        from fightlog.rules.bleedingsun.fighters import Fighter

        try:
            who = Fighter(state, actor)
            used = economy.spent(economy.marked(state, actor, who.frozen_since()), pace=who.pace(), stance=who.stance,
                                 maneuver_cost=who.options.maneuver_cost)
        except FightlogError:  # a sheet the rules cannot read: each action by its cost
            return super().turn_spent(state, actor)
        parts = (("standard", used.standard), ("move", used.move_actions), ("free", used.free),
                 ("full round", used.full))
        return {name: count for name, count in parts if count}

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        from fightlog.rules.bleedingsun.card import read_card

        return read_problem(read_card, sheet)

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        from fightlog.rules.bleedingsun.card import card_pools, read_card

        return read_pools(read_card, card_pools, sheet)

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        from fightlog.rules.bleedingsun.options import read_options

        return read_problem(read_options, options)

    def audit_checks(self) -> Mapping[type, Check]:
        from fightlog.rules.bleedingsun import audit

        return audit.checks()


RULES: Final = BleedingSunRules()
