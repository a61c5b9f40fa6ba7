"""What the fold and the audit ask the ``example`` ruleset (light: no table, no pydantic)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from fightlog.kit.ruleset import GenericRules
from fightlog.kit.sections import Code, Sections

if TYPE_CHECKING:
    from fightlog.kit.checks import Check

OUT: Final = frozenset({"defeated"})
ACTION_TYPES: Final[Mapping[str, str | None]] = {"attack": "action", "say": None}

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.outcome": Code("error", "an attack outcome the rolls do not give", "Attacking (1d20, a hit on 10+)"),
}
SECTIONS: Final = Sections(FINDINGS, {"order.out-of-turn": "Turns (as joined)"}, "The example rules")


class ExampleRules(GenericRules):
    id = "example"
    sections = SECTIONS
    table_module = "fightlog_example.table"

    def out_of_order_statuses(self) -> frozenset[str]:
        return OUT

    def audit_checks(self) -> Mapping[type, Check]:
        from fightlog_example import audit

        return audit.checks()


RULES: Final = ExampleRules()
