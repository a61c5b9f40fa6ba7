"""The cast file (TOML): who is who in a transcript.

Which speakers are combatants (SL names, Discord author ids or names, proxy names: each
combatant lists its ``speakers``), who is the GM, which speakers are dice bots or HUDs (and
the dialect they write), which are other objects (combat meters), the posting order, the
per-ruleset declaration hints (regular expressions marking a post as an attack, a dodge, a
flee...) and GM lines that change someone's status. A speaker may be a glob (``RoE combat
HUD*``). Problems are one line at the file's line (``cast.toml:12: ...``), as for rosters.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import ValidationError

from fightlog.errors import InputError
from fightlog.importing.arrivals import slots
from fightlog.importing.cast_file import FIELDS, CastFile, StatusHint
from fightlog.importing.message import Message
from fightlog.importing.rolls import bot_name, known_bots
from fightlog.kit.inputs import describe, field_path, first_problem, read_toml_text
from fightlog.kit.toml_lines import KeyLines

@dataclass(frozen=True)
class Role:
    """What a speaker is: ``combatant`` (``actor``), ``gm``, ``dice`` (``bot``: the reader's
    name for it, ``tool``),
    ``object``, or ``other`` (anyone the cast does not name: their lines are chatter)."""

    kind: Literal["combatant", "gm", "dice", "object", "other"]
    actor: str | None = None
    bot: str | None = None
    tool: str | None = None
    cap: int | None = None


OTHER = Role("other")


@dataclass
class Cast:
    """The cast file read and checked: ``role`` says who a message's speaker is."""

    path: str | None
    file: CastFile
    exact: dict[str, Role] = field(default_factory=dict)
    globs: list[tuple[str, Role]] = field(default_factory=list)
    hints: dict[str, list[tuple[str, re.Pattern[str]]]] = field(default_factory=dict)
    status: list[tuple[re.Pattern[str], StatusHint]] = field(default_factory=list)
    weapons: dict[str, list[tuple[str, re.Pattern[str]]]] = field(default_factory=dict)
    """Actor -> (weapon, pattern) in the cast's order (``cast_file.CombatantEntry.weapons``)."""
    arrivals: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Who enters the fight in progress: their round, and whose slot they follow (``arrivals.slots``)."""

    def names_weapon(self, actor: str, text: str) -> bool:
        """Whether ``text`` names one of ``actor``'s weapons (a pattern of their ``weapons``)."""
        return any(pattern.search(text) is not None for _, pattern in self.weapons.get(actor, ()))

    def attack(self, actor: str, text: str) -> dict[str, Any]:
        """What the cast says of an attack in a post of ``actor``'s: the weapon (the first of
        their ``weapons`` whose pattern the text matches, else their ``weapon``), the
        ``range`` or ``distance``; only what it says."""
        entry = next((e for e in self.file.combatants if e.id == actor), None)
        if entry is None:
            return {}
        weapon = next((w for w, pattern in self.weapons.get(actor, ()) if pattern.search(text) is not None),
                      entry.weapon)
        said = {"weapon": weapon, "range": entry.range, "distance": entry.distance}
        return {k: v for k, v in said.items() if v is not None}
    rounds: re.Pattern[str] | None = None
    """The GM lines that open a round (``[gm] rounds``; none without a GM, or with ``rounds = ""``)."""
    _seen: dict[tuple[str, str | None, str, str], Role] = field(default_factory=dict)
    entries: list[tuple[str, int | None, tuple[str, ...]]] = field(default_factory=list)
    """Each combatant's, dice bot's and object's entry: where (``dice[0]``), its line, its speakers."""
    heard: set[str] = field(default_factory=set)
    """The speakers (names and patterns) of the cast some message matched."""
    strangers: set[str] = field(default_factory=set)
    """The names and user names of the speakers the cast does not name."""
    labels: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    """Each speaker the cast names -> its entry (``combatants[1] (vex)``, ``gm``) and line."""
    clashes: dict[tuple[str, str], tuple[str, list[str]]] = field(default_factory=dict)
    """(the entry a speaker's messages went to, another entry naming them too) -> the speaker as
    shown and that entry's keys of them: one Discord user named by id in one entry and by
    nickname in another (``cast_warnings.ambiguous``)."""

    @property
    def actors(self) -> list[str]:
        return [c.id for c in self.file.combatants]

    @property
    def order(self) -> list[str]:
        """The posting order: the file's ``order``, else the combatants as listed."""
        return list(self.file.order) or self.actors

    @property
    def starting_order(self) -> list[str]:
        """The posting order as the fight starts: ``order`` without the arrivals (slotted in later)."""
        return [actor for actor in self.order if actor not in self.arrivals]

    def role(self, message: Message) -> Role:
        """Who the speaker of ``message`` is: matched by user name or id, shown name, or
        both as SL writes them (``Name (user.name)``: an object named ``HUD (alice)`` too).
        Answers are remembered per speaker (a few thousand at most: a transcript with more
        distinct speakers than that starts over)."""
        key = (message.speaker, message.speaker_id, message.name, message.user)
        found = self._seen.get(key)
        if found is None:
            if len(self._seen) >= 4096:
                self._seen.clear()
            found = self._seen[key] = self._role(message)
        return found

    def _role(self, message: Message) -> Role:
        both = f"{message.name} ({message.speaker})" if message.name != message.speaker else message.name
        keys = (message.speaker, message.speaker_id, message.name, both, message.user)
        exact = next((key for key in keys if key and key in self.exact), None)
        found = self.exact[exact] if exact is not None else None
        shown = self.exact.get(message.name) if message.name else None
        if found is not None and found.kind == "combatant" and (shown is None or shown.kind != "combatant"):
            thing = self._thing((message.name, both))  # a HUD named "RoE HUD (kaito.ronin)" is not kaito
            if thing is not None:
                return thing
        if exact is not None and found is not None:
            self.heard.add(exact)
            for key in dict.fromkeys(k for k in keys if k):
                other = self.exact.get(key)
                if other is not None and other != found:
                    pair = (self.labels[exact][0], self.labels[key][0])
                    _, lost = self.clashes.setdefault(pair, (f"{message.name or message.speaker} "
                                                             f"({message.speaker})", []))
                    if key not in lost:
                        lost.append(key)
            return found
        for pattern, role in self.globs:
            if any(key and fnmatch.fnmatchcase(key, pattern) for key in keys):
                self.heard.add(pattern)
                return role
        if len(self.strangers) < 4096:
            self.strangers.update(key for key in (message.speaker, message.name, message.user) if key)
        return OTHER

    def _thing(self, shown: tuple[str | None, str | None]) -> Role | None:
        """The dice HUD or object the cast names by the shown name (exactly, then by pattern):
        an object speaks under its own name, whoever its parentheses name."""
        for key in shown:
            found = self.exact.get(key) if key else None
            if key and found is not None and found.kind in ("dice", "object"):
                self.heard.add(key)
                return found
        for pattern, role in self.globs:
            if role.kind in ("dice", "object") and any(key and fnmatch.fnmatchcase(key, pattern) for key in shown):
                self.heard.add(pattern)
                return role
        return None

    def is_object(self, message: Message) -> bool:
        """Whether the speaker is a dice HUD or another object the cast names."""
        return self.role(message).kind in ("dice", "object")

    def actor_named(self, who: str | None) -> str | None:
        """The combatant a roll's text names (a mention's user id, a nickname, an SL name),
        matched as speakers are: exactly, then by a speaker pattern (``Boris*``)."""
        if not who:
            return None
        name = who.strip().lstrip("@")
        found = self.exact.get(name)
        if found is not None and found.kind == "combatant":
            return found.actor
        for entry in self.file.combatants:
            if who == entry.id:
                return entry.id
        named = [entry.id for entry in self.file.combatants if who == entry.name]
        if len(named) == 1:  # a name two combatants share names neither
            return named[0]
        for pattern, role in self.globs:
            if role.kind == "combatant" and fnmatch.fnmatchcase(name, pattern):
                return role.actor
        return None

    def names(self) -> list[str]:
        """Every exact speaker name (an SL reader tells old-style emotes by them), but a
        pattern's (``Bob*``: no emote opens with it)."""
        return [name for name in self.exact if "*" not in name and "?" not in name]

    def check_actors(self, known: set[str], roster: str) -> None:
        """Every combatant of the cast must be in the roster's ``known`` ids."""
        for index, entry in enumerate(self.file.combatants):
            if entry.id not in known:
                raise InputError(f"combatants[{index}].id: unknown actor {entry.id!r}: not in the roster {roster} "
                                 f"({', '.join(sorted(known))})", path=self.path, line=self._line(("combatants", index, "id")))

    def check_weapons(self, carried: dict[str, tuple[str, ...]], roster: str) -> None:
        """Every weapon the cast names for a combatant must be one the roster's sheet
        gives them (``carried``: actor -> weapon names)."""
        for index, entry in enumerate(self.file.combatants):
            has = carried.get(entry.id, ())
            for key, named in [*(("weapons", w) for w in entry.weapons), *([("weapon", entry.weapon)] if entry.weapon else [])]:
                if named not in has:
                    raise InputError(f"combatants[{index}].{key}: {entry.id} carries no {named!r} in the roster "
                                     f"{roster} (carries: {', '.join(has) or 'nothing'})", path=self.path,
                                     line=self._line(("combatants", index, key)))

    def near_statuses(self, known: Collection[str], ruleset: str) -> list[str]:
        """A warning for each ``[[status]]`` whose status is a near miss of one in ``known``
        (the statuses ``ruleset`` takes out of the order or makes wait): a typo there takes
        nobody out, silently. (Other statuses are the GM's to name.)"""
        from fightlog.kit.spelling import closest

        said: list[str] = []
        for index, hint in enumerate(self.file.status):
            close = None if hint.status in known else closest(hint.status, known, NEAR_STATUS)
            if close is not None:
                line = self._line(("status", index, "status"))
                said.append(f"{self.path}{'' if line is None else f':{line}'}: status[{index}].status: {hint.status!r} "
                            f"is no status {ruleset} takes out of the order (did you mean {close!r}?): a GM line "
                            "setting it takes nobody out")
        return said

    _lines: KeyLines | None = None

    def _line(self, loc: tuple[str | int, ...]) -> int | None:
        return self._lines.line(loc) if self._lines is not None else None


