"""References to other events: each an earlier event of the log (``outcome.reference``).

An event names the events it follows from by their ``seq`` (``REFERENCES``: a ``cause``, the
post a roll is ``for_seq``, the ``declaration`` an attack answers, the ``roll`` an initiative
came from, the post an answer ``responds_to``; an attack's ``rolls``). A reference to a
``seq`` the log does not hold yet (the event itself, a later one, or past the end) or below 1
names nothing that came before it: every check that follows it finds nothing and says
nothing, so a hand edit could hide a damage's cause that way. The reader cannot see it
(``verify`` checks the chain, not what events say); the audit reports it, for every ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from fightlog.events.model import (REFERENCES, AnyEvent, AttackResolved, DamageApplied, DeclarationPosted, EffectApplied,
                                   HealingApplied, InitiativeRolled, InitiativeSet, StatusChanged)
from fightlog.kit.checks import REFERENCE_CODE, AuditView, Check, no_earlier_event
from fightlog.reducers.state import SceneState

def _report(event: AnyEvent, field: str, ref: int, view: AuditView) -> None:
    view.report(REFERENCE_CODE, event, no_earlier_event(event.seq, field, ref), actor=None)


def _check_for(kind: type) -> Check | None:
    """The check of one kind's references, or ``None`` for a kind without any: written out
    once per kind (a comparison per field, no loop: it runs on nearly every event)."""
    names = kind.__struct_fields__  # type: ignore[attr-defined]
    fields = [name for name in REFERENCES if name in names]
    lines = ["def check(before, event, after, view):", "    seq = event.seq"]
    for name in fields:
        lines += [f"    ref = event.{name}",
                  f"    if ref is not None and (ref >= seq or ref < 1):",
                  f"        report(event, {name!r}, ref, view)"]
    if "rolls" in names:
        lines += ["    rolls = event.rolls",
                  "    if rolls and (max(rolls) >= seq or min(rolls) < 1):",
                  "        for ref in rolls:",
                  "            if ref >= seq or ref < 1:",
                  "                report(event, 'roll read', ref, view)"]
    if len(lines) == 2:
        return None
    scope: dict[str, Any] = {"report": _report}
    exec(compile("\n".join(lines) + "\n", f"<reference check for {kind.__name__}>", "exec"), scope)
    check: Check = scope["check"]
    return check


CHECKED: Final = (AttackResolved, DamageApplied, DeclarationPosted, EffectApplied, HealingApplied, InitiativeRolled,
                  InitiativeSet, StatusChanged)
"""The kinds whose references the audit's checks follow to judge them (what an outcome read,
what a damage, an effect or a status came from, the post an answer answers). A roll's
``for_seq``, the most frequent reference, is judged where a check follows it
(``fightlog.rules.roe7.audit_damage``: a damage roll's outcome); a spend's, a move's, a
reload's and an expiry's ``cause`` lead no check anywhere (a check for every event costs
the audit about 5%)."""

_CHECKS: Mapping[type, Check] = {kind: check for kind in CHECKED if (check := _check_for(kind)) is not None}


def checks() -> Mapping[type, Check]:
    """The shared reference checks, by event kind (the ``Auditor`` adds them for every ruleset)."""
    return _CHECKS
