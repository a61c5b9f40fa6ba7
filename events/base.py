"""What every event kind is built from: the base ``Event`` (the fields every line carries),
``Origin``, the field types the kinds share, and the format's constants.

The kinds themselves are in one module per family (``scene_kinds``, ``combatant_kinds``,
``turn_kinds``, ``declaration_kinds``, ``dice_kinds``, ``outcome_kinds``, ``effect_kinds``,
``ruling_kinds``); ``fightlog.events.model`` joins them into the tagged union.
"""

from datetime import datetime
from typing import Annotated, Any, TypeAlias, Union

from msgspec import Meta, Struct

FORMAT_VERSION = 1
"""Version of the log format written by this release (recorded in ``scene_started``)."""

GENESIS = "0" * 64
"""The ``prev`` of the first line of every log."""

Id = Annotated[str, Meta(min_length=1, max_length=200)]
"""A combatant, effect or scene identifier."""

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
"""A lower-case hex SHA-256 digest."""

Scalar: TypeAlias = Union[str, int, bool, None]
"""Values allowed in free-form parameter maps (no floats: game arithmetic is integral)."""

Json: TypeAlias = Any
"""Any JSON value (sheet snapshots, ruleset options). Rulesets validate what they read;
by convention game numbers are integers, never floats."""


class Origin(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where an event came from, when it was not produced by the engine itself.

    Lets a post from a chat transcript or a roll from a dice bot enter the log without loss:
    ``medium`` names the source (``sl-chat``, ``discord``, ``forum``, ``bot``, ``hud``, ``manual``),
    ``ref`` locates it there (a message id, ``file:line``), ``author`` is the name the source
    showed (a webhook proxy, an SL object) and ``raw`` is the original text verbatim.
    """

    medium: str
    ref: str | None = None
    author: str | None = None
    raw: str | None = None
    edited: datetime | None = None
    """When the source says the message was edited (Discord's ``timestampEdited``)."""


class Event(Struct, frozen=True, omit_defaults=True, tag_field="kind", gc=False):
    """Fields every event carries.

    ``seq`` counts lines from 1 with no gaps; ``prev`` is the hex SHA-256 of the previous
    line's bytes (without its line terminator), ``GENESIS`` on line 1. Both are assigned by the
    store under its lock: code that creates events leaves them at their defaults (0 and "") and
    the store seals them. ``at`` is the time the source gives (live play, transcripts); scripted
    fights leave it out so their logs are byte-for-byte reproducible.

    ``batch`` is ``[i, n]`` on the i-th of the n events of one multi-event append to a log
    that has events already (also set by the store; a single-event append, and the batch that
    starts a log, which the store creates whole, carry none): the reader knows a batch whose
    last event is missing (a crash during the append) and ``verify --repair`` moves it aside.

    These base fields come first on every line (``kind``, ``seq``, ``prev``...); every subclass
    declares ``kw_only=True`` so its own fields are keyword-only.
    """

    seq: Annotated[int, Meta(ge=0)] = 0
    prev: str = ""
    at: datetime | None = None
    origin: Origin | None = None
    batch: tuple[Annotated[int, Meta(ge=1)], Annotated[int, Meta(ge=2)]] | None = None
