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
* ``roll-reroll``: rerolls the dialect would make and the roll did not, or the other way
  round (``1d20ro1 rerolls die 1 (1) but the roll kept it``); ``roll-explode``: the same for
  the dice explosions add (``2d6e6 explodes into 1 added die but the roll shows 0``);
* ``roll-kept``: the dice kept (``4d6kh3 keeps 6, 5, 3 but the roll kept 6, 5, 2``);
* ``roll-forced``, ``roll-outcome``, ``roll-sum``, ``roll-botches`` (``check_reply`` only):
  what a reply's text contradicts (``ReadReply.mismatches``): a face ``mi``/``ma`` would not
  force so, a pass/fail its total does not give, a set total its rolls do not sum to, a
  botch count its faces do not give;
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
from fightlog.dice.ast import DiceTerm
from fightlog.dice.roll_events import group_dice, read_roll
from fightlog.dice.expression import Expression
from fightlog.dice.render import breakdown
from fightlog.dice.replies.dialect import compile_in
from fightlog.dice.replies.model import ReadReply
from fightlog.dice.result import RollResult, TermRoll

REROLL_KINDS = frozenset({"ro", "rr"})
EXPLODE_KINDS = frozenset({"!", "!1", "!p", "ra"})


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
    messages call the roll (``roll``, ``reply``). Verdicts are kept by what they depend on
    (notation, dialect, dice, modifiers, total), so a roll seen before costs a lookup."""
    dice = event.dice
    key = (
        event.notation,
        event.dialect,
        tuple([(d.sides, d.face, d.kept, d.exploded, *d.rerolled) for d in dice]),
        tuple([m.value for m in event.modifiers]),
        event.total,
        what,
    )
    found = _VERDICTS.get(key)
    if found is None:
        found = tuple(_check(event, what))
        if len(_VERDICTS) >= _KEPT_VERDICTS:
            _VERDICTS.clear()
        _VERDICTS[key] = found
    return [Discrepancy(d.code, f"{name}: {d.message}") for d in found]


_VERDICTS: dict[object, tuple[Discrepancy, ...]] = {}
_KEPT_VERDICTS = 1 << 16
"""Verdicts kept for reuse (a 1d20+5 has twenty outcomes; a 4d6kh3, 1296)."""


def _check(event: DiceRolled, what: str) -> list[Discrepancy]:
    dialect = event.dialect or "fightlog"
    try:
        expr = compile_in(event.notation, event.dialect)
    except DiceLimitError as exc:
        return [Discrepancy("roll-limit", f"over the {dialect} dialect's limits: {exc}")]
    except DiceError as exc:
        return [Discrepancy("roll-notation", f"the notation is refused: {exc}")]
    try:
        groups = group_dice(expr, event.dice, event.notation)
    except DiceError as exc:
        return [Discrepancy("roll-dice", f"the dice do not fit the notation: {exc}")]
    out = _range(expr, groups)
    if out:
        return out
    hidden = _hidden_rerolls(event)
    faces = _draws(expr, groups, hidden)
    short = False
    try:
        result = expr.roll(_Replay(faces), event.modifiers)
        extra = len(faces) - _drawn(result)
    except _Short:
        short, extra = True, 0
        result = expr.roll(_Replay(faces, pad=True), event.modifiers)
    out = _compare(expr, groups, result, what, extra, hidden)
    if short and not out:
        out.append(Discrepancy("roll-reroll", f"{expr.notation} draws more dice than the {what} shows: "
                               f"it rerolls or explodes a die the {what} did not"))
    if short or any(d.code in ("roll-reroll", "roll-explode") for d in out):
        return out
    if event.total != result.total:
        if not any(d.code == "roll-kept" for d in out) or read_roll(event, expr).total != event.total:
            out.append(
                Discrepancy(
                    "roll-total",
                    f"total {event.total} recorded, dice and modifiers give "
                    f"{result.total} ({_breakdown(result)})",
                )
            )
    return out


def check_reply(reply: ReadReply, name: str | None = None) -> list[Discrepancy]:
    """What does not add up in a reply read from a bot: its ``event()`` re-evaluated, then
    what the reply's text contradicts (``ReadReply.mismatches``). ``name`` starts every
    message (default ``Avrae reply (1d20 + 5)``)."""
    name = name or f"{reply.bot} reply ({reply.notation})"
    event = reply.event()
    found = check_event(event, name, what="reply")
    if reply.struck or ("," in reply.notation and reply.dialect == "avrae" and "~~" in reply.raw):
        items = _set_items(event, reply.struck)
        if items is not None:
            found = [d for d in found if d.code != "roll-total" or event.total != items[1]]
            found.append(Discrepancy("roll-kept", f"{name}: {items[0]}"))
    return found + [Discrepancy(code, f"{name}: {message}") for code, message in reply.mismatches]


def _set_items(event: DiceRolled, struck: tuple[int, ...]) -> tuple[str, int] | None:
    """When the set items a reply strikes are not the ones its dialect drops: the words,
    and the total the reply's own strikes give (so a total they explain is not named again)."""
    from fightlog.dice.replies.d20_text import read_d20
    from fightlog.dice.render import tail

    result = reevaluated(event)
    if result is None:
        return None
    try:
        line = breakdown(result, markdown=True)
    except (AssertionError, TypeError, ValueError):
        return None
    end = tail(result.modifiers, result.total - result.value, result.total, result.label)
    expected = read_d20(line[: len(line) - len(end)]).struck
    if expected == struck:
        return None
    terms = [t.text for t in result.expression.terms]
    rolls = result.terms
    own = result.total - sum(rolls[i].value for i in struck) + sum(rolls[i].value for i in expected)

    def named(indices: tuple[int, ...]) -> str:
        return ", ".join(f"term {i + 1} ({terms[i]} = {rolls[i].value})" for i in indices) or "none"

    return f"{event.notation} drops {named(expected)} but the reply dropped {named(struck)}", own


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
    key = (reply.notation, reply.dialect, tuple([(d.sides, d.face, d.exploded) for d in dice]))
    kept = _MARKS.get(key)
    if kept is None:
        kept = _marks_of(reply.notation, reply.dialect, dice)
        if len(_MARKS) >= _KEPT_VERDICTS:
            _MARKS.clear()
        _MARKS[key] = kept
    if not kept:
        return dice
    return [d if d.kept == k else replace(d, kept=k) for d, k in zip(dice, kept)]


