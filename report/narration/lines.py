"""What narration is made of: the lines of a replay, and what describing one event may look at.

Nothing here reads files: ``Lookup`` (``seq -> event``) is how a ruling's target is described,
and is given by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from fightlog.events.model import AnyEvent
from fightlog.reducers.state import EMPTY, SceneState

Lookup = Callable[[int], AnyEvent | None]
"""``seq -> the event recorded there`` (``None`` when it cannot be found)."""

Namer = Callable[[str | None], str]
"""``actor -> display name``."""


class Line(NamedTuple):
    """One line of a replay: ``seq`` for an event line (``None`` for a change line) and its
    nesting: 0 outside rounds, 1 inside a round, 2 inside a turn (change lines one deeper)."""

    seq: int | None
    depth: int
    text: str


class Scene(NamedTuple):
    """What describing one event may look at: how to name combatants, the states around the
    event, the log's other events (to name a ruling's target), and whether rolls are
    rendered in Markdown (dropped dice struck through, for Discord) or plain text."""

    who: Callable[[str | None], str]
    before: SceneState = EMPTY
    after: SceneState = EMPTY
    lookup: Lookup | None = None
    markdown: bool = False


def namer(*states: SceneState) -> Callable[[str | None], str]:
    """``actor -> display name``, from the first of ``states`` that knows the actor (its id
    when none does)."""

    def who(actor: str | None) -> str:
        if actor is None:
            return "someone"
        for state in states:
            known = state.combatants.get(actor)
            if known is not None:
                return known.name
        return actor

    return who


def one_line(text: str) -> str:
    """``text`` on one line: line breaks (a multi-line post) become `` / ``."""
    if "\n" not in text and "\r" not in text:
        return text
    return " / ".join(part.strip() for part in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


def kind_of(event: AnyEvent) -> str:
    """The event's kind tag (``dice_rolled``...)."""
    return str(type(event).__struct_config__.tag)
