"""The ruleset interface: what shared code asks a ruleset, and the generic default.

Event kinds are shared by all rulesets; what some of their fields *mean* differs (which
statuses take a combatant out of the posting order, how a declared action is counted against
the turn's allowance, when an arrival starts posting, what a sheet's weapons are). Reducers,
replay and audit ask these questions through ``Ruleset`` and never branch on a ruleset id.
A ruleset module overrides what differs from ``GenericRules``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from fightlog.events.model import Action

if TYPE_CHECKING:  # the audit's interface imports the state, which imports this module
    from fightlog.audit.checks import Check, RecordSplit


class Ruleset(Protocol):
    """Questions shared code asks a ruleset."""

    id: str

    def out_of_order_statuses(self) -> frozenset[str]:
        """Statuses that take a combatant out of the posting order (they are skipped)."""
        ...

    def waiting_statuses(self) -> frozenset[str]:
        """Statuses of a combatant who keeps a place but is not expected to post now
        (delaying, holding a turn)."""
        ...

    def action_cost(self, action: Action) -> str | None:
        """The part of the turn ``action`` spends (``action``, ``move``, ``standard``...),
        or ``None`` for something free."""
        ...

    def arrival_delay(self) -> int:
        """Rounds after joining before an arrival takes its posting slot."""
        ...

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        """The weapon names a sheet snapshot carries."""
        ...

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        """Why the rules cannot read a sheet snapshot (``combatant_joined.sheet``), naming
        the field (``sheet.race: ...``), or ``None`` when they can. Not for the fold: a GM's
        amendment of a sheet is checked with it."""
        ...

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset under a scene's options (``scene_started.options``), which may change
        how its weapons read or reload. Called once per scene by the fold."""
        ...

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """A weapon that had fired ``fired`` times since its last reload fires ``amount``
        more (``resource_spent`` of the weapon): its new ``(fired, needs_reload, cooldown)``.

        The cooldown counts down at the end of each of the owner's turns, the firing turn
        included: 2 means the weapon cannot fire again in the owner's next turn."""
        ...

    def audit_checks(self) -> Mapping[type, Check]:
        """The audit's checks of this ruleset by event type (``fightlog.audit.checks``):
        what each declaration, roll, outcome and effect should have been."""
        ...

    def audit_record_checks(self) -> RecordSplit:
        """``audit_checks`` split for a big log without rulings, which the audit checks on
        two processes (``fightlog.audit.auditor``): the checks that need the folded state,
        those that read only the event as recorded, the scene's options and recent events,
        and tests standing for part of a state check (``fightlog.audit.checks.RecordSplit``).
        The second and third share run in the second process, beside the dice."""
        ...

    def rule_section(self, code: str) -> str:
        """The rulebook section a finding ``code`` rests on, as the audit prints it."""
        ...


class GenericRules:
    """Defaults that suit a log whose ruleset fightlog does not know (or does not need)."""

    id = "generic"

    _OUT = frozenset({"defeated", "fled", "dead", "wounded", "mortally_wounded", "unconscious", "left"})
    _WAITING = frozenset({"delaying", "holding"})
    _FREE = frozenset({"speak", "talk", "free", "say"})
    _MOVES = frozenset({"move", "stance", "kneel", "prone", "stand"})

    def out_of_order_statuses(self) -> frozenset[str]:
        return self._OUT

    def waiting_statuses(self) -> frozenset[str]:
        return self._WAITING

    def action_cost(self, action: Action) -> str | None:
        if action.cost is not None:
            return action.cost
        if action.type in self._FREE:
            return None
        return "move" if action.type in self._MOVES else "action"

    def arrival_delay(self) -> int:
        return 1

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        found = sheet.get("weapons", ())
        if not isinstance(found, (list, tuple)):
            return ()
        return tuple(str(w) for w in found if isinstance(w, str))

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        return None

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        return self

    def weapon_capacity(self, weapon: str) -> int | None:
        return None

    def weapon_cooldown(self, weapon: str) -> int:
        return 0

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        fired += amount
        capacity = self.weapon_capacity(weapon)
        return fired, capacity is not None and fired >= capacity, self.weapon_cooldown(weapon)

    def audit_checks(self) -> Mapping[type, Check]:
        return {}

    def audit_record_checks(self) -> RecordSplit:
        from fightlog.audit.checks import RecordSplit  # the audit only

        return RecordSplit(self.audit_checks(), {}, frozenset(), {})

    def rule_section(self, code: str) -> str:
        if code.startswith("order."):
            return "posting order (no ruleset: initiative order, the out skipped)"
        if code.startswith("dice."):
            return "fightlog dice (docs/dice.md)"
        if code.startswith("scene."):
            return "what the audit can check (docs/audit.md)"
        return "no ruleset section (generic log)"


GENERIC = GenericRules()

_REGISTRY: dict[str, Ruleset] = {}

_MODULES: dict[str, str] = {
    "roe7": "fightlog.rules.roe7.ruleset",
    "d20-evasion": "fightlog.rules.d20evasion.ruleset",
}
"""Ruleset id -> the module that registers it, imported on first use (so folding a log of a
ruleset never loads the others, and ``verify`` loads none)."""


def installed() -> tuple[str, ...]:
    """The ruleset ids this fightlog knows, sorted (``generic`` among them)."""
    return tuple(sorted({GENERIC.id, *_REGISTRY, *_MODULES}))


def register(ruleset: Ruleset) -> None:
    """Make ``ruleset`` the one used for logs whose ``scene_started.ruleset`` is its id."""
    _REGISTRY[ruleset.id] = ruleset


def rules_for_scene(ruleset_id: str | None, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a scene, under the options it was started with.

    Remembered by the options object (a scene keeps the same one while its other fields
    change), so a fold resumed one event at a time (``Folder.steps``, a replay) does not
    configure the ruleset again for every event.
    """
    rules = ruleset_for(ruleset_id)
    if not options:
        return rules
    key = (ruleset_id, id(options))
    known = _CONFIGURED.get(key)
    if known is not None and known[0] is options and known[1] is rules:
        return known[2]
    configured = rules.with_options(options)
    if len(_CONFIGURED) >= _CONFIGURED_MAX:
        _CONFIGURED.clear()
    _CONFIGURED[key] = (options, rules, configured)  # holding ``options`` keeps its id unique
    return configured


_CONFIGURED: dict[tuple[str | None, int], tuple[Mapping[str, Any], Ruleset, Ruleset]] = {}
_CONFIGURED_MAX = 256


def ruleset_for(ruleset_id: str | None) -> Ruleset:
    """The ruleset for an id; ``GENERIC`` for ids without a module yet."""
    if ruleset_id is None:
        return GENERIC
    found = _REGISTRY.get(ruleset_id)
    if found is None and ruleset_id in _MODULES:
        importlib.import_module(_MODULES.pop(ruleset_id))
        found = _REGISTRY.get(ruleset_id)
    return found if found is not None else GENERIC