_MARKS: dict[object, tuple[bool, ...]] = {}


def _marks_of(notation: str, dialect: str, dice: list[Die]) -> tuple[bool, ...]:
    """Per die, kept or not as the dialect rolls these faces (empty: it cannot say)."""
    try:
        expr = compile_in(notation, dialect)
        result = expr.roll(_Replay(_draws(expr, group_dice(expr, dice, notation))))
    except (DiceError, _Short):
        return ()
    expected = result.dice
    if len(expected) != len(dice):
        return ()
    return tuple([e.kept for e in expected])


# --------------------------------------------------------------------------- steps


def _range(expr: Expression, groups: list[list[Die]]) -> list[Discrepancy]:
    """The first face (or replaced face) a die of its term cannot show."""
    i = 0
    for term, group in zip(expr.terms, groups):
        low, high = term.face_range
        for die in group:
            i += 1
            for face in (*die.rerolled, die.face):
                if not low <= face <= high:
                    of = f"a d{die.sides}" if term.faces == "plain" else f"a die of {term.text}"
                    return [Discrepancy("roll-range", f"die {i} shows {face}, outside {low}..{high} of {of}")]
                if term.faces == "tens" and face % 10:
                    return [Discrepancy("roll-range", f"die {i} shows {face}, not a face of a die of "
                                        f"{term.text} (0, 10, ..., 90)")]
    return []


def _hidden_rerolls(event: DiceRolled) -> bool:
    """Whether the roll comes from a bot that prints only a rerolled die's final face (Dice
    Maiden) and so records no replaced faces."""
    if event.tool is None or any(d.rerolled for d in event.dice):
        return False
    from fightlog.dice.replies import bot_named

    bot = bot_named(event.tool)
    return bot is not None and not bot.shows_rerolls


