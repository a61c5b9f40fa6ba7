"""The ruleset interface: what play, amendments and the audit ask a ruleset, and the
generic default.

``Ruleset`` extends what the fold asks (``fightlog.reducers.fold_rules.FoldRules``) with
sheets, the audit's checks and the rulebook sections of findings. Shared code asks these
questions and never branches on a ruleset id; a ruleset overrides what differs from
``GenericRules``. Rulesets are found through the ``fightlog.rulesets`` entry points
(``fold_rules.GROUP``); ``register`` adds one that is not installed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast

from fightlog.reducers import fold_rules
from fightlog.reducers.fold_rules import FoldRules, GenericFoldRules
from fightlog.kit.checks import Check, RecordSplit


class Ruleset(FoldRules, Protocol):
    """Questions shared code asks a ruleset: the fold's (``FoldRules``), and those of play,
    amendments and the audit."""

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset under a scene's options (``scene_started.options``)."""
        ...

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        """Why the rules cannot read a sheet snapshot (``combatant_joined.sheet``), naming
        the field (``sheet.race: ...``), or ``None`` when they can. Not for the fold: a GM's
        amendment of a sheet is checked with it."""
        ...

    def audit_checks(self) -> Mapping[type, Check]:
        """The audit's checks of this ruleset by event type (``fightlog.kit.checks``):
        what each declaration, roll, outcome and effect should have been."""
        ...

    def audit_record_checks(self) -> RecordSplit:
        """``audit_checks`` split for a big log without rulings, which the audit checks on
        two processes (``fightlog.audit.auditor``): the checks that need the folded state,
        those that read only the event as recorded, the scene's options and recent events,
        and tests standing for part of a state check (``fightlog.kit.checks.RecordSplit``).
        The second and third share run in the second process, beside the dice."""
        ...

    def rule_section(self, code: str) -> str:
        """The rulebook section a finding ``code`` rests on, as the audit prints it."""
        ...


class GenericRules(GenericFoldRules):
    """Defaults that suit a log whose ruleset fightlog does not know (or does not need)."""

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        return None

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        return self

    def audit_checks(self) -> Mapping[type, Check]:
        return {}

    def audit_record_checks(self) -> RecordSplit:
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



def installed() -> tuple[str, ...]:
    """The ruleset ids this fightlog knows, sorted (``generic`` among them)."""
    return tuple(sorted({GENERIC.id, *fold_rules.installed()}))


def register(ruleset: Ruleset) -> None:
    """Make ``ruleset`` the one used for logs whose ``scene_started.ruleset`` is its id (a
    ruleset not installed as a package: tests, notebooks)."""
    fold_rules.register(ruleset)


def ruleset_for(ruleset_id: str | None) -> Ruleset:
    """The ruleset for an id; ``GENERIC`` for ``None`` and ids no installed ruleset claims."""
    found = fold_rules.ruleset_for(ruleset_id)
    return GENERIC if found is None else cast(Ruleset, found)


def rules_for_scene(ruleset_id: str | None, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a scene under the options it was started with (the same object the fold
    asks, ``fightlog.reducers.fold_rules.rules_for_scene``)."""
    if fold_rules.ruleset_for(ruleset_id) is None:
        return GENERIC
    return cast(Ruleset, fold_rules.rules_for_scene(ruleset_id, options))
