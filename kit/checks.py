"""The interface between the shared audit and a ruleset's checks.

The audit folds the log once. After each event it calls the ruleset's check for that event's
kind (``Ruleset.audit_checks()``) with the state before and after the event and an
``AuditView``, through which the check reports findings and looks up the recent events it
needs (the rolls an attack used, the declaration a roll resolves). Checks are pure: they
read states and events and report; they never fold, roll or read files.

A check is called for every event of its kind, so it is the hot path of ``fightlog audit``:
it should return at once when there is nothing to check.

On a big log without rulings the audit runs part of the work in a second process, beside the
fold (``fightlog.audit.two_process``): a ruleset says which part in a ``RecordSplit``. Checks of
the events as recorded move there whole; a check that needs the folded state only in part
keeps its state part and lets a ``Clear`` test run the rest there, asking
``AuditView.cleared`` whether that rest found nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

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

    def cleared(self, seq: int) -> bool:
        """Whether the ``Clear`` test of the event at ``seq`` (``RecordSplit.clears``) ran,
        beside the fold, and found that the part of its check it stands for has nothing to
        report; ``False`` when it found something or has not run (yet), and always in a
        one-process audit. A check asks it only for events of its own kind."""
        ...


Check = Callable[[SceneState, AnyEvent, SceneState, AuditView], None]
"""``check(before, event, after, view)``: report what is wrong with ``event``."""


Clear = Callable[[SceneState, AnyEvent, AuditView], bool]
"""``clear(scene, event, view)``, run beside the fold on an event as recorded, with the state
``scene_started`` leaves (the scene's options) and recent events of the kinds a
``RecordSplit`` keeps (``view.event``): ``True`` when the part of its kind's check that it
stands for has nothing to report on ``event`` (the check then skips that part:
``AuditView.cleared``). It answers ``False`` when it cannot tell, an event it needs not
found among the recent ones included: it may see further back, or less far, than the check
(``True`` must mean that the check's part reports nothing whichever it sees)."""


class RecordSplit(NamedTuple):
    """A ruleset's checks split for an audit on two processes (``Ruleset.audit_record_checks``)."""

    state: Mapping[type, Check]
    """The checks run in the fold, with the folded state (they may ask ``view.cleared``)."""
    record: Mapping[type, Check]
    """The checks run beside the fold: they read only the event as recorded and the scene's
    options (``before.scene``), never other events."""
    kept: frozenset[type]
    """The kinds ``clears`` look up (``view.event``)."""
    clears: Mapping[type, Clear]
    """Kind -> the test run beside the fold for part of that kind's ``state`` check."""


REFERENCE_CODE = "outcome.reference"
"""The shared code of a reference to no earlier event (``fightlog.audit.references``)."""


def no_earlier_event(seq: int, field: str, ref: int) -> str:
    """The finding's words for event ``seq`` naming ``ref`` as its ``field`` (what it follows
    from) when ``ref`` is not an earlier event: itself, a later one, or none."""
    where = "it" if ref == seq else "a later event" if ref > seq else "no event"
    return f"seq {seq} names seq {ref} as its {field}, which is {where}, not an earlier event: what it follows from " \
           "cannot be checked"


def opened_by_import(state: SceneState, view: AuditView) -> bool:
    """Whether the open turn of ``state`` was opened by ``fightlog import`` (its
    ``turn_started`` from a transcript): a fight whose outcomes the transcript does not show."""
    opened = view.event(state.turn.started)
    return opened is not None and opened.origin is not None and opened.origin.medium == "import"
