"""Dice Maiden's replies (Humblemonk/DiceMaiden, ``src/respond_logic.rb`` ``build_response``).

One line per roll (up to four rolls joined by ``;`` are answered one line each)::

    Alice Request: `[4d6 k3]` Roll: `[6, 5, 3, 2]` Result: `14`
    Alice Request: `[4d6 r2]` Roll: `[6, 5, 3, 3]` Rerolls: `1` Result: `17`
    Alice Request: `[6d10 t7 b1]` Roll: `[9, 8, 7, 4, 2, 1]` Botches: `1` Result: `3`
    Alice Request: `[3d6 e6]` Roll: `[6, 4, 3], [5]` Result: `18` Reason: `fire`
    Alice Request: `[1d20+1d6+2]` Roll: `[15][4]` Result: `21`

and a roll set (``6 4d6``), one row per roll under the request::

    Alice Request: `[6 4d6]` Rolls:
    `[6, 5, 3, 2]` Result: `16`
    ...
    Results Total: `96`

The name is the roller's server nickname; ``Reason`` is the comment after ``!``. Older
replies print no backticks (``Request: [4d6] Roll: [3, 5, 2, 6] Result: 16``). What the
tally shows (Humblemonk's Dice-Bag fork, ``RollPart#roll``): each dice term's faces sorted
highest first (``ul``/``unsort`` shuffles them), dropped dice included and not marked,
explosion dice after the term's own as further ``[...]`` series; a reroll shows only the final
face (``Rerolls`` counts them). So the faces are not in draw order (``ordered`` false), the
dice are unmarked (the dialect's keep and drop apply), and rerolled faces are unknown.
"""

from __future__ import annotations

import re
from functools import lru_cache

from fightlog.errors import DiceError
from fightlog.events.model import Die
from fightlog.dice.replies.dialect import compile_in
from fightlog.dice.replies.read_reply import ReadReply, summed
from fightlog.dice.replies.numbers import integer

BOT = "Dice Maiden"
DIALECT = "dice-maiden"

_REQUEST = re.compile(r"^(?P<who>.*?)\s*Request:\s*`?\[(?P<request>[^\]`]*)\]`?\s*(?P<rest>.*)$")
_ROLL = re.compile(r"Roll:\s*`?(?P<tally>\[[^`A-Za-z]*\])`?")
_ROW = re.compile(r"^\s*`?(?P<tally>\[[^`A-Za-z]*\])`?\s+Result:\s*`?(?P<total>-?[0-9]+)`?")
_SUM = re.compile(r"^\s*Results Total:\s*`?(-?[0-9]+)`?\s*$")
"""A roll set's last line: the sum of its rows' results."""
_BOTCH = re.compile(r"(?:^|\s)b([0-9]+)(?=\s|$)")
"""``b1``: count the faces of 1 or less as botches (printed apart as ``Botches``)."""
_BOTCHES = re.compile(r"Botches:\s*`?([0-9]+)`?")
_RESULT = re.compile(r"Result:\s*`?(-?[0-9]+)`?")
_REROLLS = re.compile(r"Rerolls:\s*`?([0-9]+)`?")
_REASON = re.compile(r"Reason:\s*`?([^`\n]*)`?")
_GROUP = re.compile(r"\[([^\[\]]*)\]")
_TERM = re.compile(r"([0-9]*)[dD]([0-9]+)")
_SET = re.compile(r"^\s*([0-9]+)\s+(?=\S)")
_FLAGS = re.compile(r"(?:^|\s)(?:s|nr|p|ul)(?=\s|$)", re.IGNORECASE)


def read(text: str, roller: str | None = None) -> list[ReadReply]:
    """Every roll in a Dice Maiden reply, in order."""
    out: list[ReadReply] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _REQUEST.match(line)
        if match is None:
            continue
        who = roller or (match.group("who").strip().lstrip("@") or None)
        request = match.group("request").strip()
        rest = match.group("rest")
        reason = _REASON.search(rest)
        label = reason.group(1).strip() if reason else None
        if rest.startswith("Rolls:"):
            count = _SET.match(request)
            notation = _notation(request[count.end():] if count else request)
            before = len(out)
            for row in lines[i + 1 :]:
                found = _ROW.match(row)
                if found is None:
                    whole = _SUM.match(row)
                    if whole is not None and len(out) > before:
                        out[-1] = summed(out[before:], int(whole.group(1)), "Results Total")
                    break
                out.append(_reply(text, notation, found.group("tally"), found.group("total"),
                                  who, label, rest, []))
            if len(out) == before:
                out.append(_reply(text, notation, None, None, who, label, rest,
                                  ["a roll set with no rows of dice"]))
            continue
        roll = _ROLL.search(rest)
        result = _RESULT.search(rest)
        out.append(_reply(text, _notation(request), roll.group("tally") if roll else None,
                          result.group(1) if result else None, who, label, rest, []))
    return out


