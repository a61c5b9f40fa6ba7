"""A child process that appends to a log in a loop and acknowledges what it appended.

``python appender.py LOG ACKS WRITER COUNT SEED [fsync|nofsync] [slow]``: ``COUNT`` appends
of declarations (a mix of single events and batches of 2, 5 and 50, some with long text),
each one's ``seq`` and id (``WRITER:APPEND:EVENT``) written to ``ACKS`` only after ``append``
returned. If ``LOG`` does not exist, the first append creates it (``scene_started`` and a
batch). ``slow`` writes each append in 4 KiB pieces with a pause between, so a kill -9 lands
inside a write more often (the same ``os.write`` calls, spread out). Used by
``test_concurrency``, ``test_crash`` and ``bench/bench_store.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time

from fightlog.events import store as store_module
from fightlog.events.model import FORMAT_VERSION, AnyEvent, DeclarationPosted, SceneStarted
from fightlog.events.store import FileStore

SIZES = (1, 1, 1, 2, 5, 50)


def _slow_write_all(fd: int, data: bytes) -> None:
    for start in range(0, len(data), 4096):
        os.write(fd, data[start : start + 4096])
        time.sleep(0.0005)


def batch(rng: random.Random, writer: str, number: int, size: int) -> list[AnyEvent]:
    return [
        DeclarationPosted(actor="alice", text=f"{writer}:{number}:{j} " + "x" * rng.choice((0, 10, 2000)))
        for j in range(size)
    ]


def main(argv: list[str]) -> int:
    log, acks_path, writer, count, seed = argv[:5]
    flags = argv[5:]
    if "slow" in flags:
        store_module._write_all = _slow_write_all  # type: ignore[attr-defined]
    rng = random.Random(int(seed))
    store = FileStore(log, fsync="nofsync" not in flags)
    with open(acks_path, "a", buffering=1) as acks:
        for number in range(int(count)):
            events = batch(rng, writer, number, rng.choice(SIZES))
            if number == 0 and not os.path.exists(log):
                events = [SceneStarted(scene="crash", ruleset="roe7", format=FORMAT_VERSION), *events]
            sealed = store.append(events)
            acks.write("".join(f"{e.seq}\t{getattr(e, 'text', '').split(' ')[0]}\n" for e in sealed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
