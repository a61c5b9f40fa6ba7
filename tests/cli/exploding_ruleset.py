"""A ruleset plugin with a bug in its own code (``test_edge``): the fold's first question
about its statuses divides by zero."""

from __future__ import annotations

from fightlog.kit.ruleset import GenericRules


class Exploding(GenericRules):
    id = "exploding"

    def out_of_order_statuses(self) -> frozenset[str]:
        return frozenset({"down"}) if 1 / 0 else frozenset()


RULES = Exploding()
