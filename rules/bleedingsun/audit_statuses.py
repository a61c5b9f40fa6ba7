"""The ``bleeding-sun`` audit of status saves and their effects (``rules.effect-wrong``, ``rules.tick-missing``; Status
Effects; Status Affect Saves; Stagger; Knockdown): a save's pool (the chart's attribute
less a stagger, plus a blast's bonus dice as its label gives them), the column its hits
give against the rating (exceeds, equals, fails) and the outcome the chart puts there,
fleeing's rounds (1, or net misses + 1), staggers and stuns ending with the bearer's next
turn, and burning ticking at the start of its victim's turn.

A save names its status, attribute and rating in its label, as the table writes it
(``statuses.save``); a save whose label does not read so is no finding here. What a save
gave is judged when the next thing not caused by it comes (another roll, a post, a turn's
end): the outcome events the table emits follow the roll at once, each citing it.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from fightlog.errors import FightlogError
from fightlog.events.model import DeclarationPosted, DiceRolled, EffectApplied, EffectExpired, StatusChanged, TurnEnded
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.audit_attacks import hits
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.ruleset import OUT
from fightlog.rules.bleedingsun.statuses import NEXT_TURN, SAVES, column

CODE: Final = "rules.effect-wrong"
TICK: Final = "rules.tick-missing"
_LABEL: Final = re.compile(r"^(\w+) save: (\w+) (-?\d+) vs (\d+)(?:, \+(\d+) .*?)?(?:, -\d+ staggered)?$")
_NO_STACK: Final = frozenset({"frozen", "burning", "confused", "irradiated"})
"""Outcomes that do not stack: on one who has it already, nothing is applied."""


class Save(NamedTuple):
    """A save rolled, waiting for its outcome: who, against what, and the chart's outcome."""

    roll: DiceRolled
    target: str
    status: str
    rating: int
    hits: int
    outcome: str | None
    had: frozenset[str]
    """What the saver had before (effect names and statuses): a non-stacking outcome on one
    who has it already applies nothing."""


def outcome_name(outcome: str) -> str:
    """The effect (or status, ``prone``) an outcome of the chart applies first."""
    if outcome.startswith("staggered"):
        return "staggered"
    if outcome.startswith("fatigue"):
        return "fatigue"
    if outcome.startswith("irradiated"):
        return "irradiated"
    if outcome.startswith("fleeing") or outcome == "terror":
        return "fleeing"
    return outcome


