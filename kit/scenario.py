"""Scenario files played: a scripted fight in TOML, played through a ruleset's ``Table``.

A scenario names a ruleset, a roster, option overrides, who joins (and who waits in
reserve), where everyone stands, and the steps of the fight: posts (with actions in the
mini-syntax of ``fightlog.kit.actions``), bare ``end_turn = true`` steps and arrivals. See
``docs/play.md`` for the format; ``fightlog.kit.scenario_file`` reads and validates it.

``run_scenario(path)`` plays it into a ``MemoryStore``: one ``Scribe`` over the whole fight,
from ``scene_started`` (dice committed to the seed) to ``scene_ended`` (the seed revealed).
A step the rules refuse is a ``RefusedError`` on the scenario file at that step's line
(``step 4 (bob): ...``). Pydantic is imported here: never import this module from the light
paths.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from msgspec.structs import replace

from fightlog.errors import InputError, RefusedError
from fightlog.events.model import FORMAT_VERSION, DeclarationPosted, SceneStarted, kind_of
from fightlog.events.store import MemoryStore
from fightlog.reducers.state import EMPTY
from fightlog.kit.actions import a_or_an
from fightlog.dice import dice_commitment, new_seed
from fightlog.kit.house import HouseRules, read_house_rules
from fightlog.events.seeds import seed_hex
from fightlog.kit.scenario_file import ArrivalStep, EndTurnStep, LineFinder, PostStep, Scenario, Step, load_scenario
from fightlog.kit.table import Entrant, Post, Scribe, Table, table_for


def run_scenario(
    path: str | os.PathLike[str],
    *,
    seed: int | str | None = None,
    house: HouseRules | str | os.PathLike[str] | None = None,
) -> MemoryStore:
    """Play the scenario at ``path`` into a new log. ``seed`` (else the file's, else a fresh
    one; 0 is a seed) is committed in ``scene_started`` and revealed in ``scene_ended``;
    ``house`` rules (read, or the path of a house-rules file) apply over the file's
    ``options``, and ``scene_started.options`` records every option."""
    if house is not None and not isinstance(house, HouseRules):
        house = read_house_rules(house)
    scenario = load_scenario(path)
    name, file = scenario.path, scenario.file
    table = _table(file.ruleset, name)
    try:
        table.options(file.options, where=name)  # an error in the scenario's own options names it
    except InputError as exc:
        raise InputError(exc.message, path=name, line=_option_line(name, file.options, table)) from None
    overrides = house.overrides(file.ruleset, table.option_type) if house is not None else {}
    try:
        options = table.options({**file.options, **overrides}, where=house.path if house is not None and overrides else name)
    except InputError as exc:
        raise exc if house is None else house.located(exc) from None
    entrants = _entrants(scenario, table)
    if seed is None:
        seed = scenario.seed
    seed = seed_hex(seed if seed is not None else new_seed(), what="seed")
    scribe = Scribe(EMPTY, seed)
    scribe.emit(
        SceneStarted(
            scene=scenario.scene,
            ruleset=file.ruleset,
            format=FORMAT_VERSION,
            options=options,
            dice=dice_commitment(seed),
            title=file.title,
            gm=file.gm,
        )
    )
    arriving = {s.spec.join for s in scenario.steps if isinstance(s.spec, ArrivalStep)}
    joining = file.join if file.join is not None else [
        e.actor for e in entrants.values() if e.actor not in file.reserve and e.actor not in arriving
    ]
    lines = LineFinder(name)
    for key, names in (("join", joining), ("reserve", file.reserve)):
        for index, actor in enumerate(names):
            at = lines.key("positions", actor) if actor in file.positions else None
            with _located(f"{key}[{index}] ({actor}): ", name, at or lines.key(key, index)):
                table.join(scribe, entrants[actor], reserve=key == "reserve")
    try:
        with _located("begin: ", name, None):
            table.begin(scribe)
    except RefusedError as exc:  # an option the fight's sides or sheets refuse: where it was set
        raise _option_blamed(exc, house if isinstance(house, HouseRules) else None, overrides, file.options) from None
    for step in scenario.steps:
        _play(table, scribe, step, entrants, name)
    info = scribe.state.scene
    if info is not None and not info.ended:  # unless a step's rules ended it
        with _located("end: ", name, None):
            table.end(scribe, reveal=seed)
    store = MemoryStore(name)
    store.append(scribe.events)
    return store


def _option_blamed(exc: RefusedError, house: HouseRules | None, overrides: Mapping[str, Any],
                   own: Mapping[str, Any]) -> RefusedError:
    """``exc`` (a refusal at ``begin``) at the line that set the option it names (``option
    ambush = ...``, ``option 'surprising_side'``): the house-rules file's, or the scenario's
    ``options``."""
    def names(key: str) -> bool:
        return f"option {key} " in exc.message or f"option {key!r}" in exc.message

    for key in sorted(overrides, key=len, reverse=True):
        if house is not None and names(key):
            return RefusedError(exc.message, path=house.path, line=house.lines.get(key), code=exc.code)
    for key in sorted(own, key=len, reverse=True):
        if names(key) and exc.path is not None:
            return RefusedError(exc.message, path=exc.path, line=LineFinder(exc.path).key("options", key),
                                code=exc.code)
    return exc


def scenario_seed(path: str | os.PathLike[str]) -> str | None:
    """The seed a scenario file names (64 hex digits), if any."""
    return load_scenario(path).seed


def scenario_ruleset(path: str | os.PathLike[str]) -> str:
    """The ruleset a scenario file plays."""
    return load_scenario(path).file.ruleset


def _table(ruleset: str, path: str) -> Table:
    try:
        return table_for(ruleset)
    except RefusedError as exc:
        raise InputError(f"ruleset: {exc.message}", path=path, line=LineFinder(path).key("ruleset")) from None


def _option_line(name: str, options: Mapping[str, Any], table: Table) -> int | None:
    """The line of the first option (as ``read_options`` reads them, sorted) the ruleset
    refuses alone, else of the ``options`` table."""
    lines = LineFinder(name)
    for key in sorted(options):
        try:
            table.options({key: options[key]}, where=name)
        except InputError:
            return lines.key("options", key)
    return lines.key("options")


def _entrants(scenario: Scenario, table: Table) -> dict[str, Entrant]:
    """The roster's combatants by id, placed where ``[positions]`` says; every id the
    scenario names must be one of them."""
    file = scenario.file
    entrants = {e.actor: e for e in table.roster(scenario.roster)}
    known = ", ".join(entrants)
    lines = LineFinder(scenario.path)

    def check(where: str, actor: str, line: int | None = None) -> None:
        if actor not in entrants:
            raise InputError(f"{where}: {actor!r} is not in the roster ({known})", path=scenario.path, line=line)

    for key, names in (("join", file.join or ()), ("reserve", file.reserve), ("positions", list(file.positions))):
        for index, actor in enumerate(names):
            check(f"{key}[{index}]" if key != "positions" else f"positions.{actor}", actor,
                  lines.key(key, index if key != "positions" else actor))
    for step in scenario.steps:
        if isinstance(step.spec, ArrivalStep):
            check(f"steps[{step.number - 1}].join", step.spec.join, step.line)
    return {
        actor: entrant if actor not in file.positions else replace(entrant, position=file.positions[actor])
        for actor, entrant in entrants.items()
    }


def _play(table: Table, scribe: Scribe, step: Step, entrants: Mapping[str, Entrant], path: str) -> None:
    spec = step.spec
    if isinstance(spec, PostStep):
        end_turn = spec.end_turn if spec.end_turn is not None else scribe.state.turn.current == spec.actor
        post = Post(actor=spec.actor, text=spec.text, actions=step.actions, responds_to=spec.responds_to, ooc=spec.ooc)
        with _located(f"step {step.number} ({spec.actor}): ", path, step.line):
            _answers_a_post(scribe, spec.responds_to)
            table.post(scribe, post)
            if end_turn:
                table.end_turn(scribe)
    elif isinstance(spec, EndTurnStep):
        with _located(f"step {step.number} (end_turn of {scribe.state.turn.current}): ", path, step.line):
            table.end_turn(scribe)
    else:
        entrant = entrants[spec.join]
        if spec.at is not None:
            entrant = replace(entrant, position=spec.at)
        with _located(f"step {step.number} ({spec.join} arrives): ", path, step.line):
            table.join(scribe, entrant, arrival=True, after=spec.after)


def _answers_a_post(scribe: Scribe, seq: int | None) -> None:
    """A step's ``responds_to`` names a post, as ``play post --responds-to`` requires (a
    seq past the log's end the table refuses itself)."""
    if seq is None or not scribe.start < seq <= scribe.state.seq:
        return
    answered = scribe.events[seq - scribe.start - 1]
    if not isinstance(answered, DeclarationPosted):
        raise RefusedError(f"responds_to {seq}: seq {seq} is {a_or_an(kind_of(answered))}, not a post; give the seq "
                           "of the post answered", code="order.out-of-turn")


@contextmanager
def _located(prefix: str, path: str, line: int | None) -> Iterator[None]:
    """Re-raise an ``InputError`` from the table as one on the scenario file, at ``line``,
    its message prefixed; a ``RefusedError`` stays a ``RefusedError``."""
    try:
        yield
    except InputError as exc:
        cls = RefusedError if isinstance(exc, RefusedError) else InputError
        raise cls(prefix + exc.message, path=path, line=line) from None
