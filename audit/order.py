"""Posting-order checks, shared by every ruleset.

Who must post next is derived from the state (``fightlog.reducers.derive.next_to_post``):
the posting order from initiative (or a GM, an ambush, a delay), the combatants the ruleset
takes out of it skipped (defeated, fled, wounded...), those holding or delaying passed over,
arrivals slotted in from the round after they join, called allies after their caller. The
ruleset answers the questions that differ (``out_of_order_statuses``, ``waiting_statuses``,
``arrival_delay``); nothing here knows a ruleset by name.

Two moments are checked: a turn opening (``turn_started``: was it that combatant's turn?) and
a post (``declaration_posted``: was the poster's turn open?). Rounds are counted too: a
round opens only once the one before has ended (``round_ended``), and rounds count 1, 2, 3...
with none repeated, skipped or counted back; a ``round_ended`` closes the open round, and
whoever was due in it and had no turn in it was skipped (``round_closed``). (A log
may end mid-round: a fight stopped there, not a round that never ended.) Posts answering another post
(``responds_to``: an interrupt, a duel's defensive turn) and out-of-character posts are the
ruleset's to check. What a poster may do in their turn (stunned, arriving, the allowance) is
the ruleset's too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from msgspec.structs import replace

from fightlog.kit.checks import AuditView, Check
from fightlog.events.model import DeclarationPosted, InitiativeSet, RoundEnded, RoundStarted, TurnStarted
from fightlog.reducers.derive import due_to_post, next_to_post
from fightlog.reducers.state import SceneState
from fightlog.kit.ruleset import Ruleset, rules_for_scene

_UNSET = object()
_NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})

Due = Callable[[SceneState], "str | None"]
"""Who is due to post next in a state: ``next_to_post``, or a faster equivalent."""


class Posting:
    """Who is due to post next, under the ruleset of the scene (its id and options, and the
    statuses they skip in the order, kept until they change), and the checks that ask: at a
    post, a turn opening and a round's end (who had a turn in it is noted as it goes).

    They run for every post and every turn opening, so the common cases (a post in the
    poster's own open turn, the turn of whoever is due opened) return at once; who is due
    is worked out as ``next_to_post`` does, under the ruleset of the state before the event,
    looked up again only when the scene's ruleset or options change (the scene slice changes
    with every roll; they do not)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.known_ruleset: Any = _UNSET
        self.known_options: Any = None
        self.skip: frozenset[str] = frozenset()
        self.marks = RoundMarks()

    def skipping(self, state: SceneState) -> frozenset[str]:
        """The statuses that take a combatant out of the posting order under the ruleset of
        ``state``'s scene (its out of order and waiting ones)."""
        scene = state.scene
        if scene is None:
            ruleset, options = None, _NO_OPTIONS
        else:
            ruleset, options = scene.ruleset, scene.options
        if ruleset is not self.known_ruleset or options is not self.known_options:
            found = rules_for_scene(ruleset, options)
            self.known_ruleset, self.known_options = ruleset, options
            self.skip = found.out_of_order_statuses() | found.waiting_statuses()
        return self.skip

    def due(self, state: SceneState) -> str | None:
        return due_to_post(state, self.skipping(state))

    def checks(self) -> dict[type, Check]:
        """The checks, by the event kind each runs for, as the audit calls them:
        ``check(before, event, after, view)`` (an audit keeps the ``Posting`` to ``finish`` it)."""
        return {
            DeclarationPosted: self.post_check,
            InitiativeSet: order_set,
            TurnStarted: self.turn_check,
            RoundStarted: self.round_opened,
            RoundEnded: self.round_check,
        }

    def finish(self, view: AuditView) -> None:
        """The log has ended: who a post passed over in the round left open was skipped."""
        self.marks.flush(view)

    def post_check(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        if event.ooc or event.responds_to is not None or event.actor == before.turn.current:
            return
        self.marks.posted.add(event.actor)
        posted(before, event, view, self.rules, due=self.due)

    def round_opened(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        self.marks.flush(view)  # a round that never ended (said by round_opened): who it passed over was skipped
        self.marks.clear()
        self.marks.started = frozenset(after.turn.order)
        round_opened(before, event, after, view)

    def round_check(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        round_closed(before, event, after, view, self.skipping(before), self.marks)
        self.marks.clear()

    def turn_check(self, before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
        skip = self.skipping(before)
        scene = before.scene
        actor = event.actor
        marks = self.marks
        marks.posted.add(actor)
        if marks.passed and actor in marks.passed:
            marks.came_back(actor, view)
        turn = before.turn
        if turn.current is None and turn.in_round and (scene is None or not scene.ended):
            # ``due_to_post``'s usual case, inline: the next in the order who has not acted
            done = turn.acted
            order = turn.order
            count = len(done)
            if count < len(order) and order[count] == actor and actor not in done and order[:count] == done:
                who = before.combatants.get(actor)
                if who is not None and skip.isdisjoint(who.statuses):
                    return
        if actor != due_to_post(before, skip):
            turn_opened(before, event, view, self.rules, due=self.due, marks=marks)


def round_opened(before: SceneState, event: RoundStarted, after: SceneState, view: AuditView) -> None:
    """A round opening: the round after the last (round 1 first), once the last has ended."""
    turn = before.turn
    expected = turn.round + 1
    if event.round != expected:
        if event.round == turn.round:
            what = f"round {event.round} started again"
        elif turn.round == 0:
            what = f"the fight's first round is numbered {event.round}, not 1"
        else:
            what = f"round {event.round} started after round {turn.round} ({'back' if event.round < turn.round else 'skipping ahead'})"
        view.report("order.round-number", event, f"{what}: rounds count up by one, round {expected} was next")
    elif turn.in_round:
        view.report(
            "order.round-not-ended", event,
            f"round {event.round} started while round {turn.round} had not ended (no round_ended before it)",
        )


def round_closed(before: SceneState, event: RoundEnded, after: SceneState, view: AuditView,
                 skip: frozenset[str] = frozenset(), marks: RoundMarks | None = None) -> None:
    """A round closing: the round that is open, once everyone due in it has had a turn.
    Not due: whoever ``skip``'s statuses take out of the order (the ruleset's out of order
    and waiting ones), the open turn's actor, and with ``marks`` (the round's), whoever had
    a turn opened or posted in the round (one who delayed and never stepped back in lost
    the turn by the rules, and a post out of turn is reported as one) and whoever joined the
    order during the round (due from the next); who was named skipped already in the round
    is not named again."""
    turn = before.turn
    if not turn.in_round:
        why = f"round {turn.round} had ended already" if turn.round else "no round had started"
        view.report("order.round-number", event, f"round {event.round} ended, but no round was open ({why})")
        return
    if event.round != turn.round:
        view.report("order.round-number", event, f"round {event.round} ended, but the round open was round {turn.round}")
        return
    if before.scene is not None and before.scene.ended:
        return
    combatants = before.combatants
    for actor in turn.order:
        if actor in turn.acted or actor == turn.current or (marks is not None and (
                actor in marks.posted or actor in marks.skipped or (
                    marks.started is not None and actor not in marks.started))):
            continue
        who = combatants.get(actor)
        if who is not None and skip.isdisjoint(who.statuses):
            view.report(
                "order.skipped", event,
                f"{actor} was skipped: round {turn.round} ended before {actor} had posted in it", actor=actor,
            )


def posted(
    before: SceneState, event: DeclarationPosted, view: AuditView, rules: Ruleset, *, due: Due = next_to_post
) -> None:
    """A post: by someone in the fight, in their own turn, not after their turn this round."""
    if event.ooc or event.responds_to is not None:
        return
    actor = event.actor
    turn = before.turn
    if actor == turn.current:
        return
    if turn.current is not None and actor == _rightful(before):
        return  # the wrong turn was opened instead: reported at its turn_started
    who = before.combatants.get(actor)
    if who is None:
        view.report("order.not-in-fight", event, f"{actor} posted but has not joined the fight", actor=actor)
        return
    out = sorted(rules.out_of_order_statuses().intersection(who.statuses))
    if out:
        view.report(
            "order.cannot-act", event,
            f"{actor} posted while {' and '.join(s.replace('_', ' ') for s in out)}, out of the fight and skipped in "
            "the posting order",
            actor=actor,
        )
        return
    if turn.round == 0:
        if event.actions:
            view.report(
                "order.out-of-turn", event,
                f"{actor} declared {_actions(event)} before the fight began (no turn was open)", actor=actor,
            )
        return
    if turn.in_round and actor in turn.acted:
        whose = f"it was {turn.current}'s turn" if turn.current else f"the next turn was {due(before)}'s"
        view.report(
            "order.double-post", event,
            f"{actor} posted again in round {turn.round} after their turn had ended ({whose})", actor=actor,
        )
        return
    if turn.current is None:
        expected = due(before)
        whose = f"the next turn was {expected}'s and had not been opened" if expected else "no turn was open"
    else:
        whose = f"it was {turn.current}'s turn"
    view.report("order.out-of-turn", event, f"{actor} posted out of turn in round {turn.round}: {whose}",
                actor=actor)


def turn_opened(
    before: SceneState, event: TurnStarted, view: AuditView, rules: Ruleset, *, due: Due = next_to_post,
    marks: RoundMarks | None = None,
) -> None:
    """A turn opening: it must be the turn of whoever the posting order says is next.
    (``due`` is ``next_to_post``, or a faster equivalent.) With ``marks``, the round's
    (``RoundMarks``): one passed over is named once a round, and a turn an import opened at
    a post (``opened_at_a_post``) is judged as the post it is, once it is known whether the
    one passed over posted later in the round (``RoundMarks.passed``)."""
    actor = event.actor
    expected = due(before)
    if actor == expected:
        return
    turn = before.turn
    who = before.combatants.get(actor)
    if who is None:
        view.report("order.not-in-fight", event, f"a turn was opened for {actor}, who has not joined the fight",
                    actor=actor)
        return
    out = sorted(rules.out_of_order_statuses().intersection(who.statuses))
    if out:
        view.report(
            "order.cannot-act", event,
            f"{actor}'s turn was opened in round {event.round} although {actor} is {' and '.join(out)}",
            actor=actor,
        )
        return
    if turn.in_round and actor in turn.acted and event.round == turn.round:
        view.report(
            "order.double-post", event,
            f"{actor} was given a second turn in round {turn.round}"
            + (f"; {expected} was next in the posting order" if expected else ""),
            actor=actor,
        )
        return
    waiting = sorted(rules.waiting_statuses().intersection(who.statuses))
    if waiting:
        return  # stepping back in from a hold or delay is the ruleset's to judge
    if expected is None:
        return
    if marks is not None:
        if expected in marks.skipped:
            return  # named once a round
        if opened_at_a_post(event):
            marks.passed.setdefault(expected, []).append((event, actor))
            return
        if expected in marks.passed:
            return  # named when the round ends (or they post)
        marks.skipped.add(expected)
    view.report("order.skipped", event, _skipped(expected, actor, event.round), actor=expected)


def _skipped(expected: str, actor: str, round_: int) -> str:
    return f"{expected} was skipped: {actor}'s turn was opened in round {round_} before {expected} had posted"


def opened_at_a_post(event: TurnStarted) -> bool:
    """Whether ``event`` is a turn an import opened at the post that follows it (a chat
    transcript has posts, not turns: who opened it is who posted)."""
    origin = event.origin
    return origin is not None and origin.medium == "import"


class RoundMarks:
    """What the posting-order checks note of the open round as it goes (``Posting``)."""

    def __init__(self) -> None:
        self.posted: set[str] = set()
        """Who had a turn opened, or posted, in the round (``round_closed``: not skipped)."""
        self.skipped: set[str] = set()
        """Who was named skipped in the round (named once)."""
        self.started: frozenset[str] | None = None
        """The posting order as the round started (``None``: not seen): who joined it during
        the round (a reinforcement answering a call) is due from the next round on."""
        self.passed: dict[str, list[tuple[TurnStarted, str]]] = {}
        """Who an import's turns passed over (``opened_at_a_post``) -> each such turn and its
        poster: if they post later in the round, each of those posts was out of turn
        (``came_back``); if not, the round's end names them skipped (``round_closed``), or,
        in a round that never ends, the log's end or the next round's start (``flush``)."""

    def clear(self) -> None:
        self.posted.clear()
        self.skipped.clear()
        self.passed.clear()
        self.started = None

    def came_back(self, actor: str, view: AuditView) -> None:
        """``actor``, passed over by posts earlier in the round, posts: those were out of turn."""
        for event, poster in self.passed.pop(actor):
            view.report(
                "order.out-of-turn", event,
                f"{poster} posted out of turn in round {event.round}: it was {actor}'s turn ({actor} posted after "
                f"{poster})",
                actor=poster,
            )

    def flush(self, view: AuditView) -> None:
        """A round left open (the log ends, or the next starts without its end): who its posts
        passed over and never posted was skipped, named at the first post that passed them."""
        for expected, passes in self.passed.items():
            event, poster = passes[0]
            view.report("order.skipped", event, _skipped(expected, poster, event.round), actor=expected)
        self.passed.clear()


def _rightful(state: SceneState) -> str | None:
    """Whose turn it should be now, had the open turn not been opened."""
    turn = state.turn
    return next_to_post(replace(state, turn=replace(turn, current=None)))


def _actions(event: DeclarationPosted) -> str:
    return ", ".join(a.type for a in event.actions)


def order_set(before: SceneState, event: Any, after: SceneState, view: AuditView) -> None:
    """A posting order (``initiative_set``) names each combatant once, and only those who
    have joined the fight."""
    seen: set[str] = set()
    for actor in event.order:
        if actor not in before.combatants:
            view.report("order.not-in-fight", event, f"the posting order names {actor}, who has not joined the fight",
                        actor=actor)
        elif actor in seen:
            view.report("order.listed-twice", event, f"the posting order names {actor} twice", actor=actor)
        seen.add(actor)
