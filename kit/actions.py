"""The action mini-syntax: one structured action as a line of words.

``TYPE [key=value ...]``, quoted like a shell command line (``shlex``)::

    attack target=bob weapon=Rifle mode=auto gm=-3
    move distance=8
    throw item=Frag targets=bob,kestrel
    say text='Hold the gate!'

It is what ``fightlog play post --do`` and the ``do`` lists of scenario files hold.
``target``, ``weapon``, ``mode``, ``range``, ``item`` and ``cost`` fill the ``Action`` field
of that name; ``distance`` is a whole number in the ruleset's unit (``Ruleset.distance_unit``:
metres, or hexes); ``targets`` is a comma-separated list; any other
key lands in ``params``, read as an integer when it looks like one (``-?[0-9]+``, at most
``MOST`` either way, as ``distance``), as a boolean for ``true`` and ``false``, else as text.

``parse_action`` refuses what it cannot read with an ``InputError`` naming the bad part;
``format_action`` writes an ``Action`` back (``parse_action(format_action(a)) == a`` for
every action the syntax can express).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from typing import Final

from fightlog.errors import InputError
from fightlog.events.model import Action, Scalar

TEXT_FIELDS: Final[tuple[str, ...]] = ("target", "weapon", "mode", "range", "item", "cost")
"""Keys that fill the ``Action`` field of their name with the value as written."""

FIELDS: Final[tuple[str, ...]] = ("target", "targets", "weapon", "mode", "range", "distance", "item", "cost")
"""Every key that fills an ``Action`` field (the rest go to ``params``), in written order."""

RESERVED: Final[frozenset[str]] = frozenset({"type", "params"})
"""Action fields that are not keys: the type is the first word; params are the other keys."""

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_INT: Final = re.compile(r"-?[0-9]+")


def parse_action(text: str) -> Action:
    """The ``Action`` that ``text`` writes (``InputError`` naming the bad part)."""
    kind, *pairs = _words(text)
    named: dict[str, str] = {}
    targets: list[str] = []
    distance: int | None = None
    params: dict[str, Scalar] = {}
    seen: set[str] = set()
    for word in pairs:
        key, value = _key_value(word, seen)
        if key == "distance":
            distance = _distance(value)
        elif key == "targets":
            targets = _names(value)
        elif key in TEXT_FIELDS:
            named[key] = value
        else:
            params[key] = _scalar(key, value)
    return Action(
        type=kind,
        target=named.get("target"),
        targets=targets,
        weapon=named.get("weapon"),
        mode=named.get("mode"),
        range=named.get("range"),
        distance=distance,
        item=named.get("item"),
        cost=named.get("cost"),
        params=params,
    )


def _words(text: str) -> list[str]:
    """``text`` split as a shell would, its first word checked as an action type."""
    try:
        words = shlex.split(text)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise InputError(f"{str(exc)[:1].lower()}{str(exc)[1:]} in {text!r}") from None
    if not words:
        raise InputError("empty action: expected TYPE [key=value ...], e.g. 'attack target=bob'")
    kind = words[0]
    if "=" in kind:
        raise InputError(f"expected the action type first (attack, move, flee...), got {kind!r}")
    if not _NAME.fullmatch(kind):
        raise InputError(f"action type must be a word (letters, digits, _ and -), got {kind!r}")
    return words


def _key_value(word: str, seen: set[str]) -> tuple[str, str]:
    """``key=value`` read and checked (a word key, not reserved, not in ``seen``, which it
    joins, with a value)."""
    key, eq, value = word.partition("=")
    if not eq:
        raise InputError(f"expected key=value, got {word!r}")
    if not _NAME.fullmatch(key):
        raise InputError(f"a key is a word (letters, digits, _ and -), got {key!r} in {word!r}")
    if key in RESERVED:
        raise InputError(f"{key!r} is not a key: the action type is the first word")
    if key in seen:
        raise InputError(f"{key!r} given twice")
    seen.add(key)
    if not value:
        raise InputError(f"{key!r} needs a value, got {word!r}")
    return key, value


def parse_actions(texts: Iterable[str]) -> tuple[Action, ...]:
    """Several actions; the error names which one (``do[1]: ...``) when one is bad."""
    actions = []
    for index, text in enumerate(texts):
        try:
            actions.append(parse_action(text))
        except InputError as exc:
            raise InputError(f"do[{index}]: {exc.message}") from None
    return tuple(actions)


MOST: Final = 1_000_000_000
"""The most a number in a post may be, either way (``kit.options.NUMBER_CAP``, as a count,
size or distance in a sheet or a house rule): past it no ruleset has a meaning for it."""


def _distance(value: str) -> int:
    if not re.fullmatch(r"[0-9]+", value):
        minus = re.fullmatch(r"\s*-\s*[0-9]+\s*", value) is not None  # "-3": a number, but no distance
        raise InputError(f"'distance' must be a whole number, 0 or more, got {value!r}" if minus else
                         f"'distance' must be a whole number, got {value!r}")
    if len(value.lstrip("0")) > 10 or int(value) > MOST:  # (the length first: int() of a long text is slow)
        raise InputError(f"'distance': {value} is too large: a number in a post is at most {MOST:,}")
    return int(value)


def _names(value: str) -> list[str]:
    names = value.split(",")
    if not all(names):
        raise InputError(f"'targets' is a comma-separated list of names, got {value!r}")
    return names


def _scalar(key: str, value: str) -> Scalar:
    if _INT.fullmatch(value):
        if len(value.lstrip("-").lstrip("0")) > 10 or not -MOST <= int(value) <= MOST:
            raise InputError(f"{key!r}: {value} is too large: a number in a post is at most {MOST:,} either way")
        return int(value)
    if value in ("true", "false"):
        return value == "true"
    return value


# --------------------------------------------------------------------------- writing


def format_action(action: Action) -> str:
    """``action`` in the mini-syntax. ``ValueError`` for what the syntax cannot write: a
    ``targets`` name with a comma, a text param that reads as a number or boolean, a
    param named like a field, an empty value, a ``None`` param."""
    words = [action.type]
    for key in FIELDS:
        value = getattr(action, key)
        if value is None or value == []:
            continue
        if key == "targets":
            if any("," in name or not name for name in value):
                raise ValueError(f"targets {value!r}: a name holds a comma or is empty")
            value = ",".join(value)
        words.append(_pair(key, str(value)))
    for key in sorted(action.params):
        if key in FIELDS or key in RESERVED or not _NAME.fullmatch(key):
            raise ValueError(f"param {key!r} cannot be written as a key")
        words.append(_pair(key, _scalar_text(key, action.params[key])))
    return " ".join(shlex.quote(word) for word in words)


def _pair(key: str, value: str) -> str:
    if not value:
        raise ValueError(f"{key!r} has an empty value")
    return f"{key}={value}"


def _scalar_text(key: str, value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value is None or _INT.fullmatch(value) or value in ("true", "false"):
        raise ValueError(f"param {key!r}: {value!r} would read back as another type")
    return value


def value_written(value: object) -> str:
    """A param's value as a post writes it, for messages (``true``, not ``True``)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def a_or_an(word: str) -> str:
    """``word`` with its article, for messages (``a sprint``, ``an attack``)."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
