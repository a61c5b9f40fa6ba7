"""What the log benches measure against, and the fold they time beside it: bare msgspec
decoding of a log's lines, and decoding plus the pure fold (no chain hashing), each read in
1 MiB blocks. Shared by ``bench_state``, ``bench_audit``, ``bench_traveller`` and
``bench_en51``."""

from __future__ import annotations

from fightlog.events.codec import DECODER
from fightlog.reducers.fold import fold
from fightlog.reducers.state import SceneState


def bare_decode(path: str) -> None:
    decode = DECODER.decode
    with open(path, "rb", buffering=1 << 20) as f:
        for line in f:
            decode(line)


def decode_and_fold(path: str) -> SceneState:
    with open(path, "rb", buffering=1 << 20) as f:
        return fold(map(DECODER.decode, f))
