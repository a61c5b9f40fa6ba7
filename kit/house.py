"""House rules: a TOML file that overrides some of a ruleset's named options.

A ruleset's options are one msgspec ``Struct`` (``Table.option_type``: int, bool, str and
``Literal`` fields, each with a default and a docstring-level rulebook source). A house-rules
file sets some of them::

    # house-rules.toml
    ruleset = "roe7"        # optional: refused if the scenario plays another ruleset
    modifier_cap = 20
    both_natural_ones = "hit"

It is validated with pydantic against a model built from that Struct (the same names, types
and bounds, so the two never drift apart). An error names the file, the line of the key, the
option, what was wrong and the values allowed. Only the keys written are returned: the table
fills in the rest with the defaults and ``scene_started.options`` records them all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec
import msgspec.inspect
from msgspec import Struct
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from fightlog.errors import InputError
from fightlog.kit.inputs import read_toml
from fightlog.kit.options import allowed, got, option_fields
from fightlog.kit.spelling import closest

RULESET_KEY: Final = "ruleset"
"""The one key of a house-rules file that is not an option."""


class HouseRules(Struct, frozen=True, kw_only=True):
    """A house-rules file as read (not yet checked against a ruleset's options)."""

    path: str
    values: dict[str, Any]
    lines: dict[str, int]
    ruleset: str | None = None

    def overrides(self, ruleset: str, option_type: type[Struct]) -> dict[str, Any]:
        """The options this file sets, validated for ``ruleset`` (see the module docstring)."""
        if self.ruleset is not None and self.ruleset != ruleset:
            raise InputError(
                f"ruleset: these house rules are for {self.ruleset!r}, the fight plays {ruleset!r}",
                path=self.path,
                line=self.lines.get(RULESET_KEY),
            )
        return validate(self.values, ruleset, option_type, where=self.path, lines=self.lines)

    def located(self, exc: InputError) -> InputError:
        """``exc`` placed at the line of the option of this file it names (a check across
        options, the range scale's marks), when it is about this file and has no line."""
        if exc.line is not None or exc.path != self.path:
            return exc
        named = [key for key in self.values if f"'{key}'" in exc.message] or \
            [key for key in self.values if re.search(rf"\b{re.escape(key)}\b", exc.message)]  # "when surprise is"
        return InputError(exc.message, path=self.path, line=self.lines.get(named[0]) if named else None)

    def check_any(self, option_types: Mapping[str, type[Struct]]) -> str:
        """The first of ``option_types``' rulesets (ruleset id -> its options ``Struct``) that
        takes every option this file sets; else an ``InputError`` naming the file and line:
        the first option no ruleset has (with the closest one any has), or the refusal of
        the ruleset that knows most of the options set."""
        known = {ruleset: option_fields(option_type).keys() for ruleset, option_type in option_types.items()}
        for name in self.values:
            if not any(name in options for options in known.values()):
                close = closest(name, set().union(*known.values()))
                hint = f"did you mean {close!r}?" if close else "docs/rulesets/ lists them"
                raise InputError(f"{name}: not an option of any playable ruleset ({', '.join(known)}; {hint})",
                                 path=self.path, line=self.lines.get(name))
        refusals: list[tuple[int, InputError]] = []
        for ruleset, option_type in option_types.items():
            try:
                self.overrides(ruleset, option_type)
            except InputError as exc:
                refusals.append((len(self.values.keys() & known[ruleset]), exc))
                continue
            return ruleset
        raise max(refusals, key=lambda refusal: refusal[0])[1]


def read_house_rules(path: str | os.PathLike[str]) -> HouseRules:
    """The house-rules file at ``path`` (TOML; a bad file is an ``InputError`` naming it)."""
    name = os.fspath(path)
    data = read_toml(Path(name), name, "house-rules")
    text = Path(name).read_text(encoding="utf-8-sig")
    lines = {key: _line_of(text, key) for key in data}
    ruleset = data.pop(RULESET_KEY, None)
    if ruleset is not None and not isinstance(ruleset, str):
        raise InputError(f"ruleset: expected a ruleset id (a string), got {got(ruleset)}", path=name, line=lines[RULESET_KEY])
    return HouseRules(path=name, values=data, lines={k: v for k, v in lines.items() if v is not None}, ruleset=ruleset)


def validate(
    values: Mapping[str, Any],
    ruleset: str,
    option_type: type[Struct],
    *,
    where: str | None = None,
    lines: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """``values`` checked as overrides of ``option_type`` (pydantic, strict: TOML has real
    integers and booleans); the first problem is an ``InputError`` at its key's line."""
    model = _model(option_type)
    try:
        model.model_validate(dict(values))
    except ValidationError as exc:
        error = sorted(exc.errors(), key=lambda e: (e["type"] != "extra_forbidden", str(e["loc"])))[0]
        name = str(error["loc"][0]) if error["loc"] else ""
        line = (lines or {}).get(name)
        raise InputError(_message(error, name, ruleset, option_type), path=where, line=line) from None
    return {name: values[name] for name in sorted(values)}


def _message(error: Any, name: str, ruleset: str, option_type: type[Struct]) -> str:
    known = sorted(option_fields(option_type))
    if error["type"] == "extra_forbidden":
        close = closest(name, known)
        hint = f"did you mean {close!r}?" if close else f"docs/rulesets/{ruleset}.md lists them"
        return f"{name}: not a {ruleset} option ({hint})"
    return f"{name}: expected {allowed(option_type, name, error.get('input'))}, got {got(error.get('input'))}"


@cache
def _model(option_type: type[Struct]) -> type[BaseModel]:
    """A pydantic model whose fields are ``option_type``'s, all optional (a house-rules file
    sets only what it changes), unknown names refused, no coercion."""
    fields: dict[str, Any] = {}
    for name, field in option_fields(option_type).items():
        fields[name] = (_pydantic_type(field.type, name, option_type), None)
    config = ConfigDict(extra="forbid", strict=True, frozen=True)
    model: type[BaseModel] = create_model(f"{option_type.__name__}House", __config__=config, **fields)
    return model


def _pydantic_type(kind: msgspec.inspect.Type, name: str, option_type: type[Struct]) -> Any:
    if isinstance(kind, msgspec.inspect.BoolType):
        return bool
    if isinstance(kind, msgspec.inspect.IntType):
        return Annotated[int, Field(ge=kind.ge, le=kind.le, gt=kind.gt, lt=kind.lt)]
    if isinstance(kind, msgspec.inspect.StrType):
        return Annotated[str, Field(min_length=kind.min_length, max_length=kind.max_length)]
    if isinstance(kind, msgspec.inspect.LiteralType):
        return Literal[tuple(kind.values)]
    raise TypeError(f"{option_type.__name__}.{name}: house rules support int, bool, str and Literal options")


def _line_of(text: str, key: str) -> int | None:
    """The line where top-level ``key`` is set (bare or quoted, or as a ``[key]`` table),
    if it can be found."""
    name = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
    pattern = re.compile(rf"^[ \t]*(?:{name}[ \t]*[=.]|\[[ \t]*{name}[ \t]*[\].])", re.MULTILINE)
    found = pattern.search(text)
    return text.count("\n", 0, found.start()) + 1 if found is not None else None
