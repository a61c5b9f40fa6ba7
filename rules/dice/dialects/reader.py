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
from fightlog.rules.dice import limits
from fightlog.rules.dice.ast import (
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
    Pick,
    Sel,
    Selector,
    SetOf,
    Tagged,
    op_text,
)
from fightlog.rules.dice.dialects.syntax import OpSpec, SelectorStyle, Syntax
from fightlog.rules.dice.lexer import check_text
from fightlog.rules.dice.operations import never_stops
from fightlog.rules.dice.parser import Parsed

_DIGITS = "0123456789"
_TESTS: tuple[tuple[str, Comparison], ...] = (
    ("gteq", ">="), ("gte", ">="), ("gt", ">"), ("lteq", "<="), ("lte", "<="), ("lt", "<"),
    ("eq", "="), (">=", ">="), ("<=", "<="), (">", ">"), ("<", "<"), ("=", "="),
)
_COMPARE: tuple[BinaryKind, ...] = ("==", "!=", "<=", ">=", "<", ">")


class Reader:
    def __init__(self, text: str, syntax: Syntax) -> None:
        check_text(text)
        self.text = text
        self.syntax = syntax
        self.pos = 0
        self.depth = 0
        self.terms: list[DiceTerm] = []
        self.dice_count = 0
        self.spellings = sorted(syntax.ops, key=len, reverse=True)
        self.marks = sorted(syntax.mark_ops, key=len, reverse=True)
        self.letter: dict[str, Selector] = {}  # Dice Maiden's t/f, read among the ops

    # ------------------------------------------------------------------ helpers

    def at(self, offset: int = 0) -> str:
        i = self.pos + offset
        return self.text[i] if i < len(self.text) else ""

    def startswith(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def spaces(self) -> None:
        while self.at() in (" ", "\t") and self.at():
            self.pos += 1

    def syntax_error(self, message: str, expected: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, expr=self.text, column=self.pos + 1, expected=expected)

    def got(self) -> str:
        return f", got {self.at()!r}" if self.at() else ""

    def number(self) -> tuple[int, str]:
        start = self.pos
        while self.at() and self.at() in _DIGITS:
            self.pos += 1
        digits = self.text[start : self.pos]
        if not digits:
            ch = self.at()
            if ch and (ch.isdigit() or ch.isnumeric()):
                raise self.syntax_error(f"non-ASCII digit {ch!r} (use 0-9)", "number")
            raise self.syntax_error(f"expected a number{self.got()}", "number")
        limits.check_digits(self.text, len(digits), start + 1)
        return int(digits), digits

    # ------------------------------------------------------------------ grammar

    def read(self, *, allow_empty_label: bool = False) -> Parsed:
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
            style = self.syntax.comment
            if style == "trailing" or rest.startswith(style):
                label = (rest if style == "trailing" else rest[1:]).strip(" \t") or None
            elif rest[0] == ")" or rest[0] == "}":
                raise self.syntax_error(f"unmatched {rest[0]!r}")
            else:
                raise self.syntax_error(f"expected an operator{self.got()}", "operator")
        notation = self.text[:end].strip(" \t")
        return Parsed(root, notation, label, tuple(self.terms), test=test)

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
                raise self.syntax_error("use // for division (it rounds down)", "//")
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
        if ch and ch in _DIGITS or (ch == "." and self.syntax.decimals):
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
        if opening == "(" and len(items) == 1 and not had_comma:
            inner = items[0]
            return self.set_ops(Group(inner, column), ops) if ops else Group(inner, column)
        if opening == "(" and not self.syntax.sets:
            raise self.syntax_error("expected ')'", ")")
        return SetOf(tuple(items), tuple(ops), column, opening)

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

    def dice(self, count: int, count_text: str, column: int) -> DiceTerm:
        start = self.pos - len(count_text)
        self.pos += 1  # the d
        faces: str = "plain"
        if self.at() == "%":
            self.pos += 1
            sides = 10 if self.syntax.percent == "tens" else 100
            faces = "tens" if self.syntax.percent == "tens" else "plain"
        elif self.at() in ("F", "f") and self.at() and self.syntax.fudge:
            self.pos += 1
            sides, faces = 3, "fudge"
        else:
            sides, _ = self.number()
        if count < 1 and not (count == 0 and self.syntax.zero_dice):
            raise DiceValueError(f"{self.text} : roll at least 1 die at column {column}")
        if sides < 1:
            raise DiceValueError(f"{self.text} : a die needs at least 1 side at column {column}")
        limits.check_dice(self.text, count)
        limits.check_sides(self.text, sides, column)
        term = DiceTerm(count, sides, (), None, None, "", column, len(self.terms), faces)  # type: ignore[arg-type]
        self.letter = {}
        ops = self.ops(term)
        if self.syntax.drop_before_keep:
            ops.sort(key=lambda o: 0 if o.kind in ("dh", "dl") else 1 if o.kind in ("kh", "kl") else 2)
        if self.letter:
            target, failure = self.letter.get("success"), self.letter.get("failure")
        else:
            target, failure = self.target()
        text = self.text[start : self.pos].replace(" ", "").replace("\t", "")
        term = replace(term, ops=tuple(ops), target=target, failure=failure, text=text)
        for op in term.ops:
            if op.kind in ("rr", "!", "!!", "!p") and never_stops(term, op):
                raise DiceValueError(
                    f"{self.text} : {op_text(op)} matches every face of a d{sides}: "
                    f"it would never stop at column {op.column}"
                )
        self.dice_count += count
        limits.check_dice(self.text, self.dice_count)
        self.terms.append(term)
        return term

    def ops(self, term: DiceTerm | None) -> list[Op]:
        out: list[Op] = []
        while True:
            save = self.pos
            if self.syntax.space_before_ops:
                self.spaces()
            letter = next((k for k in self.syntax.letters if self.startswith(k)), None)
            if letter is not None and term is not None and self.at(len(letter)) in tuple(_DIGITS):
                self.pos += len(letter)
                role = self.syntax.letters[letter]
                self.letter[role] = Selector(">=" if role == "success" else "<=", self.number()[0])
                continue
            spelling = next((s for s in self.spellings if self.startswith(s)), None)
            mark = next((m for m in self.marks if self.startswith(m)), None)
            if mark is not None and (spelling is None or len(mark) >= len(spelling)):
                self.skip_mark(mark)
                continue
            if spelling is None:
                self.pos = save
                return out
            spec = self.syntax.ops[spelling]
            if term is None and spec.kind not in ("k", "p", "kh", "kl", "dh", "dl"):
                self.pos = save
                return out
            column = self.pos + 1
            self.pos += len(spelling)
            op = self.op(spec, term, column)
            if op is None:  # a letter that starts a comment, not an operation
                self.pos = save
                return out
            if self.syntax.merge_runs and out and out[-1].kind == op.kind and op.kind not in ("mi", "ma"):
                prev = out[-1]
                out[-1] = replace(prev, sels=(prev.sels or ()) + (op.sels or ()))
            else:
                out.append(op)

    def skip_mark(self, mark: str) -> None:
        """A display-only option (roll20 ``cs>19``, ``sa``): read its compare point, if any."""
        self.pos += len(mark)
        cmp = next((c for c in ("<=", ">=", "<", ">", "=") if self.startswith(c)), "")
        self.pos += len(cmp)
        if cmp or (self.at() and self.at() in _DIGITS):
            self.number()

    def op(self, spec: OpSpec, term: DiceTerm | None, column: int) -> Op | None:
        kind = spec.kind
        if self.syntax.space_before_ops:
            save = self.pos
            self.spaces()
            if not (self.at() and self.at() in _DIGITS):
                self.pos = save
        has_number = bool(self.at()) and (self.at() in _DIGITS or self.at() in "<>=lh")
        if spec.number == "required" and not has_number:
            if self.syntax.comment == "trailing":
                return None
            raise self.syntax_error(f"expected a number{self.got()}", "number")
        if spec.selector == "d20":
            sel = self.d20_selector()
            if kind not in ("mi", "ma"):
                return Op(kind, column, sels=(sel,))
            if isinstance(sel, Pick) or sel.cmp != "=":
                raise DiceValueError(f"{self.text} : {kind}{sel} needs a plain number at column {column}")
            return Op(kind, column, amount=sel.value)
        top = term.face_range[1] if term is not None else 1
        if kind in ("kh", "kl", "dh", "dl", "mi", "ma"):
            amount = self.number()[0] if self.at() and self.at() in _DIGITS else 1
            if kind in ("kh", "kl", "dh", "dl") and amount < 1:
                raise DiceValueError(f"{self.text} : {kind}{amount} selects no dice at column {column}")
            return Op(kind, column, amount=amount)
        default = Selector("=", top) if kind in ("!", "!1", "!!", "!p") else None
        sel = self.selector(spec.selector or "cmp", default, optional=spec.number != "required")
        return Op(kind, column, selector=sel)

    def d20_selector(self) -> Sel:
        ch = self.at()
        if ch in ("l", "h") and ch:
            self.pos += 1
            return Pick("l" if ch == "l" else "h", self.number()[0])
        if ch in ("<", ">") and ch:
            self.pos += 1
            return Selector("<" if ch == "<" else ">", self.number()[0])
        return Selector("=", self.number()[0])

    def selector(self, style: SelectorStyle, default: Selector | None, *, optional: bool) -> Selector:
        for cmp in ("<=", ">=", "<", ">", "="):
            if self.startswith(cmp):
                self.pos += len(cmp)
                return Selector(self.inclusive(cmp), self.number()[0])
        if self.at() and self.at() in _DIGITS:
            value = self.number()[0]
            return Selector("<=" if style == "le" else "=", value)
        if optional and default is not None:
            return default
        raise self.syntax_error(f"expected a number{self.got()}", "number")

    def inclusive(self, cmp: str) -> Comparison:
        if self.syntax.successes == "inclusive" and cmp in ("<", ">"):
            return "<=" if cmp == "<" else ">="
        return _comparison(cmp)

    def target(self) -> tuple[Selector | None, Selector | None]:
        if self.syntax.successes == "none":
            return None, None
        cmp = next((c for c in ("<=", ">=", "<", ">", "=") if self.startswith(c)), None)
        if cmp is None:
            return None, None
        self.pos += len(cmp)
        target = Selector(self.inclusive(cmp), self.number()[0])
        failure = None
        letter = self.syntax.failures
        if letter and self.startswith(letter):
            self.pos += len(letter)
            failure = self.selector("cmp", None, optional=False)
        while (mark := next((m for m in self.marks if self.startswith(m)), None)) is not None:
            self.skip_mark(mark)
        return target, failure


def _comparison(text: str) -> Comparison:
    table: dict[str, Comparison] = {"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
    return table[text]


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
