"""The dice operations the dialects add, applied to one term's dice in written order.

``evaluate.roll_term`` rolls fightlog's own operations inline; a term read from another
dialect (``DiceTerm.classic`` is false) is rolled here instead, on the same face stream and
with the same limits. Faces are the faces the dice *show* (``DiceTerm.show``: a dF shows
-1..1, avrae's ``d%`` 0..90); the stream still draws ``1..sides``.

Draw order (part of the provably fair scheme, as for fightlog's own operations): the term's
dice in order, then each operation in written order; inside one operation, selected dice are
visited by position (d20 visits them in an unspecified order; the multiset of faces drawn
is the same), an added die is appended and later passes see it.
"""

from __future__ import annotations

from fightlog.dice import limits
from fightlog.dice.ast import DiceTerm, Op, Pick, Sel, Selector
from fightlog.dice.evaluate import FaceStream, keep_or_drop
from fightlog.dice.result import TermRoll


class TermDice:
    """One term's dice while its operations run (``recorded_faces`` subclasses it to serve
    recorded faces die by die: a new die takes ``draw()``, a reroll of die ``i`` ``reroll(i)``)."""

    __slots__ = ("term", "stream", "faces", "kept", "history", "depth", "extra")

    def __init__(self, term: DiceTerm, stream: FaceStream) -> None:
        self.term = term
        self.stream = stream
        self.faces = [self.draw() for _ in range(term.count)]
        self.kept = [True] * len(self.faces)
        self.history: list[list[int]] | None = None
        self.depth = [0] * len(self.faces)  # explosion chain length per die

    def draw(self) -> int:
        return self.term.show(self.stream.draw(self.term.sides))

    def room(self) -> bool:
        return self.stream.drawn < limits.MAX_DRAWS

    def add(self, face: int, parent: int) -> None:
        self.faces.append(face)
        self.kept.append(True)
        self.depth.append(self.depth[parent] + 1)
        if self.history is not None:
            self.history.append([])

    def reroll(self, i: int) -> None:
        if self.history is None:
            self.history = [[] for _ in self.faces]
        self.history[i].append(self.faces[i])
        self.faces[i] = self.draw()


def roll_extended(term: DiceTerm, stream: FaceStream) -> TermRoll:
    """Roll a dialect term: its dice, its operations in order, then its value."""
    dice = TermDice(term, stream)
    apply_ops(dice)
    faces, kept = dice.faces, dice.kept
    value = term_value(term, faces, kept)
    history = dice.history
    return TermRoll(
        tuple(faces),
        value,
        None if all(kept) else tuple(kept),
        None if history is None else tuple(tuple(h) for h in history),
    )


def apply_ops(dice: TermDice) -> None:
    """The term's operations on its dice, in written order."""
    for op in dice.term.ops:
        _APPLY[op.kind](dice, op)


def term_value(term: DiceTerm, faces: list[int] | tuple[int, ...], kept: list[bool] | tuple[bool, ...]) -> int:
    """Sum of kept faces; or successes (minus failures, if the term counts them)."""
    if term.target is None:
        return sum(f for f, k in zip(faces, kept) if k)
    hit = term.target.predicate()
    value = sum(1 for f, k in zip(faces, kept) if k and hit(f))
    if term.failure is not None:
        miss = term.failure.predicate()
        value -= sum(1 for f, k in zip(faces, kept) if k and miss(f))
    return value


def select(sels: tuple[Sel, ...], values: list[int], kept: list[bool], most: int | None = None) -> list[int]:
    """avrae/d20's selection: positions of kept values matching any selector (its union), in
    the order d20's first selector lists them; ``most`` caps how many (``ra``)."""
    out: list[int] = []
    chosen: set[int] = set()
    for sel in sels:
        room = None if most is None else most - len(out)
        if room == 0:
            break
        live = [i for i, k in enumerate(kept) if k]
        if isinstance(sel, Pick):
            ordered = sorted(live, key=lambda i: values[i], reverse=sel.which == "h")
            batch = ordered[: sel.count]
        else:
            test = sel.predicate()
            batch = [i for i in live if test(values[i])]
        for i in batch[:room] if room is not None else batch:
            if i not in chosen:
                chosen.add(i)
                out.append(i)
    return out


def _matching(dice: TermDice, op: Op) -> list[int]:
    """Kept dice an operation applies to, by position."""
    if op.sels is not None:
        return sorted(select(op.sels, dice.faces, dice.kept))
    assert op.selector is not None
    test = op.selector.predicate()
    return [i for i, f in enumerate(dice.faces) if dice.kept[i] and test(f)]


def _keep(dice: TermDice, op: Op) -> None:
    if op.sels is None:
        keep_or_drop(op.kind, op.amount, dice.faces, dice.kept)
        return
    chosen = set(select(op.sels, dice.faces, dice.kept))
    for i, k in enumerate(dice.kept):
        if k and (i not in chosen) == (op.kind == "k"):
            dice.kept[i] = False