def _draws(expr: Expression, groups: list[list[Die]], hidden: bool = False) -> list[int]:
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


def _drawn(result: RollResult) -> int:
    return sum(len(t.faces) + sum(len(r) for r in (t.rerolled or ())) for t in result.terms)


def _compare(
    expr: Expression,
    groups: list[list[Die]],
    result: RollResult,
    what: str,
    extra: int,
    hidden: bool = False,
) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    for term, group, roll in zip(expr.terms, groups, result.terms):
        if _same(group, roll, hidden):
            continue
        expected = roll.dice(term)
        why = _rerolls(term, group, expected, what, hidden)
        if why is not None:
            out.append(Discrepancy(*why))
            continue
        kept = [d.face for d in expected if d.kept]
        got = [d.face for d in group if d.kept]
        if [d.kept for d in expected] != [d.kept for d in group]:
            if sorted(kept) != sorted(got) or len(expected) != len(group):
                out.append(
                    Discrepancy(
                        "roll-kept",
                        f"{term.text} keeps {_faces(kept)} but the {what} kept {_faces(got)}",
                    )
                )
    if extra > 0 and not out:
        out.append(
            Discrepancy(
                "roll-reroll",
                f"{extra} recorded {'face' if extra == 1 else 'faces'} the {expr.notation} "
                "rolls do not draw",
            )
        )
    return out


def _same(group: list[Die], roll: TermRoll, hidden: bool = False) -> bool:
    """Whether the recorded dice are exactly the dice the dialect gives (the common case;
    ``hidden``: replaced faces are not compared)."""
    faces = roll.faces
    if len(faces) != len(group):
        return False
    kept, rerolled = roll.kept, roll.rerolled
    for i, die in enumerate(group):
        if die.face != faces[i] or die.kept != (kept is None or kept[i]):
            return False
        if rerolled is None or hidden:
            if die.rerolled:
                return False
        elif tuple(die.rerolled) != rerolled[i]:
            return False
    return True


def _rerolls(term: DiceTerm, group: Sequence[Die], expected: list[Die], what: str,
             hidden: bool = False) -> tuple[str, str] | None:
    """The first reroll or explosion the dialect and the roll disagree on: its code and
    words."""
    for i, (r, e) in enumerate(zip(group, () if hidden else expected), 1):
        if r.rerolled != e.rerolled:
            if not e.rerolled:
                return "roll-reroll", f"the {what} rerolled die {i} ({_faces(r.rerolled)} -> {r.face}) but {term.text} does not reroll it"
            if not r.rerolled:
                return "roll-reroll", f"{term.text} rerolls die {i} ({_faces(e.rerolled)}) but the {what} kept it"
            return "roll-reroll", f"die {i}: {term.text} rerolls {_faces(e.rerolled)}, the {what} rerolled {_faces(r.rerolled)}"
    added_e = sum(1 for d in expected if d.exploded)
    added_r = sum(1 for d in group if d.exploded)
    if added_e != added_r:
        return "roll-explode", (
            f"{term.text} explodes into {added_e} added {'die' if added_e == 1 else 'dice'} "
            f"but the {what} shows {added_r}"
        )
    if len(group) != len(expected):
        return "roll-reroll", f"{term.text} rolls {len(expected)} dice but the {what} shows {len(group)}"
    return None


def _breakdown(result: RollResult) -> str:
    """The roll's breakdown (``1d20 (14) + 5 = 19``); for a tree the renderer does not draw
    yet, the notation, the faces and the total."""
    try:
        return breakdown(result)
    except (AssertionError, TypeError, ValueError):
        faces = ", ".join(str(f) for t in result.terms for f in t.faces)
        return f"{result.notation} ({faces}) = {result.total}"


def _faces(faces: Sequence[int]) -> str:
    return ", ".join(str(f) for f in faces) or "none"