def _notation(request: str) -> str:
    """The request without Dice Maiden's output flags (``s``, ``nr``, ``p``, ``ul``)."""
    return _FLAGS.sub("", request).strip()


def _reply(raw: str, notation: str, tally: str | None, total: str | None, who: str | None,
           label: str | None, rest: str, problems: list[str]) -> ReadReply:
    rerolls = _REROLLS.search(rest)
    botch = _BOTCH.search(notation)
    if botch is not None:  # the dialect has no botches: they are counted here, off the notation
        notation = (notation[: botch.start()] + notation[botch.end() :]).strip()
    dice, value, found = _roll(notation, tally, total)
    count = rerolls.group(1) if rerolls else "0"
    notes = () if count == "0" else (f"{count} rerolls: Dice Maiden shows only the final faces, so the faces they "
                                     "replaced are unknown (the check allows for it)",)
    mismatches: tuple[tuple[str, str], ...] = ()
    botches = _BOTCHES.search(rest)
    if botch is not None and botches is not None and dice:
        below = int(botch.group(1))
        counted = sum(1 for d in dice if d.face <= below)
        if counted != int(botches.group(1)):
            mismatches = (("roll-botches", f"the reply shows {botches.group(1)} botches but "
                           f"{counted} of its faces {'is' if counted == 1 else 'are'} {below} or less (b{below})"),)
    return ReadReply(
        bot=BOT,
        dialect=DIALECT,
        notation=notation,
        dice=dice,
        total=value,
        roller=who,
        label=label or None,
        problems=(*problems, *found),
        notes=notes,
        mismatches=mismatches,
        marked=False,
        ordered=False,
        raw=raw,
    )


@lru_cache(maxsize=4096)
def _roll(notation: str, tally: str | None, total: str | None) -> tuple[tuple[Die, ...], int | None, tuple[str, ...]]:
    """The dice, the result and what could not be read (cached: replies repeat them)."""
    problems: list[str] = []
    dice: list[Die] = []
    terms = _terms(notation)
    if tally is None:
        problems.append("no faces shown (simplified output, or the Roll part is missing)")
    else:
        dice = _dice(tally, terms, problems)
    value = None
    if total is None:
        problems.append("no result printed")
    else:
        value = int(total)
    return tuple(dice), value, tuple(problems)


def _terms(notation: str) -> list[tuple[int, int]]:
    """Each dice term's count and sides as the dice-maiden dialect reads the request
    (``4d6 d1`` is one term, ``4dF`` four d3, ``1d%`` a d100); the bare ``NdS`` when the
    dialect refuses it (the audit then names the refusal)."""
    try:
        return [(t.count, t.sides) for t in compile_in(notation, DIALECT).terms]
    except DiceError:
        return [(int(n) if n else 1, int(s)) for n, s in _TERM.findall(notation)]


def _dice(tally: str, terms: list[tuple[int, int]], problems: list[str]) -> list[Die]:
    """The tally's faces matched to the notation's dice terms: each term's group, then its
    explosion series (``, [...]``)."""
    dice: list[Die] = []
    term = -1
    last_end = 0
    for match in _GROUP.finditer(tally):
        series = tally[last_end : match.start()].strip() == "," and term >= 0
        last_end = match.end()
        if not series:
            term += 1
        if term >= len(terms):
            problems.append(f"more groups of faces than dice terms in the request: {tally}")
            break
        sides = terms[term][1]
        for text in match.group(1).split(","):
            text = text.strip()
            if not text:
                continue
            face = integer(text)
            if face is None:
                problems.append(f"a face that is not a number: {text!r}")
                continue
            dice.append(Die(sides=sides, face=face, exploded=series))
    if term + 1 < len(terms):
        problems.append(f"faces for {term + 1} of the request's {len(terms)} dice terms")
    return dice
