"""The ``bleeding-sun`` audit: each attack's pool, threshold and outcome, each hit's DV and
soak, the sequence and its drops, and bleeding out recomputed with the table's own functions;
declarations the table did not make played by its checks (``declared``).

A check runs for every event of its kind (``fightlog.kit.checks``) and returns at once when
there is nothing to judge: a roll or sheet it cannot read is no finding here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeGuard, cast

from fightlog.errors import FightlogError
from fightlog.events.model import (Action, AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectApplied,
                                   EffectExpired, InitiativeRolled, InitiativeSet, RoundEnded, SceneEnded, StatusChanged,
                                   TurnEnded, TurnStarted)
from fightlog.kit.damage_due import DamageDue
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.declared import report_refusal
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun import audit_attacks, audit_burning, audit_defense, audit_grenades
from fightlog.rules.bleedingsun.arithmetic import drop
from fightlog.rules.bleedingsun.audit_dying import Dying
from fightlog.rules.bleedingsun.audit_unresolved import Unresolved
from fightlog.rules.bleedingsun.audit_kickers import Kickers
from fightlog.rules.bleedingsun.audit_statuses import Statuses
from fightlog.rules.bleedingsun.audit_statuses import ended_early
from fightlog.rules.bleedingsun.audit_statuses import turn_ended as status_turn_ended
from fightlog.rules.bleedingsun.declared import check_declaration
from fightlog.rules.bleedingsun.fighters import BLEEDING, DEFENSE, INCOMING, Fighter
from fightlog.rules.bleedingsun.fuses import jumped_on
from fightlog.rules.bleedingsun.options import options_of
from fightlog.rules.bleedingsun.sequence import DROPPED, SEQUENCE, down, order, pool, tiebreak
from fightlog.rules.bleedingsun.economy import IMMEDIATE, NO_DROP
from fightlog.rules.bleedingsun.immediate import provokes
from fightlog.rules.bleedingsun.ruleset import ANSWERS


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def checks() -> Mapping[type, Check]:
    """A fresh set of checks for one audited scene (``BleedingSunRules.audit_checks``)."""
    drops, dying, saves, kicks, undone = Drops(), Dying(), Statuses(), Kickers(), Unresolved()
    due = DamageDue("its DV is rolled, soaked and applied")
    """The attacks of the open turn that owe damage and have none applied yet."""

    def turn_over(before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        undone.turn_over(before, view)
        saves.other(view)
        kicks.settle(before, view)
        drops.ended(before, event, after, view)
        dying.settled(before, event, view)
        status_turn_ended(before, event, view)
        due.turn_over(before, event, after, view)

    def round_over(before: SceneState, event: RoundEnded, after: SceneState, view: AuditView) -> None:
        saves.other(view)
        kicks.settle(before, view)
        round_ended(before, event, after, view)
        dying.settled(before, event, view)

    def scene_over(before: SceneState, event: SceneEnded, after: SceneState, view: AuditView) -> None:
        saves.other(view)
        kicks.settle(before, view)
        dying.settled(before, event, view)

    def resolved(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> None:
        undone.resolved(event)
        saves.other(view)
        audit_defense.answered(before, event, view)
        if audit_attacks.resolved(before, event, after, view):
            due.owe(event)

    def damaged(before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
        saves.other(view)
        due.damaged(before, event, after, view)
        audit_attacks.damaged(before, event, after, view)
        audit_burning.damaged(before, event, view)
        kicks.damaged(before, event, after, view)

    def post(before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        saves.posted(before, event, after, view)
        kicks.settle(before, view)
        if drops.posted(before, event, after, view):
            undone.refused(event.seq)

    def effect(before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        saves.applied(before, event, after, view)
        drops.applied(before, event, after, view)
        audit_defense.total_defense(before, event, view)
        audit_grenades.lies(before, event, after, view)

    def dice(before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        saves.rolled(before, event, after, view)
        kicks.rolled(before, event, view)
        dying.rolled(before, event, after, view)

    def expired(before: SceneState, event: EffectExpired, after: SceneState, view: AuditView) -> None:
        dying.expired(before, event, after, view)
        ended_early(before, event, view)

    def status(before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        saves.changed(before, event, after, view)
        dying.died(before, event, after, view)

    return {
        AttackResolved: cast(Check, resolved),
        DamageApplied: cast(Check, damaged),
        InitiativeRolled: cast(Check, rolled),
        InitiativeSet: cast(Check, drops.ordered),
        TurnEnded: cast(Check, turn_over),
        RoundEnded: cast(Check, round_over),
        SceneEnded: cast(Check, scene_over),
        TurnStarted: cast(Check, drops.opened),
        DeclarationPosted: cast(Check, post),
        EffectApplied: cast(Check, effect),
        DiceRolled: cast(Check, dice),
        EffectExpired: cast(Check, expired),
        StatusChanged: cast(Check, status),
    }


Held = DeclarationPosted | EffectApplied | InitiativeSet


class Drops:
    """The drops in the sequence an immediate action owes (``turn_ended``), checked on what
    the open turn held: its posts with actions, the attacks waiting for an answer
    (``incoming``) and the drops. They are gathered as they are folded from the turn's
    ``turn_started`` on, so a turn's end reads those alone, not every event of the turn
    again; a turn these checks did not see open (posts before the first turn, the checks
    bound again by a ``scene_started`` within a turn) is read from the window instead, as
    ``AuditView.event`` gives it (``_turn_held``)."""

    def __init__(self) -> None:
        self.held: list[Held] = []
        self.since: int | None = None
        """``seq`` of the turn opening ``held`` was gathered from (``None``: none seen)."""

    def opened(self, before: SceneState, event: TurnStarted, after: SceneState, view: AuditView) -> None:
        self.held.clear()
        self.since = event.seq
        first_turn(before, event, after, view)

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> bool:
        """(``posted``'s answer: whether the table refuses the post.)"""
        if self.since is not None and _held(event):
            self.held.append(event)
        return posted(before, event, after, view)

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if self.since is not None and _held(event):
            self.held.append(event)

    def ordered(self, before: SceneState, event: InitiativeSet, after: SceneState, view: AuditView) -> None:
        if self.since is not None and _held(event):
            self.held.append(event)
        ordered(before, event, after, view)

    def ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        started = before.turn.started
        held = self.held if self.since == started else _turn_held(view, started, event.seq)
        turn_ended(before, held, view)


def _held(found: object) -> TypeGuard[Held]:
    """Whether ``Drops`` keeps ``found``: a post with actions, an attack waiting for an
    answer, a drop."""
    if type(found) is DeclarationPosted:  # (compiled, ``isinstance`` of an event class is a slow generic call)
        return bool(found.actions)
    if type(found) is EffectApplied:
        return found.name == INCOMING
    return type(found) is InitiativeSet and found.reason.startswith(DROPPED)


def _turn_held(view: AuditView, started: int, end: int) -> list[Held]:
    """What ``Drops`` gathers, read from the window: the events after ``started`` and
    before ``end``."""
    held: list[Held] = []
    for seq in range(started + 1, end):
        found = view.event(seq)
        if _held(found):
            held.append(found)
    return held


def rolled(before: SceneState, event: InitiativeRolled, after: SceneState, view: AuditView) -> None:
    """A sequence score: the hits of a Savvy + Agility pool, with the tie-breaks."""
    roll = view.event(event.roll or 0)
    if not isinstance(roll, DiceRolled) or roll.purpose != "sequence" or event.actor not in before.combatants:
        return
    try:
        who = Fighter(before, event.actor)
        options = options_of(before)
        want_dice = pool(who)
        want_tiebreak = tiebreak(who, options)
    except FightlogError:
        return
    hits = audit_attacks.hits(roll, options.hit_face)
    problems = []
    if len(roll.dice) != max(0, want_dice):
        problems.append(f"rolled {len(roll.dice)} dice, Savvy + Agility give {want_dice}")
    if event.score != hits:
        problems.append(f"score {event.score}, the dice show {hits} hits")
    if list(event.tiebreak) != want_tiebreak:
        problems.append(f"tie-breaks {event.tiebreak}, the sheet gives {want_tiebreak}")
    if problems:
        view.report("rules.sequence", event, f"{event.actor}'s sequence: " + "; ".join(problems), actor=event.actor)


def ordered(before: SceneState, event: InitiativeSet, after: SceneState, view: AuditView) -> None:
    """The order by the sequence; a drop moves the one who took the immediate action."""
    if event.by is not None:
        return
    if event.reason == SEQUENCE:
        actors = [a for a in event.order if a in before.combatants]
        if len(actors) != len(event.order) or any(a not in before.turn.initiative for a in actors):
            return
        want = order(before, actors)
        if want != actors:
            view.report("rules.sequence", event, f"the order {', '.join(actors)}; the sequence (hits, then the "
                        f"tie-breaks and roll-offs) gives {', '.join(want)}")
        return
    if not event.reason.startswith(DROPPED):
        return
    post = view.event(event.cause) if event.cause is not None else None
    if type(post) is DeclarationPosted:  # the post the drop names (a log before it named one: the latest)
        actor = post.actor
    elif before.pending and event.cause is None:
        actor = before.pending[-1].actor
    else:
        return
    try:
        places = options_of(before).immediate_drop
    except FightlogError:
        return
    want = drop(before.turn.order, actor, places, down(before))
    if list(event.order) != want:
        view.report("rules.sequence", event, f"{actor}'s immediate action drops them {_n(places, 'place')}: "
                    f"{', '.join(want)}, not {', '.join(event.order)}", actor=actor)


def turn_ended(before: SceneState, held: Sequence[Held], view: AuditView) -> None:
    """Every immediate action of the turn the rules allow was followed by its maker's drop in
    the order (a defense on total defense is free: no drop); ``held``: the turn's posts with
    actions, attacks waiting for an answer and drops, in log order (``Drops``).

    What the turn's start holds (the immediate actions spent) and whether the turn's maker
    provoked are read only when a post out of turn asks (most turns have none); ``provokes``
    reads only its post and the turn's start, so asking later gives what asking as each post
    came would."""
    start = view.turn_start
    current = before.turn.current
    owed: list[DeclarationPosted] = []
    spent: set[str] | None = None
    defending: set[str] = set()
    attacked: set[str] = set()
    provoked = False
    unread: list[DeclarationPosted] = []
    """The turn's maker's posts so far not yet read for a provocation."""
    for found in held:
        if type(found) is EffectApplied:
            attacked.add(found.target)
        elif type(found) is DeclarationPosted:
            kind = found.actions[0].type
            if found.actor == current:
                if not provoked:
                    unread.append(found)
            elif found.responds_to is not None and kind in IMMEDIATE and kind not in NO_DROP:
                if spent is None:
                    spent, defending = _at_start(start)
                if kind in ANSWERS and found.actor in defending:  # a defense on total defense: free
                    continue
                if kind == "aoo" and unread:
                    provoked = any(_provokes(start, p.actor, a) for p in unread for a in p.actions)
                    unread.clear()
                if _allowed(start, found, spent, attacked, provoked):
                    spent.add(found.actor)
                    owed.append(found)
        elif owed:
            owed.pop(0)
    for post in owed:
        view.report("rules.sequence", post, f"{post.actor}'s {post.actions[0].type} (an immediate action) was not "
                    "followed by their drop in the sequence", actor=post.actor)


def _provokes(state: SceneState, actor: str, action: Action) -> bool:
    try:
        return provokes(state, actor, action)
    except FightlogError:
        return False


def _at_start(start: SceneState) -> tuple[set[str], set[str]]:
    """Who had spent their immediate action at the turn's start, and who was on total
    defense (an answer of theirs is free: no drop), in one pass over its effects."""
    spent: set[str] = set()
    defending: set[str] = set()
    for e in start.effects.values():
        if e.name == "immediate":
            spent.add(e.target)
        elif e.name == DEFENSE:
            defending.add(e.target)
    return spent, defending


def _allowed(start: SceneState, post: DeclarationPosted, spent: set[str], attacked: set[str], provoked: bool) -> bool:
    """Whether the rules allow an immediate post (what the declaration check refuses is
    reported there, not as a missing drop)."""
    who = start.combatants.get(post.actor)
    if who is None or post.actor in spent or "flat_footed" in who.statuses:
        return False
    kind = post.actions[0].type
    if kind in ANSWERS:
        return post.actor in attacked
    if kind == "aoo":
        return provoked
    if kind == "stop_aim":
        return any(e.name == "aim" and e.target == post.actor and e.params.get("held") for e in start.effects.values())
    if kind == "jump":
        try:
            jumped_on(start, post.actor, post.actions[0])  # the table's own test: a grenade waiting within 1 hex
        except FightlogError:
            return False
    return True


def first_turn(before: SceneState, event: TurnStarted, after: SceneState, view: AuditView) -> None:
    """At the round's first turn, every bleed begun in an earlier round has ticked once a
    round since."""
    if before.turn.acted or not before.effects:
        return
    round_ = event.round
    for found in before.effects.values():
        if found.name != BLEEDING:
            continue
        since = found.params.get("round")
        if isinstance(since, int) and found.ticks < round_ - since:
            view.report("rules.bleeding", event, f"{found.target} has bled out since round {since}: the bleed "
                        f"ticked {_n(found.ticks, 'time')} by the start of round {round_}, the rules give {round_ - since}",
                        actor=found.target)


def round_ended(before: SceneState, event: RoundEnded, after: SceneState, view: AuditView) -> None:
    """HP and the dying statuses agree: unconscious at 0 or below, bleeding out (or stable)
    below 0."""
    for who in before.combatants.values():
        hp = who.pools.get("hp")
        if hp is None or "dead" in who.statuses:
            continue
        if hp <= 0 and "unconscious" not in who.statuses:
            view.report("rules.bleeding", event, f"{who.actor} is at {hp} HP and not unconscious", actor=who.actor)
        elif hp < 0 and "stable" not in who.statuses and not any(
                e.name == BLEEDING and e.target == who.actor for e in before.effects.values()):
            view.report("rules.bleeding", event, f"{who.actor} is at {hp} HP, neither stable nor bleeding out",
                        actor=who.actor)


def posted(before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> bool:
    """A post the table did not make, played by the table's checks: whether they refuse it."""
    return report_refusal(before, event, view, check_declaration) is not None

