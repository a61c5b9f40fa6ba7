"""Disputes: fork a fight at one recorded fact, re-derive what follows, show the divergence.

``dispute(events, change, seed=...)`` changes one *fact* of a log in memory (a roll's dice or
modifiers, a declaration, a GM ruling), re-derives everything after it with the ruleset's
``Table`` (and the scene's seed, when it has one), and returns the fork with what differs: the
first event that differs, the requests the fork no longer allows, where the recorded history
stops fitting the fork, the state at the end (pools, statuses, the winner) and the audit
findings that appear or disappear. Pure: events in, events out; the CLI (``fightlog
dispute``) reads the log and writes the fork. See ``docs/dispute.md``.

The parts: ``fightlog.audit.requests`` splits the log into the requests that produced it and
notes where the recorded log departs from the rules (a hand-run fight, rules changed since);
``fightlog.audit.fork`` replays the requests from the one holding the change;
``fightlog.audit.divergence`` says where the recorded history stops fitting the fork. This
module checks the change, finds the seed and compares.

**The baseline.** Everything before the request holding the change is kept as recorded, even
where it departs from the rules. A fork is compared with the *original*: the recorded log
when the rules re-derive it from the fork point on (an engine fight), else the original as
the rules re-derive it from that point (``Dispute.baseline``: the same replay without the
change), so that what differs is what the change did, not what the GM did differently from
the rules; ``Dispute.departures`` says where the recorded log departs from them.

**Dice.** An unchanged roll at an unchanged roll index keeps its face (the scene's seed). A
changed roll keeps the dice and modifiers given (the total recomputed): an engine roll keeps
its index with faces the seed does not give and ``origin.medium`` ``dispute``; a changed
external roll stays external. External rolls of the original (dice bots, HUDs) are reused, in
order within their request, for the rolls of the same dice, roller and purpose; a roll the original
did not make is drawn from the seed, or, in a log with no seed (every roll made elsewhere),
cannot be made: the request that needs it is dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.amendment import Reach, amend
from fightlog.audit.auditor import audit_events
from fightlog.audit.divergence import Divergence, Dropped
from fightlog.audit.findings import Finding
from fightlog.audit.fork import Forker, Passed
from fightlog.audit.replay import as_json, event_kind, refold
from fightlog.audit.requests import Departure, Request, RequestKind, requests_of, split, table_of
from fightlog.errors import DiceError, InputError
from fightlog.events.compare import Difference, field_changes, first_difference
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Origin,
    RulingMade,
    SceneEnded,
    SceneStarted,
    TurnStarted,
)
from fightlog.reducers.state import SceneState
from fightlog.dice import commitment, seed_bytes

__all__ = [
    "DISPUTE_MEDIUM",
    "FACTS",
    "Change",
    "Departure",
    "Dispute",
    "Divergence",
    "Dropped",
    "Ending",
    "FindingChange",
    "Passed",
    "Request",
    "RequestKind",
    "Standing",
    "dice_seed",
    "dispute",
    "requests_of",
    "split",
]


class Change(Struct, frozen=True, kw_only=True):
    """The fact changed: the event at ``seq``, with ``sets`` (``(PATH, VALUE)`` pairs:
    ``dice[0].face``, 55), or ``void`` (as if it had not happened: a declaration or a
    ruling), or ``withdraw`` (a ruling, as if it had not been made)."""

    seq: int
    sets: tuple[tuple[str, Any], ...] = ()
    void: bool = False
    withdraw: bool = False

    def text(self) -> str:
        """The change as written on the command line."""
        if self.void:
            return "--void"
        if self.withdraw:
            return "--withdraw"
        return " ".join(f"{path}={_json(value)}" for path, value in self.sets)


class Standing(Struct, frozen=True, kw_only=True):
    """One combatant at the end, original against fork: every pool as ``(original, fork)``
    (``None``: not there), statuses gained and lost in the fork, and whether they are in each
    fight at all."""

    actor: str
    name: str
    pools: dict[str, tuple[int | None, int | None]]
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    present: tuple[bool, bool] = (True, True)

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost or self.present[0] != self.present[1]) or any(
            a != b for a, b in self.pools.values()
        )


class Ending(Struct, frozen=True, kw_only=True):
    """The end of both fights: each combatant's standing, the winner, whether the scene
    ended, the round reached and the number of events, each as ``(original, fork)``."""

    standings: tuple[Standing, ...]
    winner: tuple[str | None, str | None]
    ended: tuple[bool, bool]
    round: tuple[int, int]
    events: tuple[int, int]


class FindingChange(Struct, frozen=True, kw_only=True):
    """An audit finding that appears in the fork (``appeared``) or disappears from it;
    ``on_change`` marks a finding on the changed fact itself (the changed engine roll is one
    the seed does not give)."""

    appeared: bool
    finding: Finding
    on_change: bool = False


class Dispute(Struct, frozen=True, kw_only=True):
    """The outcome (see the module docstring). ``target`` is the event changed as recorded,
    ``amended`` as changed (``None``: voided or withdrawn), ``fields`` what the change did to
    it; ``restart`` the ``seq`` where re-derivation starts; ``seed`` the dice seed (``None``:
    the log has none, every roll was made elsewhere); ``original`` the log as recorded;
    ``baseline`` the original as the rules re-derive it from ``restart`` (``None``: the
    recorded log, which they give back); ``difference`` the first event that differs from the
    baseline (or the recorded log), ``consequence`` the first after the changed event itself;
    ``fork`` the fork's events (``seq`` assigned, ``prev`` left for the store to seal);
    ``divergences`` where else the recorded history stops fitting the fork; ``departures``
    where the recorded log departs from the rules."""

    change: Change
    target: AnyEvent
    amended: AnyEvent | None
    fields: tuple[tuple[str, Any, Any], ...]
    restart: int
    seed: str | None
    original: list[AnyEvent]
    fork: list[AnyEvent]
    difference: Difference | None
    consequence: Difference | None
    dropped: tuple[Dropped, ...]
    passed: tuple[Passed, ...]
    ending: Ending
    findings: tuple[FindingChange, ...]
    baseline: list[AnyEvent] | None = None
    divergences: tuple[Divergence, ...] = ()
    departures: tuple[Departure, ...] = ()

    @property
    def kind(self) -> str:
        return _kind(self.target)


_METADATA: Final = frozenset({"origin"})
"""Not compared between the original and the fork: the changed fact's ``origin`` says it
is the dispute's."""