def empty_cast() -> Cast:
    return Cast(None, CastFile())


def load_cast(path: str | os.PathLike[str], ruleset: str, actions: Collection[str] | None = None) -> Cast:
    """Read and check the cast file at ``path`` (hints for ``ruleset`` compiled; with
    ``actions``, the ruleset's action types, a hint for another is refused: it would mark
    posts with an action the ruleset does not have, or nothing)."""
    name = os.fspath(path)
    data, text = read_toml_text(Path(name), name, "cast")
    lines = KeyLines(text)
    try:
        read = CastFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        loc = tuple(first_problem(errors)[0]["loc"])
        raise InputError(describe(errors, fields=FIELDS, place=field_path), path=name, line=lines.line(loc)) from None
    cast = Cast(name, read)
    cast._lines = lines
    ids = _claim_speakers(cast, read, name, lines)
    for index, actor in enumerate(read.order):
        if actor not in ids:
            raise InputError(f"order[{index}]: unknown actor {actor!r}: not one of the cast's combatants "
                             f"({', '.join(sorted(ids)) or 'none'})", path=name, line=lines.line(("order",)))
        if actor in read.order[:index]:
            raise InputError(f"order[{index}]: {actor!r} is in the order twice (at {read.order.index(actor)} too): "
                             "a posting order names each combatant once", path=name, line=lines.line(("order",)))
    for index, entry in enumerate(read.combatants):
        if entry.range is not None and entry.distance is not None:
            raise InputError(f"combatants[{index}]: range and distance both given: give one (the range band, or "
                             "the distance the rules find it from)", path=name,
                             line=lines.line(("combatants", index, "distance")))
        for weapon, patterns in entry.weapons.items():
            for at, pattern in enumerate(patterns):
                compiled = _compile(pattern, f"combatants[{index}].weapons.{weapon}[{at}]", name,
                                    lines.line(("combatants", index, "weapons")))
                cast.weapons.setdefault(entry.id, []).append((weapon, compiled))
    for action, patterns in read.hints.get(ruleset, {}).items():
        if actions is not None and action not in actions:
            raise InputError(f"hints.{ruleset}.{action}: {ruleset} has no action {action!r} (actions: "
                             f"{', '.join(sorted(actions))})", path=name, line=lines.line(("hints", ruleset, action)))
        for at, pattern in enumerate(patterns):
            # a hint needs no group: the builder searches each pattern on its own, so any are harmless
            compiled = _compile(pattern, f"hints.{ruleset}.{action}[{at}]", name, lines.line(("hints", ruleset, action)))
            cast.hints.setdefault(action, []).append((action, compiled))
    for index, hint in enumerate(read.status):
        where = ("status", index, "pattern")
        status = _compile(hint.pattern, f"status[{index}].pattern", name, lines.line(where))
        _require_groups(status, STATUS_GROUPS, where, name, lines.line(where))
        cast.status.append((status, hint))
    if read.gm is not None and read.gm.rounds:
        cast.rounds = _compile(read.gm.rounds, "gm.rounds", name, lines.line(("gm", "rounds")))
    cast.arrivals = slots(cast)  # an arrival with no slot to take is refused here
    return cast


