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
* ``!rr``/``!rrr`` (``_roll_many``): the mention alone, ``Rolling 3 iterations...``, one
  one-liner per roll, ``42 total.``.
* ``!a`` embeds (``cogs5e/models/automation/effects/attack.py`` and ``damage.py``):
  ``**To Hit**: 1d20 (14) + 5 = `19``` (``**To Hit (AC 15)**`` against a known AC),
  ``**Damage**: 1d8 (5) + 3 [slashing] = `8``` (``**Damage (CRIT!)**``, ``**Healing**``);
  a hidden roll (``1d20... = `HIT```) shows no dice. The embed's title
  (``Alice attacks with a Longsword!``) names the roller.

The dice are read by ``d20_text``; Discord's rendered text (no ``**`` nor backticks) reads too.
"""

from __future__ import annotations

import re

from msgspec.structs import replace

from fightlog.dice.replies.d20_text import read_d20
from fightlog.dice.replies.read_reply import ReadReply, summed
from fightlog.dice.replies.numbers import integer

BOT = "Avrae"
DIALECT = "avrae"
MARKS = ("Total", "= `", "To Hit", "Damage", "Healing")
"""Every Avrae roll reply holds one of these (``read_replies`` skips a text with none)."""

_R = re.compile(
    r"(?:<@!?([0-9]+)>|@([^\n]+?))  :game_die:\n\*\*([^*\n]{1,100})\*\*: ([^\n]*\S)\n\*\*Total\*\*: (-?[0-9]+)"
)
"""A whole ``!r`` reply as Avrae sends it (the common case, read in one match)."""

_HEAD = re.compile(r"^\s*(?:<@!?([0-9]+)>|@(\S.*?))\s+(?::game_die:|\U0001F3B2)\s*$")
"""The mention heading a reply: an id, or the name the exporter wrote (a nickname may hold a
colon: ``@Sir Mara: the Bold``)."""
_ATTACK = re.compile(
    r"(?:(?:\*\*)?([^\n]+?) attacks with [^\n]+!(?:\*\*)?\n)?"
    r"\*\*(To Hit(?: \(AC [0-9]+\))?)\*\*: ([^\n`]*\S) = `(-?[0-9]+)`"
    r"(?:\n\*\*((?:Damage|Healing)(?: \(CRIT!\))?)\*\*: ([^\n`]*\S) = `(-?[0-9]+)`)?"
)
"""An attack embed's title, To Hit and Damage lines (the common case, read in one match)."""
_MENTION = re.compile(r"^<@!?([0-9]+)>\s*$")
"""A mention alone on the first line (``!rr``/``!rrr``: ``Rolling 3 iterations...`` follows)."""
_TITLE = re.compile(r"^\s*(?:\*\*)?(.+?) (?:attacks with .+|makes an? .+? (?:check|[Ss]ave))!(?:\*\*)?\s*$")
"""An embed's title naming its roller: an attack (``Vex attacks with a Dagger!``), a check
(``Vex makes an Athletics check!``) or a save (``Vex makes a Dexterity Save!``), as Avrae's
``cogs5e`` attack and check utilities write them."""
_UNKNOWN = "An unknown creature"
"""A hidden monster's check (``-h``): no roller named."""
_LABELLED = re.compile(r"^\s*(?:\*\*)?([^*\n:]{1,100}?)(?:\*\*)?:\s+(.*\S)\s*$")
_TOTAL = re.compile(r"^\s*(?:\*\*)?Total(?:\*\*)?:\s*`?(-?[0-9]+)`?\s*$")
_EQUALS = re.compile(r"^(.*\S)\s+=\s+`?(-?[0-9]+|[A-Z]+)`?\s*$")
_FIELD = re.compile(r"^(To Hit(?: \(AC [0-9]+\))?|Damage(?: \(CRIT!\))?|Healing(?: \(CRIT!\))?)$")
_DICE = re.compile(r"[0-9][dD](?:[0-9]+|%)\S* {1,2}\(")
_STARTS = re.compile(r"^\s*[-(0-9]")
_MANY = re.compile(r"^\s*(-?[0-9]+) total\.\s*$")
"""``!rr``'s last line: the sum of its rolls' totals (``42 total.``)."""
_ONE = re.compile(r"([0-9][^\n`]*?\S) = `(-?[0-9]+)`")
"""The one-liner ``1d20 (**20**) + 5 = `25``` alone (the common case, read in one match)."""
"""A roll string starts with a number, a dice term, a minus or a parenthesis."""


