"""What a dialect's notation looks like, as data: the parser (``syntax_parser.py``) is driven by it.

A ``Syntax`` names the operation spellings after dice, how a selector is written, whether a
comparison after dice counts successes (and whether ``>`` includes the number), what sets
look like, how comments are written, and the few arithmetic extras a bot has. Everything a
dialect does beyond that is a small function in its own module (``avrae.py``, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from fightlog.dice.ast import OpKind
from fightlog.dice.limits import BotLimits

SelectorStyle = Literal["d20", "cmp", "le", "ge"]
"""``d20``: ``[l|h|<|>]N`` (``N`` alone means equals; runs of one operation merge into one
selection); ``cmp``: ``[=|<|<=|>|>=]N`` (a bare ``N`` means equals); ``le``: a bare ``N``
means ``<= N`` (Dice Maiden's ``r2`` rerolls 1s and 2s); ``ge``: a bare ``N`` means ``>= N``
(Dice Maiden's ``e5`` explodes 5s and 6s), and ``0`` matches nothing (dicebag's 0 is off)."""


@dataclass(frozen=True)
class OpSpec:
    """One operation spelling: the op it makes, whether its number is optional (default:
    the die's highest face for explosions, 1 for keeps), and how it reads its selector."""

    kind: OpKind
    number: Literal["required", "optional", "none"] = "required"
    selector: SelectorStyle | None = None


@dataclass(frozen=True)
class Syntax:
    ops: dict[str, OpSpec]
    """Spellings after dice, matched longest first."""
    space_before_ops: bool = False
    """Dice Maiden writes ``4d6 k3``: operations may follow the dice after spaces."""
    successes: Literal["exclusive", "inclusive", "none"] = "exclusive"
    """A comparison right after a dice term counts successes; ``inclusive``: roll20's ``>4``
    means ``>=4`` and ``<4`` means ``<=4``; ``none``: a comparison is arithmetic (avrae)."""
    failures: str | None = None
    """The letter that follows a success target to count failures (roll20: ``f``)."""
    sets: str = ""
    """Set brackets: ``(`` (avrae, a comma makes a set), ``{`` (roll20 groups)."""
    comparisons: bool = False
    """Comparisons are arithmetic giving 1 or 0 (avrae ``1 + 2 == 2``)."""
    division: Literal["floor", "exact", "none"] = "none"
    """What a single ``/`` means; ``//`` is always floor division."""
    no_division: str = "use // for division (it rounds down)"
    """The refusal of a single ``/`` when ``division`` is ``none``."""
    modulo: bool = False
    decimals: bool = False
    zero_dice: bool = False
    """``0d6`` is 0 (avrae)."""
    percent: Literal["d100", "tens"] = "d100"
    """``d%``: a d100, or avrae's tens die (0, 10, ..., 90)."""
    fudge: bool = False
    """``dF`` / ``NdF``: Fate dice showing -1, 0, +1."""
    unary_plus: bool = False
    upper_d: bool = False
    """``D`` works as ``d``."""
    annotations: bool = False
    """``[fire]`` after a value is a tag (avrae, roll20 inline labels)."""
    comment: Literal["#", "!", "trailing"] = "#"
    """How a comment starts: ``#``, ``!`` (Dice Maiden), or whatever text follows a complete
    expression (avrae)."""
    words_only: bool = False
    """With ``trailing`` comments: only words after a space are the comment (roll20's
    ``1d20+5 Initiative``); other trailing text (``1d6mi7``, ``1.5d6``) is refused."""
    merge_runs: bool = False
    """Consecutive operations of one kind merge into one selection: d20's ``k1k2`` keeps 1s
    and 2s, roll20's ``r1r3`` rerolls 1s and 3s."""
    letters: dict[str, Literal["success", "failure"]] = field(default_factory=dict)
    """Letters written among the operations that set the success target (``>=N``) or the
    failure target (``<=N``): Dice Maiden's ``t7`` and ``f1``."""
    drop_before_keep: bool = False
    """Dice Maiden drops before it keeps, whatever the order written."""
    total_test: bool = False
    """A comparison after the whole expression tests the total for pass or fail (RPG Sage
    ``1d20+5 >= 15``, also spelled ``gte``, ``gt``, ``lte``, ``lt``, ``eq``)."""
    mark_ops: frozenset[str] = field(default_factory=frozenset)
    """Spellings that only change how a roll is shown (roll20 ``cs``/``cf``/``sa``/``sd``):
    read and ignored."""
    limits: BotLimits | None = None
    """The bot's own limits beyond fightlog's (``limits.DICE_MAIDEN``, ``limits.AVRAE``): its
    dice terms are checked against them as they are read, its rolls as they roll."""
