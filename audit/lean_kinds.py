"""What the audit's child reads of the events ``outcome.undeclared`` needs
(``fightlog.audit.answers``): ``link_decoder``'s lean kinds, each only the fields read.
Apart from the check so that the compiled build compiles it (mypyc leaves modules that define
msgspec Structs interpreted: ``setup.py``)."""

from __future__ import annotations

from msgspec import Struct

from fightlog.events.base import Id, Scalar
from fightlog.events.codec import Link


class LeanAction(Struct, kw_only=True, frozen=True, gc=False):
    """What the child reads of a post's action: whom it targets (``Ruleset.resolution_targets``)."""

    type: str
    target: str | None = None
    targets: list[str] = []
    params: dict[str, Scalar] = {}


class LeanPost(Link, tag_field="kind", tag="declaration_posted", kw_only=True, frozen=True, gc=False):
    """What the child reads of a ``declaration_posted`` (``link_decoder``'s lean kind)."""

    actor: Id
    actions: list[LeanAction] = []
    responds_to: int | None = None


class LeanOutcome(Link, tag_field="kind", tag="attack_resolved", kw_only=True, frozen=True, gc=False):
    """What the child reads of an ``attack_resolved``."""

    attacker: Id
    target: Id
    declaration: int | None = None


class LeanTurn(Link, tag_field="kind", tag="turn_started", frozen=True, gc=False):
    """What the child reads of a ``turn_started``: its ``seq``."""
