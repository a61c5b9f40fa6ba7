"""Dice rolls read out of a message: the one place the importer asks "is this a roll?".

The reading is the bot-reply readers' (``fightlog.dice.replies``: Avrae, Dice Maiden,
RPG Sage, SL HUD phrasings): ``read_rolls(message, bot)`` hands them the message's text and
its embeds as the bot wrote them (an Avrae attack embed's title and its To Hit and Damage
lines), and gives back each roll read. A roll whose printed arithmetic does not add up is
kept as written: the audit re-evaluates it under the bot's dialect.

SL HUDs often say what a roll is for (``Alice Vance rolls 1d100 for attack: 64``): the HUD
reader takes it as the roll's purpose.
"""

from __future__ import annotations

import re
from typing import Final

from fightlog.importing.message import Message
from fightlog.dice.replies import BOTS, ReadReply, bot_named, read_replies

_LABELLED: Final = re.compile(r"\s*(?:\*\*)?[A-Za-z][A-Za-z ()0-9!]*(?:\*\*)?:")


def bot_name(name: str) -> str | None:
    """The reader's name for a bot a cast file names (``avrae``, ``dice-maiden``, ``sl-hud``,
    ``rpg-sage``, any case), or ``None``."""
    found = bot_named(name) or bot_named(name.replace("-", " "))
    return None if found is None else found.name


def known_bots() -> list[str]:
    return [name.lower().replace(" ", "-") for name in BOTS]


def read_rolls(message: Message, bot: str) -> list[tuple[ReadReply, str | None]]:
    """Each roll ``message`` shows as ``bot`` writes it, with the purpose a HUD line gave
    (``None``: the reply's own, if any)."""
    if bot == "SL HUD":
        return [(reply, reply.purpose) for reply in read_replies(_said(message), bot=bot)]
    return [(reply, None) for reply in read_replies(_text(message), bot=bot)]


def _said(message: Message) -> str:
    """What a HUD said: an emote's text less the object's own name, which the viewer shows
    first (``RoE HUD Alice Vance rolls ...``: Alice rolls), unless the HUD is the one said to
    roll (``RoE HUD rolls ...``)."""
    text, name = message.text, message.name
    if message.kind == "emote" and name and text.startswith(name + " "):
        rest = text[len(name) + 1:]
        if not rest.startswith(("rolls ", "rolled ")):
            return rest
    return text


def _text(message: Message) -> str:
    """The message as the bot wrote it: its content, then each embed's title, description
    and fields (``**Name**: value`` unless the value carries its own labels)."""
    parts = [message.text] if message.text else []
    for embed in message.embeds:
        parts += [x for x in (embed.title, embed.description) if x]
        for field in embed.fields:
            parts.append(field.value if _LABELLED.match(field.value) else f"**{field.name}**: {field.value}")
    return "\n".join(parts)
