"""Refusals that name what the writer probably meant (docs/dice.md, "Ambiguous forms").

fightlog's notation refuses every form a popular bot reads differently, naming both
readings and the spelling for each, and every refused spelling with a near valid one names
it. These functions only build errors; the lexer and parser decide when to raise them, so a
valid expression never reaches this module.
"""

from __future__ import annotations

import re

from fightlog.errors import DiceSyntaxError

_WORD = re.compile(r"[A-Za-z_][\w'-]*")


def _error(text: str, column: int, message: str, expected: str | None = None) -> DiceSyntaxError:
    return DiceSyntaxError(message, expr=text, column=column, expected=expected)


def repeat_or_comment(text: str, column: int) -> DiceSyntaxError:
    """``6#3d6``: RPG Sage and Rollem roll 3d6 six times; fightlog would read 6 # comment."""
    count, rest = text[: column - 1].strip(), text[column:].strip()
    return _error(
        text,
        column,
        f"did you mean {count} repeats of {rest or '...'} (--dialect rpg-sage) or "
        f"{count} # {rest} (a comment, with a space before #)?",
    )


def strict(text: str, column: int, what: str, cmp: str, value: int, example: str) -> DiceSyntaxError:
    """A bare ``<``/``>`` where roll20 and Sidekick include the number (``8d6>4`` counts 4s)."""
    ours = value + 1 if cmp == ">" else value - 1
    wide = ">=" if cmp == ">" else "<="
    return _error(
        text,
        column,
        f"{cmp}{value} is ambiguous in {what}: {wide}{ours} as fightlog and avrae read it, "
        f"{wide}{value} in roll20 and Sidekick; write {example.replace(cmp + str(value), wide + str(ours))} "
        f"or {example.replace(cmp + str(value), wide + str(value))} (--dialect roll20 reads {cmp} inclusive)",
    )


def total_test(text: str, column: int) -> DiceSyntaxError:
    """``1d20 >= 11`` / ``1d20+5 >= 15``: RPG Sage tests the total (pass or fail); fightlog
    counts dice meeting a comparison written right after them (``5d6>=5``)."""
    dice = text[: column - 1].rstrip()
    test = text[column - 1 :].strip()
    wide = re.sub(r"^([<>])(\d+)$", lambda m: ("<=" if m[1] == "<" else ">=") + str(int(m[2]) + (1 if m[1] == ">" else -1)), test.replace(" ", ""))
    count = dice + wide if dice and dice[-1].isdigit() and "+" not in dice and "-" not in dice else None
    spelled = f" or a count of dice meeting it, {count} (no space)" if count else ""
    return _error(
        text,
        column,
        f"did you mean the total tested against it with pass or fail, {dice} {test} "
        f"(RPG Sage: --dialect rpg-sage){spelled}?",
    )


def explode_or_count(text: str, column: int, term: str, sides: int) -> DiceSyntaxError:
    """``3d10!>=8``: fightlog explodes on 8 or more and sums; Sidekick (and roll20 users
    writing it) explode the highest face and count the dice meeting ``>=8``."""
    bang = term.rindex("!")
    head, cmp = term[:bang], term[bang + 1 :]
    return _error(
        text,
        column,
        f"{term} is ambiguous: did you mean explode dice {cmp} and sum, {term}mi1 "
        f"(mi1 changes no face), or explode {sides}s and count dice {cmp}, {head}!{sides}{cmp} "
        f"(Sidekick's and roll20's reading)?",
    )


def percent(text: str, column: int, head: str) -> DiceSyntaxError:
    """``1d%``: Dice Maiden rolls a d100 (1 to 100), as fightlog did; avrae's d20 a tens die
    (0, 10, ..., 90). ``column`` is the ``%``'s, ``head`` the term before it (``2d``)."""
    hundred = (text[: column - 1] + "100" + text[column:]).strip()
    notation = text.partition("#")[0].strip()
    return _error(
        text,
        column,
        f"{head}% is ambiguous: Dice Maiden (and logs fightlog wrote before) read d% as a d100 (1 to 100), "
        f"avrae's d20 as a tens die (0, 10, ..., 90); write {hundred} or --dialect avrae '{notation}'",
    )


def after_number(text: str, tok_kind: str, tok_text: str, column: int) -> DiceSyntaxError | None:
    """What a bot means by what follows a complete expression: Dice Maiden's repeats
    (``6 3d6``), avrae's and roll20's modulo (``7 % 3``)."""
    head = text[: column - 1].strip()
    if tok_kind in ("num", "die") and head.isdigit():
        rest = text[column - 1 :].strip()
        return _error(
            text,
            column,
            f"did you mean {head} repeats of {rest} (Dice Maiden: --dialect dice-maiden '{head} {rest}', "
            f"RPG Sage: --dialect rpg-sage '{head}#{rest}')? fightlog rolls one expression at a time",
        )
    if tok_text == "%":
        return _error(text, column, "% (modulo) is avrae's and roll20's: --dialect avrae or roll20")
    return None


