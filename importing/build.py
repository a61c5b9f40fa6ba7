"""Messages to events: the pure core of ``fightlog import``.

``Builder`` is given the scene's opening events (``opening``) and then each message in turn
(``feed``), and answers with the events that message makes, without ``seq``/``prev`` (the
writer seals them). Every message makes at least one event, and every event it makes
carries the message's ``origin`` (its ``ref`` and raw text), so nothing of the transcript is
lost and every finding can cite its line:

* a combatant's post: ``declaration_posted`` (actions from the cast's hints for the
  ruleset, none when no hint matches; ``ooc`` for a post in ``((...))``); a post in
  another's turn whose actions include one of the ruleset's answers (``answers``: a
  Traveller dodge, a Bleeding Sun block) answers a post (``responds_to``): the one it replies
  to on Discord (a late answer replies to an earlier turn's), else the open turn's latest
  that targets the answerer and they have not answered yet, else the latest;
* a dice bot's or HUD's message: one ``dice_rolled`` (``generator: external``) per roll it
  shows (``fightlog.importing.rolls``); a message with none is chatter;
* the GM's posts, other speakers, objects and system lines: chatter, an out-of-character
  ``declaration_posted`` under the speaker's name; a GM line matching one of the cast's
  ``status`` patterns is followed by the ``status_changed`` it names.

Turns are opened as a GM keeping the log would: a combatant's post opens their turn when
they have not acted yet this round (the round closes and the next opens when everyone in
the posting order has acted), with the turn's events citing that post. A post that is not
theirs to make (a second post in a round, a post by someone out of the fight or not in it)
is recorded as it is, in whatever turn is open: nothing is "fixed", so the audit reports
it, as it reports someone skipped, or a roll before the post it belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from msgspec.structs import replace

from fightlog.events.model import (
    Action,
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Origin,
    RoundEnded,
    RoundStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
)
from fightlog.importing.cast import Cast, Role
from fightlog.importing.message import Message
from fightlog.importing.names import AUTHORS_KEPT, in_character_text, name_pattern, target_names
from fightlog.importing.roll_events import ident, roll_event, roller_of
from fightlog.importing.rolls import read_rolls
from fightlog.importing.source import Warn
from fightlog.dice.replies import ReadReply


class Builder:
    """Turns messages into events (see the module docstring)."""

    def __init__(self, cast: Cast, *, medium: str, out_statuses: Iterable[str] = (), answers: Iterable[str] = (),
                 opened: int = 0, shown: Mapping[str, str | None] | None = None, warn: Warn | None = None,
                 arrivals: Mapping[int, Sequence[CombatantJoined]] | None = None) -> None:
        self.cast = cast
        self.answers = frozenset(answers)
        """The ruleset's action types that answer a post in its poster's turn (``Ruleset.answer_actions``)."""
        self.seq = opened
        """The ``seq`` of the last event made so far (``opened``: the scene's opening events)."""
        self._turn_posts: list[tuple[int, frozenset[str], str]] = []
        """The open turn's posts by its actor: ``(seq, the combatants they target, message ref)``."""
        self._answers: set[tuple[int, str]] = set()
        """The open turn's posts answered so far, with who answered them."""
        self._posts_at: dict[str, tuple[int, str, frozenset[str]]] = {}
        """A Discord post's message id -> its ``seq``, poster and targets (an answer replying to it)."""
        self.posts = 0
        """Messages read as a combatant's post (none: the cast names none of the speakers)."""
        self.warn = warn
        """Told of a roll read only in part (text the reader does not know, a face that is no
        number), at the message's ref: it is recorded as far as it reads."""
        self.medium = medium
        self.dice_medium = "hud" if medium == "sl-chat" else "bot"
        self.order: list[str] = cast.starting_order
        self._arrivals: Mapping[int, Sequence[CombatantJoined]] = arrivals or {}
        """Round -> the joins of those entering the fight in progress as it opens (``arrivals.held``)."""
        self.out_statuses = frozenset(out_statuses)
        self.out: set[str] = set()
        self.current: str | None = None
        self.acted: list[str] = []
        self.round = 0
        self.in_round = False
        self._called = False
        """Whether the GM has called a round (then the order's first posting again before
        everyone has is a double post, and the GM's next call closes the round)."""
        self._opened_by: tuple[str, str] | None = None
        """Who opened the open round with a post, and where (``None``: the GM's call, or none)."""
        targets = target_names(cast)
        self._named = name_pattern(targets)
        self._by_lower: dict[str, set[str]] = {}
        """A name in lower case -> every combatant it names (two may share a first name)."""
        for name, actor in targets:
            self._by_lower.setdefault(name, set()).add(actor)
        self._sides = {entry.id: entry.side for entry in cast.file.combatants}
        # each pattern searched on its own: joined into one, two patterns' named groups would
        # clash (re.error) and a backreference would point into another pattern
        self._hints = [(action, tuple(p for _, p in patterns)) for action, patterns in cast.hints.items()]
        self._shown: Mapping[str, str | None] = shown or {}
        """A name combatants' posts are shown under in the transcript (``shown_names``), for
        a roll naming it."""
        self._authors: dict[str, tuple[str | None, str]] = {}
        """A Discord message's id -> its author: the combatant (``None``: none) and the name
        shown (what a bot's roll replying to it may be by)."""

    def feed(self, message: Message) -> list[AnyEvent]:
        """The events ``message`` makes (at least one)."""
        events = self._made(message)
        self.seq += len(events)
        return events

    def _made(self, message: Message) -> list[AnyEvent]:
        role = self.cast.role(message)
        if message.speaker and ":" not in message.ref:  # a Discord message, which a reply may name
            if len(self._authors) >= AUTHORS_KEPT:
                del self._authors[next(iter(self._authors))]
            self._authors[message.ref] = (role.actor if role.kind == "combatant" else None, message.name)
        if role.kind == "combatant" and message.kind != "system":
            self.posts += 1
            return self._post(message, role)
        if role.kind == "dice":
            rolls = read_rolls(message, role.bot or "")
            for reply, _ in rolls:
                if reply.problems:
                    self._warn(message, f"{reply.bot}'s roll {reply.notation} is read only in part "
                                        f"({'; '.join(reply.problems)}): recorded as far as it reads")
            if rolls:
                origin = self._origin(message, self.dice_medium)
                return [self._roll(message, reply, purpose, role, origin) for reply, purpose in rolls]
            if _NOTATION.search(message.text) or _RESULT.search(message.text):
                self._warn(message, f"{role.bot or 'the dice'}'s message names dice or a result but reads as no "
                                    "roll: kept as the object's chatter")
        events: list[AnyEvent] = []
        called = None if role.kind != "gm" or self.cast.rounds is None else _round_call(self.cast.rounds, message.text)
        if called is not None:
            events.extend(self._round_called(message, called))
        events.append(self._chatter(message, role))
        if role.kind == "gm":
            events.extend(self._statuses(message))
        return events

    def _actor_named(self, who: str | None) -> str | None:
        """``Cast.actor_named``, else the combatant who posted under that name (``_shown``)."""
        return self.cast.actor_named(who) or (self._shown.get(who.strip().lstrip("@")) if who else None)

    def _warn(self, message: Message, text: str) -> None:
        """Tell ``warn`` of ``text`` at the message (its line, or a Discord message's id)."""
        if self.warn is not None:
            self.warn(f"{message.ref if ':' in message.ref else f'message {message.ref}'}: {text}")

    # ------------------------------------------------------------------ posts

    def _post(self, message: Message, role: Role) -> list[AnyEvent]:
        actor = role.actor or message.speaker
        origin = self._origin(message, self.medium)
        text = message.text
        in_character = in_character_text(text)
        ooc = in_character is None
        actions = [] if in_character is None else self._actions(actor, in_character)
        answered = None if ooc else self._answered(actor, actions, message)
        events: list[AnyEvent] = [] if ooc or answered is not None else self._turn_for(actor, message)
        seq = self.seq + len(events) + 1
        targets = frozenset(a.target for a in actions if a.target is not None)
        if not ooc and actor == self.current:
            self._turn_posts.append((seq, targets, message.ref))
        if targets and ":" not in message.ref:  # a Discord message, which a later answer may reply to
            if len(self._posts_at) >= AUTHORS_KEPT:
                del self._posts_at[next(iter(self._posts_at))]
            self._posts_at[message.ref] = (seq, actor, targets)
        if answered is not None:
            self._answers.add((answered, actor))
        events.append(DeclarationPosted(actor=actor, text=text, actions=actions, ooc=ooc, responds_to=answered,
                                        at=message.at, origin=origin))
        return events

    def _answered(self, actor: str, actions: list[Action], message: Message) -> int | None:
        """The ``seq`` of the post that a post by ``actor`` with ``actions`` in another's turn
        answers, or ``None`` when it is no answer (the poster's own turn, none of the
        ruleset's answers among its actions, no post in the turn yet): the post it replies to
        on Discord when that targets ``actor`` (one of an earlier turn too: the audit says it is
        late), else the latest of
        the turn targeting ``actor`` that they have not answered yet, else the latest
        targeting them, else the latest."""
        if self.current is None or actor == self.current or not any(a.type in self.answers for a in actions):
            return None
        replied = self._posts_at.get(message.reply_to) if message.reply_to is not None else None
        if replied is not None and replied[1] != actor and actor in replied[2]:  # a post attacking the answerer
            return replied[0]
        posts = self._turn_posts
        if not posts:
            return None
        aimed = [seq for seq, targets, _ in reversed(posts) if actor in targets]
        fresh = [seq for seq in aimed if (seq, actor) not in self._answers]
        return (fresh or aimed or [posts[-1][0]])[0]

    def _turn_for(self, actor: str, message: Message) -> list[AnyEvent]:
        """The turn events a post by ``actor`` opens (none: it is not theirs to open)."""
        if actor == self.current or actor not in self.order or actor in self.out:
            return []
        eligible = [a for a in self.order if a not in self.out]
        complete = all(a in self.acted or a == self.current for a in eligible)
        first = eligible[0] if eligible else None
        if self.in_round and actor in self.acted and not complete and actor == first and not self._called \
                and any(a != actor for a in (*self.acted, self.current) if a is not None):
            complete = True  # the order's first again after others, no GM calling rounds: the next round (whoever
            # has not posted was skipped)
        if self.in_round and actor in self.acted and (not complete or actor != first):
            return []  # a second post this round (after everyone: not the next round's first): the audit's double post
        events = self._turn_closed(message)
        if not self.in_round or complete:
            events.extend(self._round_opened(message))
            self._opened_by = (actor, message.ref)
        events.append(TurnStarted(actor=actor, round=self.round, at=message.at,
                                  origin=Origin(medium="import", ref=message.ref)))
        self.current = actor
        self._turn_posts = []
        self._answers = set()
        return events

    def _turn_closed(self, message: Message) -> list[AnyEvent]:
        """The open turn's end, at ``message`` (none open: nothing)."""
        if self.current is None:
            return []
        ended = TurnEnded(actor=self.current, round=self.round, at=message.at,
                          origin=Origin(medium="import", ref=message.ref))
        self.acted.append(self.current)
        self.current = None
        self._turn_posts = []
        self._answers = set()
        return [ended]

    def _round_opened(self, message: Message) -> list[AnyEvent]:
        """The open round's end, if one is open, and the next round's start, at ``message``."""
        origin = Origin(medium="import", ref=message.ref)
        events: list[AnyEvent] = []
        if self.in_round:
            events.append(RoundEnded(round=self.round, at=message.at, origin=origin))
        for joined in self._arrivals.get(self.round + 1, ()):  # joined in the round before: slotted in this one
            events.append(replace(joined, at=message.at, origin=origin))
            self.order.insert(self.order.index(joined.after) + 1 if joined.after in self.order else len(self.order),
                              joined.actor)
        self.round += 1
        self.in_round = True
        self.acted = []
        events.append(RoundStarted(round=self.round, at=message.at, origin=origin))
        return events

    def _round_called(self, message: Message, called: re.Match[str]) -> list[AnyEvent]:
        """The events a GM's line opening a round makes (``[gm] rounds``): the turn open and
        the round end, the next round starts (nothing when a round has just opened and nobody
        has posted in it, or when the GM calls the round the posts have opened already)."""
        events: list[AnyEvent] = []
        said = called.groupdict().get("n")
        number = int(said) if said is not None and said.isdecimal() and len(said) <= 18 else None
        if said is not None and said.isdecimal() and number is None:  # past what int() reads: no round of the log
            self._warn(message, f"the GM calls round {said[:12]}... ({len(said)} digits); it is round {self.round} of "
                                "the log")
        opened = self._opened_by
        self._called = True
        if self.in_round and number == self.round:
            first = next((a for a in self.order if a not in self.out), None)
            posted = bool(self.acted) or self.current is not None
            if (opened is None and not posted) or (opened is not None and opened[0] == first):
                return events  # the round the posts already opened, as the order opens one: the GM confirms it
        if not (self.in_round and self.current is None and not self.acted):
            events = [*self._turn_closed(message), *self._round_opened(message)]
        self._opened_by = None
        if number is not None and number != self.round:
            why = "rounds are counted from the first the transcript shows"
            if opened is not None and number == self.round - 1:
                who, at = opened
                why = f"a post of {who}'s opened round {number} at {at}, before the GM called it: a post out of turn?"
            self._warn(message, f"the GM calls round {number}; it is round {self.round} of the log ({why})")
        return events

    def _actions(self, actor: str, text: str) -> list[Action]:
        actions: list[Action] = []
        for action, patterns in self._hints:
            if action == "attack":
                actions.extend(self._attacks(actor, text, patterns))
            elif any(pattern.search(text) is not None for pattern in patterns):
                actions.append(Action(type=action, target=self._target(actor, text) if action in _TARGETED else None))
        return actions

    def _attacks(self, actor: str, text: str, patterns: tuple[re.Pattern[str], ...]) -> list[Action]:
        """The attacks of a post: one per match of the attack hints that names its own
        target before the next match (``fires at Cara, then swings at Alice``: two, each with
        the weapon its part of the text names); else one, on the post's target. A match right
        after another combatant's name is their action, narrated (``Cara fires back``): not
        counted."""
        starts = sorted({found.start() for pattern in patterns for found in pattern.finditer(text)})
        if not starts:
            return []
        starts = [at for at in starts if not self._by_another(actor, text[:at])] or starts[:1]
        parts = [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)])]
        aimed = [(part, target) for part in parts if (target := self._named_in(actor, part)) is not None]
        if len(aimed) < 2:  # the weapon named from the attack on (``keeps the sword low and shoots ... with her pistol``)
            said = text[starts[0]:] if self.cast.names_weapon(actor, text[starts[0]:]) else text
            return [Action(type="attack", target=self._target(actor, text), **self.cast.attack(actor, said))]
        return [Action(type="attack", target=target, **self.cast.attack(actor, part)) for part, target in aimed]

    def _by_another(self, actor: str, before: str) -> bool:
        """Whether the words just before a verb name another combatant, its subject (``Cara
        fires back``, narrated in the poster's post, is not the poster's attack)."""
        head = before.rstrip().lower()
        if self._named is None or not head:
            return False
        last = None
        for found in self._named.finditer(head):
            last = found
        return last is not None and last.end() == len(head) and bool(self._by_lower.get(last[0], set()) - {actor})

    def _named_in(self, actor: str, text: str) -> str | None:
        """The first other combatant the text names (the longest name where two start at
        one place: the alternation lists longer names first)."""
        for found in () if self._named is None else self._named.finditer(text.lower()):
            others = self._by_lower.get(found[0], set()) - {actor}
            if len(others) == 1:  # "Alex" of Alex Vance's post: the other Alex; of Mira's: which?
                return next(iter(others))
        return None

    def _target(self, actor: str, text: str) -> str | None:
        """The first other combatant the text names (``_named_in``); when it names none, the
        one opponent the poster has (``/me slashes at the other one`` in a duel), if only one."""
        named = self._named_in(actor, text)
        if named is not None:
            return named
        sides = self._sides
        mine = sides.get(actor)
        foes = [who for who, side in sides.items()
                if who != actor and who not in self.out and (mine is None or side is None or side != mine)]
        return foes[0] if len(foes) == 1 else None

    # ------------------------------------------------------------------ rolls

    def _roll(self, message: Message, reply: ReadReply, purpose: str | None, role: Role, origin: Origin) -> DiceRolled:
        """The reply's ``dice_rolled`` (``roll_events.roll_event``), by the roller the cast names."""
        roller = roller_of(message, reply, self._actor_named, self._authors)
        return roll_event(message, reply, purpose, role, origin, roller, shown=self._shown, cast=self.cast,
                          warn=lambda text: self._warn(message, text))

    # ------------------------------------------------------------------ chatter

    def _chatter(self, message: Message, role: Role) -> DeclarationPosted:
        if role.kind == "gm" and role.actor:
            actor = role.actor
        elif message.kind == "system" and not message.speaker:
            actor = "system"
        elif role.kind in ("dice", "object"):  # the object by its name: "HUD (bob)" is not bob, a bot's id no name
            actor = _ident(message.name or message.speaker or "unknown")
        else:
            actor = _ident(message.speaker or message.name or "unknown")
        return DeclarationPosted(actor=actor, text=message.text, ooc=True, at=message.at,
                                 origin=self._origin(message, self.medium))

    def _statuses(self, message: Message) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        for pattern, hint in self.cast.status:
            for found in pattern.finditer(message.text):
                who = found["who"]  # the cast refuses a status pattern without it
                actor = self.cast.actor_named(who) or self._one_named(who)
                if actor is None:
                    continue
                if actor in self.cast.arrivals and actor not in self.order:  # not in the fight yet
                    self._warn(message, f"{actor} is not in the fight yet (arrives in round "
                                        f"{self.cast.arrivals[actor][0]}): their status {hint.status!r} is not recorded")
                    continue
                if hint.status in self.out_statuses:
                    (self.out.add if hint.on else self.out.discard)(actor)
                events.append(StatusChanged(actor=actor, status=hint.status, on=hint.on, at=message.at,
                                            origin=Origin(medium="import", ref=message.ref)))
        return events

    def _one_named(self, who: str) -> str | None:
        """The combatant ``who`` names in any letter case, if one (a name two share names neither)."""
        actors = self._by_lower.get(who.strip().lower(), set())
        return next(iter(actors)) if len(actors) == 1 else None

    def _origin(self, message: Message, medium: str) -> Origin:
        return Origin(medium=medium, ref=message.ref, author=message.name or message.speaker or None,
                      raw=message.raw, edited=message.edited_at)


_TARGETED: Final = frozenset({"attack", "throw", "cast", "grapple", "shove", "disarm"})


def _round_call(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """A GM's round call at the start of any line of a message (``Mara wins initiative.`` /
    ``**Round 1**`` on the next line of one Discord message)."""
    for line in text.splitlines() or [text]:
        found = pattern.match(line)
        if found is not None:
            return found
    return None


_NOTATION: Final = re.compile(r"\b\d*d(?:\d+|%)\b", re.IGNORECASE)
"""Dice notation in a message (``1d100``, ``d20``, ``2d10``): a dice object's message that
names dice and reads as no roll is worth a warning."""
_RESULT: Final = re.compile(r"\bResult:?\s*`?-?[0-9]+")
"""A result without its dice, as Dice Maiden's reply cut to Discord's character limit
(``Mara Roll Result: `412` Reason: `Simplified roll due to character limit```): a warning too."""


_ident = ident
