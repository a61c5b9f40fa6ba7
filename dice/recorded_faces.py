"""An external roll's recorded faces fed back to the dice engine (``dice/external.py``):
``draws`` puts them in the order the engine draws them, ``Replay`` serves them as a
``FaceStream`` (``Short`` when the dialect draws more than were recorded), ``drawn`` counts
what a result drew.

Draw order, for a term of fightlog's own notation: the recorded dice of the term give its
first faces (a rerolled die's first face is the oldest it replaced), then its rerolls die by
die and the dice its explosions added, in the order of the term's operations. A dialect's
term (``DiceTerm.classic`` false: avrae's ``rr``/``ro``/``ra``/``e``, roll20's rerolls) is
replayed by its own operations (``operations.apply_ops``) on the recorded dice, each die
served its own recorded faces (``_Traced``): whatever order the engine visits dice in (d20's
``rr`` rerolls every selected die, then selects again, so one die's rerolls interleave with
another's), each die gets its own faces, and the order they were asked for is the draw order.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.events.model import DiceRolled, Die
from fightlog.dice.ast import DiceTerm
from fightlog.dice.expression import Expression
from fightlog.dice.operations import TermDice, apply_ops
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
        if not hidden and not term.classic and not any(op.kind in _OWN_DRAWS for op in term.ops):
            out.extend(traced(term, group))
            continue
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


_OWN_DRAWS = frozenset({"!!", "!p"})
"""Operations whose extra draws are no die's own face (roll20's compounding and penetrating
dice): their terms keep the fixed order above."""


class _Diverged(Exception):
    """The operations ask a die for a face the roll did not record."""


class _Count:
    """The engine's stream as ``TermDice`` sees it: only ``drawn`` (its limit check)."""

    __slots__ = ("drawn",)

    def __init__(self) -> None:
        self.drawn = 0

    def draw(self, sides: int) -> int:  # never called: ``_Traced`` serves every face
        raise _Diverged

    def draw_many(self, sides: int, count: int) -> list[int]:
        raise _Diverged


class _Traced(TermDice):
    """A term's recorded dice served to its operations die by die: a new die (one of the
    term's, or one an explosion adds) takes the next recorded die's first face, a reroll of
    die ``i`` the next face of die ``i``'s chain (its replaced faces, oldest first, then the
    face it shows). ``order`` collects the raw draws in the order asked."""

    __slots__ = ("chains", "used", "fresh", "order")

    def __init__(self, term: DiceTerm, group: Sequence[Die]) -> None:
        self.chains = [[*d.rerolled, d.face] for d in group]
        self.used = [0] * len(group)
        self.fresh = 0
        self.order: list[int] = []
        super().__init__(term, _Count())

    def take(self, i: int) -> int:
        if i >= len(self.chains) or self.used[i] >= len(self.chains[i]):
            raise _Diverged
        face = self.chains[i][self.used[i]]
        self.used[i] += 1
        self.order.append(self.term.raw(face))
        self.stream.drawn += 1
        return face

    def draw(self) -> int:
        i = self.fresh
        self.fresh = i + 1
        return self.take(i)

    def reroll(self, i: int) -> None:
        if self.history is None:
            self.history = [[] for _ in self.faces]
        self.history[i].append(self.faces[i])
        self.faces[i] = self.take(i)

    def leftover(self) -> list[int]:
        """The recorded faces not asked for, die by die."""
        raw = self.term.raw
        return [raw(f) for chain, used in zip(self.chains, self.used) for f in chain[used:]]


def traced(term: DiceTerm, group: Sequence[Die]) -> list[int]:
    """A dialect term's recorded faces, as raw draws, in the order its operations draw them
    (see the module docstring). Where the operations ask a die for a face the roll lacks
    (a reroll or explosion the roll did not make), the faces not yet asked for follow in
    recorded order; faces never asked for (a reroll the dialect does not make) come last:
    the replay then shows the difference."""
    dice = _Traced(term, group)  # group_dice gave the term its dice: the first faces are there
    try:
        apply_ops(dice)
    except _Diverged:
        pass
    return dice.order + dice.leftover()


def reproduces(term: DiceTerm, group: Sequence[Die], marks: bool = True) -> bool:
    """Whether a dialect term's operations, served these dice's recorded faces die by die,
    make exactly these dice: every recorded face asked for, none more, the same faces shown
    and (``marks``) the same dice kept and dropped. ``d20_chains`` settles with it which
    printed faces make which die."""
    try:
        dice = _Traced(term, group)
        apply_ops(dice)
    except _Diverged:
        return False
    if dice.fresh != len(group) or any(u != len(c) for u, c in zip(dice.used, dice.chains)):
        return False
    if dice.faces != [d.face for d in group]:
        return False
    return not marks or dice.kept == [d.kept for d in group]


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
