"""The checks an imported fight gets besides the posting order, the rules and the dice
(``fightlog import``: a log whose ``scene_started`` names its ``transcript``).

A hand-run fight in chat pairs each post with the rolls that resolve it, and the disputes
are about the pairing: a roll made before its post (fishing for a good number), a roll
nobody declared, a declared attack never rolled. Per turn:

* ``import.roll-undeclared``: an external roll (initiative apart: one for it, or one for
  nothing said before round 1) by someone with no
  declaration of their own in the open turn, unless it answers the turn's declaration (a
  roll by someone the post targets, a defence roll, or any roll when the post's actions could
  not be read);
* ``import.unrolled``: a declaration with an action that needs dice (an attack, a throw, a
  cast, a flee) and no roll by the declarer after it before the turn closes (or the log ends);
* ``import.rerolled`` (info): a roll by the declarer of the same dice, for the same purpose, as
  one they already made for their post, beyond one an action of it that rolls (an attack, a
  throw, a cast, a flee, an answer) and a target: an attack rolled again until it hit, or a
  fire mode or a damage roll of the same dice the transcript does not tell apart; said, for the
  GM to judge, not counted against the fight (the first stands, as ``dispute`` reads it);
* ``import.roll-edited`` / ``import.post-edited``: a roll's or a post's message edited after
  it was sent (Discord's ``timestampEdited``), the text recorded being the edited one.

Every finding is on the event whose ``origin.ref`` names the transcript line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from fightlog.kit.checks import AuditView, Check
from fightlog.events.model import (
    DeclarationPosted,
    DiceRolled,
    RoundEnded,
    TurnEnded,
    TurnStarted,
)
from fightlog.reducers.state import SceneState

ROLLED: Final = frozenset({"attack", "throw", "cast", "flee"})
"""Action types resolved by a roll of the declarer's."""

DEFENCE: Final = frozenset({"dodge", "defense", "defence", "parry", "block", "soak", "save", "resist"})
"""Roll purposes that answer someone else's post."""

UNPAIRED: Final = frozenset({"initiative"})

OFFENSIVE: Final = frozenset({"attack", "damage"})
"""Roll purposes of one's own attack: never an answer to someone else's post, even by its target."""

IMPORT_RULE: Final = "fightlog import (docs/import.md)"
"""The section these findings rest on: what a transcript shows, whatever the ruleset."""