DISPUTE_MEDIUM: Final = "dispute"
"""``origin.medium`` of a fork's changed fact."""


# --------------------------------------------------------------------------- the entry point


def dispute(events: Sequence[AnyEvent], change: Change, *, seed: str | None = None, name: str = "<log>") -> Dispute:
    """Fork ``events`` at ``change`` and compare (see the module docstring). ``seed`` is the
    scene's seed when the log does not reveal it (checked against the commitment);
    ``name`` locates errors (``InputError`` with the ``seq`` as line)."""
    events = list(events)
    if not events or type(events[0]) is not SceneStarted:
        raise InputError("not a scene: the log does not start with scene_started", path=name)
    if not 1 <= change.seq <= len(events):
        raise InputError(f"--at {change.seq}: the log has seq 1 to {len(events)}", path=name)
    target = events[change.seq - 1]
    amended = _amend(events, target, change, name)
    secret = dice_seed(events, seed, name=name)
    table = table_of(events[0], name)
    parts = split(events, secret, table=table, name=name)
    requests = parts.requests
    at = next(r for r, req in enumerate(requests) if req.first < change.seq <= req.stop)
    restart = events[requests[at].first].seq
    ordinal = sum(1 for e in events[requests[at].first : change.seq - 1] if type(e) is DiceRolled)
    forker = Forker(events, parts, table, secret, name)
    fork = forker.run(at, change.seq, amended, ordinal)
    baseline: list[AnyEvent] | None = None
    original = events
    dropped, divergences, passed = tuple(forker.dropped), tuple(forker.divergences), tuple(forker.passed)
    if any(d.seq >= restart for d in parts.departures):
        # The rules do not give back the recorded log from here: compare with the original as
        # they re-derive it (the same replay without the change).
        unchanged_run = Forker(events, parts, table, secret, name)
        original = baseline = unchanged_run.run(at, change.seq, target, ordinal, baseline=True)
        dropped = _marked(dropped, unchanged_run.dropped)
        divergences = _marked(divergences, unchanged_run.divergences)
        passed = _marked(passed, unchanged_run.passed)
    changed_at = forker.hypothetical if isinstance(target, DiceRolled) else forker.mapped.get(change.seq)
    unchanged = amended is not None and _data(amended) == _data(target)
    difference = first_difference(original, fork, ignore=_METADATA)
    consequence = None
    if (amended is not None and not unchanged and difference is not None and changed_at is not None
            and difference.seq == changed_at and changed_at <= len(original)):
        # The changed event itself differs, by construction: what is the first thing after it?
        put_back = [*fork[: changed_at - 1], original[changed_at - 1], *fork[changed_at:]]
        consequence = first_difference(original, put_back, ignore=_METADATA)
    return Dispute(
        change=change,
        target=target,
        amended=amended,
        fields=tuple(field_changes(_data(target), _data(amended))) if amended is not None else (),
        restart=restart,
        seed=secret,
        original=events,
        baseline=baseline,
        fork=fork,
        difference=difference,
        consequence=consequence,
        dropped=dropped,
        passed=passed,
        divergences=divergences,
        departures=parts.departures,
        ending=_ending(refold(original, name), refold(fork, name), len(original), len(fork)),
        findings=_findings(original, fork, secret, forker.hypothetical),
    )