def read(text: str, roller: str | None = None) -> list[ReadReply]:
    """Every roll in an Avrae reply (an attack embed has a To Hit and a Damage), in order."""
    whole = _R.fullmatch(text)
    if whole is not None and not whole.group(4).endswith("..."):
        mention, name, label, body, total = whole.groups()
        return [_reply(text, body, total, label, False, roller or mention or name)]
    one = _ONE.fullmatch(text)
    if one is not None:
        return [_reply(text, one.group(1), one.group(2), None, False, roller)]
    attack = _ATTACK.fullmatch(text)
    if attack is not None:
        who, hit, body, total, damage, dbody, dtotal = attack.groups()
        rolls = [_reply(text, body, total, hit, True, roller or who)]
        if damage is not None:
            rolls.append(_reply(text, dbody, dtotal, damage, True, roller or who))
        return rolls
    return _read_lines(text, roller)


def _read_lines(text: str, roller: str | None) -> list[ReadReply]:
    """The rolls of a reply that is not one of the one-match shapes, read line by line: an
    embed's title names the roller, and each labelled field or ``... = `N``` line is a roll."""
    lines = text.splitlines()
    who = roller
    out: list[ReadReply] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if who is None and (":game_die:" in line or "\U0001F3B2" in line or " attacks with " in line
                            or " makes " in line or line.startswith("<@")):
            head = _HEAD.match(line) or _TITLE.match(line) or _MENTION.match(line)
            if head is not None:
                named = next(g for g in head.groups() if g)
                who = None if named == _UNKNOWN else named
                continue
        labelled = _LABELLED.match(line)
        if labelled is not None:
            name, body = labelled.groups()
            if name == "Total":
                continue
            field = _FIELD.match(name)
            equals = _EQUALS.match(body)
            if equals is not None and (field is not None or _DICE.search(body)):
                out.append(_reply(text, equals.group(1), equals.group(2), name, field is not None, who))
                continue
            total_line = _TOTAL.match(lines[i]) if i < len(lines) else None
            if total_line is not None and (_DICE.search(body) or body.endswith("...")):
                i += 1
                out.append(_reply(text, body, total_line.group(1), name, field is not None, who))
                continue
            if field is not None or name == "Result":
                out.append(_reply(text, body, None, name, field is not None, who))
            continue
        equals = _EQUALS.match(line)
        if equals is not None and _STARTS.match(line) and _DICE.search(equals.group(1)):
            out.append(_reply(text, equals.group(1), equals.group(2), None, False, who))
            continue
        many = _MANY.match(line)
        if many is not None and out:
            out[-1] = summed(out, int(many.group(1)), "total")
    return [r if r.roller is not None or who is None else _with_roller(r, who) for r in out]


def _reply(raw: str, body: str, total: str | None, name: str | None, field: bool,
           who: str | None) -> ReadReply:
    value: int | None = None
    if total is not None and integer(total) is None:  # 1d20... = `HIT`
        roll = read_d20(body.removesuffix("..."))
        problems = [f"a hidden roll: only {total} is shown, not its dice"]
    else:
        roll = read_d20(body)
        problems = list(roll.problems)
        if total is None:
            problems.append("no total printed")
        else:
            value = int(total)
    purpose = None
    label = None if name in (None, "Result") else name
    if field:
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
        mismatches=roll.mismatches,
        struck=roll.struck,
        raw=raw,
    )


def _with_roller(reply: ReadReply, who: str) -> ReadReply:
    return replace(reply, roller=who)
