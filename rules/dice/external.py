"""Re-evaluating an external roll under its dialect: does what the bot printed add up?

A bot's roll cannot be checked for honesty, but it can be checked for sense. The notation is
compiled the way the bot's dialect reads it (``replies.dialect.compile_in``) and rolled again
with the recorded faces fed in draw order through a ``FaceStream``, so the one dice engine
decides, as the bot should have: which dice are kept and dropped, which faces are rerolled,
which dice explode, and what the arithmetic gives. Each disagreement is one ``Discrepancy``
with a stable code:

* ``roll-range``: a face (or a face a reroll replaced) outside ``1..sides``;
* ``roll-notation``: the dialect refuses the notation; ``roll-limit``: it is over a limit;
* ``roll-dice``: the dice do not fit the notation (how many, which die);
* ``roll-reroll``: rerolls or explosions the dialect would make and the roll did not, or the
  other way round (``1d20ro1 rerolls the 1 (die 1) but the roll kept it``);
* ``roll-kept``: the dice kept (``4d6kh3 keeps 6, 5, 3 but the roll kept 6, 5, 2``);
* ``roll-total``: the total (``total 25 recorded, dice and modifiers give 19 (1d20 (14) + 5
  = 19)``); not named again when a ``roll-kept`` already explains it.

Draw order: the recorded dice of a term give its first faces (a rerolled die's first face is
the oldest it replaced), then its rerolls die by die and the dice its explosions added, in the
order of the term's operations. Faces a bot prints sorted (Dice Maiden, RPG Sage) are fed as
printed: keeping and dropping do not depend on the order; which die exploded does not show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from msgspec.structs import replace

from fightlog.errors import DiceError, DiceLimitError
from fightlog.events.model import DiceRolled, Die
from fightlog.rules.dice.ast import DiceTerm
from fightlog.rules.dice.events import group_dice, read_roll
from fightlog.rules.dice.expression import Expression
from fightlog.rules.dice.render import breakdown
from fightlog.rules.dice.replies.dialect import compile_in
from fightlog.rules.dice.replies.model import ReadReply
from fightlog.rules.dice.result import RollResult, TermRoll

REROLL_KINDS = frozenset({"ro", "rr"})
EXPLODE_KINDS = frozenset({"!"})


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One thing about an external roll that does not add up (``code`` as listed above)."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


class _Short(Exception):
    """The dialect draws more faces than the roll recorded."""


class _Replay:
    """A ``FaceStream`` serving recorded faces in order; past the end it raises ``_Short``,
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
        raise _Short

    def draw_many(self, sides: int, count: int) -> list[int]:
        i = self.drawn
        end = i + count
        self.drawn = end
        if end <= len(self.faces):
            return self.faces[i:end]
        if self.pad:
            return self.faces[i:] + [0] * (end - max(i, len(self.faces)))
        raise _Short


def check_event(event: DiceRolled, name: str, *, what: str = "roll") -> list[Discrepancy]:
    """What does not add up in an external roll under its dialect (empty: it adds up).

    ``name`` starts every message (``external roll by carol (1d20)``); ``what`` is how the
    messages call the roll (``roll``, ``reply``)."""
    dialect = event.dialect or "fightlog"
    try:
        expr = compile_in(event.notation, event.dialect)
    except DiceLimitError as exc:
        return [Discrepancy("roll-limit", f"{name}: over the {dialect} dialect's limits: {exc}")]
    except DiceError as exc:
        return [Discrepancy("roll-notation", f"{name}: the notation is refused: {exc}")]
    try:
        groups = group_dice(expr, event.dice, event.notation)
    except DiceError as exc:
        return [Discrepancy("roll-dice", f"{name}: the dice do not fit the notation: {exc}")]
    out = _range(expr, groups, name)
    if out:
        return out
    faces = _draws(expr, groups)
    short = False
    try:
        result = expr.roll(_Replay(faces), event.modifiers)
        extra = len(faces) - _drawn(result)
    except _Short:
        short, extra = True, 0
        result = expr.roll(_Replay(faces, pad=True), event.modifiers)
    out = _compare(expr, groups, result, name, what, extra)
    if short or any(d.code == "roll-reroll" for d in out):
        return out
    if event.total != result.total:
        if not any(d.code == "roll-kept" for d in out) or read_roll(event, expr).total != event.total:
            out.append(
                Discrepancy(
                    "roll-total",
                    f"{name}: total {event.total} recorded, dice and modifiers give "
                    f"{result.total} ({breakdown(result)})",
                )
            )
    return out


def check_reply(reply: ReadReply) -> list[Discrepancy]:
    """What does not add up in a reply read from a bot (its ``event()`` re-evaluated)."""
    return check_event(reply.event(), f"{reply.bot} reply ({reply.notation})", what="reply")


def reevaluated(event: DiceRolled) -> RollResult | None:
    """What the dialect makes of the roll's recorded faces (None if it cannot say)."""
    try:
        expr = compile_in(event.notation, event.dialect)
        groups = group_dice(expr, event.dice, event.notation)
        result: RollResult = expr.roll(_Replay(_draws(expr, groups)), event.modifiers)
        return result
    except (DiceError, _Short):
        return None


