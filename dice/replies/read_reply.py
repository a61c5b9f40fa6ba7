"""What a bot's reply says: ``ReadReply``, and the ``dice_rolled`` event it becomes.

A reader turns a reply's text into a ``ReadReply`` as far as the text goes: the bot, its
dialect, the notation as the bot printed it, every die (``fightlog.events.Die``: face,
kept or dropped, the faces it replaced, added by an explosion), labelled modifiers, the
printed total, the roller, speaker and label the reply names, and ``problems``: what could not be read
(a truncated, edited or malformed reply). Reading never raises and never fixes anything: the
audit (``fightlog.dice.external``) says what does not add up.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct
from msgspec.structs import replace

from fightlog.events.model import DiceRolled, Die, Modifier, Origin


def _marks() -> Callable[[ReadReply], list[Die]]:
    """``external.dialect_marks`` (imported when first needed: it imports this module)."""
    from fightlog.dice.external import dialect_marks

    return dialect_marks


class ReadReply(Struct, frozen=True, kw_only=True, gc=False):
    """One roll read from a bot's reply.

    ``notation`` is the expression in the bot's ``dialect`` (numbers it adds are part of it);
    ``modifiers`` are the named bonuses an SL HUD prints apart (``[10 scope]``). ``dice``
    are in the order the bot drew them when ``ordered`` (Dice Maiden and RPG Sage print them
    sorted: ``ordered`` is false) and carry the kept/dropped marks the reply prints when
    ``marked`` (Dice Maiden marks none: the audit applies the dialect's). ``total`` is the
    printed total (None if the reply shows none); ``purpose`` is what the reply says the roll
    was for (Avrae's To Hit is ``attack``, its Damage ``damage``), else None; ``author`` is
    the speaker the text names when it is not the bot (an SL HUD object).
    """

    bot: str
    dialect: str
    notation: str
    dice: tuple[Die, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    total: int | None = None
    roller: str | None = None
    author: str | None = None
    label: str | None = None
    purpose: str | None = None
    problems: tuple[str, ...] = ()
    """What could not be read (a hidden face, words the reader does not know, fewer faces than
    dice): the event says so (``unread``), and its dice and total are not judged."""
    notes: tuple[str, ...] = ()
    """What the format does not show that the re-evaluation allows for (Dice Maiden's
    replaced faces): said, and the roll judged all the same."""
    mismatches: tuple[tuple[str, str], ...] = ()
    """(code, message): what the reply's own text contradicts (a face ``mi`` forced wrongly,
    a pass/fail its total does not give, a set's total its rolls do not sum to): the audit
    cannot see these in the event, so ``external.check_reply`` names them."""
    struck: tuple[int, ...] = ()
    """The dice terms (0-based) the reply strikes through whole: a set's dropped items."""
    outcome: str | None = None
    """The pass/fail the reply prints for a roll with a test (RPG Sage's grade:
    ``success``, ``failure``, ``critical-success``, ``critical-failure``), else None."""
    marked: bool = True
    ordered: bool = True
    medium: str = "discord"
    raw: str = ""

    @property
    def clean(self) -> bool:
        """Read whole: no problems."""
        return not self.problems

    def event(
        self,
        *,
        roller: str | None = None,
        purpose: str | None = None,
        ref: str | None = None,
        author: str | None = None,
        for_seq: int | None = None,
    ) -> DiceRolled:
        """The ``dice_rolled`` event for this roll (``seq``/``prev`` left for the store).

        ``roller`` defaults to the one the reply names (else ``unknown``); the event's total is
        the printed one (the sum the dice give when none is printed); ``dialect`` is left out
        for fightlog's own notation. Unmarked dice take the
        dialect's kept/dropped marks, so the recorded total can be checked against them. A reply
        read only in part says so in ``unread`` (its ``problems``): the event is not checked.
        """
        dice = list(self.dice) if self.marked else _marks()(self)
        total = self.total
        if total is None:
            total = sum(d.face for d in dice if d.kept) + sum(m.value for m in self.modifiers)
        return DiceRolled(
            origin=Origin(medium=self.medium, ref=ref, author=author or self.author or self.bot, raw=self.raw),
            roller=(roller or self.roller or "unknown")[:200],
            notation=self.notation,
            dice=dice,
            total=total,
            purpose=purpose or self.purpose or "other",
            modifiers=list(self.modifiers),
            generator="external",
            tool=self.bot,
            dialect=None if self.dialect == "fightlog" else self.dialect,
            for_seq=for_seq,
            label=self.label,
            unread="; ".join(self.problems) or None,
        )


def summed(rolls: list[ReadReply], printed: int, line: str) -> ReadReply:
    """The last of ``rolls`` with a ``roll-sum`` mismatch when ``printed`` (the reply's
    ``line``: ``43 total.``, ``Results Total``) is not the sum of their printed totals."""
    last = rolls[-1]
    totals = [r.total for r in rolls]
    if any(t is None for t in totals):
        return last
    added = sum(t for t in totals if t is not None)
    if added == printed:
        return last
    message = (f"the reply's {line} is {printed} but its {len(rolls)} rolls' totals "
               f"({', '.join(str(t) for t in totals)}) sum to {added}")
    return replace(last, mismatches=(*last.mismatches, ("roll-sum", message)))
