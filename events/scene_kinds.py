"""The scene's lifecycle: ``scene_started`` (line 1 of every log: the ruleset, its options, the
dice commitment, the transcript an imported log came from) and ``scene_ended``."""

from typing import Annotated

from msgspec import Meta, Struct

from fightlog.events.base import Event, Hex64, Id, Json


class DiceCommitment(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The scene's commitment to its secret dice seed (see ``docs/dice.md``).

    ``commitment`` is the hex SHA-256 of the seed bytes. ``seed`` is present only for a scene
    created in open mode (the seed is revealed at once); otherwise it is revealed in
    ``scene_ended``.
    """

    scheme: str = "hmac-sha256-v1"
    commitment: Hex64
    seed: str | None = None


class Transcript(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The chat transcript a log was imported from (``fightlog import``): its format, file
    name, the hex SHA-256 of its bytes and the importer's version."""

    format: str
    file: str
    sha256: Hex64
    importer: str


class SceneStarted(Event, tag="scene_started", kw_only=True, frozen=True):
    """First line of every log: which ruleset and options govern it, and the dice commitment.

    ``format`` is the log format version the writer used (``FORMAT_VERSION``); it is required,
    never defaulted, so that a reader always knows which rules of the format a log follows.
    ``transcript`` is set on a log imported from a chat transcript.
    """

    scene: Id
    ruleset: Id
    format: Annotated[int, Meta(ge=1)]
    options: dict[str, Json] = {}
    dice: DiceCommitment | None = None
    title: str | None = None
    gm: str | None = None
    transcript: Transcript | None = None


class SceneEnded(Event, tag="scene_ended", kw_only=True, frozen=True):
    """The scene is over. ``seed`` reveals the dice seed (hex) so anyone can verify the rolls."""

    seed: str | None = None
    winner: str | None = None
    reason: str | None = None
