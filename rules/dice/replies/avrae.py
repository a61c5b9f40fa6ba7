"""Avrae's replies: ``!r`` rolls and the To Hit / Damage lines of ``!a`` attack embeds.

Formats, from avrae/avrae's source:

* ``!r`` (``cogs5e/dice/cog.py`` with ``utils/dice.py``'s ``VerboseMDStringifier``)::

      <@123456789>  :game_die:
      **Result**: 1d20 (**20**) + 5
      **Total**: 25

  ``Result`` is the roll's comment when it has one (``!r 1d20+5 Stealth``); a reply over
  2000 characters is cut to ``...`` before its ``**Total**`` line.
* d20's ``MarkdownStringifier`` one-liner (``!r`` in older versions, checks and saves):
  ``1d20 (**20**) + 5 = `25```.
* ``!a`` embeds (``cogs5e/models/automation/effects/attack.py`` and ``damage.py``):
  ``**To Hit**: 1d20 (14) + 5 = `19``` (``**To Hit (AC 15)**`` against a known AC),
  ``**Damage**: 1d8 (5) + 3 [slashing] = `8``` (``**Damage (CRIT!)**``, ``**Healing**``);
  a hidden roll (``1d20... = `HIT```) shows no dice. The embed's title
  (``Alice attacks with a Longsword!``) names the roller.

The dice are read by ``d20_text``; Discord's rendered text (no ``**`` nor backticks) reads too.
"""

from __future__ import annotations

import re

from fightlog.rules.dice.replies.d20_text import read_d20
from fightlog.rules.dice.replies.model import ReadReply

BOT = "Avrae"
DIALECT = "avrae"

_HEAD = re.compile(r"^\s*(?:<@!?(\d+)>|@(\S[^:]*?))\s+(?::game_die:|\U0001F3B2)\s*$")
_TITLE = re.compile(r"^\s*(?:\*\*)?(.+?) attacks with .+!(?:\*\*)?\s*$")
_LABELLED = re.compile(r"^\s*(?:\*\*)?([^*\n:]{1,100}?)(?:\*\*)?:\s+(.*\S)\s*$")
_TOTAL = re.compile(r"^\s*(?:\*\*)?Total(?:\*\*)?:\s*`?(-?\d+)`?\s*$")
_EQUALS = re.compile(r"^(.*\S)\s+=\s+`?(-?\d+|[A-Z]+)`?\s*$")
_FIELD = re.compile(r"^(To Hit(?: \(AC \d+\))?|Damage(?: \(CRIT!\))?|Healing(?: \(CRIT!\))?)$")
_DICE = re.compile(r"\d[dD](?:\d+|%)\S* \(")
_STARTS = re.compile(r"^\s*[-(\d]")
"""A roll string starts with a number, a dice term, a minus or a parenthesis."""


def read(text: str, roller: str | None = None) -> list[ReadReply]:
    """Every roll in an Avrae reply (an attack embed has a To Hit and a Damage), in order."""
    lines = text.splitlines()
    who = roller
    out: list[ReadReply] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if who is None:
            head = _HEAD.match(line) or _TITLE.match(line)
            if head is not None:
                who = next(g for g in head.groups() if g)
                continue
        labelled = _LABELLED.match(line)
        if labelled is not None:
            name, body = labelled.groups()
            if name == "Total":
                continue
            field = _FIELD.match(name)
            equals = _EQUALS.match(body)
            if equals is not None and (field is not None or _DICE.search(body)):
                out.append(_reply(text, equals.group(1), equals.group(2), name, field, who))
                continue
            total_line = _TOTAL.match(lines[i]) if i < len(lines) else None
            if total_line is not None and (_DICE.search(body) or body.endswith("...")):
                i += 1
                out.append(_reply(text, body, total_line.group(1), name, field, who))
                continue
            if field is not None or name == "Result":
                out.append(_reply(text, body, None, name, field, who))
            continue
        equals = _EQUALS.match(line)
        if equals is not None and _STARTS.match(line) and _DICE.search(equals.group(1)):
            out.append(_reply(text, equals.group(1), equals.group(2), None, None, who))
    return [r if r.roller is not None or who is None else _with_roller(r, who) for r in out]


def _reply(raw: str, body: str, total: str | None, name: str | None, field: re.Match[str] | None,
           who: str | None) -> ReadReply:
    roll = read_d20(body)
    problems = list(roll.problems)
    value: int | None = None
    if total is None:
        problems.append("no total printed")
    elif total.lstrip("-").isdigit():
        value = int(total)
    else:
        problems.append(f"a hidden roll: only {total} is shown")
    purpose = None
    label = None if name in (None, "Result") else name
    if field is not None:
        purpose = "attack" if name is not None and name.startswith("To Hit") else "damage"
    return ReadReply(
        bot=BOT,
        dialect=DIALECT,
        notation=roll.notation,
        dice=roll.dice,
        total=value,
        roller=who,
        label=label,
        purpose=purpose,
        problems=tuple(problems),
        raw=raw,
    )


def _with_roller(reply: ReadReply, who: str) -> ReadReply:
    from msgspec.structs import replace

    return replace(reply, roller=who)
