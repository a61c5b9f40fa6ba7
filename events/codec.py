"""Encoding events to log lines and decoding them back: the hot path.

One encoder and one decoder for the whole union, built once at import. A line is the compact
JSON of one event; the chain hash of a line is the SHA-256 of exactly its bytes, without the
line terminator.
"""

from __future__ import annotations

import hashlib

import msgspec

from fightlog.events.model import AnyEvent

ENCODER = msgspec.json.Encoder()
DECODER: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)

MAX_LINE_BYTES = 1 << 20
"""The longest line a log may hold (1 MiB). Longer lines are refused, not read whole."""


def encode_line(event: AnyEvent) -> bytes:
    """The bytes of one log line for ``event``, without the trailing newline."""
    return ENCODER.encode(event)


def decode_line(line: bytes) -> AnyEvent:
    """Decode one line (terminator already removed). Raises msgspec errors on bad input."""
    return DECODER.decode(line)


def line_digest(line: bytes) -> str:
    """The chain hash of a line: hex SHA-256 of its bytes without the terminator."""
    return hashlib.sha256(line).hexdigest()
