"""Reading what dice bots print: one reader per bot, each turning a reply into ``ReadReply``.

``read_reply(text)`` tries every bot (or the one named) and returns the first roll read, or
None when the text is no roll reply; ``read_replies`` returns every roll (an Avrae attack
embed holds a To Hit and a Damage roll, a Dice Maiden set one row per roll). Reading never
raises: what could not be read is in ``ReadReply.problems``. ``ReadReply.event()`` is the
``dice_rolled`` event (``generator="external"``, ``tool``, ``dialect``, ``origin.raw``), and
``fightlog.rules.dice.external`` re-evaluates it under its dialect. The formats each reader
knows, with their sources, are in each module and in docs/dice.md ("Reading bot replies").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fightlog.rules.dice.replies import avrae, dice_maiden, rpg_sage, sl_hud
from fightlog.rules.dice.replies.model import ReadReply

Reader = Callable[[str, "str | None"], list[ReadReply]]


@dataclass(frozen=True, slots=True)
class Bot:
    """A bot fightlog reads: its name (``tool`` in the event), the dialect its notation is
    written in, and its reader."""

    name: str
    dialect: str
    read: Reader
    medium: str = "discord"


BOTS: dict[str, Bot] = {
    avrae.BOT: Bot(avrae.BOT, avrae.DIALECT, avrae.read),
    dice_maiden.BOT: Bot(dice_maiden.BOT, dice_maiden.DIALECT, dice_maiden.read),
    rpg_sage.BOT: Bot(rpg_sage.BOT, rpg_sage.DIALECT, rpg_sage.read),
    sl_hud.BOT: Bot(sl_hud.BOT, sl_hud.DIALECT, sl_hud.read, "sl-chat"),
}
"""Every bot read, by name, in the order ``bot=None`` tries them."""

_ALIASES = {name.lower().replace(" ", "-"): name for name in BOTS} | {
    name.lower(): name for name in BOTS
}


def bot_named(name: str) -> Bot | None:
    """The bot called ``name`` (any case; ``dice-maiden`` and ``Dice Maiden`` alike)."""
    key = name.strip().lower()
    found = _ALIASES.get(key) or _ALIASES.get(key.replace(" ", "-"))
    return None if found is None else BOTS[found]


def read_replies(text: str, *, bot: str | None = None, roller: str | None = None) -> list[ReadReply]:
    """Every roll in ``text`` as the bot named reads it (``bot=None``: the first bot that
    reads any). An unknown ``bot`` name raises ``KeyError``; nothing else raises."""
    if bot is not None:
        found = bot_named(bot)
        if found is None:
            raise KeyError(bot)
        return _guarded(found, text, roller)
    for candidate in BOTS.values():
        rolls = _guarded(candidate, text, roller)
        if rolls:
            return rolls
    return []


def read_reply(text: str, *, bot: str | None = None, roller: str | None = None) -> ReadReply | None:
    """The first roll in ``text`` (see ``read_replies``), or None when there is none."""
    rolls = read_replies(text, bot=bot, roller=roller)
    return rolls[0] if rolls else None


def _guarded(bot: Bot, text: str, roller: str | None) -> list[ReadReply]:
    """A reader's answer; a reader that fails on odd text reads nothing rather than raise."""
    try:
        return bot.read(text, roller)
    except (ValueError, IndexError, OverflowError):
        return []


__all__ = ["BOTS", "Bot", "ReadReply", "bot_named", "read_replies", "read_reply"]
