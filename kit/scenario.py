"""Scenario files: a scripted fight in TOML, played through a ruleset's ``Table``.

A scenario names a ruleset, a roster, option overrides, who joins (and who waits in
reserve), where everyone stands, and the steps of the fight: posts (with actions in the
mini-syntax of ``fightlog.kit.actions``), bare ``end_turn = true`` steps and arrivals. See
``docs/play.md`` for the format.

``load_scenario(path)`` reads and validates the file (pydantic, strict, unknown fields
refused); every problem is one ``InputError`` on the scenario file, with the line of the
``[[steps]]`` table at fault when it is in a step and the field path in the message
(``steps[3].do[0]: expected key=value, got 'bob'``). ``run_scenario(path)`` plays it into a
``MemoryStore``: one ``Scribe`` over the whole fight, from ``scene_started`` (dice committed
to the seed) to ``scene_ended`` (the seed revealed). A step the rules refuse is a
``RefusedError`` on the scenario file at that step's line (``step 4 (bob): ...``).
Pydantic is imported here: never import this module from the light paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Final, Literal, NamedTuple, TypeAlias

from msgspec.structs import replace
from pydantic import BeforeValidator, Field, StringConstraints, ValidationError
from pydantic_core import ErrorDetails

from fightlog.errors import DiceSeedError, InputError, RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, DeclarationPosted, SceneStarted, kind_of
from fightlog.events.store import MemoryStore
from fightlog.reducers.state import EMPTY
from fightlog.kit.actions import a_or_an, parse_actions
from fightlog.dice import dice_commitment, new_seed
from fightlog.kit.house import HouseRules, read_house_rules
from fightlog.events.seeds import DEFAULT_SCENE as DEFAULT_SCENE  # re-exported: its old home
from fightlog.kit.inputs import Seq, Strict, describe, first_problem, read_toml
from fightlog.kit.options import NUMBER_CAP
from fightlog.kit.table import Entrant, Post, Scribe, Table, table_for
from fightlog.kit.toml_lines import KeyLines
from fightlog.events.seeds import seed_hex

Id = Annotated[str, StringConstraints(min_length=1, max_length=200)]


def _pair(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Coordinate = Annotated[int, Field(ge=-NUMBER_CAP, le=NUMBER_CAP)]
Position = Annotated[tuple[Coordinate, Coordinate], BeforeValidator(_pair)]
"""Where someone stands: ``[x, y]`` in whole metres."""


class PostStep(Strict):
    """A declaration: who posts, the text, the actions (mini-syntax), what it answers.
    ``end_turn`` closes the turn after the post; by default it does when ``actor`` is the
    one whose turn is open (and not when they post in someone else's turn)."""

    actor: Id
    text: str = ""
    do: Seq[str] = ()
    responds_to: Annotated[int, Field(ge=1)] | None = None
    ooc: bool = False
    end_turn: bool | None = None


class EndTurnStep(Strict):
    """``end_turn = true`` alone: close the open turn."""

    end_turn: Literal[True]


class ArrivalStep(Strict):
    """A combatant of the roster arriving mid-fight, claiming the slot after ``after``,
    standing at ``at`` (default: their ``[positions]`` entry, if any)."""

    join: Id
    after: Id | None = None
    at: Position | None = None


StepSpec: TypeAlias = PostStep | EndTurnStep | ArrivalStep


class ScenarioFile(Strict):
    """The file as written. ``steps`` are validated one by one (``load_scenario``), each
    against the model its keys ask for, so an error names the step's own fields."""

    title: str | None = None
    gm: str | None = None
    ruleset: Id
    scene: Id | None = None
    seed: Any = None  # an int or a str: seed_hex judges it, in the one message every seed gets
    roster: Annotated[str, StringConstraints(min_length=1)]
    options: dict[str, Any] = {}
    join: Seq[Id] | None = None
    reserve: Seq[Id] = ()
    positions: dict[str, Position] = {}
    steps: Seq[dict[str, Any]] = ()
    policy: Id | None = None
    """For ``fightlog sim`` only: the policy fighters decide by (``package.module``, whose
    ``POLICY``, or ``package.module:NAME``) instead of the ruleset's default."""


class Step(NamedTuple):
    """One validated step: its number (from 1), the line of its ``[[steps]]`` header (when
    written as one), the step and, for a post, its parsed actions."""

    number: int
    line: int | None
    spec: StepSpec
    actions: tuple[Action, ...] = ()


class Scenario(NamedTuple):
    """A loaded scenario: the file's path, what it says, the scene id (``DEFAULT_SCENE``
    when the file names none: never the file's name, so a copy plays the same dice), the
    roster's path (resolved against the scenario's directory) and the steps."""

    path: str
    file: ScenarioFile
    scene: str
    roster: str
    steps: tuple[Step, ...]
    seed: str | None = None
    """The file's ``seed`` as 64 hex digits (an integer seed converted), if it names one."""



# --------------------------------------------------------------------------- loading


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and validate a scenario file; every problem is an ``InputError`` on it."""
    name = os.fspath(path)
    data = read_toml(Path(name), name, "scenario")
    lines = _LineFinder(name)
    if not data:
        raise InputError("is empty: a scenario names its ruleset and its roster and lists its [[steps]] "
                         "(docs/play.md)", path=name)
    if "combatants" in data and not {"roster", "steps"} & data.keys():
        raise InputError("is a roster (it lists [[combatants]]), not a scenario: a scenario names its roster "
                         "(roster = \"...\") and lists its [[steps]] (docs/play.md)", path=name,
                         line=lines.key("combatants"))
    try:
        file = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        line = lines.key(*first_problem(errors)[1]) if errors else None
        raise InputError(_describe(errors), path=name, line=line) from None
    steps = tuple(_step(index, raw, lines) for index, raw in enumerate(file.steps))
    _check_names(file, steps, name)
    seed = None
    if file.seed is not None:
        try:
            seed = seed_hex(file.seed, what="seed")
        except DiceSeedError as exc:
            raise InputError(exc.message, path=name, line=lines.key("seed")) from None
    roster = os.fspath(Path(name).parent / file.roster)
    if not os.path.isfile(roster):
        what = ("is a directory, not a roster file" if os.path.isdir(roster) else
                "is not a regular file (a roster is a TOML file)" if os.path.exists(roster) else None)
        said = f"no such roster file {roster!r}" if what is None else f"{roster!r} {what}"
        raise InputError(f"roster: {said}", path=name, line=lines.key("roster"))
    return Scenario(name, file, file.scene or DEFAULT_SCENE, roster, steps, seed)


_POST_KEYS: Final = frozenset({"actor", "text", "do", "responds_to", "ooc"})
_ARRIVAL_KEYS: Final = frozenset({"join", "after", "at"})


def _step(index: int, raw: Mapping[str, Any], lines: _LineFinder) -> Step:
    where = f"steps[{index}]"
    line = lines.step(index)
    keys = set(raw)
    model: type[StepSpec]
    if keys & _POST_KEYS and keys & _ARRIVAL_KEYS:
        post, arrival = (", ".join(sorted(keys & group)) for group in (_POST_KEYS, _ARRIVAL_KEYS))
        raise InputError(
            f"{where}: a step is a post (actor), an arrival (join) or a bare end_turn = true, "
            f"not both a post and an arrival: it has {post} and {arrival}",
            path=lines.path,
            line=line,
        )
    if not keys:
        raise InputError(
            f"{where}: an empty step: give actor (a post), join (an arrival) or end_turn = true",
            path=lines.path,
            line=line,
        )
    if keys == {"end_turn"}:
        if raw["end_turn"] is not True:
            raise InputError(f"{where}.end_turn: a step with only end_turn must say end_turn = true",
                             path=lines.path, line=line)
        model = EndTurnStep
    elif keys & _ARRIVAL_KEYS:
        model = ArrivalStep
    else:
        model = PostStep
    try:
        spec = model.model_validate(raw)
    except ValidationError as exc:
        errors = [_under(("steps", index), error) for error in exc.errors()]
        raise InputError(_describe(errors), path=lines.path, line=line) from None
    actions: tuple[Action, ...] = ()
    if isinstance(spec, PostStep):
        try:
            actions = parse_actions(spec.do)
        except InputError as exc:
            raise InputError(f"{where}.{exc.message}", path=lines.path, line=line) from None
    return Step(index + 1, line, spec, actions)


def _check_names(file: ScenarioFile, steps: Sequence[Step], path: str) -> None:
    """Nobody joins twice: in ``join``, in ``reserve``, or again as an arrival."""
    first: dict[str, str] = {}
    listed = [("join", file.join or ()), ("reserve", file.reserve)]
    for key, names in listed:
        for index, actor in enumerate(names):
            if actor in first:
                raise InputError(f"{key}[{index}]: {actor!r} is already in {first[actor]}", path=path,
                                 line=_LineFinder(path).key(key, index))
            first[actor] = key
    for step in steps:
        if isinstance(step.spec, ArrivalStep):
            actor = step.spec.join
            if actor in first:
                raise InputError(f"steps[{step.number - 1}].join: {actor!r} already joins in {first[actor]}",
                                 path=path, line=step.line)
            first[actor] = f"steps[{step.number - 1}]"


class _LineFinder:
    """The line of the N-th ``[[steps]]`` header, or of a key path (``KeyLines``), read from
    the file only when needed."""

    _HEADER: Final = re.compile(r"^[ \t]*\[\[[ \t]*steps[ \t]*\]\]")

    def __init__(self, path: str) -> None:
        self.path = path
        self._text: str | None = None
        self._lines: list[int] | None = None
        self._keys: KeyLines | None = None

    def _read(self) -> str:
        if self._text is None:
            try:
                self._text = Path(self.path).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                self._text = ""
        return self._text

    def step(self, index: int) -> int | None:
        if self._lines is None:
            self._lines = [n for n, line in enumerate(self._read().splitlines(), 1) if self._HEADER.match(line)]
        return self._lines[index] if index < len(self._lines) else None

    def key(self, *path: str | int) -> int | None:
        """The line ``path`` (or its longest prefix) is written on."""
        if self._keys is None:
            self._keys = KeyLines(self._read())
        return self._keys.line(path)


def _under(prefix: tuple[str | int, ...], error: ErrorDetails) -> ErrorDetails:
    moved = error.copy()
    moved["loc"] = (*prefix, *error["loc"])
    return moved


_FIELDS: Final = frozenset(
    name for model in (ScenarioFile, PostStep, EndTurnStep, ArrivalStep) for name in model.model_fields
)


def _describe(errors: Sequence[ErrorDetails]) -> str:
    return describe(errors, fields=_FIELDS)


# --------------------------------------------------------------------------- playing


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
    lines = _LineFinder(name)
    for key, names in (("join", joining), ("reserve", file.reserve)):
        for index, actor in enumerate(names):
            at = lines.key("positions", actor) if actor in file.positions else None
            with _located(f"{key}[{index}] ({actor}): ", name, at or lines.key(key, index)):
                table.join(scribe, entrants[actor], reserve=key == "reserve")
    with _located("begin: ", name, None):
        table.begin(scribe)
    for step in scenario.steps:
        _play(table, scribe, step, entrants, name)
    info = scribe.state.scene
    if info is not None and not info.ended:  # unless a step's rules ended it
        with _located("end: ", name, None):
            table.end(scribe, reveal=seed)
    store = MemoryStore(name)
    store.append(scribe.events)
    return store


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
        raise InputError(f"ruleset: {exc.message}", path=path, line=_LineFinder(path).key("ruleset")) from None


def _option_line(name: str, options: Mapping[str, Any], table: Table) -> int | None:
    """The line of the first option (as ``read_options`` reads them, sorted) the ruleset
    refuses alone, else of the ``options`` table."""
    lines = _LineFinder(name)
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
    lines = _LineFinder(scenario.path)

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
