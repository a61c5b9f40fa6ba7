"""RPG Sage's replies (rpg-sage-creative/rpg-sage, ``packages/game-utils/src/dice``).

``Dice#toRollString`` (the default ``M`` output) prints the grade emoji, the total in bold
italics, the roll's description in backticks, a long left arrow and each dice part::

    [success] <i><b>19</b></i> `Attack` ⟵ [14]1d20 + 5 >= 15

which Discord shows with the HTML turned to Markdown (``***19***``, ``~~2~~``) and the grade
as an emoji. Each part's faces come in brackets before its ``NdS`` (``mapDicePartToRollString``),
sorted lowest first (``rollDataSorter``; ``noSort`` keeps draw order), marked
(``markup/``): dropped ``<s>2</s>``, highest face ``<b>6</b>``, lowest ``<i>1</i>``, a die that
exploded ``6ₓ``, a die an explosion added ``4⁺``. A part's keep/drop is not printed, only its
marks. A test (``>= 15``, ``vs 15``) closes the parts; the total stays the sum.
"""

from __future__ import annotations

import re
from functools import lru_cache

from fightlog.errors import DiceError
from fightlog.events.model import Die
from fightlog.dice.replies.dialect import compile_in
from fightlog.dice.replies.read_reply import ReadReply
from fightlog.dice.replies.numbers import integer

BOT = "RPG Sage"
DIALECT = "rpg-sage"

_LINE = re.compile(
    r"^(?P<head>.*?)(?:<i><b>|\*\*\*|<b><i>)\s*(?P<total>-?[0-9]+)f?\s*(?:</b></i>|\*\*\*|</i></b>)\s*"
    r"(?:`(?P<desc>[^`]*)`\s*)?(?:\u27f5|<-)\s*(?P<body>.*?)\s*$"
)
_PART = re.compile(r"(?:\|\|)?\[(?P<faces>[^\]]*)\](?:\|\|)?\s?(?P<count>[0-9]*)[dD](?P<sides>[0-9]+)")
_TAGS = re.compile(r"</?[bis]>|\*\*|\*|~~")
_GRADE = re.compile(r"\[((?:critical-)?(?:success|failure))\]")
"""The grade ``DieRollGradeEmojis`` prints before a tested roll (``[success]``)."""


def read(text: str, roller: str | None = None) -> list[ReadReply]:
    """Every roll in an RPG Sage reply, one per line that carries the arrow."""
    out: list[ReadReply] = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        notation, dice, problems = _body(match.group("body"))
        desc = match.group("desc")
        total = int(match.group("total"))
        grade = _GRADE.search(match.group("head"))
        outcome = grade.group(1) if grade else None
        out.append(
            ReadReply(
                bot=BOT,
                dialect=DIALECT,
                notation=notation,
                dice=dice,
                total=total,
                roller=roller,
                label=desc.strip() if desc and desc.strip() else None,
                problems=problems,
                mismatches=_claim(notation, total, outcome),
                outcome=outcome,
                ordered=False,
                raw=text,
            )
        )
    return out


@lru_cache(maxsize=4096)
def _claim(notation: str, total: int, outcome: str | None) -> tuple[tuple[str, str], ...]:
    """The grade checked against the test: ``[failure]`` on a 19 against ``>= 15`` is
    named (``roll-outcome``); a test with no grade, or a grade with no test, too."""
    try:
        test = compile_in(notation, DIALECT).test
    except DiceError:
        return ()
    if test is None:
        if outcome is None:
            return ()
        return (("roll-outcome", f"the reply grades the roll {outcome} but {notation} has no test"),)
    passed = test.predicate()(total)
    if outcome is None:
        return (("roll-outcome", f"{notation} is a test the reply does not grade "
                 f"({total} {'passes' if passed else 'fails'})"),)
    if outcome.endswith("success") != passed:
        return (("roll-outcome", f"total {total} {'passes' if passed else 'fails'} "
                 f"{test.cmp} {test.value} but the reply says {outcome}"),)
    return ()


@lru_cache(maxsize=4096)
def _body(body: str) -> tuple[str, tuple[Die, ...], tuple[str, ...]]:
    """The parts after the arrow: the notation, the dice, what could not be read (cached)."""
    problems: list[str] = []
    dice: list[Die] = []
    pieces: list[str] = []
    last = 0
    for part in _PART.finditer(body):
        pieces.append(body[last : part.start()])
        count = int(part.group("count") or 1)
        sides = int(part.group("sides"))
        pieces.append(f"{count}d{sides}")
        last = part.end()
        dice.extend(_faces(part.group("faces"), count, sides, problems))
    pieces.append(body[last:])
    if not dice:
        problems.append("no dice shown")
    return " ".join("".join(pieces).split()), tuple(dice), tuple(problems)


def _faces(shown: str, count: int, sides: int, problems: list[str]) -> list[Die]:
    dice: list[Die] = []
    base: list[Die] = []
    added: list[Die] = []
    for item in shown.split(","):
        item = item.strip()
        if not item:
            continue
        dropped = "<s>" in item or "~~" in item
        plain = _TAGS.sub("", item)
        explosion = plain.endswith("\u207a")  # ⁺: added by an explosion
        plain = plain.rstrip("\u207a\u2093f").strip()  # ₓ: exploded; f: a fixed roll
        face = integer(plain)
        if face is None:
            problems.append(f"a face that is not a number: {item!r}")
            continue
        die = Die(sides=sides, face=face, kept=not dropped, exploded=explosion)
        (added if explosion else base).append(die)
    dice = base + added
    if len(base) != count:
        problems.append(f"{count}d{sides} shows {len(base)} dice")
    return dice
