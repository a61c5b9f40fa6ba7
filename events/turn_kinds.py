"""Rounds and turns: ``round_started``, ``round_ended``, ``turn_started``, ``turn_ended``."""

from typing import Annotated

from msgspec import Meta

from fightlog.events.base import Event, Id


class RoundStarted(Event, tag="round_started", kw_only=True, frozen=True):
    round: Annotated[int, Meta(ge=1)]


class RoundEnded(Event, tag="round_ended", kw_only=True, frozen=True):
    round: Annotated[int, Meta(ge=1)]


class TurnStarted(Event, tag="turn_started", kw_only=True, frozen=True):
    actor: Id
    round: Annotated[int, Meta(ge=1)]


class TurnEnded(Event, tag="turn_ended", kw_only=True, frozen=True):
    actor: Id
    round: Annotated[int, Meta(ge=1)]
