"""Dice rolls read out of a message: the one place the importer asks "is this a roll?".

``read_rolls(message, dialect)`` gives the rolls a dice bot's or HUD's message shows, each
as written (dice, faces, notation, the printed total: a total that does not add up is kept
and the audit flags it). Until the bot-reply parsers of the dice dialects land (issue 21,
``fightlog.rules.dice.replies``), this module reads the common phrasings itself:

* ``avrae``: ``**Result**: 1d20 (14) + 2`` / ``**Total**: 16`` (the ``!r`` reply), and the
  ``!a`` attack embed's ``To Hit`` and ``Damage`` lines (``1d20 (14) + 5 = `19```);
* ``dice-maiden``: ``Nick Request: [1d20+2] Roll: [17] Result: 19`` (backticks allowed);
* ``sl-hud``: ``Name rolls 1d100: 58``, ``Name rolled 1d10+2 for damage: 7 + 2 = 9``.

Natural results in bold (``**20**``) count as faces; struck ones (``~~3~~``) as dropped dice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from msgspec import Struct

from fightlog.events.model import Die
from fightlog.importing.message import Message

DIALECTS: Final = ("avrae", "dice-maiden", "sl-hud")


class RollRead(Struct, frozen=True, kw_only=True):
    """One roll as a message shows it. ``who`` is the text naming the roller (a mention, a
    nickname, an SL name), ``label`` what the bot called it (``To Hit``, ``Damage``)."""

    notation: str
    dice: tuple[Die, ...]
    total: int
    dialect: str
    who: str | None = None
    label: str | None = None
    purpose: str | None = None


_GROUP: Final = re.compile(r"(\d*)d(\d+)([a-z0-9<>=]*)\s*\(([^()]*)\)", re.IGNORECASE)
_AVRAE_RESULT: Final = re.compile(r"(?:\*\*)?Result(?:\*\*)?:\s*(.+?)\s*\n(?:\*\*)?Total(?:\*\*)?:\s*(-?\d+)")
_AVRAE_LINE: Final = re.compile(
    r"^(?:(?:\*\*)?(?P<label>[A-Za-z][A-Za-z ]*?)(?:\*\*)?:\s*)?(?P<expr>[^=\n]*?\d*d\d+[^=\n]*?)\s*=\s*`?(?P<total>-?\d+)`?\s*$",
    re.M,
)
_LABELLED: Final = re.compile(r"\s*(?:\*\*)?[A-Za-z][A-Za-z ]*(?:\*\*)?:")
_MENTION: Final = re.compile(r"<@!?(\d+)>|^@(.+?)\s+(?::game_die:|\N{GAME DIE})")
_MAIDEN: Final = re.compile(
    r"^(?P<who>.*?)\s*Request:\s*\[(?P<notation>[^\]]+)\]\s*Roll:\s*\[(?P<faces>[^\]]*)\]\s*Result:\s*(?P<total>-?\d+)"
)
_HUD: Final = re.compile(
    r"^(?P<who>.+?) roll(?:s|ed) (?P<notation>\d*d\d+(?:\s*[+-]\s*\d+)*)(?: for (?P<purpose>[\w ]+?))?\s*[:=]\s*"
    r"(?P<faces>-?\d+(?:\s*[+-]\s*\d+)*)(?:\s*=\s*(?P<total>-?\d+))?\s*$"
)
_PURPOSES: Final = {"to hit": "attack", "attack": "attack", "damage": "damage", "dodge": "dodge",
                    "initiative": "initiative", "flee": "flee", "save": "save", "defense": "defense"}


def read_rolls(message: Message, dialect: str) -> list[RollRead]:
    """The rolls ``message`` shows, read as ``dialect`` writes them (empty: none)."""
    if dialect == "avrae":
        return list(_avrae(message))
    if dialect == "dice-maiden":
        return list(_maiden(message))
    if dialect == "sl-hud":
        return list(_hud(message))
    return []


def purpose_of(label: str | None) -> str | None:
    return None if label is None else _PURPOSES.get(label.strip().lower())


def _expression(expr: str) -> tuple[str, list[Die]] | None:
    """``1d20 (**14**) + 2`` -> ``("1d20+2", [Die(20, 14)])``."""
    dice: list[Die] = []
    for group in _GROUP.finditer(expr):
        sides = int(group[2])
        for item in group[4].split(","):
            item = item.strip()
            if not item:
                continue
            kept = not item.startswith("~~")
            digits = re.sub(r"[*~_`!]", "", item)
            if not re.fullmatch(r"-?\d+", digits):
                return None
            dice.append(Die(sides=sides, face=int(digits), kept=kept) if not kept else Die(sides=sides, face=int(digits)))
    if not dice:
        return None
    notation = re.sub(r"\s+", "", _GROUP.sub(lambda g: f"{g[1]}d{g[2]}{g[3]}", expr)).replace("`", "")
    return notation, dice


def _avrae(message: Message) -> Iterator[RollRead]:
    mention = _MENTION.search(message.text)
    who = (mention[1] or mention[2]) if mention is not None else message.invoker
    found = _AVRAE_RESULT.search(message.text)
    if found is not None:
        read = _expression(found[1])
        if read is not None:
            yield RollRead(notation=read[0], dice=tuple(read[1]), total=int(found[2]), dialect="avrae", who=who)
    for embed in message.embeds:
        texts = [embed.description] + [f.value if _LABELLED.match(f.value) else f"**{f.name}**: {f.value}"
                                       for f in embed.fields]
        heading = embed.title or embed.description.split("\n", 1)[0]
        roller = who or (heading.split(" attacks")[0] if " attacks" in heading else embed.author)
        for text in texts:
            for line in _AVRAE_LINE.finditer(text):
                read = _expression(line["expr"])
                if read is None:
                    continue
                label = line["label"]
                yield RollRead(notation=read[0], dice=tuple(read[1]), total=int(line["total"]), dialect="avrae",
                               who=roller, label=label, purpose=purpose_of(label))


def _maiden(message: Message) -> Iterator[RollRead]:
    for text in message.text.splitlines():
        found = _MAIDEN.match(text.replace("`", "").strip())
        if found is None:
            continue
        faces = [f.strip() for f in found["faces"].split(",") if f.strip()]
        sides = re.search(r"d(\d+)", found["notation"])
        if sides is None or not all(re.fullmatch(r"-?\d+", f) for f in faces):
            continue
        dice = tuple(Die(sides=int(sides[1]), face=int(f)) for f in faces)
        yield RollRead(notation=found["notation"].replace(" ", ""), dice=dice, total=int(found["total"]),
                       dialect="dice-maiden", who=found["who"].strip() or None)


def _hud(message: Message) -> Iterator[RollRead]:
    for text in message.text.splitlines():
        found = _HUD.match(text.strip())
        if found is None:
            continue
        notation = found["notation"].replace(" ", "")
        sides = int(re.search(r"d(\d+)", notation)[1])  # type: ignore[index]
        numbers = [int(n) for n in re.findall(r"-?\d+", found["faces"].replace(" ", "").replace("+", " ").replace("-", " -"))]
        count_text = notation.split("d", 1)[0]
        count = int(count_text) if count_text else 1
        faces, rest = numbers[:count], numbers[count:]
        total = int(found["total"]) if found["total"] is not None else sum(faces) + sum(rest)
        purpose = found["purpose"]
        yield RollRead(notation=notation, dice=tuple(Die(sides=sides, face=f) for f in faces), total=total,
                       dialect="sl-hud", who=found["who"], label=purpose, purpose=purpose_of(purpose) or purpose)
