"""An external roll's recorded faces fed back to the dice engine (``dice/external.py``):
``draws`` puts them in the order the engine draws them, ``Replay`` serves them as a
``FaceStream`` (``Short`` when the dialect draws more than were recorded), ``drawn`` counts
what a result drew.

Draw order: the recorded dice of a term give its first faces (a rerolled die's first face is
the oldest it replaced), then its rerolls die by die and the dice its explosions added, in the
order of the term's operations.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import DiceRolled, Die
from fightlog.dice.ast import DiceTerm
from fightlog.dice.expression import Expression
from fightlog.dice.result import RollResult

REROLL_KINDS = frozenset({"ro", "rr"})
EXPLODE_KINDS = frozenset({"!", "!1", "!p", "ra"})


class Short(Exception):
    """The dialect draws more faces than the roll recorded."""


class Replay:
    """A ``FaceStream`` serving recorded faces in order; past the end it raises ``Short``,
    or (``pad``) serves ``0``, a face that is no die's, so the roll can finish for comparing."""

    __slots__ = ("drawn", "faces", "pad")

    def __init__(self, faces: list[int], pad: bool = False) -> None:
        self.faces = faces
        self.drawn = 0
        self.pad = pad

    def draw(self, sides: int) -> int:
        i = self.drawn
        self.drawn = i + 1
        if i < len(self.faces):
            return self.faces[i]
        if self.pad:
            return 0
        raise Short

    def draw_many(self, sides: int, count: int) -> list[int]:
        i = self.drawn
        end = i + count
        self.drawn = end
        if end <= len(self.faces):
            return self.faces[i:end]
        if self.pad:
            return self.faces[i:] + [0] * (end - max(i, len(self.faces)))
        raise Short


def hidden_rerolls(event: DiceRolled) -> bool:
    """Whether the roll comes from a bot that prints only a rerolled die's final face (Dice
    Maiden) and so records no replaced faces."""
    if event.tool is None or any(d.rerolled for d in event.dice):
        return False
    from fightlog.dice.replies import bot_named

    bot = bot_named(event.tool)
    return bot is not None and not bot.shows_rerolls


def draws(expr: Expression, groups: list[list[Die]], hidden: bool = False) -> list[int]:
    """The recorded faces, as the stream's raw draws, in the order the engine draws them
    (see the module docstring). ``hidden``: the faces rerolls replaced are not recorded; a
    die the dialect rerolls is taken to have rerolled into the face it shows (so a reroll
    once cannot be told from none, and a face an endless reroll would reroll again shows)."""
    out: list[int] = []
    for term, group in zip(expr.terms, groups):
        start = len(out)
        base = group[: term.count]
        added = group[term.count :]
        out.extend(d.rerolled[0] if d.rerolled else d.face for d in base)
        explode_first = False
        for op in term.ops:
            if op.kind in REROLL_KINDS:
                break
            if op.kind in EXPLODE_KINDS:
                explode_first = True
                break
        if explode_first:
            out.extend(d.rerolled[0] if d.rerolled else d.face for d in added)
            _chains(base, out)
            _chains(added, out)
        else:
            if hidden:
                _again(term, base, out)
            else:
                _chains(base, out)
            out.extend(d.rerolled[0] if d.rerolled else d.face for d in added)
            _chains(added, out)
        if term.faces != "plain":
            out[start:] = [term.raw(f) for f in out[start:]]
    return out


def _again(term: DiceTerm, dice: Sequence[Die], out: list[int]) -> None:
    """For hidden rerolls: each die the term's first reroll selects draws its own face again."""
    for op in term.ops:
        if op.kind in REROLL_KINDS:
            if op.selector is not None:
                test = op.selector.predicate()
                out.extend(d.face for d in dice if test(d.face))
            return


def _chains(dice: Sequence[Die], out: list[int]) -> None:
    for d in dice:
        if d.rerolled:
            out.extend(d.rerolled[1:])
            out.append(d.face)


def drawn(result: RollResult) -> int:
    return sum(len(t.faces) + sum(len(r) for r in (t.rerolled or ())) for t in result.terms)
