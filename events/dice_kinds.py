"""Rolls: ``dice_rolled``, with its ``Die`` and ``Modifier`` parts."""

from typing import Annotated, Literal

from msgspec import Meta, Struct

from fightlog.events.base import Event, Id


class Die(Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """One die as rolled. ``kept`` is false for a die a keep/drop removed; ``rerolled`` lists
    the faces this die replaced (oldest first); ``exploded`` marks a die added by an explosion;
    ``label`` distinguishes dice of one roll (en5.1's ``black`` and ``white``)."""

    sides: Annotated[int, Meta(ge=1)]
    face: int
    kept: bool = True
    rerolled: list[int] = []
    exploded: bool = False
    label: str | None = None


class Modifier(Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """A number added to a roll and where it came from (``scope``, ``racial``, ``gm``...)."""

    value: int
    source: str


class DiceRolled(Event, tag="dice_rolled", kw_only=True, frozen=True):
    """A roll: every die, every modifier with its source, and the total.

    ``generator`` is ``engine`` for a roll drawn from the scene's seeded generator (``index`` is
    its roll number, so anyone holding the revealed seed can recompute its faces) or
    ``external`` for a roll made elsewhere (``tool`` names the bot or HUD); external rolls are
    checked for arithmetic and face ranges only. ``purpose`` is open (``attack``, ``defense``,
    ``dodge``, ``damage``, ``initiative``, ``flee``, ``save``, ``skill``, ``soak``...).
    ``for_seq`` links the roll to the declaration it resolves. ``dialect`` names the notation
    an external roll's ``notation`` is written in (``avrae``, ``dice-maiden``...; None:
    fightlog's own); the audit re-evaluates the roll under it, unless ``unread`` says the
    reply was read only in part.
    """

    roller: Id
    notation: str
    dice: list[Die]
    total: int
    purpose: str = "other"
    modifiers: list[Modifier] = []
    generator: Literal["engine", "external"] = "engine"
    index: Annotated[int, Meta(ge=0, le=(1 << 63) - 2)] | None = None
    """(At most 2**63 - 2: the decoder's bounds are signed 64-bit, and a fight goes on from its
    last roll, whose next index must fit too; the generator itself takes eight unsigned bytes.)"""
    tool: str | None = None
    for_seq: int | None = None
    label: str | None = None
    dialect: str | None = None
    unread: str | None = None
    """What the reader could not read of the bot's reply an imported external roll comes from
    (a hidden face ``(?)``, words it does not know, fewer faces than dice: ``ReadReply.problems``):
    the roll is recorded as far as it reads, and its dice and total are not checked."""
