"""Tokens -> syntax tree, by recursive descent.

Grammar (whitespace may separate any two tokens)::

    expression := sum [ "#" label ]
    sum        := product { ("+" | "-") product }
    product    := unary { ("*" | "//") unary }
    unary      := "-" unary | primary
    primary    := number | dice | "BW" | "(" sum ")"
    dice       := [count] ("d" | "D") [sides | "%"] { op } [ comparison number ]
    op         := ("kh" | "kl" | "dh" | "dl") [number]
                | ("ro" | "rr") [comparison] number
                | "!" [ [comparison] number ]
                | ("mi" | "ma") number
    comparison := "=" | "<" | "<=" | ">" | ">="

``D`` without sides is Traveller's d6 (``2D``). Every check that needs no dice happens here:
counts and sides at least 1, keep/drop counts within the dice rolled, rerolls and explosions
that could never stop, and the limits of ``limits.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from fightlog.errors import DiceSyntaxError, DiceValueError
from fightlog.dice import hints, limits
from fightlog.dice.limits import BotLimits
from fightlog.dice.ast import (
    BinaryKind,
    BinaryOp,
    Comparison,
    DiceTerm,
    Group,
    Negate,
    Node,
    Number,
    Op,
    OpKind,
    Selector,
)
from fightlog.dice.lexer import Token, tokenize

BW_LABELS = ("black", "white")
"""Labels of en5.1's pair, in roll order."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """A parsed expression: the tree, the notation (the text before any label, stripped),
    the label (or None), and the dice terms left to right. Dialects add ``repeat`` (roll it
    that many times: RPG Sage's ``6#3d6``) and ``test`` (pass or fail of the total against a
    target: RPG Sage's ``1d20+5 >= 15``)."""

    root: Node
    notation: str
    label: str | None
    terms: tuple[DiceTerm, ...]
    repeat: int = 1
    test: Selector | None = None
    ambiguous: DiceSyntaxError | None = None
    """A form a popular bot reads otherwise (``3d10!>=8``): logs that hold it still verify,
    but a new roll of it is refused with this error (``expression.roll``)."""
    limits: BotLimits | None = None
    """The bot's own limits the text was read under (a dialect's ``Syntax.limits``)."""


def parse(text: str) -> Parsed:
    """Parse ``text``; raises a ``DiceError`` subclass naming the problem and its column."""
    tokens = tokenize(text)
    return _Parser(text, tokens).expression()


class _Parser:
    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.terms: list[DiceTerm] = []
        self.dice_count = 0
        self.ambiguous: DiceSyntaxError | None = None

    # ------------------------------------------------------------------ helpers

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def take(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def syntax(self, message: str, tok: Token, expected: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, expr=self.text, column=tok.column, expected=expected)

    def value_error(self, message: str, column: int) -> DiceValueError:
        return DiceValueError(f"{self.text} : {message} at column {column}")

    def expect_number(self, what: str = "a number") -> Token:
        tok = self.peek()
        if tok.kind != "num":
            raise self.syntax(f"expected {what}{_got(tok)}", tok, expected="number")
        return self.take()

    # ------------------------------------------------------------------ grammar

    def expression(self) -> Parsed:
        first = self.peek()
        if first.kind in ("end", "label"):
            raise DiceValueError(
                "empty dice expression (try 1d20+5)"
                if not self.text.strip()
                else f"{self.text} : no dice expression before the label"
            )
        root = self.sum()
        label: str | None = None
        tok = self.peek()
        if tok.kind == "label":
            label = self.take().text or None
            tok = self.peek()
        if tok.kind != "end":
            if tok.kind == ")":
                raise self.syntax("unmatched ')'", tok)
            if tok.kind == "cmp":
                raise hints.total_test(self.text, tok.column)
            if tok.kind in ("die", "op", "bw"):
                i = tok.column - 1
                if self.text[i - 1 : i] in (" ", "\t") or tok.kind == "die":
                    raise hints.unexpected(self.text, i)
            near = hints.after_number(self.text, tok.kind, tok.text, tok.column)
            if near is not None:
                raise near
            raise self.syntax(f"expected an operator{_got(tok)}", tok, expected="operator")
        hash_at = self.text.find("#")
        notation = (self.text if hash_at < 0 else self.text[:hash_at]).strip(" \t")
        return Parsed(root, notation, label, tuple(self.terms), ambiguous=self.ambiguous)

    def sum(self) -> Node:
        node = self.product()
        while self.peek().kind in ("+", "-"):
            tok = self.take()
            op: BinaryKind = "+" if tok.kind == "+" else "-"
            node = BinaryOp(op, node, self.product(), tok.column)
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek().kind in ("*", "//"):
            tok = self.take()
            op: BinaryKind = "*" if tok.kind == "*" else "//"
            node = BinaryOp(op, node, self.unary(), tok.column)
        return node

    def unary(self) -> Node:
        tok = self.peek()
        if tok.kind in ("-", "+") and self.pos == 0 and self.tokens[1].kind == "die":
            sides = self.tokens[2]
            if sides.kind in ("num", "pct"):
                raise hints.leading_die(self.text, tok.column, tok.kind, sides.text)
        if tok.kind == "-":
            self.take()
            self.depth += 1
            limits.check_depth(self.text, self.depth, tok.column)
            node: Node = Negate(self.unary(), tok.column)
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        tok = self.peek()
        if tok.kind == "(":
            self.take()
            self.depth += 1
            limits.check_depth(self.text, self.depth, tok.column)
            inner = self.sum()
            close = self.peek()
            if close.kind != ")":
                raise self.syntax(f"expected ')'{_got(close)}", close, expected=")")
            self.take()
            self.depth -= 1
            return Group(inner, tok.column)
        if tok.kind == "bw":
            return self.bw()
        if tok.kind == "num":
            self.take()
            if self.peek().kind == "die":
                return self.dice(tok)
            return Number(tok.value, tok.column)
        if tok.kind == "die":
            return self.dice(None)
        raise self.syntax(f"expected a number{_got(tok)}", tok, expected="number")

    def bw(self) -> DiceTerm:
        tok = self.take()
        nxt = self.peek()
        if nxt.kind in ("op", "bang", "cmp"):
            raise self.syntax("BW takes no dice operations", nxt)
        return self.add_term(2, 20, (), None, BW_LABELS, tok.text, tok.column)

    def dice(self, count_tok: Token | None) -> DiceTerm:
        die = self.take()
        start = count_tok or die
        parts = [start.text] if count_tok else []
        parts.append(die.text)
        count = 1 if count_tok is None else count_tok.value
        if count < 1:
            raise self.value_error("roll at least 1 die", start.column)
        limits.check_dice(self.text, count)
        side_tok = self.peek()
        sides = self.sides(die, parts)
        if sides < 1:
            raise self.value_error("a die needs at least 1 side", side_tok.column)
        limits.check_sides(self.text, sides, side_tok.column)
        ops: list[Op] = []
        kept: int | None = count  # dice kept so far, None once explosions make it vary
        previous, previous_text = "", ""
        while self.peek().kind in ("op", "bang"):
            op, text = self.op(sides, kept, "rolled" if kept == count else "left")
            family = _FAMILY.get(op.kind)
            if family is not None and family == _FAMILY.get(previous):
                raise self.value_error(
                    f"{text} right after {previous_text} is ambiguous (dice bots merge such "
                    f"runs into one selection; {family})",
                    op.column,
                )
            previous, previous_text = op.kind, text
            ops.append(op)
            parts.append(text)
            if op.kind == "!":
                kept = None
            elif kept is not None and op.kind in ("kh", "kl"):
                kept = min(kept, op.amount)
            elif kept is not None and op.kind in ("dh", "dl"):
                kept -= op.amount
        if ops and ops[-1].kind == "!" and parts[-1][1:3] in (">=", "<=") and self.peek().kind != "cmp":
            self.ambiguous = self.ambiguous or hints.explode_or_count(self.text, ops[-1].column, "".join(parts), sides)
        target = self.target(parts)
        return self.add_term(count, sides, tuple(ops), target, None, "".join(parts), start.column)

    def sides(self, die: Token, parts: list[str]) -> int:
        """The sides after ``d`` (``%`` is 100, but ambiguous; ``D`` alone is a d6), added to ``parts``."""
        side_tok = self.peek()
        if side_tok.kind == "num":
            self.take()
            parts.append(side_tok.text)
            return side_tok.value
        if side_tok.kind == "pct":
            self.take()
            self.ambiguous = self.ambiguous or hints.percent(self.text, side_tok.column, "".join(parts))
            parts.append("%")
            return 100
        if die.text == "D":
            return 6
        raise self.syntax(f"expected the number of sides{_got(side_tok)}", side_tok, expected="number")

    def target(self, parts: list[str]) -> Selector | None:
        """A success count right after the dice (``8d6>=5``); ``parts`` is the term's text so far."""
        target: Selector | None = None
        if self.peek().kind == "cmp":
            cmp_tok = self.take()
            if self.text[cmp_tok.column - 2 : cmp_tok.column - 1] in (" ", "\t"):
                raise hints.total_test(self.text, cmp_tok.column)
            if cmp_tok.text == "=" and self.peek().text == "=":
                raise hints.double_equals(self.text, cmp_tok.column)
            num = self.expect_number()
            if cmp_tok.text in ("<", ">"):
                example = "".join(parts) + cmp_tok.text + num.text
                raise hints.strict(self.text, cmp_tok.column, "a success count", cmp_tok.text, num.value, example)
            target = Selector(_comparison(cmp_tok.text), num.value)
            parts.append(cmp_tok.text + num.text)
        return target

    def op(self, sides: int, kept: int | None, state: str) -> tuple[Op, str]:
        """One operation; ``kept`` dice are kept so far (None: unknown), ``state`` says
        whether they are all that was rolled or what is left after a drop."""
        tok = self.take()
        col = tok.column
        if tok.kind == "bang":
            if self.peek().kind == "bang":
                raise self.syntax("compounding explosions (!!) are not supported", self.peek())
            sel, text = self.selector(optional=True, default=Selector("=", sides))
            self.refuse_strict(sel, "!", col + 1, "an explosion")
            if sel.count_in(1, sides) == sides:
                raise self.value_error(
                    f"!{text} explodes on every face of a d{sides}: it would never stop", col
                )
            return Op("!", col, selector=sel), "!" + text
        kind: OpKind = _op_kind(tok.text)
        if kind in ("kh", "kl", "dh", "dl"):
            amount = 1
            text = ""
            if self.peek().kind == "num":
                num = self.take()
                amount, text = num.value, num.text
            if amount < 1:
                raise self.value_error(f"{kind}{text} selects no dice", col)
            if kept is not None and amount > kept:
                verb = "keeps" if kind in ("kh", "kl") else "drops"
                raise self.value_error(
                    f"{kind}{text} {verb} {amount} {'die' if amount == 1 else 'dice'} but only "
                    f"{kept} {'is' if kept == 1 else 'are'} {state}",
                    col,
                )
            return Op(kind, col, amount=amount), kind + text
        if kind in ("ro", "rr"):
            sel, text = self.selector(optional=False, default=None)
            if kind == "ro":
                self.refuse_strict(sel, "ro", col + 2, "a reroll")
            if kind == "rr" and sel.count_in(1, sides) == sides:
                raise self.value_error(
                    f"rr{text} rerolls every face of a d{sides}: it would never stop", col
                )
            return Op(kind, col, selector=sel), kind + text
        num = self.expect_number()
        if kind == "mi" and num.value > sides:
            raise self.value_error(f"mi{num.text} is above the die's {sides} sides", col)
        if kind == "ma" and num.value < 1:
            raise self.value_error(f"ma{num.text} is below the lowest face, 1", col)
        return Op(kind, col, amount=num.value), kind + num.text

    def refuse_strict(self, sel: Selector, op: str, column: int, what: str) -> None:
        """A bare < or > where roll20 reads the number as included (docs/dice.md)."""
        if sel.cmp in ("<", ">"):
            example = f"{op}{sel.cmp}{sel.value}"
            raise hints.strict(self.text, column, what, sel.cmp, sel.value, example)

    def selector(self, *, optional: bool, default: Selector | None) -> tuple[Selector, str]:
        """``[comparison] number`` after ``ro``, ``rr`` or ``!`` (a bare number means ``=``)."""
        tok = self.peek()
        if tok.kind == "cmp":
            self.take()
            num = self.expect_number()
            return Selector(_comparison(tok.text), num.value), tok.text + num.text
        if tok.kind == "num":
            self.take()
            return Selector("=", tok.value), tok.text
        if optional and default is not None:
            return default, ""
        raise self.syntax(f"expected a number{_got(tok)}", tok, expected="number")

    def add_term(
        self,
        count: int,
        sides: int,
        ops: tuple[Op, ...],
        target: Selector | None,
        labels: tuple[str, ...] | None,
        text: str,
        column: int,
    ) -> DiceTerm:
        self.dice_count += count
        limits.check_dice(self.text, self.dice_count)
        term = DiceTerm(count, sides, ops, target, labels, text, column, len(self.terms))
        self.terms.append(term)
        return term


_FAMILY = {
    "kh": "use one keep",
    "kl": "use one keep",
    "dh": "use one drop",
    "dl": "use one drop",
    "ro": "use one ro with a comparison, such as ro<=2",
    "rr": "use one rr with a comparison, such as rr<3",
    "!": "use one ! with a comparison, such as !>=5",
}
"""Operations that must not follow one of their own family directly: avrae's d20 merges such
runs (``kh1kl1`` keeps the highest *and* the lowest) where fightlog applies operations in turn,
so refusing them keeps every accepted expression meaning the same in both."""


def _got(tok: Token) -> str:
    if tok.kind == "end":
        return ""
    if tok.kind == "label":
        return ", got '#'"
    return f", got {tok.text!r}"


def _comparison(text: str) -> Comparison:
    if text == "=":
        return "="
    if text == "<":
        return "<"
    if text == "<=":
        return "<="
    if text == ">":
        return ">"
    return ">="


_OP_KINDS: dict[str, OpKind] = {
    "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "ro": "ro", "rr": "rr", "mi": "mi", "ma": "ma"
}


def _op_kind(text: str) -> OpKind:
    return _OP_KINDS[text]
