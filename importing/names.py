"""How a transcript names people, for the importer (``fightlog.importing.build``): the
names a post's text may give a combatant by, the names combatants post under, and the
in-character part of a post."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from fightlog.importing.cast import Cast
from fightlog.importing.message import Message

AUTHORS_KEPT: Final = 100_000
"""Names and Discord messages remembered at most (the oldest forgotten first)."""

_OOC: Final = re.compile(r"^\s*(\(\(|\[\[|//|OOC\b|!(?:r|rr|roll|a|attack|cast|check|save|init|i|sage)\b"
                         r"|/r(?:oll)?\b)", re.IGNORECASE)
"""Out of character as a whole: an aside left open, a rules question, or a dice bot's
command (Avrae's ``!r 1d20+7`` and ``!attack``, Dice Maiden's ``!roll``, a typed ``/roll``),
which Avrae leaves in the channel when it may not delete it: the bot's reply is the roll."""
_ASIDE: Final = re.compile(r"^\s*(?:\(\(.*?\)\)|\[\[.*?\]\])", re.DOTALL)
"""An out-of-character aside opening a post (``((sorry, lag))``), closed."""


def in_character_text(text: str) -> str | None:
    """The in-character part of a post: the text after the out-of-character asides that
    open it (``((lag)) /me fires``: ``/me fires``), or ``None`` when nothing is left or the
    post is out of character as a whole (``((brb``, ``// rules question``, ``OOC: ...``,
    ``!r 1d20+7``)."""
    while (aside := _ASIDE.match(text)) is not None:
        text = text[aside.end():]
    if not text.strip() or _OOC.match(text):
        return None
    return text


def shown_names(messages: Iterable[Message], cast: Cast) -> dict[str, str | None]:
    """Each name the cast's combatants post under in ``messages`` (an SL display name such
    as ``Kaito: Ronin``, a Discord nickname) -> the combatant, or ``None`` when two post under
    it: a HUD's roll by that name is theirs (a first pass over the transcript, so a name
    shared later in it is never given to the first who used it)."""
    shown: dict[str, str | None] = {}
    for message in messages:
        name = message.name
        if not name or message.kind == "system" or (len(shown) >= AUTHORS_KEPT and name not in shown):
            continue
        role = cast.role(message)
        if role.kind == "combatant" and role.actor is not None:
            shown[name] = role.actor if shown.get(name, role.actor) == role.actor else None
    return shown


def target_names(cast: Cast) -> list[tuple[str, str]]:
    """``(lower-case name, actor)`` for every way the cast names a combatant."""
    names: list[tuple[str, str]] = []
    for entry in cast.file.combatants:
        for name in (entry.id, entry.name, *(entry.name.split() if entry.name else ()), *entry.speakers):
            if name and len(name) > 1:
                names.append((name.lower(), entry.id))
    return names


def name_pattern(names: list[tuple[str, str]]) -> re.Pattern[str] | None:
    """One pattern finding any of ``names`` as a whole word, longer names first."""
    if not names:
        return None
    spelled = sorted({name for name, _ in names}, key=lambda n: (-len(n), n))
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in spelled) + r")(?!\w)")