def _claim_speakers(cast: Cast, read: CastFile, name: str, lines: KeyLines) -> set[str]:
    """Give each speaker the cast file names its role (a combatant, the GM, a dice bot, an
    object; a speaker named twice is refused); the combatants' ids."""
    seen: dict[str, tuple[str | int, ...]] = {}

    def claim(speakers: tuple[str, ...], role: Role, where: tuple[str | int, ...]) -> None:
        label = "gm" if role.kind == "gm" else field_path(where[:2]) + (f" ({role.actor})" if role.kind == "combatant" else "")
        if role.kind != "gm" and speakers:
            cast.entries.append((label, lines.line(where), speakers))
        for speaker in speakers:
            cast.labels[speaker] = (label, lines.line(where))
            if speaker in seen:
                raise InputError(
                    f"{field_path(where)}: speaker {speaker!r} is named twice (also at {field_path(seen[speaker])})",
                    path=name, line=lines.line(where),
                )
            seen[speaker] = where
            cast.exact[speaker] = role  # "[RoE] Combat HUD" is its own name first, then a pattern
            if any(c in speaker for c in "*?["):
                cast.globs.append((speaker, role))

    ids: set[str] = set()
    for index, entry in enumerate(read.combatants):
        where = ("combatants", index, "id")
        if entry.id in ids:
            raise InputError(f"{field_path(where)}: combatant {entry.id!r} is named twice", path=name, line=lines.line(where))
        ids.add(entry.id)
        claim(entry.speakers, Role("combatant", actor=entry.id), ("combatants", index, "speakers"))
    if read.gm is not None:
        claim(read.gm.speakers or (read.gm.name,), Role("gm", actor=read.gm.name), ("gm", "speakers"))
    for index, dice in enumerate(read.dice):
        bot = bot_name(dice.bot)
        if bot is None:
            raise InputError(f"dice[{index}].bot: no reader for {dice.bot!r} (bots: {', '.join(known_bots())})",
                             path=name, line=lines.line(("dice", index, "bot")))
        named = [s for s in dice.speakers if not s.isdigit()] or list(dice.speakers)
        tool = dice.tool or re.sub(r"\s*\(?[*?]+\)?", "", named[0]).strip() or named[0]
        claim(dice.speakers, Role("dice", bot=bot, tool=tool, cap=dice.cap), ("dice", index, "speakers"))
    for index, obj in enumerate(read.objects):
        claim(obj.speakers, Role("object"), ("objects", index, "speakers"))
    return ids


