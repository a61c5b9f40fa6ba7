"""The neutral record every transcript reader yields: one message, whatever the format."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from msgspec import Struct

Kind = Literal["say", "emote", "shout", "whisper", "system", "object"]
"""``say`` a plain message, ``emote`` an SL ``/me`` or a Discord ``*action*`` line, ``shout``
and ``whisper`` SL's, ``system`` what the viewer or Discord itself wrote (joins, pins,
"Second Life:" notices), ``object`` an SL object or HUD saying something (the log cannot
tell an object from a person: the cast's dice and objects are)."""


class EmbedField(Struct, frozen=True, kw_only=True, gc=False):
    name: str = ""
    value: str = ""


class Embed(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A Discord embed as the exporter wrote it: what a dice bot's attack card holds."""

    title: str = ""
    description: str = ""
    author: str | None = None
    footer: str | None = None
    fields: tuple[EmbedField, ...] = ()


class Message(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One message of a transcript.

    ``ref`` locates it in the source (``FILE:LINE`` for line formats, the message id for
    Discord JSON); ``line`` is the transcript line it starts on (0 when unknown). ``speaker``
    is the stable name (an SL user name, a Discord author id), ``name`` the name shown
    (display name, nickname, a webhook proxy's name), ``speaker_id`` the id when the format
    has one. ``raw`` is the message as written in the file (its lines, continuation lines
    included), ``text`` its content without stamp and name.
    """

    ref: str
    line: int = 0
    at: datetime | None = None
    speaker: str = ""
    name: str = ""
    speaker_id: str | None = None
    user: str = ""
    """The account's user name where the format gives it beside the id and the name shown
    (Discord JSON: a cast may name a speaker by any of the three)."""
    text: str = ""
    kind: Kind = "say"
    reply_to: str | None = None
    invoker: str | None = None
    """The Discord user who ran the slash command this bot message answers."""
    mentioned: tuple[tuple[str, str, str], ...] = ()
    """The Discord users the message mentions: ``(id, user name, name shown)`` (a bot's ``@Sam``)."""
    edited_at: datetime | None = None
    bot: bool = False
    embeds: tuple[Embed, ...] = ()
    attachments: tuple[str, ...] = ()
    raw: str = ""
