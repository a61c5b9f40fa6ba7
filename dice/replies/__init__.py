"""Reading what dice bots print: one reader per bot, each turning a reply into ``ReadReply``.

``read_reply(text)`` tries every bot (or the one named) and returns the first roll read, or
None when the text is no roll reply; ``read_replies`` returns every roll (an Avrae attack
embed holds a To Hit and a Damage roll, a Dice Maiden set one row per roll). Reading never
raises: what could not be read is in ``ReadReply.problems``. ``ReadReply.event()`` is the
``dice_rolled`` event (``generator="external"``, ``tool``, ``dialect``, ``origin.raw``), and
``fightlog.dice.external`` re-evaluates it under its dialect. The formats each reader
knows, with their sources, are in each module and in docs/dice.md ("Reading bot replies").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from msgspec.structs import replace

from fightlog.errors import DiceError, DiceLimitError
from fightlog.dice.limits import MAX_DICE, check_rolls
from fightlog.dice.replies import avrae, dice_maiden, rpg_sage, sl_hud
from fightlog.dice.replies.dialect import compile_in
from fightlog.dice.replies.read_reply import ReadReply

Reader = Callable[[str, "str | None"], list[ReadReply]]


@dataclass(frozen=True, slots=True)
class Bot:
    """A bot fightlog reads: its name (``tool`` in the event), the dialect its notation is
    written in, and its reader."""

    name: str
    dialect: str
    read: Reader
    medium: str = "discord"
    marks: tuple[str, ...] = ()
    """Strings one of which every reply of the bot holds: a text with none is not read."""
    shows_rerolls: bool = True
    """Whether its replies print the faces a reroll replaced (Dice Maiden's do not: the audit
    then takes a rerolled die to show the face it rerolled into)."""
    _marked: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.marks:
            object.__setattr__(self, "_marked", re.compile("|".join(map(re.escape, self.marks))))

    def reads(self, text: str, roller: str | None) -> list[ReadReply]:
        """Every roll this bot's reader finds; nothing when the text cannot be its reply, or
        when the reader fails on odd text (reading never raises)."""
        marked = self._marked
        if marked is not None and marked.search(text) is None:
            return []
        try:
            rolls = self.read(text, roller)
        except (ValueError, IndexError, OverflowError):
            return []
        for r in rolls:
            if len(r.dice) > MAX_DICE:
                return [_capped(x) if len(x.dice) > MAX_DICE else x for x in rolls]
        return rolls


def _capped(reply: ReadReply) -> ReadReply:
    """A reply showing more dice than the dice engine rolls (``limits.MAX_DICE``): its first
    ``MAX_DICE`` dice, flagged (one event stays well under the log's line limit); and named
    (``roll-limit``) when its bot never rolls that many dice in one roll (avrae's d20)."""
    problem = (f"{len(reply.dice)} dice shown, over the {MAX_DICE} the dice engine rolls: "
               f"only the first {MAX_DICE} are read")
    over = _over_bot_limit(reply)
    return replace(reply, dice=reply.dice[:MAX_DICE], problems=(*reply.problems, problem),
                   mismatches=(*reply.mismatches, *over))


def _over_bot_limit(reply: ReadReply) -> tuple[tuple[str, str], ...]:
    """``roll-limit`` when the reply shows more dice rolled than its bot rolls in one roll."""
    try:
        bot = compile_in(reply.notation, reply.dialect).limits
        check_rolls(reply.notation, sum(1 + len(d.rerolled) for d in reply.dice), bot)
    except DiceLimitError as exc:
        return (("roll-limit", f"over the {reply.dialect} dialect's limits: {exc}"),)
    except DiceError:
        return ()
    return ()


BOTS: dict[str, Bot] = {
    avrae.BOT: Bot(avrae.BOT, avrae.DIALECT, avrae.read, marks=avrae.MARKS),
    dice_maiden.BOT: Bot(dice_maiden.BOT, dice_maiden.DIALECT, dice_maiden.read, marks=("Request:",),
                         shows_rerolls=False),
    rpg_sage.BOT: Bot(rpg_sage.BOT, rpg_sage.DIALECT, rpg_sage.read, marks=("\u27f5", "<-")),
    sl_hud.BOT: Bot(sl_hud.BOT, sl_hud.DIALECT, sl_hud.read, "sl-chat", marks=(" roll",)),
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
        return found.reads(text, roller)
    for candidate in BOTS.values():
        rolls = candidate.reads(text, roller)
        if rolls:
            return rolls
    return []


def read_reply(text: str, *, bot: str | None = None, roller: str | None = None) -> ReadReply | None:
    """The first roll in ``text`` (see ``read_replies``), or None when there is none."""
    rolls = read_replies(text, bot=bot, roller=roller)
    return rolls[0] if rolls else None


__all__ = ["BOTS", "Bot", "ReadReply", "bot_named", "read_replies", "read_reply"]
