"""One simulated fight, pure: ``play(setup, seed)`` gives its events (the whole log, from
``scene_started`` to ``scene_ended`` with the seed revealed), ``fight_summary`` what a run
counts of it. The ruleset's table decides everything; the ruleset's policy
(``fightlog.kit.policy``) chooses each post. Same setup and seed: the same bytes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec import Struct

from fightlog.dice import dice_commitment
from fightlog.errors import InputError, RefusedError
from fightlog.events.model import (
    FORMAT_VERSION, AnyEvent, DamageApplied, EffectApplied, RoundEnded, RoundStarted, SceneEnded, SceneStarted,
)
from fightlog.kit.policy import Choice, Policy, PolicyError, named_policy
from fightlog.kit.ruleset import policy_for
from fightlog.kit.table import Post, Scribe, Table, table_for
from fightlog.reducers.state import EMPTY
from fightlog.scale.seeds import fight_seed
from fightlog.scale.setup import Setup

DRAW = ""
"""The winner of a fight nobody won (every side out, or still fighting at the round cap)."""


class FindingRow(Struct, frozen=True, kw_only=True):
    """A finding in an audited simulated fight: a bug in the ruleset (engine fights audit
    clean by construction), with the fight's index to replay it."""

    fight: int
    seq: int
    code: str
    message: str


class FightSummary(Struct, frozen=True, kw_only=True):
    """What a run counts of one fight."""

    index: int
    winner: str
    rounds: int
    dealt: dict[str, int]
    taken: dict[str, int]
    effects: dict[str, int]
    findings: tuple[FindingRow, ...] = ()
    audited: bool = False


def policy_of(setup: Setup) -> Policy:
    """The policy of a run: the one ``setup`` names, else its ruleset's default;
    ``InputError`` when there is none."""
    if setup.policy is not None:
        return named_policy(setup.policy)
    found = policy_for(setup.ruleset)
    if found is None:
        raise InputError(f"ruleset {setup.ruleset!r} has no policy to simulate fights with (Ruleset.policy_module)")
    return found


def play(setup: Setup, seed: str, policy: Policy | None = None) -> list[AnyEvent]:
    """The events of one fight of ``setup`` played with ``seed`` (see the module docstring)."""
    table = table_for(setup.ruleset)
    decide = policy if policy is not None else policy_of(setup)
    scribe = Scribe(EMPTY, seed)
    scribe.emit(SceneStarted(scene=setup.scene, ruleset=setup.ruleset, format=FORMAT_VERSION,
                             options=setup.options, dice=dice_commitment(seed), title=setup.title))
    for entrant in setup.entrants:
        table.join(scribe, entrant, reserve=entrant.actor in setup.reserve)
    table.begin(scribe)
    choice = Choice(seed)
    limit = setup.max_rounds * (len(setup.entrants) + 1) * 2
    for _ in range(limit):
        state = scribe.state
        actor = state.turn.current
        if actor is None or state.turn.round > setup.max_rounds or _decided(table, scribe):
            break
        for post in _asked(setup, lambda: decide.choices(state, actor, choice)):
            if _tried(table, scribe, post):
                for answer in _asked(setup, lambda: decide.answers(scribe.state, actor, choice)):
                    _tried(table, scribe, answer)
                break
        info = scribe.state.scene
        if info is not None and info.ended:
            break
        if scribe.state.turn.current != actor:
            continue  # the post closed the turn itself (the rules moved on)
        if _ended_the_turn(table, scribe, seed, setup.max_rounds):
            break  # decided in the round that closed, or a draw at the limit: no round opened past it
    info = scribe.state.scene
    if info is None or not info.ended:
        table.end(scribe, reveal=seed, reason=None)
    return scribe.events


def _asked(setup: Setup, ask: Callable[[], Iterable[Post]]) -> list[Post]:
    """What a policy answers, as posts. A user's policy (``setup.policy``, ``--policy``) is
    the user's code: one that fails, or gives what is not a ``Post``, is ``InputError`` naming
    it (``PolicyError``; ``fight_events`` adds the fight), not fightlog's internal error."""
    if setup.policy is None:
        return list(ask())  # the ruleset's own policy: a failure there is fightlog's
    try:
        posts = list(ask())
    except Exception as exc:  # noqa: BLE001 - a user's policy may fail in any way
        raise PolicyError(f"policy {setup.policy!r} failed: {type(exc).__name__}: {exc}") from None
    for post in posts:
        if not isinstance(post, Post):
            raise PolicyError(f"policy {setup.policy!r} gave {type(post).__name__} {post!r:.60}, not a "
                             "fightlog.kit.table.Post")
    return posts


