"""Rolls in words: who rolled what, with the breakdown of the dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from fightlog.dice import breakdown, read_roll
from fightlog.dice.render import dropped, tail
from fightlog.errors import DiceError
from fightlog.events.model import DiceRolled
from fightlog.report.narration.lines import Scene


def _rolled(event: DiceRolled, scene: Scene) -> str:
    if event.generator == "external":
        source = f"external: {event.tool}" if event.tool else "external"
    else:
        source = "engine" + (f" #{event.index}" if event.index is not None else "")
    return f"{scene.who(event.roller)} rolls {event.purpose} [{source}]: {roll_text(event, markdown=scene.markdown)}"


def roll_text(event: DiceRolled, *, markdown: bool = False) -> str:
    """The roll's breakdown (``1d100 (57) + 15 [scope +10, racial +5] = 72``), from the
    dice engine when it reads the notation, else from the recorded faces; a recorded total
    that the dice do not add up to is shown as recorded, with what they add up to.
    Dropped dice show as ``[4]``, or ``~~4~~`` with ``markdown``.

    Remembered by what the text depends on (notation, label, total, dice, modifiers): a
    long fight repeats the same rolls, and reading one back through the dice engine costs
    more than the rest of its replay line."""
    key = (event.notation, event.label, event.total, markdown, _ROLL_KEY((event.dice, event.modifiers)))
    text = _ROLL_TEXTS.get(key)
    if text is not None:
        return text
    try:
        result = read_roll(event)
    except DiceError:
        text = _faces_text(event, markdown)
    else:
        text = breakdown(result, markdown=markdown)
        if result.total != event.total:
            text += f" (recorded total {event.total})"
    if len(_ROLL_TEXTS) >= _ROLL_TEXTS_MAX:
        _ROLL_TEXTS.clear()
    _ROLL_TEXTS[key] = text
    return text


_ROLL_KEY = msgspec.json.Encoder().encode
_ROLL_TEXTS: dict[tuple[str, str | None, int, bool, bytes], str] = {}
_ROLL_TEXTS_MAX = 1 << 11


def _faces_text(event: DiceRolled, markdown: bool) -> str:
    """A rendering from the recorded dice alone, for notation the engine does not read."""
    faces = []
    for die in event.dice:
        face = str(die.face)
        if die.rerolled:
            face = "->".join(str(f) for f in (*die.rerolled, die.face))
        if die.exploded:
            face = "+" + face
        if die.label:
            face = f"{die.label} {face}"
        faces.append(face if die.kept else dropped(face, markdown=markdown))
    shift = sum(m.value for m in event.modifiers)
    return f"{event.notation} ({', '.join(faces)})" + tail(event.modifiers, shift, event.total, event.label)


DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {DiceRolled: _rolled}
"""Event type -> its line."""