_Marked = TypeVar("_Marked", Dropped, Divergence, Passed)


def _marked(found: tuple[_Marked, ...], also: Sequence[_Marked]) -> tuple[_Marked, ...]:
    """``found``, each marked ``unchanged`` when the replay without the change has it too
    (the same place, kind and actor: not the reason, which may name the fork's own seqs)."""
    keys = {_mark_key(f) for f in also}
    return tuple(replace(f, unchanged=_mark_key(f) in keys) for f in found)


def _mark_key(found: Dropped | Divergence | Passed) -> tuple[Any, ...]:
    if isinstance(found, Dropped):
        return found.seq, found.request, found.actor
    if isinstance(found, Divergence):
        return found.seq, found.kind, found.actor
    return found.before, found.actor, found.round


# --------------------------------------------------------------------------- the seed


def dice_seed(events: Sequence[AnyEvent], given: str | None, *, name: str = "<log>") -> str | None:
    """The scene's dice seed: ``given`` (hex), else the one the log reveals (``scene_ended``,
    or ``scene_started`` for an open scene); either must match the commitment. ``None`` for a
    scene that commits to no seed (its rolls were made elsewhere, by a dice bot or a HUD)."""
    start = events[0]
    assert isinstance(start, SceneStarted)
    dice = start.dice
    if dice is None:
        if given is not None:
            raise InputError("--seed: the scene commits to no dice seed (its rolls were made elsewhere)", path=name)
        return None
    if given is not None:
        try:
            given = seed_bytes(given, what="the seed").hex()
        except DiceError as exc:
            raise InputError(f"--seed: {exc}", path=name) from None
        if commitment(given) != dice.commitment:
            raise InputError("--seed does not match the dice commitment in scene_started", path=name)
        return given
    revealed = [(e.seq, e.seed) for e in events if type(e) is SceneEnded and e.seed]
    if dice.seed:
        revealed.insert(0, (1, dice.seed))
    if not revealed:
        raise InputError(
            "no dice seed: the scene has not revealed it yet; give it with --seed HEX "
            "(during live play it is in LOG.seed)",
            path=name,
        )
    seq, seed = revealed[-1]
    try:
        seed = seed_bytes(seed, what="the seed").hex()
    except DiceError as exc:
        raise InputError(f"the seed revealed here is not usable: {exc}", path=name, line=seq) from None
    if commitment(seed) != dice.commitment:
        raise InputError("the seed revealed here does not match the dice commitment in scene_started",
                         path=name, line=seq)
    return seed


_table = table_of


# --------------------------------------------------------------------------- the change


FACTS: Final[Mapping[type, frozenset[str]]] = {
    DiceRolled: frozenset({"dice", "modifiers"}),
    DeclarationPosted: frozenset({"actor", "text", "actions", "responds_to", "ooc"}),
    RulingMade: frozenset({"by", "action", "target", "reason", "changes", "finding"}),
}
"""The kinds of event a dispute can change, and the fields ``--set`` may reach."""

_EXAMPLES: Final[Mapping[type, str]] = {
    DiceRolled: "dice[0].face, modifiers[1].value",
    DeclarationPosted: "actions[0].target, actions[0].weapon, text",
    RulingMade: "action, target, changes",
}