class Statuses:
    """The status checks of one audited scene, with the save waiting for its outcome."""

    def __init__(self) -> None:
        self.save: Save | None = None
        self.seen: list[str] = []
        """The outcomes (effect names, ``prone``) the waiting save has caused so far."""

    def rolled(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """A save's pool; the save waits for its outcome (an earlier one is judged first)."""
        self.settle(view)
        if event.purpose != "save" or event.roller is None:
            return
        found = _LABEL.match(event.label or "")
        if found is None or found.group(1) not in SAVES or event.roller not in before.combatants:
            return
        status, attribute, rating = found.group(1), found.group(2), int(found.group(4))
        bonus = int(found.group(5) or 0)
        rule = SAVES[status]
        try:
            who = Fighter(before, event.roller)
            value, stagger, face = who.attr(rule.attribute), who.stagger(), who.options.hit_face
        except FightlogError:
            return
        pool = value - stagger + bonus
        problems = []
        if attribute != rule.attribute:
            problems.append(f"a {attribute} save; the chart saves against {status} with {rule.attribute}")
        if len(event.dice) != max(0, pool):
            problems.append(f"rolled {len(event.dice)} dice; {rule.attribute} {value}"
                            + (f" less {stagger} (staggered)" if stagger else "")
                            + (f" + {bonus} (blast)" if bonus else "") + f" gives {max(0, pool)}")
        if problems:
            view.report(CODE, event, f"{event.roller}'s {status} save: " + "; ".join(problems), actor=event.roller)
        shown = hits(event, face)
        col = column(shown, rating)
        outcome = {"exceeds": rule.exceeds, "equals": rule.equals, "fails": rule.fails}[col]
        had = frozenset(e.name for e in who.effects()) | frozenset(who.who.statuses)
        self.save = Save(event, event.roller, status, rating, shown, outcome, had)
        self.seen = []

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        save = self.save
        if save is None or event.cause != save.roll.seq:
            self.settle(view)
            return
        self.seen.append(event.name)
        if event.name == "fleeing" and save.outcome is not None and outcome_name(save.outcome) == "fleeing":
            want = 1 if save.outcome == "fleeing_1" else max(0, save.rating - save.hits) + 1
            if event.duration != want:
                view.report(CODE, event, f"{save.target} flees for {event.duration} rounds; the {save.status} save's "
                            f"{save.hits} hits against {save.rating} give {want}"
                            + ("" if save.outcome == "fleeing_1" else " (net misses + 1)"), actor=save.target)

    def changed(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        save = self.save
        if save is not None and event.cause == save.roll.seq and event.on:
            self.seen.append(event.status)

    def other(self, view: AuditView) -> None:
        """Anything else: a save waiting is over."""
        self.settle(view)

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        self.settle(view)
        if event.responds_to is None and event.actor == before.turn.current:
            burned(before, event.actor, event, view)

    def settle(self, view: AuditView) -> None:
        """Judge the waiting save by the outcomes it caused."""
        save, seen = self.save, self.seen
        if save is None:
            return
        self.save, self.seen = None, []
        col = column(save.hits, save.rating)
        want = None if save.outcome is None else outcome_name(save.outcome)
        if want is not None and want not in seen and not _spared(save, want):
            got = f"it applied {', '.join(seen)}" if seen else "nothing followed"
            view.report(CODE, save.roll, f"{save.target}'s {save.status} save: {save.hits} hits against "
                        f"{save.rating} {col} it: the chart gives {save.outcome}; {got}", actor=save.target)
        elif want is None and seen:
            view.report(CODE, save.roll, f"{save.target}'s {save.status} save: {save.hits} hits against "
                        f"{save.rating} {col} it: the chart gives nothing; it applied {', '.join(seen)}",
                        actor=save.target)
        elif want is not None:
            extra = [s for s in seen if s not in (want, "fatigue", "crouched")]
            if extra:
                view.report(CODE, save.roll, f"{save.target}'s {save.status} save: {save.hits} hits "
                            f"against {save.rating} {col} it: the chart gives {save.outcome}, not "
                            f"{', '.join(extra)}", actor=save.target)


def _spared(save: Save, want: str) -> bool:
    """Whether the outcome ``want`` applies nothing: a status that does not stack on one who
    has it, prone on one prone already, fatigue folded into one effect a kind (always
    emitted, so never spared)."""
    return (want in _NO_STACK or want == "prone") and want in save.had


def turn_ended(before: SceneState, event: TurnEnded, view: AuditView) -> None:
    """A turn's end ends the staggers and stuns its maker had at its start; burning on them
    at its start has ticked in it (``burned``)."""
    actor = event.actor
    started = before.turn.started
    for found in before.effects.values():
        if found.target == actor and found.name in NEXT_TURN and found.applied < started:
            view.report(CODE, event, f"{actor}'s {found.name} ({found.effect}) was in place at the start of their "
                        "turn and did not end with it (it lasts until the end of one's next turn)", actor=actor)
    burned(before, actor, event, view)


def ended_early(before: SceneState, event: EffectExpired, view: AuditView) -> None:
    """A stagger or stun ends with its bearer's next turn (Status Effects: until the end of
    one's next turn): in that turn (one begun after it took hold), at a round's start for one
    out of the fight (the stand-in for the turn), or with death; not before."""
    found = before.effects.get(event.effect)
    if found is None or found.name not in NEXT_TURN:
        return
    target = found.target
    who = before.combatants.get(target)
    if who is None or not OUT.isdisjoint(who.statuses):
        return
    turn = before.turn
    if turn.current == target and found.applied < turn.started:
        return
    view.report(CODE, event, f"{target}'s {found.name} ({found.effect}) ended before the end of {target}'s next turn "
                "(it lasts until then)", actor=target)


def burned(before: SceneState, actor: str, event: DeclarationPosted | TurnEnded, view: AuditView) -> None:
    """By ``actor``'s first post in their turn (and its end), the burning on them at the
    turn's start has ticked (only a post puts it out, so it is still there to read)."""
    start = view.turn_start
    started = before.turn.started
    if start.turn.started != started or before.turn.current != actor:
        return
    for was in start.effects.values():
        if was.name != "burning" or was.target != actor or was.applied >= started:
            continue
        now = before.effects.get(was.effect)
        if now is not None and now.ticks <= was.ticks and now.applied == was.applied:
            view.report(TICK, event, f"{actor} was burning at the start of their turn and it did not tick "
                        "(a level of fatigue and the fire damage each round)", actor=actor)
