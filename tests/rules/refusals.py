"""Refused posts change nothing, checked the same way for every ruleset: on a scribe
(``refusals_change_nothing``, for the property tests) and on the command line (``run``,
``refused``, for the bad-input tests)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.errors import RefusedError
from fightlog.kit.actions import parse_actions
from fightlog.kit.table import Post, Scribe


def played(opened: Callable[[], Scribe], turn: Callable[[random.Random, Scribe], None], policy: int,
           turns: int) -> Scribe:
    """An engine fight (``opened``) after ``turns`` turns played by ``turn`` with the policy
    seeded ``policy``."""
    rng = random.Random(policy)
    scribe = opened()
    for _ in range(turns):
        turn(rng, scribe)
    return scribe


def refusals_change_nothing(table: Any, scribe: Scribe, posts: Iterable[tuple[str, ...]]) -> None:
    """Each of ``posts`` by Ana, Dag and whoever's turn it is: when ``table`` refuses it, the
    state and the events are as they were."""
    for do in posts:
        for actor in ("ana", "dag", scribe.state.turn.current or "ana"):
            before, count = scribe.state, len(scribe.events)
            try:
                table.post(scribe, Post(actor=actor, actions=parse_actions(list(do))))
            except RefusedError:
                assert scribe.state == before and len(scribe.events) == count


def run(*args: str) -> tuple[int, str]:
    """``fightlog ARGS``: the exit code and the output."""
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def refused(log: Path, *args: str) -> str:
    """``fightlog play post LOG ARGS``, refused in one line, the log untouched; the line."""
    before = log.read_bytes()
    code, out = run("play", "post", str(log), *args)
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert log.read_bytes() == before
    return out