def _amend(events: Sequence[AnyEvent], target: AnyEvent, change: Change, name: str) -> AnyEvent | None:
    """The event at ``change.seq`` as changed (``None``: voided or withdrawn), or the
    ``InputError`` that says why it cannot be."""
    seq, kind = change.seq, _kind(target)
    modes = sum((bool(change.sets), change.void, change.withdraw))
    if modes != 1:
        raise InputError("give exactly one change: --set PATH=VALUE (repeatable), --void or --withdraw", path=name)
    if type(target) not in FACTS:
        raise InputError(f"--at {seq}: {_not_a_fact(events, target)}", path=name, line=seq)
    if change.withdraw and type(target) is not RulingMade:
        raise InputError(f"--at {seq}: --withdraw takes a ruling (seq {seq} is {kind}); use --set or --void",
                         path=name, line=seq)
    if change.void and type(target) is DiceRolled:
        raise InputError(f"--at {seq}: a roll cannot be voided (the rules need it): change its dice with "
                         "--set dice[0].face=N", path=name, line=seq)
    if change.void or change.withdraw:
        return None
    reach = Reach(FACTS[type(target)], _EXAMPLES[type(target)])
    amended = amend(target, change.sets, reach, scene=events[0], name=name)
    if isinstance(amended, RulingMade) and amended.target >= seq:
        raise InputError(f"--set: bad VALUE: target {amended.target}: a ruling targets an earlier event "
                         f"(before seq {seq})", path=name, line=seq)
    if _data(amended) != _data(target):
        amended = replace(amended, origin=Origin(medium=DISPUTE_MEDIUM, ref=f"seq {seq}", raw=change.text()))
    return amended


def _not_a_fact(events: Sequence[AnyEvent], target: AnyEvent) -> str:
    kind = _kind(target)
    if type(target) in (SceneStarted, SceneEnded, CombatantJoined):
        return f"seq {target.seq} is {kind}, not a fact a dispute can change (a roll, a declaration or a ruling)"
    facts = _facts_behind(events, target.seq)
    behind = f" ({', '.join(f'{k} at seq {s}' for s, k in facts)})" if facts else ""
    return (f"seq {target.seq} is {kind}, which the rules derive: change the roll or the declaration that "
            f"produced it{behind}")


def _facts_behind(events: Sequence[AnyEvent], seq: int) -> list[tuple[int, str]]:
    """The declaration before ``seq`` in its turn and the (last three) rolls after it."""
    rolls: list[tuple[int, str]] = []
    post: list[tuple[int, str]] = []
    for event in reversed(events[: seq - 1]):
        if type(event) is DiceRolled:
            rolls.append((event.seq, "dice_rolled"))
        elif type(event) is DeclarationPosted:
            post.append((event.seq, "declaration_posted"))
            break
        elif type(event) is TurnStarted:
            break
    return post + sorted(rolls[:3])


# --------------------------------------------------------------------------- comparing


def _ending(before: SceneState, after: SceneState, count: int, forked: int) -> Ending:
    joined = {a: c.joined for a, c in after.combatants.items()} | {a: c.joined for a, c in before.combatants.items()}
    standings = []
    for actor in sorted(joined, key=lambda a: (joined[a], a)):
        old, new = before.combatants.get(actor), after.combatants.get(actor)
        known = old or new
        assert known is not None
        old_pools = old.pools if old else {}
        new_pools = new.pools if new else {}
        pools = {p: (old_pools.get(p), new_pools.get(p)) for p in sorted(old_pools.keys() | new_pools.keys())}
        old_s, new_s = set(old.statuses if old else ()), set(new.statuses if new else ())
        standings.append(Standing(
            actor=actor,
            name=known.name,
            pools=pools,
            gained=tuple(sorted(new_s - old_s)),
            lost=tuple(sorted(old_s - new_s)),
            present=(old is not None, new is not None),
        ))
    bs, as_ = before.scene, after.scene
    return Ending(
        standings=tuple(standings),
        winner=(bs.winner if bs else None, as_.winner if as_ else None),
        ended=(bool(bs and bs.ended), bool(as_ and as_.ended)),
        round=(before.turn.round, after.turn.round),
        events=(count, forked),
    )


def _findings(
    original: Sequence[AnyEvent], fork: Sequence[AnyEvent], seed: str | None, changed: int | None
) -> tuple[FindingChange, ...]:
    """Findings of the fork's audit not in the original's (and the reverse), matched by
    code, actor and message (not by seq: the fork's events may sit elsewhere)."""
    before = audit_events(list(original), seed=seed).findings
    after = audit_events(list(fork), seed=seed).findings
    left = Counter(_key(f) for f in before)
    out: list[FindingChange] = []
    for finding in after:
        if left[_key(finding)] > 0:
            left[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=True, finding=finding, on_change=finding.seq == changed))
    gone = Counter(_key(f) for f in after)
    for finding in before:
        if gone[_key(finding)] > 0:
            gone[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=False, finding=finding))
    return tuple(out)


def _key(finding: Finding) -> tuple[str, str | None, str]:
    return finding.code, finding.actor, finding.message


# --------------------------------------------------------------------------- small helpers

_kind = event_kind
_json = as_json


def _data(event: AnyEvent | None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event) if event is not None else {}
    for name in ("seq", "prev", "origin", "batch"):
        data.pop(name, None)
    return data
