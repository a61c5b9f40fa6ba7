"""``roe7`` as the shared code sees it: posting order statuses, what an action costs, when
an arrival posts, and how each weapon token fires and reloads.

Found through its ``fightlog.rulesets`` entry point when first asked for (a log whose
ruleset is ``roe7``). Light on purpose: the fold imports this, so it reads tokens with msgspec only and
never imports the sheet models (pydantic).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

import msgspec

from fightlog.errors import InputError
from fightlog.events.model import Action
from fightlog.rules.roe7.findings import SECTIONS
from fightlog.rules.roe7.tokens import DEFAULT_OPTIONS, TokenOptions, WeaponToken, parse_token
from fightlog.kit.ruleset import GenericRules, read_pools, read_problem

if TYPE_CHECKING:  # the audit's interface imports the state, which imports the ruleset interface
    from fightlog.kit.checks import Check, RecordSplit

OUT: Final = frozenset({"defeated", "wounded", "mortally_wounded", "fled", "left", "reserve"})
"""Statuses that take a combatant out of the posting order (Wounded; Fleeing). ``reserve`` is
an ally not yet called into the fight (Calling for Aid)."""

WAITING: Final = frozenset({"holding"})

ACTION_TYPES: Final[Mapping[str, str | None]] = {
    # one action (Parts of a Turn: a skill roll, a reload or other activity)
    "attack": "action",
    "reload": "action",
    "aim": "action",
    "sprint": "action",
    "hide": "action",
    "skill": "action",
    "com_call": "action",
    "throw": "action",
    "cook": "action",
    "draw": "action",
    # the movement phase (Movement Range; Changing Stance)
    "move": "move",
    "kneel": "move",
    "prone": "move",
    "stand": "move",
    # the whole turn (Fleeing; Chemical Burn)
    "flee": "full",
    "extinguish": "full",
    # free: speech, and an interrupt, which costs the interrupter's *next* action instead
    "say": None,
    "interrupt": None,
}
"""Every action type ``roe7`` understands and the part of the turn it spends."""

PARAMS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("shots", "offhand", "offhand_target", "secondaries", "through", "gm"),
    "skill": ("roll", "against", "gm"),
    "com_call": ("calls", "near_base"),
    "throw": ("x", "y"),
    "move": ("m", "difficult", "cover", "fall", "x", "y", "toward", "away"),
    "interrupt": ("gm",),
    "say": ("text",),
}
"""The params each action type reads (one not here reads none): the table refuses any other
(``kit.declared.unread_param``)."""

FIELDS_READ: Final[Mapping[str, tuple[str, ...]]] = {
    "attack": ("target", "weapon", "mode", "range", "distance"),
    "interrupt": ("weapon", "range", "distance"),  # its target is the caller
    "aim": ("target",), "skill": ("target",), "reload": ("weapon",), "draw": ("weapon",),
    "throw": ("target", "item"), "cook": ("item",), "move": ("distance",),
}
"""The ``Action`` fields each action type reads (``kit.declared.FIELD_KEYS``): the table
refuses any other written (``reload weapon=Rifle target=bob``). None is ``cost``: what an
action spends is the rules' (``action_cost`` reads a cost the log records, as a hand-run log
writes it; a player's ``cost=free`` took an action more than the turn allows)."""


@lru_cache(maxsize=256)
def token(text: str, options: TokenOptions = DEFAULT_OPTIONS) -> WeaponToken | None:
    """A weapon token read under ``options``, or ``None`` when it is not one."""
    try:
        return parse_token(text, options)
    except InputError:
        return None


DAMAGING: Final = frozenset({"bleed", "chemical_burn"})
"""The debuffs that tick: they deal damage at the start of their victim's turn (Bleed;
Chemical Burn), each once a turn, in effect-id order, until the victim is out
(``harm.start_of_turn``)."""