NEAR_SPEAKER: Final = 0.8
"""How close a speaker the cast names and no message matched must be to one it does not name
to be warned of as its typo (``kaito.ronnin``: ``kaito.ronin`` 0.96)."""

NEAR_STATUS: Final = 0.8
"""How close a ``[[status]]`` status must be to a known one to be warned of as its typo
(``defeted``: 0.93); a status of the GM's own is not one (``bleeding`` and ``holding``: 0.67)."""


STATUS_GROUPS: dict[str, str] = {"who": "the combatant whose status changes, e.g. '(?P<who>\\w+) is down'"}
"""The named groups a ``[[status]]`` pattern must have (read by ``Builder._statuses``): without
``who`` a GM line would match and record nothing."""


def _require_groups(pattern: re.Pattern[str], needs: dict[str, str], where: tuple[str | int, ...],
                    name: str, line: int | None) -> None:
    """Refuse ``pattern`` (at ``where``) when it lacks one of the named groups ``needs``."""
    for group, what in needs.items():
        if group not in pattern.groupindex:
            raise InputError(f"{field_path(where)}: {pattern.pattern!r} has no (?P<{group}>...) group ({what})",
                             path=name, line=line)


def _compile(pattern: str, field: str, name: str, line: int | None) -> re.Pattern[str]:
    """``pattern`` compiled; else an ``InputError`` naming the ``field`` it is in."""
    try:
        return re.compile(pattern, re.IGNORECASE)
    except (re.error, OverflowError, RecursionError) as exc:  # a repeat past what re counts: OverflowError
        raise InputError(f"{field}: not a regular expression: {pattern!r}: {exc}", path=name, line=line) from None


def timezone_of(cast: Cast, default: str | None) -> Any:
    """The zone a time-only format's stamps are in (the cast's ``timezone``, else ``default``)."""
    zone = cast.file.timezone or default
    if zone is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(f"timezone: no such time zone {zone!r} (an IANA name such as America/Los_Angeles)",
                         path=cast.path, line=cast._line(("timezone",))) from None
