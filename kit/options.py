"""A ruleset's named options: one frozen msgspec ``Struct`` of int, bool, str and ``Literal``
fields with defaults (``Roe7Options``...), what ``scene_started.options`` records.

Shared by every ruleset and by house-rules files (``kit/house.py``): reading options back
from a log or a file with one clear refusal per problem, saying what an option accepts,
recording them (``as_data``), and reading a scene's (``SceneOptions``).
msgspec only: the fold reads options, and the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Annotated, Any, Final, Generic, TypeVar

import msgspec
import msgspec.inspect
from msgspec import Meta, Struct

from fightlog.dice.limits import MAX_MODIFIER, MAX_SIDES
from fightlog.errors import InputError
from fightlog.kit.spelling import closest
from fightlog.reducers.state import SceneState

O = TypeVar("O", bound=Struct)


def option_fields(option_type: type[Struct]) -> dict[str, msgspec.inspect.Field]:
    """The options of ``option_type`` by name, with their types and bounds."""
    info = msgspec.inspect.type_info(option_type)
    if not isinstance(info, msgspec.inspect.StructType):
        raise TypeError(f"{option_type!r} is not a msgspec Struct")
    return {field.name: field for field in info.fields}


NUMBER_CAP: Final = 1_000_000_000
"""The most a count, size or distance option may be (as a sheet's numbers are bounded): the
rulesets' open-ended int options are bounded by it, and it is said only to a value past it."""

NonNegative = Annotated[int, Meta(ge=0, le=NUMBER_CAP)]
"""An open-ended option counting from 0 (a cap, a damage, a number of turns)."""
Positive = Annotated[int, Meta(ge=1, le=NUMBER_CAP)]
"""An open-ended option counting from 1."""
DieSize = Annotated[int, Meta(ge=1, le=MAX_SIDES)]
"""The sides of a die an option names (a burn's 1d10): bounded as dice are
(``dice.limits.MAX_SIDES``), so a house rule cannot make every such roll refused."""
Bonus = Annotated[int, Meta(ge=0, le=MAX_MODIFIER)]
"""An option a roll adds or takes off (a bonus, a penalty, an offset): bounded as a roll's
modifiers are (``dice.limits.MAX_MODIFIER``), so a house rule cannot make every roll refused."""


def allowed(option_type: type[Struct], name: str, value: Any = None) -> str:
    """What option ``name`` of ``option_type`` accepts, in words (``NUMBER_CAP`` only when
    ``value``, the value given, is past it)."""
    kind = option_fields(option_type)[name].type
    if isinstance(kind, msgspec.inspect.BoolType):
        return "true or false"
    if isinstance(kind, msgspec.inspect.LiteralType):
        return "one of " + ", ".join(repr(v) for v in kind.values)
    if isinstance(kind, msgspec.inspect.IntType):
        over = isinstance(value, int) and not isinstance(value, bool) and kind.le is not None and value > kind.le
        le = kind.le if kind.le is not None and (kind.le != NUMBER_CAP or over) else None
        bounds = [f">= {kind.ge}" if kind.ge is not None else "", f"<= {le}" if le is not None else ""]
        shown = " and ".join(b for b in bounds if b)
        return "an integer" + (f" {shown}" if shown else "")
    return "a string"


def got(value: Any) -> str:
    """A value as a message shows what was given: as the TOML or JSON wrote it (``true``,
    ``1.5 (a float: ...)``, ``'x'``), a table or an array by what it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value!r} (a float: game numbers are integers)"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def read_options(option_type: type[O], data: Mapping[str, Any], *, ruleset: str, where: str | None = None) -> O:
    """``data`` (``scene_started.options`` or overrides) as ``option_type``: an unknown name
    (with the closest known one) or a value of the wrong kind (with what is allowed) is an
    ``InputError`` at ``where``."""
    names = option_fields(option_type)
    for name in sorted(data):
        if name not in names:
            close = closest(name, names)
            hint = f" (did you mean {close!r}?)" if close else f" (options: {', '.join(names)})"
            raise InputError(f"unknown {ruleset} option {name!r}{hint}", path=where)
        try:
            msgspec.convert({name: data[name]}, option_type)
        except msgspec.ValidationError:
            raise InputError(
                f"{ruleset} option {name!r}: expected {allowed(option_type, name, data[name])}, got {got(data[name])}", path=where
            ) from None
    return msgspec.convert(dict(data), option_type)


_KINDS: Final = (msgspec.inspect.BoolType, msgspec.inspect.IntType, msgspec.inspect.StrType,
                 msgspec.inspect.LiteralType)
"""The kinds an option may be: what a house-rules file can set and a log records as it is."""


def option_type_problem(option_type: object) -> str | None:
    """Why ``option_type`` cannot be a ruleset's options, or ``None``: a msgspec Struct each
    of whose fields is an integer, true or false, a string or one of listed values (no
    floats: game numbers are integers), with a default that reads back as itself."""
    if not (isinstance(option_type, type) and issubclass(option_type, Struct)):
        return f"{option_type!r} is not a msgspec Struct"
    for name, field in option_fields(option_type).items():
        if not isinstance(field.type, _KINDS):
            kind = type(field.type).__name__.removesuffix("Type").lower()
            return (f"option {name!r} is a {kind}: an option is an integer, true or false, a string or one of "
                    "listed values")
        if field.required:
            return f"option {name!r} has no default"
    try:
        defaults = option_type()
        msgspec.convert(as_data(defaults), option_type)
    except (msgspec.ValidationError, TypeError) as exc:
        return f"its defaults are not options of their own kinds: {exc}"
    return None


def as_data(options: Struct) -> dict[str, Any]:
    """Every option, defaults included, as plain JSON for ``scene_started.options``."""
    out: dict[str, Any] = msgspec.to_builtins(options)
    return out


class SceneOptions(Generic[O]):
    """A ruleset's options reader: ``options_of(state)`` gives the options a scene was started
    with (``read``: its ``read_options``), read once per distinct options (cached). With a
    ``fallback``, options that do not read give it (a log still folds and audits); without,
    the ``InputError`` is raised."""

    def __init__(self, read: Callable[[Mapping[str, Any]], O], *, fallback: O | None = None) -> None:
        self.fallback = fallback

        @lru_cache(maxsize=16)
        def decoded(encoded: bytes) -> O:
            return read(msgspec.json.decode(encoded))

        self._decoded = decoded
        self._last: tuple[Mapping[str, Any], O] | None = None
        """The options last read, with the ``scene_started.options`` object they were read
        from (kept, so its id is not reused): the folded states of a scene share that object,
        so the checks of one scene read it without encoding it again."""

    def __call__(self, state: SceneState) -> O:
        scene = state.scene
        if scene is None:
            return self._read({})
        raw = scene.options
        last = self._last
        if last is not None and last[0] is raw:
            return last[1]
        found = self._read(raw)
        self._last = (raw, found)
        return found

    def _read(self, raw: Mapping[str, Any]) -> O:
        if self.fallback is None:
            return self._decoded(msgspec.json.encode(raw))
        try:
            return self._decoded(msgspec.json.encode(raw))
        except InputError:
            return self.fallback