def double_equals(text: str, column: int) -> DiceSyntaxError:
    """``1d20==20``: avrae compares (1 or 0); fightlog counts dice with ``=``."""
    head = text[: column - 1]
    rest = text[column + 1 :].strip()
    return _error(
        text,
        column,
        f"did you mean a count of dice showing {rest}, {head}={rest}, or avrae's comparison of the "
        f"total (1 or 0): --dialect avrae '{text.strip()}'?",
    )


def leading_die(text: str, column: int, sign: str, sides: str) -> DiceSyntaxError:
    """``-d20`` / ``+d20`` at the start: Dice Maiden's disadvantage / advantage."""
    if sign == "-":
        return _error(
            text,
            column,
            f"did you mean disadvantage, 2d{sides}kl1 (Dice Maiden's -d{sides}, --dialect "
            f"dice-maiden) or minus one die, -1d{sides}?",
        )
    return _error(
        text,
        column,
        f"did you mean advantage, 2d{sides}kh1 (Dice Maiden's +d{sides}, --dialect dice-maiden) "
        f"or one die, 1d{sides}?",
    )


_NEAR: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"k(\d+)"), "write kh{0} to keep the {0} highest (avrae reads k{0} as keep the dice showing {0}: --dialect avrae)"),
    (re.compile(r"pl(\d*)"), "write dl{0} to drop the lowest (avrae's pl{0}: --dialect avrae)"),
    (re.compile(r"ph(\d*)"), "write dh{0} to drop the highest (avrae's ph{0}: --dialect avrae)"),
    (re.compile(r"x(\d*)"), "write !{0} to explode again and again (RPG Sage's x{0}: --dialect rpg-sage)"),
    (re.compile(r"p(\d+)"), "write dl{0} or dh{0} (avrae's p{0} drops the dice showing {0}: --dialect avrae)"),
    (re.compile(r"d(\d+)"), "write dl{0} to drop the {0} lowest (roll20 and Dice Maiden write d{0})"),
    (re.compile(r"ie(\d*)"), "write !{0} to explode again and again (Dice Maiden's ie{0})"),
    (re.compile(r"e(\d+)"), "write !{0} to explode again and again (avrae's e{0}); Dice Maiden's e{0} explodes once: --dialect dice-maiden"),
    (re.compile(r"ir(\d+)"), "write rr<={0} (Dice Maiden's ir{0} rerolls {0} or less until it is not)"),
    (re.compile(r"ra(\d+)"), "ra (reroll and add) is avrae's: --dialect avrae"),
    (re.compile(r"r(\d+)"), "write ro<={0} to reroll once (Dice Maiden's r{0}) or rr{0} to reroll {0}s until they stop"),
    (re.compile(r"t(\d+)"), "write >={0} to count successes (Dice Maiden's t{0})"),
    (re.compile(r"f(\d+)"), "failures taking off successes are Dice Maiden's f{0} and roll20's f: --dialect dice-maiden or roll20"),
    (re.compile(r"F"), "Fate dice: NdF totals as Nd3-2N (4dF is 4d3-8); --dialect roll20 or dice-maiden read dF"),
    (re.compile(r"cs|cf"), "cs/cf only colour roll20's output: --dialect roll20"),
]


def unexpected(text: str, i: int) -> DiceSyntaxError:
    """An unexpected character at index ``i``: the nearest valid spelling, if there is one."""
    column = i + 1
    ch = text[i]
    rest = text[i:]
    if ch == "p" and text[i - 1 : i] == "!":
        return _error(text, column, "penetrating explosions (!p) are roll20's: --dialect roll20; fightlog's ! adds whole dice")
    if ch == "." and text[i - 1 : i].isdigit():
        return _error(text, column, "decimals are avrae's (--dialect avrae); fightlog's numbers are whole (1.5 -> 3//2)")
    if ch.isalpha():
        j = i
        while j > 0 and text[j - 1].isalpha():
            j -= 1
        before, word = text[:j], _WORD.match(text[j:])
        if before.endswith((" ", "\t")) and before.strip() and word and len(word.group()) > 1 and not _near(text[j:]):
            label = text[j:].strip()
            return _error(
                text,
                column,
                f"did you mean {before.rstrip()} # {label}? (a comment needs #; avrae reads "
                f"trailing words as one: --dialect avrae)",
                "#",
            )
        near = _near(rest)
        if near is not None:
            return _error(text, column, f"unexpected {ch!r}: {near}")
        if before[-1:].isdigit() and word and len(word.group()) > 1:
            return _error(text, column, f"did you mean {before} # {text[j:].strip()}? (a comment needs #)", "#")
    if ch == "[":
        return _error(text, column, "tags such as [fire] are avrae's (--dialect avrae); write # fire as the label")
    if ch == ",":
        return _error(text, column, "sets such as (1d6, 1d8)kh1 are avrae's (--dialect avrae); for dice of one size write 2d6kh1")
    if ch in "{}":
        return _error(text, column, "groups such as {4d6, 3d8}kh1 are roll20's (--dialect roll20)")
    return _error(text, column, f"unexpected character {ch!r}")


def _near(rest: str) -> str | None:
    for pattern, advice in _NEAR:
        m = pattern.match(rest)
        if m:
            return advice.format(*(g for g in m.groups()))
    return None
