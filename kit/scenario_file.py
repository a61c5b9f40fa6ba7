"""Scenario files as written: the TOML read and validated, step by step.

``load_scenario(path)`` reads and validates the file (pydantic, strict, unknown fields
refused); every problem is one ``InputError`` on the scenario file, with the line of the
``[[steps]]`` table at fault when it is in a step and the field path in the message
(``steps[3].do[0]: expected key=value, got 'bob'``). ``fightlog.kit.scenario`` plays it.
Pydantic is imported here: never import this module from the light paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal, NamedTuple, TypeAlias

from pydantic import BeforeValidator, Field, StringConstraints, ValidationError
from pydantic_core import ErrorDetails

from fightlog.errors import DiceSeedError, InputError
from fightlog.events.model import Action
from fightlog.events.seeds import DEFAULT_SCENE, seed_hex
from fightlog.kit.actions import parse_actions
from fightlog.kit.inputs import Seq, Strict, describe, first_problem, read_toml
from fightlog.kit.options import NUMBER_CAP
from fightlog.kit.toml_lines import KeyLines


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


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and validate a scenario file; every problem is an ``InputError`` on it."""
    name = os.fspath(path)
    data = read_toml(Path(name), name, "scenario")
    lines = LineFinder(name)
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


def _step(index: int, raw: Mapping[str, Any], lines: LineFinder) -> Step:
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
                                 line=LineFinder(path).key(key, index))
            first[actor] = key
    for step in steps:
        if isinstance(step.spec, ArrivalStep):
            actor = step.spec.join
            if actor in first:
                raise InputError(f"steps[{step.number - 1}].join: {actor!r} already joins in {first[actor]}",
                                 path=path, line=step.line)
            first[actor] = f"steps[{step.number - 1}]"


class LineFinder:
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
