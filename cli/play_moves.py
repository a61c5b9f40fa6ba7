"""What every ``fightlog play`` move does: fold the log, ask the ruleset's table (through a
``Scribe``), append what it decided with ``expect`` set to the seq the decision was made at
(so nothing lands after events it did not see), and print one narrated line per event, or
with ``--format json`` one document (``show``): the events appended as in the log, their
narration, who posts next and the round, and what the move says besides (the dice seed)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import NamedTuple

import click

from fightlog.cli.output import echo_json
from fightlog.cli.seed_file import read_seed, seed_path
from fightlog.events.seals import seals_the_dice
from fightlog.errors import InputError, RefusedError, SeedUnavailableError
from fightlog.events.model import AnyEvent
from fightlog.events.store import FileStore
from fightlog.history.states import state_at
from fightlog.kit.ruleset import rules_for_scene
from fightlog.kit.table import Scribe, Table, table_for
from fightlog.reducers.derive import next_to_post
from fightlog.reducers.fold import reduce
from fightlog.reducers.folder import Step
from fightlog.reducers.state import SceneState
from fightlog.report.narration import narrate
from fightlog.report.replay_text import render


def act(log: str, move: Callable[[Table, Scribe], None], fmt: str = "human") -> None:
    """Make ``move`` on LOG's table, append what it decided and say it (``show``), and the
    attacks it leaves waiting for an answer (``waiting``)."""
    state, table, seed = open_scene(log)
    scribe = Scribe(state, seed)
    with refusals(log, state):
        move(table, scribe)
    appended = commit(log, state, scribe)
    show(log, appended, fmt, notes=waiting(log, table, appended.after))


def waiting(log: str, table: Table, state: SceneState) -> list[str]:
    """A line for each attack of the open turn waiting for its defender's answer (a duel's
    defensive turn, a Bleeding Sun dodge or block, a Traveller reaction): ``play end-turn`` resolves it unanswered."""
    awaiting = getattr(table, "awaiting", None)
    found: list[tuple[int, str]] = awaiting(state) if callable(awaiting) else []
    if not found:
        return []
    scene = state.scene
    answers = sorted(getattr(rules_for_scene(scene.ruleset if scene else None, {}), "answer_actions", ()))
    lines = []
    for seq, defender in found:
        opened = getattr(table, "open_answers", None)
        can = opened(state, defender, seq, answers) if callable(opened) else answers  # what the rules allow now
        said = f" ({', '.join(can)})" if can else ""
        lines.append(f"waiting: {defender} may answer seq {seq}{said}: fightlog play post {log} {defender} TEXT "
                     f"--do ... --responds-to {seq}; play end-turn resolves it unanswered")
    return lines


def open_scene(log: str) -> tuple[SceneState, Table, str | None]:
    """The state after LOG's last event, its ruleset's table, and the dice seed (``None``
    when neither the log nor ``LOG.seed`` has it)."""
    state = state_at(log, cache=False)
    info = state.scene
    if info is None:  # cannot happen: a log starts with scene_started
        raise InputError("no scene_started: not a scene", path=log)
    with refusals(log):
        table = table_for(info.ruleset)
    problem = rules_for_scene(info.ruleset, {}).options_problem(info.options)
    if problem is not None:  # the rules would play on under options the log never recorded
        raise InputError(f"the scene's options do not read: {problem}", path=log, line=1)
    _refuse_a_revealed_seed_voided(log, state)
    return state, table, read_seed(log, state)


def _refuse_a_revealed_seed_voided(log: str, state: SceneState) -> None:
    """A scene whose end was voided after it revealed the seed (a log from before ``rule``
    refused such a void, or edited by hand) cannot play on: every roll would be known."""
    from itertools import islice

    from fightlog.events.codec import decode_line
    from fightlog.events.reader import open_log, raw_lines
    from fightlog.reducers.fold import in_force, rulings_in

    if state.scene is not None and state.scene.seed is not None:
        return  # an open scene, its seed public from the start (or an ended one, which play refuses anyway)
    voids = [ruling for ruling in in_force(rulings_in(state)) if ruling.action == "void"]
    if not voids:
        return
    wanted = {ruling.target: ruling for ruling in voids}
    with open_log(log) as stream:  # the log was read whole just now (``state_at``): its lines decode
        for seq, raw in enumerate(islice(raw_lines(stream), max(wanted)), start=1):
            ruling = wanted.get(seq)
            if ruling is None:
                continue
            if seals_the_dice(decode_line(raw), opened=False):
                raise InputError(f"the scene's end at seq {seq} revealed the dice seed and was voided by the "
                                 f"ruling at seq {ruling.seq}: every roll from here would be known in advance "
                                 f"(withdraw that ruling: fightlog rule LOG withdraw {ruling.seq} --reason ...; "
                                 "or start a new scene to fight on)", path=log, line=seq)


_TOLD = frozenset({"combatant", "effect"})
"""The changes a move's lines tell under its events, as ``fightlog replay`` does: HP and the
other pools, statuses, weapons, effects (not the turn's bookkeeping, which its events say)."""


class Appended(NamedTuple):
    """What a move appended: the events as sealed, the state after them, their narration (a
    line each), and that narration with the changes each caused told under it (``_TOLD``)."""

    events: list[AnyEvent]
    after: SceneState
    lines: list[str]
    told: list[str]


def commit(log: str, before: SceneState, scribe: Scribe) -> Appended:
    """Append what the scribe decided, unless the log moved on since ``before``."""
    sealed = FileStore(log).append(scribe.events, expect=before.seq)
    steps = []
    state = before
    for event in sealed:
        after = reduce(state, event)
        steps.append(Step(event, state, after))
        state = after
    told = [line for step in steps for line in narrate(step, parts=_TOLD)]
    return Appended(sealed, state, render([line for line in told if line.seq is not None]), render(told))


def show(log: str, appended: Appended, fmt: str, *, said: Mapping[str, object] | None = None,
         notes: Sequence[str] = ()) -> None:
    """Say what a move appended: one narrated line per event, the HP, statuses and effects it
    changed under it, then ``notes`` (what the move says besides, such as where the dice seed
    is); or one JSON document (a line per event), with ``said`` (the same, as fields) among its
    keys."""
    if fmt == "json":
        after = appended.after
        echo_json({"log": log, "appended": appended.events, "narration": appended.lines,
                   "next": next_to_post(after), "round": after.turn.round, **(said or {})})
        return
    for line in (*appended.told, *notes):
        click.echo(line)


@contextmanager
def refusals(log: str, state: SceneState | None = None) -> Iterator[None]:
    """A refusal by the rules, as ``LOG: refused: why``. With the ``state`` the move was made
    on, an error that names no file comes from the log's own facts (a sheet its rules cannot
    read, an effect edited by hand): it is said at LOG (``_located``)."""
    try:
        yield
    except SeedUnavailableError:
        raise InputError(lost_seed("until `play end` reveals it"), path=seed_path(log)) from None
    except RefusedError as exc:
        raise RefusedError(f"refused: {exc.message}", path=log) from None
    except InputError as exc:
        if state is None or exc.path is not None:
            raise
        raise _located(log, state, exc) from None


def lost_seed(kept: str) -> str:
    """The message of a missing ``LOG.seed``; ``kept``: how long the seed is kept there."""
    return (f"no such file: the scene's secret dice seed is kept here, beside the log, {kept} (a log moved or "
            "renamed takes its LOG.seed with it)")


def _located(log: str, state: SceneState, error: InputError) -> InputError:
    """``error`` at LOG: at the line the rules named (an edited effect), else at the join of
    the combatant whose sheet gives exactly this error, else at LOG alone."""
    if error.line is not None:
        return InputError(error.message, path=log, line=error.line)
    scene = state.scene
    rules = rules_for_scene(None if scene is None else scene.ruleset, {})
    for who in sorted(state.combatants.values(), key=lambda c: c.joined):
        if rules.sheet_problem(who.sheet) == error.message:
            return InputError(f"{who.actor}'s sheet does not read: {error.message}", path=log, line=who.joined)
    return InputError(error.message, path=log)
