"""Reading a roll as avrae/d20's ``MarkdownStringifier`` prints it (shared by Avrae's replies).

d20 prints each dice term as ``NdS<ops> (<dice>)``: a die's faces in order, joined ``, ``,
each face its history ``a -> b`` (``mi``/``ma`` forced it) and ``!`` when it exploded;
a die whose face is 1 or the die's size in bold (``**20**``); a dropped die, or a face a
reroll replaced, struck through (``~~4~~``; a die ``rr`` rerolled twice shows both replaced
faces, ``**~~1~~**, ~~2~~, 5``; a dropped die with a rerolled face is struck as a whole,
``~~1, 5~~``). Dice added by an explosion follow the term's dice. Which struck faces belong
to which die, when rerolls replaced some, is settled by ``d20_chains``. Everything else
(numbers, operators, parentheses, ``[fire]`` annotations) is the expression as written.
Sources: ``d20/stringifiers.py`` (``MarkdownStringifier``) and ``d20/expression.py``
(``Die.reroll``, ``Die.explode``, ``SetOperator``) in avrae/d20. A reply copied from
Discord's rendered text loses the bold and the strikes: the faces still read, their marks do
not (``marked`` is then false when the term keeps or rerolls).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from fightlog.events.model import Die
from fightlog.dice.replies.d20_chains import Cut, Item, Kind, chains
from fightlog.dice.replies.numbers import integer

_TERM = re.compile(r"([0-9]*)[dD]([0-9]+|%)([^\s(),+*/-]*) {1,2}\(([^()]*)\)")
"""``4d6kh3 (6, 5, ~~2~~, 3)``: count, sides, operations, the dice as printed."""

_OPEN = re.compile(r"([0-9]*)[dD]([0-9]+|%)([^\s(),+*/-]*) {1,2}\(([^()]*)$")
"""A last dice term whose printed dice never close (a reply cut short)."""
_BROKEN = re.compile(r"[0-9][dD](?:[0-9]+|%)\S* {1,2}\(")
"""A dice term whose printed dice do not close (an edited or cut reply)."""

_REROLLS = ("rr", "ro")
_BOUNDS = re.compile(r"(mi|ma)([0-9]+)")
"""d20's ``mi``/``ma`` operations: a face below (above) the number is forced to it."""


@dataclass(frozen=True, slots=True)
class D20Roll:
    """A d20 roll string read: the notation without the dice, the dice, what could not be
    read, whether any drop or reroll mark was printed, and ``mismatches``: (code, message)
    for what the printed faces contradict themselves on (a forced face ``mi``/``ma`` would
    not give)."""

    notation: str
    dice: tuple[Die, ...]
    problems: tuple[str, ...]
    marks: bool
    mismatches: tuple[tuple[str, str], ...] = ()
    struck: tuple[int, ...] = ()
    """The dice terms (0-based, in order) struck through as a whole: a set's dropped items
    (``(1d6 (3), ~~1d6 (6)~~)kh1``)."""


