"""GM rulings on earlier events: ``ruling_made``."""

from typing import Annotated, Literal

from msgspec import Meta

from fightlog.events.base import Event, Json


class RulingMade(Event, tag="ruling_made", kw_only=True, frozen=True):
    """A GM ruling on an earlier event, which stays in the log untouched.

    ``action`` is ``void`` (treat the event as not having happened), ``amend`` (treat it as if
    ``changes`` had been its fields) or ``accept`` (let a finding stand, naming its ``finding``
    code) or ``withdraw`` (``target`` is an earlier ruling, which stops applying).
    """

    by: str
    action: Literal["void", "amend", "accept", "withdraw"]
    target: Annotated[int, Meta(ge=1)]
    reason: str = ""
    changes: dict[str, Json] = {}
    finding: str | None = None
