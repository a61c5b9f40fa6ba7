"""DiscordChatExporter's JSON message, as its ``JsonMessageWriter`` writes it (only the
fields the importer reads; the rest is skipped by the decoder). Timestamps carry the
exporter's offset (local time, or ``+00:00`` with ``--utc``)."""

from __future__ import annotations

from datetime import datetime

from msgspec import Struct

from fightlog.importing.message import Embed, EmbedField, Kind, Message


class Author(Struct, frozen=True, gc=False):
    id: str
    name: str = ""
    discriminator: str = "0000"
    nickname: str | None = None
    isBot: bool = False


class Field(Struct, frozen=True, gc=False):
    name: str = ""
    value: str = ""


class Named(Struct, frozen=True, gc=False):
    name: str | None = None


class Footer(Struct, frozen=True, gc=False):
    text: str | None = None


class DiscordEmbed(Struct, frozen=True, gc=False):
    title: str = ""
    description: str = ""
    author: Named | None = None
    footer: Footer | None = None
    fields: list[Field] = []


class Attachment(Struct, frozen=True, gc=False):
    url: str = ""
    fileName: str = ""


class Reference(Struct, frozen=True, gc=False):
    messageId: str | None = None


class Interaction(Struct, frozen=True, gc=False):
    name: str = ""
    user: Author | None = None


class DiscordMessage(Struct, frozen=True, gc=False):
    id: str
    timestamp: datetime
    author: Author
    type: str = "Default"
    timestampEdited: datetime | None = None
    content: str = ""
    attachments: list[Attachment] = []
    embeds: list[DiscordEmbed] = []
    reference: Reference | None = None
    interaction: Interaction | None = None
    mentions: list[Author] = []


_SPOKEN = frozenset({"Default", "Reply", "ChatInputCommand", "ContextMenuCommand", "20", "23"})
"""Message types someone said: the exporter writes the kind's name (``MessageKind``), or its
number where its enum has none (a slash command's reply, ``20``; a context menu's, ``23``)."""


def is_proxy(author: Author) -> bool:
    """A webhook (Tupperbox, PluralKit: many characters under one author id): a bot with
    the ``0000`` discriminator. Its messages are told apart by the name they post under."""
    return author.isBot and author.discriminator == "0000"


def neutral(message: DiscordMessage, ref: str, line: int, raw: str) -> Message:
    """The exporter's message as a ``Message``: the speaker is the author id (a proxy's
    name for a webhook), the shown name the nickname."""
    author = message.author
    kind: Kind = "say" if message.type in _SPOKEN else "system"
    content = message.content
    if kind == "say" and len(content) > 2 and content[0] in "*_" and content[-1] == content[0] and content[1] != content[0]:
        kind = "emote"
    interaction = message.interaction
    return Message(
        ref=ref,
        line=line,
        at=message.timestamp,
        speaker=author.name if is_proxy(author) else author.id,
        name=author.nickname or author.name,
        speaker_id=author.id,
        user=author.name,
        text=content,
        kind=kind,
        reply_to=message.reference.messageId if message.reference is not None else None,
        invoker=interaction.user.id if interaction is not None and interaction.user is not None else None,
        mentioned=tuple([(m.id, m.name, m.nickname or m.name) for m in message.mentions]) if message.mentions else (),
        edited_at=message.timestampEdited,
        bot=author.isBot,
        embeds=tuple([_embed(e) for e in message.embeds]) if message.embeds else (),
        attachments=tuple([a.url or a.fileName for a in message.attachments]) if message.attachments else (),
        raw=raw,
    )


def _embed(embed: DiscordEmbed) -> Embed:
    return Embed(
        title=embed.title,
        description=embed.description,
        author=embed.author.name if embed.author is not None else None,
        footer=embed.footer.text if embed.footer is not None else None,
        fields=tuple(EmbedField(name=f.name, value=f.value) for f in embed.fields),
    )