def _bound(dice: TermDice, op: Op) -> None:
    bound = op.amount
    for i, face in enumerate(dice.faces):
        if dice.kept[i] and (face < bound if op.kind == "mi" else face > bound):
            dice.faces[i] = bound


def _reroll(dice: TermDice, op: Op) -> None:
    if op.kind == "ro" or op.sels is None:
        chain = 1 if op.kind == "ro" else limits.MAX_CHAIN
        assert op.selector is not None or op.sels is not None
        for i in _matching(dice, op):
            for _ in range(chain):
                if not dice.room():
                    return
                dice.reroll(i)
                if op.kind == "ro" or not _still(dice, op, i):
                    break
        return
    # d20's rr: reroll every selected die, select again, until nothing is selected.
    while dice.room():
        chosen = _matching(dice, op)
        if not chosen:
            return
        for i in chosen:
            if not dice.room():
                return
            dice.reroll(i)


def _still(dice: TermDice, op: Op, i: int) -> bool:
    assert op.selector is not None
    return op.selector.matches(dice.faces[i])


def _explode(dice: TermDice, op: Op) -> None:
    """``!`` (fightlog, roll20, d20's ``e``): every matching die adds one, which may explode
    in turn; ``!1``: each die matching before the operation adds one die, once. One die's
    chain stops at ``limits.MAX_CHAIN`` added dice, except d20's (``sels``): d20 bounds only
    the dice rolled in all (``RollContext``, ``limits.AVRAE``), so its chains go on to
    ``limits.MAX_DRAWS``."""
    chain = limits.MAX_CHAIN if op.sels is None else limits.MAX_DRAWS
    if op.kind == "!1":
        for i in _matching(dice, op):
            if dice.room():
                dice.add(dice.draw(), i)
        return
    if op.sels is None or not any(isinstance(s, Pick) for s in op.sels):
        sels = op.sels
        test = (lambda f: bool(select(sels, [f], [True]))) if sels else None
        assert test is not None or op.selector is not None
        match = test or op.selector.predicate()  # type: ignore[union-attr]
        i = 0
        while i < len(dice.faces):
            if dice.kept[i] and match(dice.faces[i]) and dice.depth[i] < chain and dice.room():
                dice.add(dice.draw(), i)
            i += 1
        return
    done: set[int] = set()  # d20 with h/l picks: select again until nothing new is selected
    while dice.room():
        todo = [i for i in _matching(dice, op) if i not in done and dice.depth[i] < chain]
        if not todo:
            return
        for i in todo:
            done.add(i)
            if dice.room():
                dice.add(dice.draw(), i)


def _explode_one(dice: TermDice, op: Op) -> None:
    """d20's ``ra``: the first selected die adds one die (``1d1ra1`` is 2)."""
    assert op.sels is not None
    chosen = select(op.sels, dice.faces, dice.kept, most=1)
    if chosen and dice.room():
        dice.add(dice.draw(), chosen[0])


def _compound(dice: TermDice, op: Op) -> None:
    """roll20's ``!!``: a matching die rolls again and adds the new face to itself, while the
    new face matches (the die shows the sum)."""
    assert op.selector is not None
    for i in _matching(dice, op):
        last, chain = dice.faces[i], 0
        while op.selector.matches(last) and chain < limits.MAX_CHAIN and dice.room():
            last = dice.draw()
            dice.faces[i] += last
            chain += 1


def _penetrate(dice: TermDice, op: Op) -> None:
    """roll20's ``!p`` (Hackmaster): like ``!`` but each added die counts one less; whether
    an added die explodes again is decided on its face before the 1 is taken off."""
    assert op.selector is not None
    i = 0
    while i < len(dice.faces):
        face = dice.faces[i] + (1 if dice.depth[i] else 0)
        if dice.kept[i] and op.selector.matches(face) and dice.depth[i] < limits.MAX_CHAIN and dice.room():
            dice.add(dice.draw() - 1, i)
        i += 1


_APPLY = {
    "kh": _keep, "kl": _keep, "dh": _keep, "dl": _keep, "k": _keep, "p": _keep,
    "mi": _bound, "ma": _bound,
    "ro": _reroll, "rr": _reroll,
    "!": _explode, "!1": _explode, "ra": _explode_one, "!!": _compound, "!p": _penetrate,
}


def never_stops(term: DiceTerm, op: Op) -> bool:
    """True when ``rr`` or an explosion would select every face it can draw (refused when
    the expression compiles: the roll would only stop at the draws limit)."""
    low, high = term.face_range
    faces = range(low, high + 1, 10 if term.faces == "tens" else 1)
    if op.sels is not None:
        if any(isinstance(s, Pick) for s in op.sels):
            return op.kind == "rr"
        return all(any(isinstance(s, Selector) and s.matches(f) for s in op.sels) for f in faces)
    if op.selector is None:
        return False
    return all(op.selector.matches(f) for f in faces)
