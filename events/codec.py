"""Encoding events to log lines and decoding them back: the hot path.

One encoder and one decoder for the whole union, built once at import. A line is the compact
JSON of one event; the chain hash of a line is the SHA-256 of exactly its bytes, without the
line terminator.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any, Union

import msgspec

from fightlog.events.limits import MAX_LINE_BYTES as MAX_LINE_BYTES  # re-exported: its old home
from fightlog.events.model import EVENT_TYPES, AnyEvent

ENCODER = msgspec.json.Encoder()
DECODER: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)


def encode_line(event: AnyEvent) -> bytes:
    """The bytes of one log line for ``event``, without the trailing newline."""
    return ENCODER.encode(event)


def decode_line(line: bytes) -> AnyEvent:
    """Decode one line (terminator already removed). Raises msgspec errors on bad input."""
    return DECODER.decode(line)


def line_digest(line: bytes) -> str:
    """The chain hash of a line: hex SHA-256 of its bytes without the terminator."""
    return hashlib.sha256(line).hexdigest()


class Link(msgspec.Struct, frozen=True, gc=False):
    """What the chain needs of a line: its ``seq`` and ``prev`` (``link_decoder``)."""

    seq: int
    prev: str
    batch: tuple[int, int] | None = None


@lru_cache(maxsize=8)
def link_decoder(full: frozenset[type]) -> msgspec.json.Decoder[Any]:
    """A decoder that decodes the kinds in ``full`` as ``DECODER`` does and every other kind
    as a ``Link`` subclass of its own (its ``seq`` and ``prev``, the other fields skipped):
    cheaper, for a reader that checks the chain of a log whose lines are decoded in full
    elsewhere. It accepts a line that ``DECODER`` accepts, with the same ``seq`` and ``prev``.

    ``full`` may also hold *lean* kinds: ``Link`` subclasses tagged as an event kind, naming
    the few fields a reader needs (``kw_only``, with the event's own types). A kind with a
    lean one is decoded as that, even when the kind itself is in ``full``: its reader there
    is for the lines a reader decodes in full (``fightlog.audit.reading.checked`` after an
    unusual line)."""
    lean = {t.__struct_config__.tag: t for t in full if issubclass(t, Link)}
    members: list[type] = []
    for kind in EVENT_TYPES:
        config = kind.__struct_config__
        if kind in full and config.tag not in lean:
            members.append(kind)
            continue
        members.append(
            lean.get(config.tag)
            or msgspec.defstruct(
                f"{kind.__name__}Link", [], bases=(Link,), tag_field=config.tag_field, tag=config.tag,
                frozen=True, gc=False,
            )
        )
    return msgspec.json.Decoder(Union[tuple(members)])