class Roe7Rules(GenericRules):
    """The ``Ruleset`` of RoE 7th Edition, under one scene's token options."""

    id = "roe7"
    sections = SECTIONS
    table_module = "fightlog.rules.roe7.table"
    policy_module = "fightlog.rules.roe7.policy"
    area_actions = frozenset({"throw"})  # Grenades: the blast, not the throw, decides who is hit
    answer_actions = frozenset({"interrupt"})  # Fleeing; Calling for Aid: declared in the caller's turn
    target_params = frozenset({"secondaries", "through", "offhand_target"})  # Automatic fire into melee; Shooting past an ally; Dual wielding

    def __init__(self, tokens: TokenOptions = DEFAULT_OPTIONS) -> None:
        self.tokens = tokens

    def with_options(self, options: Mapping[str, Any]) -> Roe7Rules:
        return _configured(msgspec.json.encode({k: options[k] for k in _TOKEN_FIELDS if k in options}))

    def harm_period(self, effect: str, params: Mapping[str, Any]) -> str | None:
        return "turn" if effect in DAMAGING else None  # bleeds and burns, at the start of the victim's turn

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def waiting_statuses(self) -> frozenset[str]:
        return WAITING

    def action_cost(self, action: Action) -> str | None:
        if action.cost is not None:
            return action.cost
        return ACTION_TYPES.get(action.type, "action")

    def arrival_delay(self) -> int:
        """Entering a Combat in Progress: the entry is in the claimed slot next round."""
        return 1

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        """The sheet as the rules read it (``fighters.read_sheet``; pydantic, loaded here
        and not before: the fold never asks)."""
        from fightlog.rules.roe7.fighters import read_sheet

        return read_problem(read_sheet, sheet)

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        """HP as the sheet states it (a hand-kept sheet without ``hp`` states none)."""
        from fightlog.rules.roe7.fighters import read_sheet
        from fightlog.rules.roe7.roster import sheet_pools

        return read_pools(read_sheet, sheet_pools, sheet) if "hp" in sheet else None

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        from fightlog.rules.roe7.options import read_options

        return read_problem(read_options, options)

    def audit_checks(self) -> Mapping[type, Check]:
        """The RoE checks of one audited scene (``fightlog.rules.roe7.audit``, loaded here
        and not before: it reads sheets, which the fold never does)."""
        from fightlog.rules.roe7 import audit

        return audit.checks()

    def audit_record_checks(self) -> RecordSplit:
        """``audit_checks`` split for the audit on two processes (``Ruleset``)."""
        from fightlog.rules.roe7 import audit

        return audit.split_checks()

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """Weapon Special Rules; Multiple/Automatic Shots. ``amount`` is the shots of one
        action: chainfed guns fire three actions between reloads; a sniper works the bolt
        after every shot; automatic fire (three shots) needs a reload, a single shot does
        not; a shotgun racks through the next turn; a heavy pistol fires once per turn."""
        read = token(weapon, self.tokens)
        if read is None:
            return fired + amount, False, 0
        if read.chainfed:
            return fired + 1, fired + 1 >= 3, 0
        if read.sniper:
            return fired + amount, True, 0
        if read.shotgun:
            return fired + amount, False, 2
        if read.heavy_pistol:
            return fired + amount, False, 1
        automatic = read.fire_mode == "automatic" and amount >= 3
        return fired + amount, automatic, 0


_TOKEN_FIELDS: Final = TokenOptions.__struct_fields__


@lru_cache(maxsize=16)
def _configured(encoded: bytes) -> Roe7Rules:
    try:
        tokens = msgspec.json.decode(encoded, type=TokenOptions)
    except msgspec.ValidationError:
        tokens = DEFAULT_OPTIONS  # a log with bad options still folds; play refuses them (cli.play_moves.open_scene)
    return RULES if tokens == DEFAULT_OPTIONS else Roe7Rules(tokens)


RULES: Final = Roe7Rules()
