"""The provably fair dice generator: (seed, scene id, salts) -> faces of roll n.

Scheme ``hmac-sha256-v1`` (``docs/dice.md`` has the full text, a reference snippet and a test
vector). The scene commits to ``sha256(seed)`` in ``scene_started`` and reveals the seed at the
end (or at once, in open mode). Roll ``n`` of the scene (engine rolls counted from 0) draws
from a stream of 32-bit candidates::

    salts_digest = SHA256( for each salt in log order: u32be(len(salt)) || salt )
    message(n, b) = "fightlog-dice-v1" || SHA256(scene id) || salts_digest || u64be(n) || u32be(b)
    block b      = HMAC-SHA256(key = seed bytes, message(n, b))     b = 0, 1, 2...
    candidates   = each block split into eight 4-byte big-endian integers, in order

A die of ``s`` sides takes candidates until one is below ``2**32 - 2**32 % s`` (the largest
multiple of ``s`` that fits) and shows ``candidate % s + 1``: rejection sampling, so every face
is exactly equally likely. Salts and the scene id are UTF-8 text as recorded in the log.

Everything here is pure except ``new_seed``, the one place that draws OS randomness.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Sequence

from fightlog.errors import DiceSeedError, DiceValueError
from fightlog.events.model import DiceCommitment

SCHEME = "hmac-sha256-v1"
"""The ``DiceCommitment.scheme`` this module implements."""

DOMAIN = b"fightlog-dice-v1"
"""First bytes of every HMAC message (domain separation from any other use of the seed)."""

SEED_BYTES = 32
"""Bytes of a new scene seed (a scene seed must have at least this many)."""

_SPAN = 1 << 32
_CANDIDATES = struct.Struct(">8I").unpack
block_suffix = struct.Struct(">QI").pack
"""``u64be(index) || u32be(block)``: the last twelve bytes of a block's message."""

INDEXES = 1 << 64
"""Roll indexes run from 0 to ``INDEXES - 1``: the block's message holds one in eight bytes."""


def new_seed() -> str:
    """A fresh secret scene seed: ``SEED_BYTES`` bytes from ``secrets``, as lower-case hex."""
    return secrets.token_bytes(SEED_BYTES).hex()


def seed_bytes(seed: str, *, minimum: int = 1, what: str = "seed") -> bytes:
    """Decode a hex seed, refusing anything that is not hex or is shorter than ``minimum``
    bytes (``DiceSeedError``)."""
    text = seed.strip()
    if len(text) % 2 or not text or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise DiceSeedError(f"{what} must be an even number of hex digits (0-9, a-f)")
    raw = bytes.fromhex(text)
    if len(raw) < minimum:
        raise DiceSeedError(f"{what} has {len(raw)} bytes; at least {minimum} are required")
    return raw


def commitment(seed: str | bytes) -> str:
    """The commitment to a seed: hex SHA-256 of the seed's bytes (not of its hex text)."""
    raw = seed if isinstance(seed, bytes) else seed_bytes(seed)
    return hashlib.sha256(raw).hexdigest()


def dice_commitment(seed: str, *, open_mode: bool = False) -> DiceCommitment:
    """The ``scene_started.dice`` value for a scene seed; ``open_mode`` reveals the seed at
    once (casual play), otherwise it is revealed in ``scene_ended.seed``."""
    raw = seed_bytes(seed, minimum=SEED_BYTES, what="scene seed")
    return DiceCommitment(
        scheme=SCHEME, commitment=commitment(raw), seed=raw.hex() if open_mode else None
    )


def salts_digest(salts: Iterable[str]) -> bytes:
    """SHA-256 over the salts in log order, each as ``u32be(len) || UTF-8 bytes``."""
    h = hashlib.sha256()
    for salt in salts:
        raw = salt.encode("utf-8")
        h.update(len(raw).to_bytes(4, "big"))
        h.update(raw)
    return h.digest()


