"""What a dispute changed at the end: each combatant's standing, the winner, the round and
the audit findings, original against fork (``Dispute.ending``, ``Dispute.findings``; the
CLI's ``fightlog dispute`` shows them). See ``docs/dispute.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Final

from msgspec import Struct

from fightlog.audit.auditor import audit_events
from fightlog.audit.findings import Finding
from fightlog.events.model import AnyEvent
from fightlog.reducers.state import SceneState, pool_order


class Standing(Struct, frozen=True, kw_only=True):
    """One combatant at the end, original against fork: every pool as ``(original, fork)``
    (``None``: not there), statuses gained and lost in the fork, and whether they are in each
    fight at all."""

    actor: str
    name: str
    pools: dict[str, tuple[int | None, int | None]]
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    present: tuple[bool, bool] = (True, True)

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost or self.present[0] != self.present[1]) or any(
            a != b for a, b in self.pools.values()
        )


class Ending(Struct, frozen=True, kw_only=True):
    """The end of both fights: each combatant's standing, the winner, whether the scene
    ended, the round reached and the number of events, each as ``(original, fork)``."""

    standings: tuple[Standing, ...]
    winner: tuple[str | None, str | None]
    ended: tuple[bool, bool]
    round: tuple[int, int]
    events: tuple[int, int]


class FindingChange(Struct, frozen=True, kw_only=True):
    """An audit finding that appears in the fork (``appeared``) or disappears from it;
    ``on_change`` marks a finding on the changed fact itself (the changed engine roll is one
    the seed does not give)."""

    appeared: bool
    finding: Finding
    on_change: bool = False


def ending(before: SceneState, after: SceneState, count: int, forked: int) -> Ending:
    """The end of the original (``before``, ``count`` events) against the fork's."""
    joined = {a: c.joined for a, c in after.combatants.items()} | {a: c.joined for a, c in before.combatants.items()}
    standings = []
    for actor in sorted(joined, key=lambda a: (joined[a], a)):
        old, new = before.combatants.get(actor), after.combatants.get(actor)
        known = old or new
        assert known is not None
        old_pools = old.pools if old else {}
        new_pools = new.pools if new else {}
        pools = {p: (old_pools.get(p), new_pools.get(p)) for p in sorted(old_pools.keys() | new_pools.keys(), key=pool_order)}
        old_s, new_s = set(old.statuses if old else ()), set(new.statuses if new else ())
        standings.append(Standing(
            actor=actor,
            name=known.name,
            pools=pools,
            gained=tuple(sorted(new_s - old_s)),
            lost=tuple(sorted(old_s - new_s)),
            present=(old is not None, new is not None),
        ))
    bs, as_ = before.scene, after.scene
    return Ending(
        standings=tuple(standings),
        winner=(bs.winner if bs else None, as_.winner if as_ else None),
        ended=(bool(bs and bs.ended), bool(as_ and as_.ended)),
        round=(before.turn.round, after.turn.round),
        events=(count, forked),
    )


def finding_changes(
    original: Sequence[AnyEvent], fork: Sequence[AnyEvent], seed: str | None, changed: int | None
) -> tuple[FindingChange, ...]:
    """Findings of the fork's audit not in the original's (and the reverse), matched by
    code, actor, message and whether a ruling accepts it (not by seq: the fork's events may
    sit elsewhere)."""
    before = audit_events(list(original), seed=seed).findings
    after = audit_events(list(fork), seed=seed).findings
    left = Counter(_key(f) for f in before)
    out: list[FindingChange] = []
    for finding in after:
        if left[_key(finding)] > 0:
            left[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=True, finding=finding, on_change=finding.seq == changed))
    gone = Counter(_key(f) for f in after)
    for finding in before:
        if gone[_key(finding)] > 0:
            gone[_key(finding)] -= 1
        else:
            out.append(FindingChange(appeared=False, finding=finding))
    return tuple(out)


def _key(finding: Finding) -> tuple[str, str | None, str, bool]:
    """A finding accepted in one and counting in the other differs (an accept withdrawn)."""
    return finding.code, finding.actor, _SEQS.sub("seq N", finding.message), finding.accepted is not None


_SEQS: Final = re.compile(r"\bseqs? \d+(?:(?:, | and )\d+)*")
"""Seq numbers a message names (``first at seq 63``): the fork's may sit elsewhere, so two
findings differing only there are the same finding."""
