"""A dice term in a bot's notation -> ``DiceTerm``: the dice, their operations (spellings
from the dialect's ``Syntax``), selectors, a success target and a failure target.

``TermReader`` holds the reader's state and its character helpers; ``reader.Reader`` adds
the expression grammar on top. Every check on a term runs here as it is read: counts and
sides, the sides and dice limits, rerolls and explosions that could never stop.
"""

from __future__ import annotations

from dataclasses import replace

from fightlog.errors import DiceSyntaxError, DiceValueError
from fightlog.dice import limits
from fightlog.dice.ast import Comparison, DiceTerm, Op, Pick, Sel, Selector, op_text
from fightlog.dice.dialects.syntax import OpSpec, SelectorStyle, Syntax
from fightlog.dice.lexer import check_text
from fightlog.dice.operations import never_stops

DIGITS = "0123456789"


class TermReader:
    """A reader's state and helpers, and the grammar of one dice term."""

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
        self.written: dict[int, str] = {}  # an operation's spelling as written, by column

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
        while self.at() and self.at() in DIGITS:
            self.pos += 1
        digits = self.text[start : self.pos]
        if not digits:
            ch = self.at()
            if ch and (ch.isdigit() or ch.isnumeric()):
                raise self.syntax_error(f"non-ASCII digit {ch!r} (use 0-9)", "number")
            raise self.syntax_error(f"expected a number{self.got()}", "number")
        limits.check_digits(self.text, len(digits), start + 1)
        return int(digits), digits

    # ------------------------------------------------------------------ dice terms

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
        bot = self.syntax.limits
        if bot is not None:
            limits.check_bot_term(self.text, bot, count, sides, column)
        term = DiceTerm(count, sides, (), None, None, "", column, len(self.terms), faces)  # type: ignore[arg-type]
        self.letter = {}
        ops = self.ops(term)
        if self.syntax.drop_before_keep:  # drops move ahead of keeps; other ops stay put
            slots = [i for i, o in enumerate(ops) if o.kind in ("dh", "dl", "kh", "kl")]
            moved = sorted((ops[i] for i in slots), key=lambda o: o.kind in ("kh", "kl"))
            for i, op in zip(slots, moved):
                ops[i] = op
        if self.letter:
            target, failure = self.letter.get("success"), self.letter.get("failure")
        else:
            target, failure = self.target()
        text = self.text[start : self.pos].replace(" ", "").replace("\t", "")
        term = replace(term, ops=tuple(ops), target=target, failure=failure, text=text)
        for op in term.ops:
            if op.kind in ("rr", "!", "!!", "!p") and never_stops(term, op):
                raise DiceValueError(
                    f"{self.text} : {self.written.get(op.column, op_text(op))} matches every face "
                    f"of a d{sides}: it would never stop at column {op.column}"
                )
        self.dice_count += count
        limits.check_dice(self.text, self.dice_count)
        limits.check_rolls(self.text, self.dice_count, bot)
        self.terms.append(term)
        return term

    def ops(self, term: DiceTerm | None) -> list[Op]:
        out: list[Op] = []
        while True:
            save = self.pos
            if self.syntax.space_before_ops:
                self.spaces()
            letter = next((k for k in self.syntax.letters if self.startswith(k)), None)
            if letter is not None and term is not None and self.at(len(letter)) in tuple(DIGITS):
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
            self.written[column] = "".join(self.text[column - 1 : self.pos].split())
            prev = out[-1] if out else None
            if self.syntax.merge_runs and prev is not None and prev.kind == op.kind and op.kind in ("!!", "!p"):
                raise DiceSyntaxError(
                    f"{spelling} written twice in a row: one {spelling} per dice term "
                    f"(write {spelling} once, with a compare point if needed: {spelling}>5)",
                    expr=self.text, column=column, expected="one " + spelling,
                )
            if (
                self.syntax.merge_runs and prev is not None and prev.kind == op.kind
                and (op.sels is not None or op.selector is not None) and op.kind not in ("mi", "ma")
            ):  # one selection: the union of the run's selectors
                out[-1] = replace(prev, selector=None, sels=_sels(prev) + _sels(op))
            else:
                out.append(op)

    def skip_mark(self, mark: str) -> None:
        """A display-only option (roll20 ``cs>19``, ``sa``): read its compare point, if any."""
        self.pos += len(mark)
        cmp = next((c for c in ("<=", ">=", "<", ">", "=") if self.startswith(c)), "")
        self.pos += len(cmp)
        if cmp or (self.at() and self.at() in DIGITS):
            self.number()

    def op(self, spec: OpSpec, term: DiceTerm | None, column: int) -> Op | None:
        kind = spec.kind
        if self.syntax.space_before_ops:
            save = self.pos
            self.spaces()
            if not (self.at() and self.at() in DIGITS):
                self.pos = save
        has_number = bool(self.at()) and (self.at() in DIGITS or self.at() in "<>=lh")
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
            amount = self.number()[0] if self.at() and self.at() in DIGITS else 1
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
        if self.at() and self.at() in DIGITS:
            value = self.number()[0]
            if style == "ge":  # dicebag: ``r >= explode``, and an explode of 0 is off
                return Selector(">=" if value else "=", value)
            return Selector("<=" if style == "le" else "=", value)
        if optional and default is not None:
            return default
        raise self.syntax_error(f"expected a number{self.got()}", "number")

    def inclusive(self, cmp: str) -> Comparison:
        if self.syntax.successes == "inclusive" and cmp in ("<", ">"):
            return "<=" if cmp == "<" else ">="
        return comparison(cmp)

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


def comparison(text: str) -> Comparison:
    table: dict[str, Comparison] = {"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
    return table[text]


def _sels(op: Op) -> tuple[Sel, ...]:
    return op.sels if op.sels is not None else (op.selector,) if op.selector is not None else ()
