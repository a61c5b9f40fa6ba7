"""Results -> text and plain data. Rendering never rolls and never changes a result.

The breakdown is one line: the expression as typed with each dice term followed by its
faces, the modifiers as one number with their sources, and the total::

    1d100 (57) + 15 [scope +10, racial +5] = 72
    3d20kh1 (17, [4], [9]) + 5 = 22
    4d6ro1 (1->5, 3, 4, 6) = 18
    3d6! (6, 2, 4, +6, +3) = 21
    5d6>=5 (6*, 2, 5*, 1, 3) = 2
    BW (black 17, white 2) = 19
    1d20 (12) + 5 = 17 # attack

Marks: ``[f]`` a dropped die; ``a->b`` a die rerolled from ``a`` to ``b`` (oldest first);
``+f`` a die added by an explosion; ``f*`` a die counted as a success; ``name f`` a labelled
die. A trailing ``# label`` repeats the roll's label. The text is plain, legible on a
terminal, a pipe or in a log file; ``markdown=True`` strikes dropped dice through instead
(``~~4~~``), for pasting to Discord.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from msgspec import to_builtins

from fightlog.events.model import Modifier
from fightlog.dice.ast import (
    BinaryOp,
    Decimal,
    DiceTerm,
    Group,
    Negate,
    Node,
    Number,
    SetOf,
    Tagged,
    dice_terms,
    op_text,
)
from fightlog.dice.result import RollResult, TermRoll


def breakdown(result: RollResult, *, markdown: bool = False) -> str:
    """The one-line breakdown of a roll (``markdown``: dropped dice struck through)."""
    return dice_part(result, markdown=markdown) + tail(result.modifiers, result.total - result.value, result.total, result.label)


def dice_part(result: RollResult, *, markdown: bool = False) -> str:
    """The breakdown's expression with each dice term's faces, before the modifiers:
    ``3d20kh1 (17, [4], [9]) + 5``."""
    return _node(result.expression.root, iter(zip(result.expression.terms, result.terms)), markdown)


def tail(modifiers: Sequence[Modifier], shift: int, total: int, label: str | None) -> str:
    """What follows the dice in a breakdown: `` + 15 [scope +10, racial +5] = 72 # label``.
    Shared with renderings made from a recorded roll alone."""
    text = ""
    if modifiers:
        sources = ", ".join(f"{m.source} {m.value:+d}" for m in modifiers)
        text += f" {'-' if shift < 0 else '+'} {abs(shift)} [{sources}]"
    text += f" = {total}"
    if label:
        text += f" # {label}"
    return text


def dropped(face: str, *, markdown: bool = False) -> str:
    """A dropped die's text: ``[4]``, or ``~~4~~`` in Markdown."""
    return f"~~{face}~~" if markdown else f"[{face}]"


def term_text(term: DiceTerm, roll: TermRoll, *, markdown: bool = False) -> str:
    """One dice term and its faces: ``3d20kh1 (17, [4], [9])``."""
    kept, rerolled, labels = roll.kept, roll.rerolled, term.labels
    hits = roll.hits(term) if term.target is not None else None
    misses = roll.misses(term) if term.failure is not None else None
    signed = term.faces == "fudge"
    shown: list[str] = []
    for i, face in enumerate(roll.faces):
        text = f"{face:+d}" if signed and face else str(face)
        if rerolled is not None and rerolled[i]:
            text = "->".join(str(f) for f in (*rerolled[i], face))
        if i >= term.count:
            text = "+" + text
        if hits is not None and hits[i]:
            text += "*"
        if misses is not None and misses[i]:
            text += "-"
        if labels is not None and i < len(labels):
            text = f"{labels[i]} {text}"
        if kept is not None and not kept[i]:
            text = dropped(text, markdown=markdown)
        shown.append(text)
    return f"{term.text} ({', '.join(shown)})"


def _node(node: Node, terms: Iterator[tuple[DiceTerm, TermRoll]], markdown: bool) -> str:
    if isinstance(node, DiceTerm):
        term, roll = next(terms)
        return term_text(term, roll, markdown=markdown)
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Group):
        return f"({_node(node.inner, terms, markdown)})"
    if isinstance(node, Negate):
        return f"-{_node(node.operand, terms, markdown)}"
    if isinstance(node, Decimal):
        return node.text
    if isinstance(node, Tagged):
        return f"{_node(node.inner, terms, markdown)} {node.tags}"
    if isinstance(node, SetOf):
        return _set(node, terms, markdown)
    assert isinstance(node, BinaryOp)
    left = _node(node.left, terms, markdown)
    return f"{left} {node.op} {_node(node.right, terms, markdown)}"


def _set(node: SetOf, terms: Iterator[tuple[DiceTerm, TermRoll]], markdown: bool) -> str:
    """A set with its dropped items bracketed: ``(1d6 (4), [1d6 (2)])kh1``."""
    from fightlog.dice.walk import dice_pool, fold, set_kept

    shown: list[str] = []
    values = []
    for item in node.items:
        mine = [next(terms) for _ in dice_terms(item)]
        shown.append(_node(item, iter(mine), markdown))
        rolls = iter(roll.value for _, roll in mine)
        values.append(fold(item, lambda term: next(rolls)))
    kept = [True] if dice_pool(node) is not None else set_kept(node, values)
    items = [text if k else dropped(text, markdown=markdown) for text, k in zip(shown, kept)]
    close = ")" if node.brace == "(" else "}"
    inner = ", ".join(items) + ("," if len(items) == 1 and node.brace == "(" else "")
    return f"{node.brace}{inner}{close}{''.join(op_text(op) for op in node.ops)}"


def as_data(result: RollResult, *, markdown: bool = False) -> dict[str, object]:
    """A result as plain JSON-ready data (the shape of ``fightlog roll --format json``);
    ``markdown`` is the style of its ``breakdown``."""
    data: dict[str, object] = {
        "notation": result.notation,
        "label": result.label,
        "dice": to_builtins(result.dice),
        "value": result.value,
        "modifiers": to_builtins(list(result.modifiers)),
        "total": result.total,
        "index": result.index,
        "generator": result.generator,
        "ones": result.ones,
        "max_faces": result.max_faces,
        "breakdown": breakdown(result, markdown=markdown),
    }
    if any(t.target is not None for t in result.expression.terms):
        data["successes"] = result.successes
    if any(t.failure is not None for t in result.expression.terms):
        data["failures"] = result.failures
    if result.expression.test is not None:
        data["test"] = str(result.expression.test)
        data["passed"] = result.passed
    if result.expression.dialect != "fightlog":
        data["dialect"] = result.expression.dialect
    return data