def dialect_marks(reply: ReadReply) -> list[Die]:
    """A reply's dice with the kept/dropped marks its dialect gives them (for a bot that
    marks none); the dice as read when the dialect cannot say."""
    dice = list(reply.dice)
    try:
        expr = compile_in(reply.notation, reply.dialect)
        result = expr.roll(_Replay(_draws(expr, group_dice(expr, dice, reply.notation))))
    except (DiceError, _Short):
        return dice
    expected = result.dice
    if len(expected) != len(dice):
        return dice
    return [d if d.kept == e.kept else replace(d, kept=e.kept) for d, e in zip(dice, expected)]


# --------------------------------------------------------------------------- steps


def _range(expr: Expression, groups: list[list[Die]], name: str) -> list[Discrepancy]:
    """The first face (or replaced face) a die of its term cannot show."""
    i = 0
    for term, group in zip(expr.terms, groups):
        low, high = term.face_range
        for die in group:
            i += 1
            for face in (*die.rerolled, die.face):
                if not low <= face <= high:
                    of = f"a d{die.sides}" if term.faces == "plain" else f"a die of {term.text}"
                    return [Discrepancy("roll-range", f"{name}: die {i} shows {face}, outside {low}..{high} of {of}")]
    return []


def _draws(expr: Expression, groups: list[list[Die]]) -> list[int]:
    """The recorded faces, as the stream's raw draws, in the order the engine draws them
    (see the module docstring)."""
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
            _chains(base, out)
            out.extend(d.rerolled[0] if d.rerolled else d.face for d in added)
            _chains(added, out)
        if term.faces != "plain":
            out[start:] = [term.raw(f) for f in out[start:]]
    return out


def _chains(dice: Sequence[Die], out: list[int]) -> None:
    for d in dice:
        if d.rerolled:
            out.extend(d.rerolled[1:])
            out.append(d.face)


def _drawn(result: RollResult) -> int:
    return sum(len(t.faces) + sum(len(r) for r in (t.rerolled or ())) for t in result.terms)


def _compare(
    expr: Expression,
    groups: list[list[Die]],
    result: RollResult,
    name: str,
    what: str,
    extra: int,
) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    for term, group, roll in zip(expr.terms, groups, result.terms):
        if _same(group, roll):
            continue
        expected = roll.dice(term)
        why = _rerolls(term, group, expected, what)
        if why is not None:
            out.append(Discrepancy("roll-reroll", f"{name}: {why}"))
            continue
        kept = [d.face for d in expected if d.kept]
        got = [d.face for d in group if d.kept]
        if [d.kept for d in expected] != [d.kept for d in group]:
            if sorted(kept) != sorted(got) or len(expected) != len(group):
                out.append(
                    Discrepancy(
                        "roll-kept",
                        f"{name}: {term.text} keeps {_faces(kept)} but the {what} kept {_faces(got)}",
                    )
                )
    if extra > 0 and not out:
        out.append(
            Discrepancy(
                "roll-reroll",
                f"{name}: {extra} recorded {'face' if extra == 1 else 'faces'} the {expr.notation} "
                "rolls do not draw",
            )
        )
    return out


def _same(group: list[Die], roll: TermRoll) -> bool:
    """Whether the recorded dice are exactly the dice the dialect gives (the common case)."""
    faces = roll.faces
    if len(faces) != len(group):
        return False
    kept, rerolled = roll.kept, roll.rerolled
    for i, die in enumerate(group):
        if die.face != faces[i] or die.kept != (kept is None or kept[i]):
            return False
        if rerolled is None:
            if die.rerolled:
                return False
        elif tuple(die.rerolled) != rerolled[i]:
            return False
    return True


def _rerolls(term: DiceTerm, group: Sequence[Die], expected: list[Die], what: str) -> str | None:
    """The first reroll or explosion the dialect and the roll disagree on, in words."""
    for i, (r, e) in enumerate(zip(group, expected), 1):
        if r.rerolled != e.rerolled:
            if not e.rerolled:
                return f"the {what} rerolled die {i} ({_faces(r.rerolled)} -> {r.face}) but {term.text} does not reroll it"
            if not r.rerolled:
                return f"{term.text} rerolls die {i} ({_faces(e.rerolled)}) but the {what} kept it"
            return f"die {i}: {term.text} rerolls {_faces(e.rerolled)}, the {what} rerolled {_faces(r.rerolled)}"
    added_e = sum(1 for d in expected if d.exploded)
    added_r = sum(1 for d in group if d.exploded)
    if added_e != added_r:
        return (
            f"{term.text} adds {added_e} exploded {'die' if added_e == 1 else 'dice'} "
            f"but the {what} shows {added_r}"
        )
    if len(group) != len(expected):
        return f"{term.text} rolls {len(expected)} dice but the {what} shows {len(group)}"
    return None


def _faces(faces: Sequence[int]) -> str:
    return ", ".join(str(f) for f in faces) or "none"

