"""Which printed faces make which die, in a d20 dice term whose rerolls replaced faces.

d20's ``MarkdownStringifier`` prints a term's dice in order (dice an explosion added last),
each die its faces oldest first (``Die.values``), joined ``, ``: a face a reroll replaced is
struck (``Literal.drop``: ``~~1~~``), the face a kept die shows is not; a die ``k``/``p``
dropped is struck whole (``~~4~~``, or ``~~1, 5~~`` when it was rerolled), its faces inside
left unstruck. So a lone struck face is either a dropped die or a face the next unstruck
face replaced, and the text alone cannot always say which: ``4d6rr1kh3 (~~2~~, ~~1~~, 5, 4,
6)`` is a dropped 2 and a 1 rerolled into 5, not a 2 rerolled into 1. Inside a dropped set
item (``~~1d6rr1 (1, 5)~~``), and in Discord's rendered text, nothing is struck at all.

``chains`` lists the readings the printing allows, keeping only those where each die's faces
are what the term's operations could make of that die on its own (``_Fits``: ``rr`` goes on
while its selector matches, ``ro`` once, ``k``/``p`` end a die's faces), and returns the
first that the term's operations reproduce over all its dice (``recorded_faces.reproduces``):
the avrae dialect decides, as d20 did. When none does (a dishonest reply), the first reading
the printing allows, for the audit to flag. The search is bounded (``_CHECKS``, ``_STEPS``):
a term too tangled for it (a set item struck whole, with ``h``/``l`` rerolls over many dice)
is read the plain way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Literal, TypeAlias

from fightlog.errors import DiceError
from fightlog.events.model import Die
from fightlog.dice.ast import DiceTerm, Op, Pick, Selector
from fightlog.dice.recorded_faces import reproduces
from fightlog.dice.replies.dialect import compile_in

Kind: TypeAlias = Literal["U", "S", "R", "D", "W"]
"""A printed item: ``U`` an unstruck face, ``S`` a struck face alone (``R``: one that shows
it was replaced, ``**~~1~~**``; ``D``: one that shows it is a dropped die, ``~~**1**~~``),
``W`` a struck run of several faces (a dropped die that was rerolled)."""
Item: TypeAlias = tuple[tuple[int, ...], Kind]
Chain: TypeAlias = tuple[tuple[int, ...], bool]
"""One die read: its faces oldest first (the last is the face it shows), and dropped."""
Cut: TypeAlias = tuple[int, bool]
"""One die read, as ``chains`` returns it: how many printed items it spans, and dropped."""

_CHECKS = 256
"""Most readings tried against the operations (each a replay of the term)."""
_STEPS = 20_000
"""Most choices and chains the search weighs before it settles for what it found."""
_BLASTS = ("!", "!1", "ra")
"""Operations that add dice (d20's ``e`` is ``!``): a die they add starts after them."""


def chains(items: Sequence[Item], count: int, explosions: int, sides: int, notation: str) -> list[Cut] | None:
    """How the term ``notation`` (avrae's, ``4d6rr1kh3``) printed as ``items`` cuts into its
    dice (``count`` rolled, then one added for each of the ``explosions`` faces marked ``!``,
    or more: d20 marks a face once however many of the term's ``e``/``ra`` exploded it): per
    die, how many items it spans and whether it is dropped. None when the printing allows no
    reading with that many dice."""
    marked = any(kind != "U" for _, kind in items)
    term = _term(notation)
    fits = _Fits(term, count)
    if term is not None:
        blasts = sum(1 for op in term.ops if op.kind in _BLASTS)
        sizes = range(count + explosions, min(count + explosions * max(1, blasts), len(items)) + 1)
        readings = (r for dice in sizes for r in _readings(items, dice, marked, fits))
        for reading in islice(readings, _CHECKS):
            if reproduces(term, _dice(reading, count, sides), marks=marked):
                return _cut(items, reading)
    first = next(_readings(items, count + explosions, marked, fits), None)
    if first is None:
        first = next(_readings(items, count + explosions, marked, _Fits(None)), None)
    return None if first is None else _cut(items, first)


def _cut(items: Sequence[Item], reading: list[Chain]) -> list[Cut]:
    out: list[Cut] = []
    pos = 0
    for faces, dropped in reading:
        start, seen = pos, 0
        while seen < len(faces):
            seen += len(items[pos][0])
            pos += 1
        out.append((pos - start, dropped))
    return out


def _dice(reading: list[Chain], count: int, sides: int) -> list[Die]:
    return [
        Die(sides=sides, face=faces[-1], kept=not dropped, rerolled=list(faces[:-1]), exploded=i >= count)
        for i, (faces, dropped) in enumerate(reading)
    ]


def _term(notation: str) -> DiceTerm | None:
    try:
        terms = compile_in(notation, "avrae").terms
    except DiceError:
        return None
    return terms[0] if len(terms) == 1 else None


class _Fits:
    """Whether one die's chain of faces can be what the term's operations make of a die on
    their own: walked through them in order (a die an explosion added from the operation
    after one that explodes), a ``k``/``p`` keeps or drops it, an ``rr`` replaces its face
    while one of its selectors matches, an ``ro`` once. Where the walk cannot tell (an
    ``h``/``l`` pick, a ``mi``/``ma``, a term that does not compile) the chain fits: the
    replay of the whole term (``reproduces``) decides."""

    __slots__ = ("ops", "count", "starts", "longest", "work")

    def __init__(self, term: DiceTerm | None, count: int = 0) -> None:
        self.ops: tuple[Op, ...] | None = None if term is None else term.ops
        self.count = count
        self.starts = [] if term is None else [t + 1 for t, op in enumerate(term.ops) if op.kind in _BLASTS]
        rerolls = [] if term is None else [op.kind for op in term.ops if op.kind in ("rr", "ro")]
        # most faces one die shows (each ro replaces one at most); None: no bound
        self.longest = None if term is None or "rr" in rerolls else 1 + len(rerolls)
        self.work = 0  # chains judged so far (_STEPS bounds the search)

    def chain(self, faces: Sequence[int], kept: bool | None, index: int) -> bool:
        """``kept``: the die is kept (True), dropped (False) or either (None, unmarked)."""
        self.work += 1
        if self.ops is None:
            return True
        starts = [0] if index < self.count else self.starts
        return any(self._walk(faces, start, 0, kept) for start in starts)

    def _walk(self, faces: Sequence[int], start: int, pos: int, kept: bool | None) -> bool:
        """From operation ``start`` with ``faces[pos]`` shown; a pick (``h``/``l``) that
        does not settle it tries both ways."""
        assert self.ops is not None
        last = len(faces) - 1
        for t in range(start, len(self.ops)):
            op = self.ops[t]
            if op.kind in _BLASTS:  # adds dice; this one's faces stay
                continue
            if op.kind in ("mi", "ma"):
                return True
            chosen = _selects(op, faces[pos])
            if op.kind in ("k", "p"):
                if chosen is None and kept is not True and pos == last:
                    return True  # the pick may drop it here
                if chosen is not None and chosen != (op.kind == "k"):  # dropped here: its faces end
                    return kept is not True and pos == last
            elif op.kind == "ro":
                if chosen is None and pos < last and self._walk(faces, t + 1, pos + 1, kept):
                    return True  # the pick may reroll it
                if chosen:
                    if pos == last:
                        return False
                    pos += 1
            elif op.kind == "rr":
                while chosen is not False:
                    if chosen is None:
                        return True
                    if pos == last:
                        return False
                    pos += 1
                    chosen = _selects(op, faces[pos])
        return kept is not False and pos == last



def _selects(op: Op, face: int) -> bool | None:
    """Whether the operation selects a die showing ``face``: None when only an ``h``/``l``
    pick among its selectors could (that depends on the other dice)."""
    sels = op.sels if op.sels is not None else (op.selector,) if op.selector is not None else ()
    if any(isinstance(sel, Selector) and sel.matches(face) for sel in sels):
        return True
    return None if any(isinstance(sel, Pick) for sel in sels) else False


def _readings(items: Sequence[Item], dice: int, marked: bool, fits: _Fits) -> Iterator[list[Chain]]:
    """Every way to cut ``items`` into ``dice`` dice as d20 prints them, in a fixed order
    (a struck face first read as replaced, then as a dropped die; unmarked, short dice
    first), depth first and without recursion (a term may print a thousand faces)."""
    end = len(items)
    path: list[Chain] = []
    stack: list[Iterator[tuple[Chain, int]]] = [_options(items, 0, marked, fits, dice, 0)]
    steps = 0
    while stack:
        steps += 1
        if steps + fits.work > _STEPS:
            return
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        chain, pos = step
        path.append(chain)
        if len(path) == dice or pos == end:
            if len(path) == dice and pos == end:
                yield list(path)
            path.pop()
            continue
        stack.append(_options(items, pos, marked, fits, dice - len(path), len(path)))


def _options(items: Sequence[Item], pos: int, marked: bool, fits: _Fits, left: int,
             index: int) -> Iterator[tuple[Chain, int]]:
    """The dice that may start at ``items[pos]`` (die ``index`` of the term, ``left`` dice
    still to read), each with where the next die starts."""
    end = len(items)
    if end - pos < left:
        return
    values, kind = items[pos]
    if not marked:  # no strikes: any run of faces may be one die
        most = end - left + 1 if fits.longest is None else min(end - left + 1, pos + fits.longest)
        for q in range(pos, most):
            if fits.work > _STEPS:
                return
            faces = tuple(f for item in items[pos : q + 1] for f in item[0])
            if fits.chain(faces, None, index):
                yield (faces, False), q + 1
        return
    if kind in ("U", "W", "D"):
        if fits.chain(values, kind == "U", index):
            yield (values, kind != "U"), pos + 1
        return
    q = pos  # S, R: the struck faces up to the next unstruck face are a kept die's, or (S) a dropped die
    while q < end and items[q][1] in ("S", "R"):
        q += 1
    if q < end and items[q][1] == "U":
        faces = tuple(items[i][0][0] for i in range(pos, q)) + items[q][0]
        if fits.chain(faces, True, index):
            yield (faces, False), q + 1
    if kind == "S" and fits.chain(values, False, index):
        yield (values, True), pos + 1
