"""Disputes: fork a fight at one recorded fact, re-derive what follows, show the divergence.

``dispute(events, change, seed=...)`` changes one *fact* of a log in memory (a roll's dice or
modifiers, a declaration, a GM ruling), re-derives everything after it with the ruleset's
``Table`` (and the scene's seed, when it has one), and returns the fork with what differs: the
first event that differs, the requests the fork no longer allows, where the recorded history
stops fitting the fork, the state at the end (pools, statuses, the winner) and the audit
findings that appear or disappear. Pure: events in, events out; the CLI (``fightlog
dispute``) reads the log and writes the fork. See ``docs/dispute.md``.

The parts: ``fightlog.audit.dispute_change`` checks the change (the fact and its ``--set``
paths); ``fightlog.audit.requests`` splits the log into the requests that produced it and
notes where the recorded log departs from the rules (a hand-run fight, rules changed since);
``fightlog.audit.fork`` replays the requests from the one holding the change (each through
the table, ``fightlog.audit.replay_request``); ``fightlog.audit.divergence`` says where the
recorded history stops fitting the fork; ``fightlog.audit.dispute_outcome`` compares the
ends and the audits. This module finds the seed, runs the fork (and the baseline) and
compares. The ruleset's table is found by the caller's ``table_for`` (the CLI's lookup).

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
did not make is drawn from the seed (``Scribe.roll``), or, in a log with no seed (every roll
made elsewhere), stands in: drawn from a public seed and marked so (``docs/dispute.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple, TypeVar

from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.amendment import TableFor
from fightlog.audit.dispute_change import FACTS, Change, amended_fact, fact_data
from fightlog.audit.replay_request import DISPUTE_MEDIUM
from fightlog.audit.dispute_outcome import Ending, FindingChange, Standing, ending, finding_changes
from fightlog.audit.divergence import Divergence, Dropped
from fightlog.audit.fork import Forker, Passed
from fightlog.audit.replay_request import event_kind, refold
from fightlog.audit.requests import Departure, Request, RequestKind, Split, requests_of, split
from fightlog.dice import commitment, seed_bytes
from fightlog.errors import DiceError, InputError, RefusedError
from fightlog.events.compare import Difference, field_changes, first_difference
from fightlog.events.model import AnyEvent, CombatantJoined, DiceRolled, SceneEnded, SceneStarted
from fightlog.kit.table import Table

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
    "TableFor",
    "dice_seed",
    "dispute",
    "requests_of",
    "split",
]


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
        return event_kind(self.target)


_METADATA: Final = frozenset({"origin"})
"""Not compared between the original and the fork: the changed fact's ``origin`` says it
is the dispute's."""


# --------------------------------------------------------------------------- the entry point


def _require_sheets(events: Sequence[AnyEvent], name: str) -> None:
    """An imported fight's combatants joined with no sheet (imported without ``--roster``)
    cannot be played again by the rules: refused at the first of them, saying so (each
    ruleset's own sheet reader said it its own way, some naming a missing field)."""
    if getattr(events[0], "transcript", None) is None:
        return
    bare = [e for e in events if type(e) is CombatantJoined and not e.sheet]
    if bare:
        who = ", ".join(e.actor for e in bare)
        raise InputError(f"{who} joined with no sheet: a fight imported without --roster holds no sheets to play "
                         "by; import it again with --roster R.toml to dispute it", path=name, line=bare[0].seq)


