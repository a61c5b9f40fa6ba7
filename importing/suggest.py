"""``fightlog import --suggest-cast``: a starting cast file from the speakers a transcript
shows, for the user to edit (ids, sides, the order, the hints)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from fightlog.importing.message import Message
from fightlog.kit.unseen import BIDI, C1, ZERO_WIDTH

_BOTS = {"avrae": "avrae", "dice maiden": "dice-maiden", "rpg sage": "rpg-sage"}
_HUD = re.compile(r"\broll(?:s|ed) \d*d\d+", re.IGNORECASE)
HINTS = {
    "attack": [r"\b(?<!counter-)(attacks?|shoots?|fires?|slash(es)?|stabs?|swings?|strikes?)\b"],
    "dodge": [r"\b(dodges?|ducks?|rolls? aside)\b"],
    "dive": [r"\b(dives?|hits? the (deck|dirt))\b"],
    "parry": [r"\b(parr(y|ies|ied)|deflects?)\b"],
    "block": [r"\bblocks?\b"],
    "resist": [r"\b(resists?|braces? (him|her|them)sel(f|ves))\b"],
    "counter": [r"\bcounter(s|-?attacks?)?\b(?!-)"],  # "counter-attacks" too, which the attack hint leaves
    "take": [r"\btakes? (it|the (hit|blow))\b"],
    "flee": [r"\b(flees?|runs? for it|escapes?)\b"],
    "com_call": [r"\bcom ?call\b"],
}


@dataclass
class _Seen:
    speaker: str
    name: str
    speaker_id: str | None
    bot: bool
    count: int = 0
    rolls: int = 0


def suggest(messages: Iterable[Message], ruleset: str, actions: Collection[str] | None = None,
            out_statuses: Collection[str] = ()) -> str:
    """The cast file text for the speakers of ``messages``; the hints only for the action
    types the ruleset has (``actions``, when known)."""
    by_name: dict[tuple[str, str], _Seen] = {}  # by speaker and name: an SL HUD speaks under its owner's user name
    for message in messages:
        if message.kind == "system" or not message.speaker:
            continue
        entry = by_name.get((message.speaker, message.name))
        if entry is None:
            entry = by_name[message.speaker, message.name] = _Seen(message.speaker, message.name, message.speaker_id,
                                                                 message.bot)
        entry.count += 1
        if _HUD.search(message.text):
            entry.rolls += 1
    seen: dict[str, _Seen] = {}  # a person by speaker, under the name shown first (a nickname may change)
    for (speaker, _), entry in by_name.items():
        if _dialect(entry):
            seen[f"{speaker}\0{entry.name}"] = entry
        elif speaker in seen:
            seen[speaker].count += entry.count
        else:
            seen[speaker] = entry
    out = ["# A starting cast file: check every entry (ids, sides, the order, who is the GM).", ""]
    people = [s for s in seen.values() if not _dialect(s)]
    display = Counter(entry.name for entry in people if entry.name)
    ids: list[str] = []
    for entry in people:
        ident = _ident(entry.name or entry.speaker, ids)
        ids.append(ident)
        # a proxy's webhook id is shared: left out; so is a display name two speakers share
        # (a cast names each speaker once: two players shown as "Sam" are told by id)
        shared = display[entry.name] > 1
        names = dict.fromkeys(filter(None, (entry.speaker, None if shared else entry.name)))
        count = f"{entry.count} message{'' if entry.count == 1 else 's'}"
        note = f"; {_q(entry.name)} is also another speaker's display name" if shared else ""
        out += ["[[combatants]]", f"id = {_q(ident)}", f"name = {_q(entry.name)}",
                f"speakers = [{', '.join(_q(s) for s in names)}]", f'side = "?"  # {count}{note}', ""]
    out.insert(2, f"order = [{', '.join(_q(i) for i in ids)}]  # the posting order")
    out.insert(3, "")
    out += ["# [gm]  (move the GM's entry here: their posts are chatter; a line of theirs a [[status]]",
            "# pattern below matches records that status)", '# name = "..."', "# speakers = [...]", ""]
    down = next((s for s in _DOWN if s in out_statuses), min(out_statuses, default="defeated"))
    taken = f"; {ruleset}'s: {', '.join(sorted(out_statuses))}" if out_statuses else ""
    out += [f"# [[status]]  # a GM line that takes someone out of the posting order{taken}",
            "# pattern = '(?P<who>\\w+) is down'   # (?P<who>...) names the combatant (id or name)",
            f"# status = {_q(down)}", ""]
    tools: dict[str, list[_Seen]] = {}  # one entry a shown name: an SL HUD speaks as "HUD (owner)" for each owner
    for entry in seen.values():
        if _dialect(entry):
            tools.setdefault(entry.name or entry.speaker, []).append(entry)
    for shown, entries in tools.items():
        dialect = _dialect(entries[0]) or "sl-hud"
        speakers = [shown] if len(entries) > 1 or dialect == "sl-hud" else \
            list(dict.fromkeys(filter(None, (entries[0].speaker, entries[0].name))))
        out += ["[[dice]]", f"speakers = [{', '.join(_q(s) for s in speakers)}]", f"bot = {_q(dialect)}",
                f"tool = {_q(shown)}", ""]
    out += [f"[hints.{ruleset}]" if re.fullmatch(r"[A-Za-z0-9_-]+", ruleset) else f"[hints.{_q(ruleset)}]"]
    out += [f"{action} = [{', '.join(_q(p, literal=True) for p in patterns)}]" for action, patterns in HINTS.items()
            if actions is None or action in actions]
    return "\n".join(out) + "\n"


_DOWN = ("defeated", "mortally_wounded", "unconscious", "incapacitated", "dead")
"""The status a suggested ``[[status]]`` sets: the first of these the ruleset takes out."""


def _dialect(entry: _Seen) -> str | None:
    for key, dialect in _BOTS.items():
        if key in entry.name.lower():
            return dialect
    if entry.rolls and entry.rolls * 2 >= entry.count:
        return "sl-hud"
    return None


def _ident(name: str, taken: list[str]) -> str:
    spelled = name.translate(_LETTERS)  # letters NFKD does not take apart: Faß -> Fass
    plain = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode("ascii")  # Ferré -> Ferre
    base = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "someone"
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}-{n}", n + 1
    return ident


_LETTERS = str.maketrans({"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
                          "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"})
"""Latin letters with no decomposition, spelled in plain letters (ids keep every sound)."""

_UNSEEN = re.compile(f"[{C1}{BIDI}{ZERO_WIDTH}]")
"""What ``json.dumps`` leaves as it is but a reader would not see (C1 controls, bidirectional
controls): written as TOML's ``\\uXXXX`` escapes, so the file holds the name exactly and shows it."""


def _q(text: str, *, literal: bool = False) -> str:
    if literal and "'" not in text:
        return f"'{text}'"
    return _UNSEEN.sub(lambda m: f"\\u{ord(m.group()):04X}", json.dumps(text, ensure_ascii=False))
