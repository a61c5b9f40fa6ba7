"""A dice bot's or HUD's roll in a transcript as a ``dice_rolled`` event, and whose roll it is
(for ``fightlog.importing.build.Builder``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from msgspec.structs import replace

from fightlog.dice.replies import ReadReply
from fightlog.events.model import DiceRolled, Modifier, Origin
from fightlog.importing.cast import Cast, Role
from fightlog.importing.message import Message

MAX_ID: Final = 200


def ident(name: str) -> str:
    """A name as an actor id: trimmed, at most ``MAX_ID`` characters."""
    name = name.strip() or "unknown"
    return name[:MAX_ID]


def roll_event(message: Message, reply: ReadReply, purpose: str | None, role: Role, origin: Origin,
               roller: str | None, *, shown: Mapping[str, str | None], cast: Cast,
               warn: Callable[[str], None]) -> DiceRolled:
    """The reply's ``dice_rolled`` event (``ReadReply.event``), by ``roller`` (``roller_of``),
    at the message's time and origin (its raw text, its ref). A roller the cast does not name
    is warned of and recorded under the name the reply gives; a HUD that caps modifiers
    without printing it (``[[dice]] cap``) gets its cap written."""
    if roller is None:
        named = reply.roller or message.name or message.speaker or "unknown"
        if reply.author is not None and reply.roller:
            named = f"{reply.author}: {reply.roller}"  # "Kaito: Ronin rolled": the whole name
        roller = ident(named)
        shared = named in shown or sum(c.name == named for c in cast.file.combatants) > 1
        warn(f"{reply.bot}'s roll {reply.notation} is by {named!r}, a name the cast gives no one combatant: "
             f"recorded as {roller!r}, who is not in the fight" + (
                 " (a display name two players share names neither: the cast names speakers by user name or id)"
                 if shared else ""))
    event = reply.event(roller=roller, purpose=purpose)
    added = sum(m.value for m in event.modifiers)
    if role.cap is not None and added > role.cap and not reply.problems:  # the HUD caps, unprinted: said
        event = replace(event, modifiers=[*event.modifiers, Modifier(value=role.cap - added, source=f"cap +{role.cap}")])
    return replace(event, tool=role.tool or event.tool, at=message.at, origin=origin)


UNKNOWN_MEMBER = "Unknown"
"""The name DiscordChatExporter writes for a mention of a user it cannot find among the
server's members (``PlainTextMarkdownVisitor``: ``member?.DisplayName ?? ... ?? "Unknown"``)."""


def roller_of(message: Message, reply: ReadReply, named: Callable[[str | None], str | None],
              authors: Mapping[str, tuple[str | None, str]]) -> str | None:
    """The combatant who made the roll: the name the reply gives, as the cast names speakers
    (``named``); the user who ran the bot's slash command; the user the reply mentions by that
    name (a display name two players share: ``@Sam``); the author of the message the reply
    answers (``authors``: a message id -> its combatant and shown name); a name with a colon
    in it (``Nyx: the Silent``). ``@Unknown`` is DiscordChatExporter's word for a user who is
    no longer a member (left the server before the export): it names nobody, so the one user
    the message mentions, or the post it answers, is the roller."""
    roller = named(reply.roller) or named(message.invoker)
    if roller is not None:
        return roller
    shown = (reply.roller or "").strip().lstrip("@")
    if shown == UNKNOWN_MEMBER:
        shown = ""
    users = {named(user) or named(name) for user, name, seen in message.mentioned if not shown or seen == shown}
    if len(users) == 1 and None not in users:
        return users.pop()
    author, seen = authors.get(message.reply_to or "", (None, ""))
    if author is not None and (not shown or seen == shown):  # the post it answers, by the name it gives
        return author
    if reply.author is not None and reply.roller:
        return named(f"{reply.author}: {reply.roller}")
    return None
