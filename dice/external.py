"""Re-evaluating an external roll under its dialect: does what the bot printed add up?

A bot's roll cannot be checked for honesty, but it can be checked for sense. The notation is
compiled the way the bot's dialect reads it (``replies.dialect.compile_in``) and rolled again
with the recorded faces fed in draw order through a ``FaceStream``, so the one dice engine
decides, as the bot should have: which dice are kept and dropped, which faces are rerolled,
which dice explode, and what the arithmetic gives. Each disagreement is one ``Discrepancy``
with a stable code:

* ``roll-range``: a face (or a face a reroll replaced) outside ``1..sides``;
* ``roll-notation``: the dialect refuses the notation; ``roll-limit``: it is over a limit
  (or shows more dice rolled than its bot rolls in one roll: avrae's d20 stops at 1000);
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

Draw order (``recorded_faces``): the recorded dice of a term give its first faces (a rerolled
die's first face is the oldest it replaced), then its rerolls die by die and the dice its
explosions added, in the order of the term's operations; a dialect's term (avrae's ``rr``,
``ro``, ``ra``, ``e``) is replayed by its own operations, each die served its own recorded
faces, so d20's rounds of ``rr`` replay as rolled. Faces a bot prints sorted (Dice Maiden, RPG Sage) are fed as
printed: keeping and dropping do not depend on the order; which die exploded does not show.
"""

from __future__ import annotations

from msgspec.structs import replace

from fightlog.errors import DiceError, DiceLimitError
from fightlog.events.model import DiceRolled, Die
from fightlog.dice import limits
from fightlog.dice.expression import as_modifiers
from fightlog.dice.roll_events import group_dice, read_roll
from fightlog.dice.render import breakdown
from fightlog.dice.replies.dialect import compile_in
from fightlog.dice.replies.read_reply import ReadReply
from fightlog.dice.recorded_faces import Replay, Short, draws, drawn, hidden_rerolls
from fightlog.dice.result import RollResult
from fightlog.dice.roll_discrepancies import Discrepancy as Discrepancy, compare, out_of_range, spelled_out


def check_event(event: DiceRolled, name: str, *, what: str = "roll") -> list[Discrepancy]:
    """What does not add up in an external roll under its dialect (empty: it adds up).

    ``name`` starts every message (``external roll by carol (1d20)``); ``what`` is how the
    messages call the roll (``roll``, ``reply``). Verdicts are kept by what they depend on
    (notation, dialect, dice, modifiers, total), so a roll seen before costs a lookup. Of a
    roll read only in part from a bot's reply (``unread``) only the notation and modifiers are
    judged: what the reader missed (a hidden face, a cut-off list) would be blamed on the roller."""
    dice = event.dice
    key = (
        event.notation,
        event.dialect,
        tuple([(d.sides, d.face, d.kept, d.exploded, *d.rerolled) for d in dice]),
        tuple([(m.value, m.source) for m in event.modifiers]),  # a refused modifier's message names its source
        event.total,
        what,
        bool(event.unread),
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
        as_modifiers(event.modifiers)  # what re-evaluating it would refuse (``Expression.roll``)
    except DiceLimitError as exc:
        return [Discrepancy("roll-limit", f"over the limits: {exc}")]
    except DiceError as exc:
        return [Discrepancy("roll-notation", f"its modifiers are refused: {exc}")]
    if event.unread:
        return []
    try:  # more dice than the bot rolls in one roll (avrae's d20: 1000): it could not print this
        limits.check_rolls(event.notation, sum(1 + len(d.rerolled) for d in event.dice), expr.limits)
    except DiceLimitError as exc:
        return [Discrepancy("roll-limit", f"over the {dialect} dialect's limits: {exc}")]
    try:
        groups = group_dice(expr, event.dice, event.notation)
    except DiceError as exc:
        return [Discrepancy("roll-dice", f"the dice do not fit the notation: {exc}")]
    out = out_of_range(expr, groups)
    if out:
        return out
    hidden = hidden_rerolls(event)
    faces = draws(expr, groups, hidden)
    short = False
    try:
        result = expr.roll(Replay(faces), event.modifiers)
        extra = len(faces) - drawn(result)
    except Short:
        short, extra = True, 0
        result = expr.roll(Replay(faces, pad=True), event.modifiers)
    out = compare(expr, groups, result, what, extra, hidden)
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
                    f"{result.total} ({spelled_out(result)})",
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
    said = [Discrepancy(code, f"{name}: {message}") for code, message in reply.mismatches]
    return found + [d for d in said if d not in found]  # (a limit both the text and the event are over: once)


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
        result: RollResult = expr.roll(Replay(draws(expr, groups)), event.modifiers)
        return result
    except (DiceError, Short):
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
        result = expr.roll(Replay(draws(expr, group_dice(expr, dice, notation))))
    except (DiceError, Short):
        return ()
    expected = result.dice
    if len(expected) != len(dice):
        return ()
    return tuple([e.kept for e in expected])
