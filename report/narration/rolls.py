"""Rolls in words: who rolled what, with the breakdown of the dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from fightlog.dice import read_roll
from fightlog.dice.render import dice_part, dropped, tail
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
    that the dice do not add up to is shown as recorded, with what they add up to; a roll
    read only in part from a bot's reply (``unread``) says what was not read instead.
    Dropped dice show as ``[4]``, or ``~~4~~`` with ``markdown``.

    The dice part (``1d100 (57)``) and the value it adds up to are remembered by what they
    depend on (notation and dice): a long fight repeats the same dice under many different
    modifiers, and reading dice back through the dice engine costs more than the rest of
    the replay line. The modifiers, total and label that follow are written each time."""
    key = (event.notation, markdown, _DICE_KEY(event.dice))
    known = _DICE_TEXTS.get(key)
    if known is None:
        known = _dice_text(event, markdown)
        if len(_DICE_TEXTS) >= _DICE_TEXTS_MAX:
            _DICE_TEXTS.clear()
        _DICE_TEXTS[key] = known
    dice, value = known
    if value is None:  # notation the engine does not read: the recorded faces
        text = _faces_text(event, markdown)
    else:
        shift = sum(m.value for m in event.modifiers)
        text = dice + tail(event.modifiers, shift, value + shift, event.label)
        if value + shift != event.total and event.unread is None:
            text += f" (recorded total {event.total})"
    if event.unread is not None:  # the recorded total is no bot's: say what was not read
        text += f" (read in part from the reply: {event.unread})"
    return text


def _dice_text(event: DiceRolled, markdown: bool) -> tuple[str, int | None]:
    """The dice part of the breakdown and the value the dice add up to (``None``: the
    notation does not read, or the dice do not fit it)."""
    try:
        result = read_roll(event)
    except DiceError:
        return "", None
    return dice_part(result, markdown=markdown), result.value


_DICE_KEY = msgspec.json.Encoder().encode
_DICE_TEXTS: dict[tuple[str, bool, bytes], tuple[str, int | None]] = {}
_DICE_TEXTS_MAX = 1 << 11


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
