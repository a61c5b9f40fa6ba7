"""What ``fightlog play``'s options take, checked as click reads them: actions, positions,
scene ids and salts (a bad one is a usage error naming the option)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from fightlog.kit.options import NUMBER_CAP
from fightlog.dice import seed_bytes
from fightlog.errors import DiceSeedError, InputError
from fightlog.events.model import Action


def actions(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> tuple[Action, ...]:
    """``--do``: each action read by the action mini-syntax."""
    from fightlog.kit.actions import parse_action

    parsed = []
    for text in value:
        try:
            parsed.append(parse_action(text))
        except InputError as exc:
            raise click.BadParameter(f"{text!r}: {exc.message}") from None
    return tuple(parsed)


def positions(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> dict[str, tuple[int, int]]:
    """``--at ID=X,Y``: where each combatant stands, in whole metres."""
    placed: dict[str, tuple[int, int]] = {}
    for text in value:
        actor, eq, where = text.partition("=")
        xy = where.split(",")
        if not eq or not actor or len(xy) != 2 or not all(_is_int(n) for n in xy):
            raise click.BadParameter(f"expected ID=X,Y in whole metres (alice=0,15), got {text!r}")
        if any(len(n.strip().lstrip("-").lstrip("0")) > 10 or abs(int(n)) > NUMBER_CAP for n in xy):
            raise click.BadParameter(f"{text!r}: a coordinate is at most {NUMBER_CAP:,} metres either way")
        if actor in placed:
            raise click.BadParameter(f"{actor!r} placed twice")
        placed[actor] = (int(xy[0]), int(xy[1]))
    return placed


def _is_int(text: str) -> bool:
    digits = text.strip().removeprefix("-")
    return digits.isascii() and digits.isdigit()


def scene_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scene``: 1 to 200 characters."""
    if value is not None and not 1 <= len(value) <= 200:
        raise click.BadParameter("a scene id has 1 to 200 characters")
    return value


def salt(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--salt``: a player's dice salt, as hex."""
    if value is None:
        return None
    try:
        return seed_bytes(value, what="the salt").hex()
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message) from None
