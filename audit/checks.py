"""The interface between the shared audit and a ruleset's checks.

The audit folds the log once. After each event it calls the ruleset's check for that event's
kind (``Ruleset.audit_checks()``) with the state before and after the event and an
``AuditView``, through which the check reports findings and looks up the recent events it
needs (the rolls an attack used, the declaration a roll resolves). Checks are pure: they
read states and events and report; they never fold, roll or read files.

A check is called for every event of its kind, so it is the hot path of ``fightlog audit``:
it should return at once when there is nothing to check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from fightlog.events.model import AnyEvent, Event
from fightlog.reducers.state import SceneState


class AuditView(Protocol):
    """What a check may ask of the running audit."""

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        """Report a finding ``code`` (see ``fightlog.audit.findings.CODES``) on ``event``:
        ``message`` is one sentence a player would accept, naming who and what."""
        ...

    def event(self, seq: int) -> AnyEvent | None:
        """A recent event by ``seq`` (this turn's and the previous turn's), as ruled."""
        ...

    @property
    def turn_start(self) -> SceneState:
        """The state just after the open (or last) turn's ``turn_started``."""
        ...


Check = Callable[[SceneState, AnyEvent, SceneState, AuditView], None]
"""``check(before, event, after, view)``: report what is wrong with ``event``."""
