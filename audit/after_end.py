"""Events written after the scene's end (``scene.after-end``), for every ruleset.

A ``scene_ended`` closes the log: the engine refuses to write after it, and a log that goes
on anyway (a scribe's tool that did not refuse, a hand edit) holds turns, rolls and damage
of a fight that was over, some of it rolled from a seed already public (``dice.foreseeable``
says so of the engine rolls). Only the GM's rulings may follow an end. The audit names the
first such event and counts the rest: one finding, at the event a GM looks at first.

The fold's hooks watch for them only once a ``scene_ended`` has been folded (``Auditor``,
``fightlog.audit.one_pass``), so a log that ends at its end costs nothing more.
"""

from __future__ import annotations

from typing import Final

from fightlog.events.model import AnyEvent, SceneEnded, kind_of

CODE: Final = "scene.after-end"


class AfterEnd:
    """The end a log's events came after, the first of them and how many."""

    def __init__(self) -> None:
        self.end: SceneEnded | None = None
        self.first: AnyEvent | None = None
        self.count = 0

    def ended(self, event: SceneEnded) -> bool:
        """Note the scene's end; whether it is the first (the caller then watches what follows)."""
        if self.end is not None:
            return False
        self.end = event
        return True

    def seen(self, event: AnyEvent) -> None:
        """An event folded after the end (a ruling is never passed here)."""
        if self.first is None:
            self.first = event
        self.count += 1

    def message(self) -> str | None:
        """The finding's sentence, or ``None`` when nothing came after the end."""
        first, end = self.first, self.end
        if first is None or end is None:
            return None
        more = self.count - 1
        rest = f" (and {more} more event{'' if more == 1 else 's'} after it)" if more else ""
        return (f"this {kind_of(first)} was written after the scene ended at seq {end.seq}{rest}: the fight was "
                "over, and only a GM's ruling may follow its end")
