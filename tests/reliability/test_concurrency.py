"""Sixteen processes appending to one log at once: every acknowledged event is in the log
exactly once, where its appender was told it is, and the chain is intact."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from fightlog.events.integrity import verify_log
from tests.reliability.common import acknowledged, appender, ids_in, start_log

WRITERS = 16
APPENDS = 200


@pytest.mark.slow
def test_sixteen_appenders_lose_nothing_and_keep_the_chain(tmp_path: Path) -> None:
    log = tmp_path / "shared.jsonl"
    start_log(log)
    children = [
        appender(log, tmp_path / f"acks-{n}", f"w{n}", APPENDS, n, "nofsync") for n in range(WRITERS)
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err.decode()
    result = verify_log(log)
    assert result.ok, result.problem
    in_log = ids_in(log.read_bytes())
    acked: dict[int, str] = {}
    for n in range(WRITERS):
        mine = acknowledged(tmp_path / f"acks-{n}")
        assert len({ident.split(":")[1] for ident in mine.values()}) == APPENDS  # every append acknowledged
        assert not acked.keys() & mine.keys()  # no seq given to two appenders
        acked.update(mine)
    assert acked == {seq: ident for seq, ident in in_log.items() if seq > 1}
    assert not [ident for ident, n in Counter(in_log.values()).items() if n > 1 and ident]
    assert result.events == len(acked) + 1