def _ended_the_turn(table: Table, scribe: Scribe, seed: str, max_rounds: int) -> bool:
    """End the open turn in ``scribe``; when that closes the round, stop after its
    ``round_ended`` (what the round's end resolves, an attack left unanswered, is the
    round's) if the fight is decided or the round was the last, and say so: the next round
    is not opened (a fight decided in round 4's last turn lasted 4 rounds, not 5). Ended
    on a scratch scribe first, then copied (the same events: the dice are the scene's).
    A turn the rules will not end stops the fight too."""
    trial = Scribe(scribe.state, seed)
    try:
        table.end_turn(trial)
    except RefusedError:
        return True
    closes = trial.state.turn.round > scribe.state.turn.round
    for event in trial.events:
        scribe.emit(event)
        if closes and type(event) is RoundEnded and (event.round >= max_rounds or _decided(table, scribe)):
            return True
    return False


def _tried(table: Table, scribe: Scribe, post: Post) -> bool:
    """Post it if the rules allow; whether they did (a refusal emits nothing)."""
    try:
        table.post(scribe, post)
    except RefusedError:
        return False
    return True


def _decided(table: Table, scribe: Scribe) -> bool:
    """Whether one side alone still stands: what ending the scene now would name a winner
    (asked of the table on a scratch scribe, so the ruleset's own idea of 'out' decides)."""
    trial = Scribe(scribe.state, None)
    table.end(trial, reveal=None)
    ended = trial.events[-1]
    return isinstance(ended, SceneEnded) and ended.winner is not None


def fight_events(setup: Setup, master: str, index: int, policy: Policy | None = None) -> list[AnyEvent]:
    """Fight ``index`` of the run with ``master`` (what ``--replay INDEX`` writes); a user's
    policy that fails names the fight."""
    try:
        return play(setup, fight_seed(master, index), policy)
    except PolicyError as exc:
        raise PolicyError(f"fight {index}: {exc}") from None


def fight_summary(setup: Setup, master: str, index: int, *, audit: bool = False,
                  policy: Policy | None = None) -> FightSummary:
    """Fight ``index`` played and counted; ``audit``: its findings too (the audit of an engine
    fight finds nothing unless the ruleset has a bug)."""
    events = fight_events(setup, master, index, policy)
    return summarize(index, events, audit=audit)


def summarize(index: int, events: list[AnyEvent], *, audit: bool = False) -> FightSummary:
    """What a run counts of the fight ``events``. Damage is dealt by the combatant whose
    event caused it (following ``cause`` back to a post or a roll); damage nobody's post
    caused (a bleed's tick) is dealt by ``(effects)``."""
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    effects: dict[str, int] = {}
    by_seq: dict[int, str | None] = {}
    winner, rounds = DRAW, 0
    for event in events:
        if isinstance(event, DamageApplied):
            taken[event.target] = taken.get(event.target, 0) + event.taken
            source = _dealer(by_seq, event.cause, event.target)
            dealt[source] = dealt.get(source, 0) + event.taken
        elif isinstance(event, EffectApplied):
            effects[event.name] = effects.get(event.name, 0) + 1
        elif isinstance(event, SceneEnded):
            winner = event.winner or DRAW
        elif isinstance(event, RoundStarted):
            rounds = max(rounds, event.round)
        actor = getattr(event, "actor", None) or getattr(event, "attacker", None) or getattr(event, "roller", None)
        cause = getattr(event, "cause", None)
        by_seq[event.seq] = actor if isinstance(actor, str) else by_seq.get(cause) if isinstance(cause, int) else None
    findings: tuple[FindingRow, ...] = ()
    if audit:
        from fightlog.audit.one_process import audit_events

        report = audit_events(events)
        findings = tuple(FindingRow(fight=index, seq=f.seq, code=f.code, message=f.message) for f in report.findings)
    return FightSummary(index=index, winner=winner, rounds=rounds, dealt=dealt, taken=taken, effects=effects,
                        findings=findings, audited=audit)


def _dealer(by_seq: dict[int, str | None], cause: int | None, target: str) -> str:
    actor = None if cause is None else by_seq.get(cause)
    return actor if actor is not None and actor != target else EFFECTS


EFFECTS = "(effects)"
"""Who deals damage no other combatant's post caused (a bleed, a burn, a fall)."""
