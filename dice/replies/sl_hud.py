"""Second Life combat HUDs: the roll lines they say in local chat.

There is no one HUD: each scripter words its own. These are the common phrasings this reads
(an SL chat log line may start with ``[2024/05/01 14:22]`` and the speaking object's name and
a colon, which becomes ``origin.author``)::

    Alice Vance rolled 1d100: 57
    Alice Vance rolled 2d6: 3, 4 = 7
    Alice Vance rolls 1d100 and gets 57
    Alice Vance rolled 1d100 (57) + [10 scope] = 67
    Alice Vance rolled 1d100 (57) + [10 scope] + [5 racial] - [5 cover] = 67
    Alice Vance rolled 1d100 (57) + [5] = 62
    Alice Vance rolls 1d100 for attack: 64
    [2024/05/01 14:22]  RoE HUD (alice.resident): /me Alice Vance rolls 1d100 for attack: 64

A bracket is one modifier, named (``[10 scope]``: +10 from the scope) or not (``[5]``, its
source ``unnamed``); faces are in roll order and unmarked; a phrasing that prints only a
total for several dice has no faces to read. ``for PURPOSE`` after the dice says what the
roll was for (``attack``, ``damage``, ``dodge``, ``initiative``...): the reply's ``purpose``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from fightlog.events.model import Die, Modifier
from fightlog.dice.replies.read_reply import ReadReply

BOT = "SL HUD"
DIALECT = "fightlog"

_ROLL = re.compile(r" (?:rolled|rolls) (?:a )?([0-9]*)[dD]([0-9]+)")
"""The verb and the dice; what precedes is who (after any time stamp and speaker)."""
_STAMP = re.compile(r"^\s*\[[^\]]{1,40}\]\s*")
_COLON = re.compile(r"^:\s*(?P<faces>-?[0-9]+(?:\s*[,+]\s*-?[0-9]+)*)(?:\s*=\s*(?P<total>-?[0-9]+))?$")
_GETS = re.compile(r"^ and gets (?:a )?(?P<total>-?[0-9]+)\.?$")
_BRACKETS = re.compile(
    r"^ \((?P<faces>-?[0-9]+(?:,\s*-?[0-9]+)*)\)(?P<mods>(?:\s*[+-]\s*\[-?[0-9]+(?: [^\]]+)?\])*)\s*=\s*(?P<total>-?[0-9]+)$"
)
_MOD = re.compile(r"([+-])\s*\[(-?[0-9]+)(?: ([^\]]+))?\]")
_SPLIT = re.compile(r"\s*[,+]\s*")
_FOR = re.compile(r"^ for (?:an? |the )?(?P<purpose>[A-Za-z][A-Za-z ]{0,30}?)(?=\s*[:(]| and gets )")
"""``for PURPOSE`` after the dice (``rolls 1d100 for attack: 64``)."""
_PURPOSES = {"to hit": "attack", "hit": "attack", "attack": "attack", "damage": "damage", "dodge": "dodge",
             "initiative": "initiative", "init": "initiative", "flee": "flee", "save": "save",
             "defense": "defense", "defence": "defense", "soak": "soak", "parry": "parry"}
UNNAMED = "unnamed"
"""The source of a bracket that names none (``+ [5]``)."""


def read(text: str, roller: str | None = None) -> list[ReadReply]:
    """Every HUD roll line in the text."""
    out: list[ReadReply] = []
    for line in text.splitlines():
        match = _ROLL.search(line)
        if match is None:
            continue
        head = line[: match.start()]
        stamp = _STAMP.match(head)
        if stamp is not None:  # a chat log's line: the speaker's name ends at the first colon (its own are %3A)
            head = head[stamp.end() :]
            obj, sep, who = head.partition(": ")
            if not sep:
                obj, who = "", obj
        else:
            obj, sep, who = head.rpartition(": ")
        who = who.strip()
        if who.startswith("/me "):  # the HUD's emote, as the log keeps it
            who = who[4:].strip()
        if not who or len(who) > 80 or len(obj) > 64:
            continue
        count = int(match.group(1) or 1)
        sides = int(match.group(2))
        tail = line[match.end() :].rstrip()
        said = _FOR.match(tail)
        purpose = None
        if said is not None:
            words = said["purpose"].strip().lower()
            purpose = _PURPOSES.get(words, words.replace(" ", "_"))
            tail = tail[said.end() :]
        dice, mods, total, problems = _tail(count, sides, tail)
        out.append(
            ReadReply(
                bot=BOT,
                dialect=DIALECT,
                notation=f"{count}d{sides}",
                dice=dice,
                modifiers=mods,
                total=total,
                roller=roller or who,
                author=obj.strip() or None if sep else None,
                purpose=purpose,
                problems=problems,
                medium="sl-chat",
                raw=text,
            )
        )
    return out


@lru_cache(maxsize=4096)
def _tail(count: int, sides: int, tail: str) -> tuple[tuple[Die, ...], tuple[Modifier, ...], int | None, tuple[str, ...]]:
    """What follows ``rolled NdS``: the dice, the modifiers, the total and what could not be
    read (cached: HUD lines repeat their tails)."""
    problems: list[str] = []
    faces: list[int] = []
    mods: list[Modifier] = []
    total: int | None = None
    if (colon := _COLON.match(tail)) is not None:
        faces = [int(f) for f in _SPLIT.split(colon.group("faces"))]
        total = int(colon.group("total")) if colon.group("total") else None
        if total is None and count == 1:
            total = faces[0]
    elif (gets := _GETS.match(tail)) is not None:
        total = int(gets.group("total"))
        if count == 1:
            faces = [total]
        else:
            problems.append(f"only the total is printed: the faces of {count}d{sides} are unknown")
    elif (brackets := _BRACKETS.match(tail)) is not None:
        faces = [int(f) for f in brackets.group("faces").split(",")]
        total = int(brackets.group("total"))
        for sign, value, source in _MOD.findall(brackets.group("mods")):
            mods.append(Modifier(value=-int(value) if sign == "-" else int(value), source=source.strip() or UNNAMED))
    else:
        problems.append(f"an unknown wording after the dice: {tail.strip()[:60]!r}")
    if faces and len(faces) != count:
        problems.append(f"{count}d{sides} shows {len(faces)} {'face' if len(faces) == 1 else 'faces'}")
    return tuple([Die(sides=sides, face=f) for f in faces]), tuple(mods), total, tuple(problems)

