"""A bot's notation -> the shared syntax tree, driven by the dialect's ``Syntax``.

One recursive-descent reader over characters serves avrae, roll20, Dice Maiden and RPG Sage
(fightlog's own notation keeps its lexer and parser). Its grammar, with the parts a
``Syntax`` switches on or off::

    expression := compare [comment]
    compare    := sum { ("==" | "!=" | "<" | "<=" | ">" | ">=") sum }     (comparisons)
    sum        := product { ("+" | "-") product }
    product    := unary { ("*" | "//" | "/" | "%") unary }
    unary      := ("-" | "+") unary | atom
    atom       := (number | decimal | dice | "(" ... ")" | "{" ... "}") { "[" tag "]" }
    dice       := [count] "d" (sides | "%" | "F") { op } [ target [ failure ] ]

The same checks as fightlog's parser run here (``lexer.check_text``, then the digit,
sides, dice and depth limits as the text is read; the total limit when it compiles), so
every limit holds in every dialect before any die is drawn.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from fightlog.errors import DiceSyntaxError, DiceValueError
from fightlog.dice import limits
from fightlog.dice.ast import (
    BinaryKind,
    BinaryOp,
    Comparison,
    Decimal,
    DiceTerm,
    Group,
    Negate,
    Node,
    Number,
    Op,
    Selector,
    SetOf,
    Tagged,
    op_text,
)
from fightlog.dice.dialects.syntax import Syntax
from fightlog.dice.dialects.term_reader import DIGITS, TermReader
from fightlog.dice.parser import Parsed

_TESTS: tuple[tuple[str, Comparison], ...] = (
    ("gteq", ">="), ("gte", ">="), ("gt", ">"), ("lteq", "<="), ("lte", "<="), ("lt", "<"),
    ("eq", "="), (">=", ">="), ("<=", "<="), (">", ">"), ("<", "<"), ("=", "="),
)
_COMPARE: tuple[BinaryKind, ...] = ("==", "!=", "<=", ">=", "<", ">")


class Reader(TermReader):
    """The expression grammar over ``TermReader``'s dice terms."""

    def read(self) -> Parsed:
        self.spaces()
        if self.pos >= len(self.text) or self.at() == self.syntax.comment[0] and self.syntax.comment != "trailing":
            raise DiceValueError(
                "empty dice expression (try 1d20+5)"
                if not self.text.strip()
                else f"{self.text} : no dice expression before the comment"
            )
        root = self.compare() if self.syntax.comparisons else self.sum()
        self.spaces()
        test = self.total_test() if self.syntax.total_test else None
        end = self.pos
        label: str | None = None
        rest = self.text[self.pos :]
        if rest:
            self.check_words(rest)
            style = self.syntax.comment
            if style == "trailing" or rest.startswith(style):
                label = (rest if style == "trailing" else rest[1:]).strip(" \t") or None
            elif rest[0] == ")" or rest[0] == "}":
                raise self.syntax_error(f"unmatched {rest[0]!r}")
            else:
                raise self.syntax_error(f"expected an operator{self.got()}", "operator")
        notation = self.text[:end].strip(" \t")
        return Parsed(root, notation, label, tuple(self.terms), test=test, limits=self.syntax.limits)

    def check_words(self, rest: str) -> None:
        """roll20 and RPG Sage read only words as a comment; refuse other trailing text."""
        if self.syntax.comment != "trailing" or not self.syntax.words_only:
            return
        if self.pos > 0 and self.text[self.pos - 1] in " \t" and rest[0].isalpha():
            return
        if rest[0] in ")}":
            raise self.syntax_error(f"unmatched {rest[0]!r}")
        raise self.syntax_error(
            f"expected an operator{self.got()} (a comment is words after a space: 1d20+5 Initiative)", "operator"
        )

    def total_test(self) -> Selector | None:
        """RPG Sage's test of the total: ``>= 15``, ``gte 15`` ... (as written: ``>`` is strict)."""
        lowered = self.text[self.pos :].lower()
        for word, cmp in _TESTS:
            if lowered.startswith(word):
                self.pos += len(word)
                while self.at() == "=":
                    self.pos += 1
                self.spaces()
                value = self.number()[0]
                self.spaces()
                return Selector(cmp, value)
        return None

    def compare(self) -> Node:
        node = self.sum()
        while True:
            self.spaces()
            op = next((c for c in _COMPARE if self.startswith(c)), None)
            if op is None:
                return node
            right = self.operand(len(op), self.sum)
            if right is None:
                return node
            node = BinaryOp(op, node, right, self.pos + 1)

    def sum(self) -> Node:
        node = self.product()
        while True:
            self.spaces()
            ch = self.at()
            if ch not in ("+", "-") or not ch:
                return node
            column = self.pos + 1
            right = self.operand(1, self.product)
            if right is None:
                return node
            node = BinaryOp("+" if ch == "+" else "-", node, right, column)

    def product(self) -> Node:
        node = self.unary()
        while True:
            self.spaces()
            column = self.pos + 1
            if self.startswith("//"):
                op: BinaryKind = "//"
            elif self.at() == "*" and not self.startswith("**"):
                op = "*"
            elif self.at() == "/" and self.syntax.division != "none":
                op = "/" if self.syntax.division == "exact" else "//"
            elif self.at() == "%" and self.syntax.modulo:
                op = "%"
            elif self.at() == "/":
                raise self.syntax_error(self.syntax.no_division, "//")
            else:
                return node
            width = 2 if self.startswith("//") else 1
            right = self.operand(width, self.unary)
            if right is None:
                return node
            node = BinaryOp(op, node, right, column)

    def operand(self, width: int, parse: object) -> Node | None:
        """Read an operator of ``width`` characters and its right operand. With trailing
        comments (avrae), an operand that does not parse makes the operator the start of the
        comment, as d20 does (``1d20 **bold**``)."""
        start = self.pos
        self.pos += width
        self.spaces()
        try:
            return parse()  # type: ignore[operator,no-any-return]
        except DiceSyntaxError:
            if self.syntax.comment != "trailing":
                raise
            self.pos = start
            return None

    def unary(self) -> Node:
        self.spaces()
        ch = self.at()
        if ch == "-" or (ch == "+" and self.syntax.unary_plus):
            column = self.pos + 1
            self.pos += 1
            self.depth += 1
            limits.check_depth(self.text, self.depth, column)
            inner = self.unary()
            self.depth -= 1
            return Negate(inner, column) if ch == "-" else inner
        return self.tagged(self.atom())

    def tagged(self, node: Node) -> Node:
        if not self.syntax.annotations:
            return node
        tags: list[str] = []
        column = self.pos + 1
        while True:
            save = self.pos
            self.spaces()
            if self.at() != "[":
                self.pos = save
                break
            close = self.text.find("]", self.pos)
            if close < 0:
                raise self.syntax_error("unclosed '['", "]")
            tags.append(self.text[self.pos : close + 1])
            self.pos = close + 1
        return Tagged(node, "".join(tags), column) if tags else node

    def atom(self) -> Node:
        ch = self.at()
        column = self.pos + 1
        if ch == "(" or (ch == "{" and self.syntax.sets == "{"):
            return self.bracket(ch)
        if ch and ch in DIGITS or (ch == "." and self.syntax.decimals):
            if ch == ".":
                value, digits = 0, ""
            else:
                value, digits = self.number()
            if self.at() == "." and self.syntax.decimals:
                self.pos += 1
                frac, fdigits = self.number()
                exact = Fraction(int((digits or "0") + fdigits), 10 ** len(fdigits))
                text = f"{digits}.{fdigits}"
                return Decimal(exact, text, column) if exact.denominator != 1 else Number(int(exact), column)
            if self.is_die():
                return self.dice(value, digits, column)
            return Number(value, column)
        if self.is_die():
            return self.dice(1, "", column)
        raise self.syntax_error(f"expected a number{self.got()}", "number")

    def is_die(self) -> bool:
        return self.at() == "d" or (self.at() == "D" and self.syntax.upper_d)

    def bracket(self, opening: str) -> Node:
        closing = ")" if opening == "(" else "}"
        column = self.pos + 1
        self.pos += 1
        self.depth += 1
        limits.check_depth(self.text, self.depth, column)
        items: list[Node] = []
        comma = False
        self.spaces()
        while self.at() != closing:
            if items and not comma:
                if self.at() == "," and self.syntax.sets:
                    self.pos += 1
                    comma = True
                    self.spaces()
                    continue
                raise self.syntax_error(f"expected {closing!r}{self.got()}", closing)
            items.append(self.compare() if self.syntax.comparisons else self.sum())
            comma = False
            self.spaces()
            if not self.at():
                raise self.syntax_error(f"expected {closing!r}", closing)
        had_comma = comma or len(items) > 1
        self.pos += 1
        self.depth -= 1
        ops = self.ops(None) if self.syntax.sets else []
        if opening == "{" and self.after_spaces() in ("<", ">", "="):
            raise self.syntax_error(
                "a target after a roll20 group ({3d6}>4) is not supported: "
                "put it on the dice (3d6>4) or test the total (--dialect rpg-sage '3d6 >= 4')"
            )
        if opening == "(" and len(items) == 1 and not had_comma:
            inner = items[0]
            return self.set_ops(Group(inner, column), ops) if ops else Group(inner, column)
        if opening == "(" and not self.syntax.sets:
            raise self.syntax_error("expected ')'", ")")
        return SetOf(tuple(items), tuple(ops), column, opening)

    def after_spaces(self) -> str:
        save = self.pos
        self.spaces()
        ch = self.at()
        self.pos = save
        return ch

    def set_ops(self, node: Node, ops: list[Op]) -> Node:
        """d20: operations after parentheses act on what is inside; on dice, on its dice."""
        inner = node
        while isinstance(inner, (Group, Tagged)):
            inner = inner.inner
        if isinstance(inner, DiceTerm):
            term = replace(inner, ops=inner.ops + tuple(ops), text=inner.text + "".join(op_text(o) for o in ops))
            self.terms[term.index] = term
            return _swap(node, inner, term)
        if isinstance(inner, SetOf):
            return _swap(node, inner, replace(inner, ops=inner.ops + tuple(ops)))
        return SetOf((node,), tuple(ops), node.column if hasattr(node, "column") else 1)

    # ------------------------------------------------------------------ dice

def _swap(node: Node, old: Node, new: Node) -> Node:
    """``node`` with ``old`` (reached through groups and tags) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, Group):
        return Group(_swap(node.inner, old, new), node.column)
    if isinstance(node, Tagged):
        return Tagged(_swap(node.inner, old, new), node.tags, node.column)
    return node


def read(text: str, syntax: Syntax) -> Parsed:
    """Read ``text`` in a dialect's ``syntax``; raises a ``DiceError`` naming the column."""
    return Reader(text, syntax).read()
