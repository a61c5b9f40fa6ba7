"""What every ``fightlog play`` move does: fold the log, ask the ruleset's table (through a
``Scribe``), append what it decided with ``expect`` set to the seq the decision was made at
(so nothing lands after events it did not see), and print one narrated line per event."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from fightlog.cli.seed_file import read_seed
from fightlog.errors import InputError, RefusedError
from fightlog.events.store import FileStore
from fightlog.history.states import state_at
from fightlog.kit.table import Scribe, Table, table_for
from fightlog.reducers.fold import Step, reduce
from fightlog.reducers.state import SceneState
from fightlog.report.narration import narrate
from fightlog.report.replay_text import render


def act(log: str, move: Callable[[Table, Scribe], None]) -> None:
    """Make ``move`` on LOG's table and append what it decided."""
    state, table, seed = open_scene(log)
    scribe = Scribe(state, seed)
    with refusals(log):
        move(table, scribe)
    commit(log, state, scribe)


def open_scene(log: str) -> tuple[SceneState, Table, str | None]:
    """The state after LOG's last event, its ruleset's table, and the dice seed (``None``
    when neither the log nor ``LOG.seed`` has it)."""
    state = state_at(log, cache=False)
    info = state.scene
    if info is None:  # cannot happen: a log starts with scene_started
        raise InputError("no scene_started: not a scene", path=log)
    with refusals(log):
        table = table_for(info.ruleset)
    return state, table, read_seed(log, state)


def commit(log: str, before: SceneState, scribe: Scribe) -> None:
    """Append what the scribe decided, unless the log moved on since ``before``, and say it."""
    sealed = FileStore(log).append(scribe.events, expect=before.seq)
    steps = []
    state = before
    for event in sealed:
        after = reduce(state, event)
        steps.append(Step(event, state, after))
        state = after
    for line in render([line for step in steps for line in narrate(step) if line.seq is not None]):
        click.echo(line)


@contextmanager
def refusals(log: str) -> Iterator[None]:
    """A refusal by the rules, as ``LOG: refused: why``."""
    try:
        yield
    except RefusedError as exc:
        raise RefusedError(f"refused: {exc.message}", path=log) from None