@lru_cache(maxsize=4096)
def read_d20(text: str) -> D20Roll:
    """Read ``1d20 (**20**) + 5`` (no total) into notation, dice and problems (cached: one
    roll string always reads the same)."""
    text = text.strip()
    problems: list[str] = []
    mismatches: list[tuple[str, str]] = []
    if text.endswith("..."):
        problems.append("the roll is cut short (Avrae shortens long replies with '...'): "
                        "the dice after the cut are missing")
        text = text[:-3].rstrip()
    dice: list[Die] = []
    pieces: list[str] = []
    last = 0
    marks = "~~" in text
    struck: list[int] = []
    for match in _TERM.finditer(text):
        if marks and text[max(0, match.start() - 2) : match.start()] == "~~":
            struck.append(len(pieces) // 2)
        num, size, ops, shown = match.groups()
        pieces.append(text[last : match.start()].replace("~~", ""))
        pieces.append(f"{num}d{size}{ops}")
        last = match.end()
        count = int(num) if num else 1
        sides = 10 if size == "%" else int(size)  # d20's d% is a tens die: 0, 10, ..., 90
        dice.extend(_term_dice(count, sides, ops, shown, problems, mismatches, f"{num}d{size}{ops}"))
    rest = text[last:].replace("~~", "")
    open_term = _OPEN.search(rest)
    if open_term is not None:  # a term whose dice were cut: its faces as far as they go
        num, size, ops, shown = open_term.groups()
        count = int(num) if num else 1
        sides = 10 if size == "%" else int(size)
        whole = shown.rsplit(",", 1)[0] if "," in shown else ""
        problems.append(f"{num}d{size}{ops}: its dice are cut short")
        dice.extend(_term_dice(count, sides, ops, whole, problems, mismatches))
        rest = rest[: open_term.start()] + f"{num}d{size}{ops}"
    elif _BROKEN.search(rest):
        problems.append(f"unreadable dice near {rest.strip()[:40]!r}")
    pieces.append(rest)
    notation = "".join(pieces).strip()
    if not dice and not problems:
        problems.append("no dice in the roll")
    return D20Roll(notation, tuple(dice), tuple(problems), marks, tuple(mismatches), tuple(struck))


def _term_dice(count: int, sides: int, ops: str, shown: str, problems: list[str],
               mismatches: list[tuple[str, str]], notation: str | None = None) -> list[Die]:
    """The dice of one term from its printed faces (see the module docstring); ``notation``
    (the term as written, None for a term cut short) lets the avrae dialect settle which
    faces make which die when rerolls replaced some (``d20_chains``)."""
    fast = _plain(count, sides, ops, shown.replace("**", ""))
    if fast is not None:
        return fast
    groups: list[list[tuple[str, bool]]] = []  # a struck span holding several faces is one die
    kinds: list[Kind] = []
    for bold in _spans(shown):
        part = bold.replace("**", "")
        struck = part.startswith("~~")
        inner = part.strip("~")
        faces = [f.strip() for f in inner.split(",") if f.strip()]
        if struck and len(faces) > 1:
            groups.append([(f, True) for f in faces])
            kinds.append("W")
        else:
            for f in faces:
                groups.append([(f, struck)])
                kinds.append(_kind(bold) if struck else "U")
    explosions = sum(1 for g in groups for f, _ in g if f.endswith("!"))
    spare = sum(len(g) for g in groups) - count - explosions  # faces that rerolls replaced
    rerolls = spare > 0 and any(op in ops for op in _REROLLS)
    if rerolls and notation is not None:
        cut = _chains(groups, kinds, count, explosions, sides, ops, notation)
        if cut is not None:
            return _cut_dice(groups, cut, count, sides, ops, problems, mismatches)
    dice: list[Die] = []
    history: list[int] = []
    for i, group in enumerate(groups):
        values = [_value(f, ops, len(dice) + 1, problems, mismatches) for f, _ in group]
        struck = group[-1][1]
        if len(group) == 1 and struck and rerolls and spare > 0 and i + 1 < len(groups):
            history.append(values[0])  # a face a reroll replaced; the die goes on
            spare -= 1
            continue
        if len(group) > 1:
            history.extend(values[:-1])
        dice.append(
            Die(
                sides=sides,
                face=values[-1],
                kept=not struck,
                rerolled=history,
                exploded=len(dice) >= count,
            )
        )
        history = []
    if history:
        problems.append(f"{count}d{sides}: a struck face with no die after it")
    if len(dice) < count:
        problems.append(f"{count}d{sides}{ops} shows {len(dice)} of its {count} dice")
    return dice


def _kind(bold: str) -> Kind:
    """A struck face alone: ``**~~1~~**`` (d20 bolds a 1 or top face after striking it) is a
    face a reroll replaced, ``~~**1**~~`` (the whole die struck around it) a dropped die;
    any other face could be either."""
    return "R" if bold.startswith("**~~") else "D" if bold.startswith("~~**") else "S"


def _chains(groups: list[list[tuple[str, bool]]], kinds: list[Kind], count: int, explosions: int,
            sides: int, ops: str, notation: str) -> list[Cut] | None:
    """How the printed faces cut into dice when rerolls replaced some (``d20_chains``)."""
    items: list[Item] = [
        (tuple(_value(f, ops, 0, [], []) for f, _ in group), kind) for group, kind in zip(groups, kinds)
    ]
    return chains(items, count, explosions, sides, notation)


def _cut_dice(groups: list[list[tuple[str, bool]]], cut: list[Cut], count: int, sides: int, ops: str,
              problems: list[str], mismatches: list[tuple[str, str]]) -> list[Die]:
    dice: list[Die] = []
    pos = 0
    for spans, dropped in cut:
        faces = [f for group in groups[pos : pos + spans] for f, _ in group]
        pos += spans
        values = [_value(f, ops, len(dice) + 1, problems, mismatches) for f in faces]
        dice.append(Die(sides=sides, face=values[-1], kept=not dropped, rerolled=values[:-1],
                        exploded=len(dice) >= count))
    return dice


def _plain(count: int, sides: int, ops: str, shown: str) -> list[Die] | None:
    """The common case read quickly: one face per die, none exploded or forced, struck
    only when dropped (None: read it the general way)."""
    if "!" in shown or ">" in shown:
        return None
    struck = "~~" in shown
    if struck and any(op in ops for op in _REROLLS):
        return None
    parts = shown.split(", ")
    if len(parts) != count:
        return None
    dice: list[Die] = []
    for part in parts:
        dropped = struck and part.startswith("~~")
        if dropped:
            if not part.endswith("~~") or len(part) < 5:
                return None
            part = part[2:-2]
        face = integer(part)
        if face is None or face < 0:
            return None
        dice.append(Die(sides=sides, face=face, kept=False) if dropped else Die(sides=sides, face=face))
    return dice


def _spans(shown: str) -> list[str]:
    """Split the printed dice at ``, `` outside ``~~...~~`` strikes."""
    out: list[str] = []
    i = 0
    n = len(shown)
    while i < n:
        while i < n and shown[i] in ", ":
            i += 1
        if i >= n:
            break
        if shown.startswith("~~", i):
            end = shown.find("~~", i + 2)
            end = n if end < 0 else end + 2
        else:
            end = shown.find(",", i)
            end = n if end < 0 else end
        out.append(shown[i:end].strip())
        i = end
    return out


def _value(text: str, ops: str, die: int, problems: list[str],
           mismatches: list[tuple[str, str]]) -> int:
    """A face as printed: ``20``, ``6!`` (exploded), ``1 -> 2`` (drawn 1, forced to 2 by
    ``mi``/``ma``: the forced face is checked against the drawn one and the operations)."""
    text = text.rstrip("!").strip()
    history = [integer(f.strip()) for f in text.split("->")]
    if any(f is None for f in history):
        problems.append(f"a face that is not a number: {text!r}")
        return 0
    faces = [f for f in history if f is not None]
    shown = faces[-1]
    if len(faces) > 1:
        drawn = faces[0]
        bounds = _BOUNDS.findall(ops)
        forced = drawn
        for kind, bound in bounds:
            forced = max(forced, int(bound)) if kind == "mi" else min(forced, int(bound))
        if not bounds:
            mismatches.append(("roll-forced", f"die {die} is forced from {drawn} to {shown}, "
                               f"but no mi or ma in {ops or 'the term'} forces a face"))
        elif forced != shown:
            rule = "".join(k + b for k, b in bounds)
            mismatches.append(("roll-forced", f"die {die} is forced from {drawn} to {shown}, "
                               f"but {rule} makes a {drawn} {forced}"))
    return shown