def accept_below(sides: int) -> int:
    """Candidates at or above this are rejected for a die of ``sides`` sides."""
    return _SPAN - _SPAN % sides


class FairGenerator:
    """The scene's generator: pure and immutable, (seed, scene, salts) -> faces of roll n.

    Build one per scene, and a new one (``with_salt``) when a participant records a salt;
    the caller numbers the engine rolls of the scene 0, 1, 2... and passes that index.
    """

    __slots__ = ("seed", "scene", "salts", "new_inner", "new_outer")

    def __init__(self, seed: str | bytes, scene: str, salts: Sequence[str] = ()) -> None:
        raw = seed if isinstance(seed, bytes) else seed_bytes(seed)
        if not raw:
            raise DiceSeedError("seed is empty")
        self.seed = raw
        self.scene = scene
        self.salts: tuple[str, ...] = tuple(salts)
        # HMAC with the key pads and the constant message prefix hashed once: each block
        # then costs one inner and one outer compression. ``new_inner()``/``new_outer()``
        # return fresh copies of those keyed states (the fast path inlines ``block``).
        key = raw if len(raw) <= 64 else hashlib.sha256(raw).digest()
        key = key.ljust(64, b"\0")
        inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        inner.update(DOMAIN + hashlib.sha256(scene.encode("utf-8")).digest())
        inner.update(salts_digest(self.salts))
        self.new_inner = inner.copy
        self.new_outer = hashlib.sha256(bytes(b ^ 0x5C for b in key)).copy

    @property
    def seed_hex(self) -> str:
        return self.seed.hex()

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()

    def with_salt(self, salt: str) -> FairGenerator:
        """The generator after one more salt is recorded."""
        return FairGenerator(self.seed, self.scene, (*self.salts, salt))

    def block(self, index: int, block: int) -> bytes:
        """Block ``block`` of roll ``index``: HMAC-SHA256(seed, message(index, block))."""
        inner = self.new_inner()
        inner.update(block_suffix(index, block))
        outer = self.new_outer()
        outer.update(inner.digest())
        return outer.digest()

    def stream(self, index: int) -> HmacStream:
        """A face stream for roll ``index`` (what ``Expression.roll`` draws from)."""
        return HmacStream(self, index)

    def faces(self, index: int, sides: Sequence[int]) -> list[int]:
        """The faces roll ``index`` gives to dice of the given sizes, drawn in order."""
        stream = self.stream(index)
        return [stream.draw(s) for s in sides]


class HmacStream:
    """Faces of one roll, drawn from its candidate stream with rejection sampling."""

    __slots__ = ("_gen", "_index", "_block", "_cands", "_pos", "drawn")

    def __init__(self, gen: FairGenerator, index: int) -> None:
        if index < 0:
            raise DiceValueError(f"roll index {index} is negative")
        self._gen = gen
        self._index = index
        self._block = 0
        self._cands: tuple[int, ...] = ()
        self._pos = 8
        self.drawn = 0

    def _refill(self) -> None:
        self._cands = _CANDIDATES(self._gen.block(self._index, self._block))
        self._block += 1
        self._pos = 0

    def draw(self, sides: int) -> int:
        accept = _SPAN - _SPAN % sides
        while True:
            if self._pos == 8:
                self._refill()
            c = self._cands[self._pos]
            self._pos += 1
            if c < accept:
                self.drawn += 1
                return c % sides + 1

    def draw_many(self, sides: int, count: int) -> list[int]:
        accept = _SPAN - _SPAN % sides
        out: list[int] = []
        append = out.append
        while len(out) < count:
            if self._pos == 8:
                self._refill()
            cands, pos = self._cands, self._pos
            need = count - len(out)
            for c in cands[pos : pos + need]:
                pos += 1
                if c < accept:
                    append(c % sides + 1)
                    if len(out) == count:
                        break
            self._pos = pos
        self.drawn += count
        return out