def dispute(
    events: Sequence[AnyEvent],
    change: Change,
    *,
    table_for: TableFor,
    seed: str | None = None,
    name: str = "<log>",
) -> Dispute:
    """Fork ``events`` at ``change`` and compare (see the module docstring). ``table_for``
    finds the scene's ruleset's table (``fightlog.kit.table.table_for``); ``seed`` is the
    scene's seed when the log does not reveal it (checked against the commitment);
    ``name`` locates errors (``InputError`` with the ``seq`` as line)."""
    events = list(events)
    if not events or type(events[0]) is not SceneStarted:
        raise InputError("not a scene: the log does not start with scene_started", path=name)
    if not 1 <= change.seq <= len(events):
        raise InputError(f"--at {change.seq}: the log has seq 1 to {len(events)}", path=name)
    _require_sheets(events, name)
    target = events[change.seq - 1]
    amended = amended_fact(events, target, change, name, table_for)
    secret = dice_seed(events, seed, name=name)
    table = _scene_table(events[0], name, table_for)
    parts = split(events, secret, table=table, name=name)
    runs = _run(events, parts, table, secret, name, change.seq, target, amended)
    original = runs.baseline if runs.baseline is not None else events
    difference, consequence = _differences(original, runs.fork, target, amended, runs.changed_at)
    return Dispute(
        change=change,
        target=target,
        amended=amended,
        fields=tuple(field_changes(fact_data(target), fact_data(amended))) if amended is not None else (),
        restart=runs.restart,
        seed=secret,
        original=events,
        baseline=runs.baseline,
        fork=runs.fork,
        difference=difference,
        consequence=consequence,
        dropped=runs.dropped,
        passed=runs.passed,
        divergences=runs.divergences,
        departures=parts.departures,
        ending=ending(refold(original, name), refold(runs.fork, name), len(original), len(runs.fork)),
        findings=finding_changes(original, runs.fork, secret, runs.hypothetical),
    )


def _scene_table(start: AnyEvent, name: str, table_for: TableFor) -> Table:
    """The table of the scene's ruleset; ``InputError`` for one without live play."""
    assert isinstance(start, SceneStarted)
    try:
        return table_for(start.ruleset)
    except RefusedError as exc:
        raise InputError(f"cannot re-derive this fight: {exc.message}", path=name, line=1) from None


class _Runs(NamedTuple):
    """The fork, and the baseline (``None``: the recorded log), with what they found."""

    fork: list[AnyEvent]
    baseline: list[AnyEvent] | None
    restart: int
    changed_at: int | None
    """Where the changed fact stands in the fork (``None``: not there)."""
    hypothetical: int | None
    dropped: tuple[Dropped, ...]
    divergences: tuple[Divergence, ...]
    passed: tuple[Passed, ...]


def _run(events: list[AnyEvent], parts: Split, table: Table, secret: str | None, name: str, seq: int,
         target: AnyEvent, amended: AnyEvent | None) -> _Runs:
    """The fork from the request holding the change at ``seq``; and where the rules do not
    give back the recorded log from there, the baseline: the same replay without the change
    (what both find is marked ``unchanged``)."""
    requests = parts.requests
    at = next(r for r, req in enumerate(requests) if req.first < seq <= req.stop)
    restart = events[requests[at].first].seq
    ordinal = sum(1 for e in events[requests[at].first : seq - 1] if type(e) is DiceRolled)
    forker = Forker(events, parts, table, secret, name)
    fork = forker.run(at, seq, amended, ordinal)
    baseline: list[AnyEvent] | None = None
    dropped, divergences, passed = tuple(forker.dropped), tuple(forker.divergences), tuple(forker.passed)
    if any(d.seq >= restart for d in parts.departures):
        unchanged_run = Forker(events, parts, table, secret, name)
        baseline = unchanged_run.run(at, seq, target, ordinal, baseline=True)
        dropped = _marked(dropped, unchanged_run.dropped)
        divergences = _marked(divergences, unchanged_run.divergences)
        passed = _marked(passed, unchanged_run.passed)
    changed_at = forker.hypothetical if isinstance(target, DiceRolled) else forker.mapped.get(seq)
    return _Runs(fork, baseline, restart, changed_at, forker.hypothetical, dropped, divergences, passed)


def _differences(original: list[AnyEvent], fork: list[AnyEvent], target: AnyEvent, amended: AnyEvent | None,
                 changed_at: int | None) -> tuple[Difference | None, Difference | None]:
    """The first event of the fork that differs from ``original``, and the first after the
    changed event itself (which differs by construction), if that is the first."""
    unchanged = amended is not None and fact_data(amended) == fact_data(target)
    difference = first_difference(original, fork, ignore=_METADATA)
    if (amended is None or unchanged or difference is None or changed_at is None
            or difference.seq != changed_at or changed_at > len(original)):
        return difference, None
    put_back = [*fork[: changed_at - 1], original[changed_at - 1], *fork[changed_at:]]
    return difference, first_difference(original, put_back, ignore=_METADATA)


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