class Pairing:
    """The checks of the module docstring; ``checks()`` for the fold, ``finish`` at the end."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.posts: list[DeclarationPosted] = []
        self.rolled: set[int] = set()
        self.dice: dict[tuple[int, str, str], list[DiceRolled]] = {}
        """(post, notation, purpose) -> the declarer's rolls of those dice for it, in order."""
        self.refs: dict[int, str] = {}
        """Each external roll's ``origin.ref`` by ``seq``, for the dice checks' findings (which
        name a ``seq`` only): one entry per roll of an imported log."""

    def checks(self) -> Mapping[type, Check]:
        return {
            DeclarationPosted: self._posted,
            DiceRolled: self._rolled,
            TurnStarted: self._turn_started,
            TurnEnded: self._closed,
            RoundEnded: self._closed,
        }

    def finish(self, view: AuditView) -> None:
        """The log ended: the open turn's declarations without their rolls."""
        self._close(view)

    # ------------------------------------------------------------------ events

    def _posted(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        _edited(event, "import.post-edited", view)
        if not event.ooc and event.actor in before.combatants:
            self.posts.append(event)

    def _rolled(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        roll: DiceRolled = event
        if roll.generator != "external":
            return
        if roll.origin is not None and roll.origin.ref is not None:
            self.refs[roll.seq] = roll.origin.ref
        _edited(roll, "import.roll-edited", view)
        if roll.purpose in UNPAIRED or (before.turn.round == 0 and roll.purpose == "other"):
            return  # before round 1, a roll for nothing said: initiative (one said for attack is fishing)
        own = [p for p in self.posts if p.actor == roll.roller]
        if own:
            self.rolled.add(own[-1].seq)
            self._again(own[-1], roll, view)
            return
        if self._answers(roll):
            return
        what = f"{roll.roller} rolled {roll.notation}" + (f" ({roll.purpose})" if roll.purpose != "other" else "")
        if self.current is None:
            why = "no turn was open"
        elif self.current == roll.roller:
            why = "in their own turn before posting what it is for"
        elif not self.posts:
            why = f"in {self.current}'s turn before {self.current} had posted"
        elif self._targeted(roll.roller):
            why = f"in {self.current}'s turn, whose post targets {roll.roller}: an attack or damage roll is no answer to it"
        else:
            why = f"in {self.current}'s turn, whose post does not target {roll.roller}"
        view.report("import.roll-undeclared", roll, f"{what} with no declaration it belongs to: {why}",
                    actor=roll.roller)

    def _again(self, post: DeclarationPosted, roll: DiceRolled, view: AuditView) -> None:
        """``import.rerolled``: ``roll`` repeats dice the declarer rolled for ``post`` already,
        for the same purpose, past one an action of the post that rolls and a target of it (two
        attacks, one at two targets, two dodges: two rolls), or, for an answer, one an attack on
        its poster in the post it answers."""
        same = self.dice.setdefault((post.seq, roll.notation, roll.purpose), [])
        same.append(roll)
        allowed = max(1, sum(max(1, len({a.target, *a.targets} - {None}))
                             for a in post.actions if a.type in ROLLED or a.type in DEFENCE))
        answered = next((p for p in self.posts if p.seq == post.responds_to), None)
        if answered is not None:  # an answer rolls once for each attack on its poster it answers
            attacks = sum(1 for a in answered.actions if a.type in ROLLED and post.actor in (a.target, *a.targets))
            allowed = max(allowed, attacks)
        if len(same) > allowed:
            first = same[0]
            what = f"{roll.notation}" + (f" ({roll.purpose})" if roll.purpose != "other" else "")
            view.report("import.rerolled", roll,
                        f"{roll.roller} rolled {what} again for their post at seq {post.seq}: {first.total} at seq "
                        f"{first.seq}, now {roll.total}, {len(same)} rolls for a post of {allowed} (a roll made "
                        "again until it suited, or a fire mode or damage of the same dice the transcript does not "
                        "tell apart)", actor=roll.roller)

    def _answers(self, roll: DiceRolled) -> bool:
        """Whether ``roll`` answers one of the turn's posts (a defence, a target's roll that
        is not an attack of their own)."""
        for post in self.posts:
            if not post.actions or roll.purpose in DEFENCE:
                return True
        return roll.purpose not in OFFENSIVE and self._targeted(roll.roller)

    def _targeted(self, who: str) -> bool:
        """Whether a post of the turn targets ``who``."""
        return any(who in (a.target, *a.targets) for post in self.posts for a in post.actions)

    def _turn_started(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        self._close(view)
        self.current = event.actor

    def _closed(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        self._close(view)
        self.current = None

    def _close(self, view: AuditView) -> None:
        for post in self.posts:
            needs = sorted({a.type for a in post.actions} & ROLLED)
            if needs and post.seq not in self.rolled:
                view.report(
                    "import.unrolled", post,
                    f"{post.actor} declared {', '.join(needs)} but rolled nothing for it before the turn closed",
                    actor=post.actor,
                )
        self.posts = []
        self.rolled = set()
        self.dice = {}


def paired_rolls(events: Iterable[Any], seq: int) -> set[int]:
    """The external rolls citing no post (a HUD's, a bot's) that ``Pairing`` gives the
    declaration at ``seq``: its declarer's rolls after it until they post again, and the
    answers to it (a defence roll, a roll by one it targets that is not an attack of their
    own) until the next post; within its turn. What ``rule void SEQ --with-consequences``
    voids with an imported post (its rolls cite nothing: the pairing is by turn)."""
    post: DeclarationPosted | None = None
    targets: set[str] = set()
    out: set[int] = set()
    own = answering = True
    for event in events:
        if post is None:
            if event.seq == seq and type(event) is DeclarationPosted:
                post = event
                targets = {t for a in post.actions for t in (a.target, *a.targets) if t is not None}
            continue
        kind = type(event)
        if kind is TurnStarted or kind is TurnEnded or kind is RoundEnded:
            break
        if kind is DeclarationPosted and not event.ooc:
            answering = False
            own = own and event.actor != post.actor
            if not own:
                break
        elif kind is DiceRolled and event.generator == "external" and event.for_seq is None:
            if own and event.roller == post.actor:
                out.add(event.seq)
            elif answering and (event.purpose in DEFENCE or (event.roller in targets and event.purpose not in OFFENSIVE)):
                out.add(event.seq)
    return out


def _edited(event: DeclarationPosted | DiceRolled, code: str, view: AuditView) -> None:
    origin = event.origin
    if origin is not None and origin.edited is not None:
        who = event.actor if isinstance(event, DeclarationPosted) else event.roller
        view.report(code, event, f"the message was edited at {origin.edited.isoformat()} after it was sent: "
                                 "the text recorded is the edited one", actor=who)
