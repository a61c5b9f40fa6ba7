"""A ruleset's finding codes and the rulebook sections its findings rest on.

The audit's shared codes (the posting order, the dice, what the audit can judge, imported
fights, and the refusals the kit itself words) live in ``fightlog.audit.findings``. A ruleset
declares the rest itself: each code its checks report, with its severity, what it means and
the rulebook section it rests on (``Code``), and the section of its rulebook each shared code
rests on in a scene of it. ``Sections`` holds both and answers ``Ruleset.rule_section``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, NamedTuple

Severity = Literal["error", "warning", "info"]

DICE_SECTION: Final = "fightlog dice (docs/dice.md)"
"""Where every ``dice.*`` finding rests: fightlog's dice, not a rulebook."""

AUDIT_SECTION: Final = "what the audit can check (docs/audit.md)"
"""Where every ``scene.*`` finding rests: what the audit could judge, under any ruleset."""

OUTCOME_SECTION: Final = "what a log's facts must agree on (docs/audit.md)"
"""Where ``outcome.*`` findings rest: what a log's facts must agree on under any ruleset."""


class Code(NamedTuple):
    """A finding code a ruleset declares: its severity, what it means (``docs/audit.md``) and
    the rulebook section it rests on."""

    severity: Severity
    meaning: str
    section: str


class Sections:
    """A ruleset's finding codes (``findings``), the sections of its rulebook the shared codes
    rest on (``shared``), and the section of a code neither names (``fallback``)."""

    def __init__(self, findings: Mapping[str, Code], shared: Mapping[str, str], fallback: str) -> None:
        self.findings = findings
        self.shared = shared
        self.fallback = fallback

    def section(self, code: str) -> str:
        """The section a finding ``code`` rests on, as the audit prints it."""
        if code.startswith("dice."):
            return DICE_SECTION
        if code.startswith("outcome."):
            return OUTCOME_SECTION
        if code.startswith("scene."):
            return AUDIT_SECTION
        own = self.findings.get(code)
        if own is not None:
            return own.section
        return self.shared.get(code, self.fallback)
