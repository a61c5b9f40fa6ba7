"""The audit's window of recent events: what ``AuditView.event`` looks up.

A check may look up the events of the open turn and of the turn before it (the rolls an
attack cites, the tick a damage roll is for, the call an interrupt answers); until a second
turn opens, every event so far. Events are added to ``held`` by ``seq`` (the fold writes
them there: ``fold(..., seen=)``), and ``turn_opened`` moves the reach on.

Events out of reach are never returned (``get`` compares ``seq`` with the reach), but they
are dropped only once ``held`` grows past ``TRIM`` entries, all at once: dropping the turn
before last one event at a time at every turn opening cost about a twentieth of the audit's
time.
"""

from __future__ import annotations

from typing import Generic, TypeVar

E = TypeVar("E")

TRIM = 256
"""``held`` is trimmed to the events in reach when it holds more than this many."""


class Window(Generic[E]):
    """Recent events by ``seq`` (see the module docstring): ``AnyEvent`` for the audit's
    fold, or whatever a reader of its own keeps (``fightlog.audit.answers``)."""

    __slots__ = ("held", "first", "dropped", "_opened")

    def __init__(self) -> None:
        self.held: dict[int, E] = {}
        """Events by ``seq``, in ``seq`` order: those in reach, and perhaps older ones."""
        self.first = 0
        """The lowest ``seq`` in reach: the previous turn's ``turn_started``."""
        self.dropped = 0
        """How many events were added and since dropped from ``held``."""
        self._opened: int | None = None
        """``seq`` of the open (or last) turn's ``turn_started``."""

    @property
    def added(self) -> int:
        """How many events were added in all."""
        return self.dropped + len(self.held)

    def get(self, seq: int) -> E | None:
        """The event at ``seq`` if it is in reach and was added (else ``None``)."""
        return self.held.get(seq) if seq >= self.first else None

    def turn_opened(self, seq: int) -> None:
        """A turn opened at ``seq``: the turn before it leaves the reach."""
        opened = self._opened
        if opened is not None:
            self.first = opened
            held = self.held
            if len(held) > TRIM:
                count = len(held)
                kept = [(s, held[s]) for s in range(opened, seq + 1) if s in held]
                held.clear()
                held.update(kept)
                self.dropped += count - len(held)
        self._opened = seq
