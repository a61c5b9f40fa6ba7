"""``fightlog verify --dice``'s dice check of a log file, beside its chain check.

The dice check (``RollVerifier``) streams: it takes the seed the log's last lines reveal as
a hint (``fightlog.events.tail``), recomputes each engine roll as it passes, holds none, and
asks for a second read only when the log turns out to reveal another seed. A large log's
chain is checked on every core (``events/ranges.py``); its dice are then checked in a forked
process at the same time, reading the lines with decoding only (in full only the kinds it
reads). The dice verdict counts only
for an intact log, so that read needs no chain check of its own: past a line that does not
decode, the chain check has the verdict.
"""

from __future__ import annotations


from fightlog.events.codec import link_decoder
from fightlog.events.forked import ChildLost, Forked, worth_forking
from fightlog.events.model import CombatantJoined, DiceRolled, SceneEnded, SceneStarted
from fightlog.events.integrity import PARALLEL_MIN_BYTES, EventCheck, PublishedHead, VerifyResult, verify_log
from fightlog.events.reader import open_log, raw_lines
from fightlog.events.tail import revealed_seed
from fightlog.dice.verify import RollFinding, RollSummary, RollVerifier


class DiceVerdict:
    """What the dice check found: its findings, by line, and the counts behind them."""

    def __init__(self, findings: list[RollFinding], summary: RollSummary) -> None:
        self.findings = findings
        self.summary = summary


def verify_with_dice(
    log: str,
    *,
    seed: str | None,
    published: PublishedHead | None = None,
    parallel_min_bytes: int = PARALLEL_MIN_BYTES,
) -> tuple[VerifyResult, DiceVerdict | None]:
    """Check ``log``'s chain and its rolls; the dice verdict is ``None`` unless the log is
    intact. ``seed`` (hex) overrides the seeds the log reveals."""
    RollVerifier(seed)  # a seed that is not hex is refused before anything is read
    hint = revealed_seed(log)
    if published is None and worth_forking(log, parallel_min_bytes):
        return _beside(log, seed, hint, parallel_min_bytes)
    verifier = RollVerifier(seed, hint=hint, hold=False)
    checks: tuple[EventCheck, ...] = (verifier.feed,)
    result = verify_log(log, published=published, checks=checks)
    if not result.ok:
        return result, None
    findings = verifier.finish()
    if verifier.redo:  # the log revealed another seed than its end said: read it again
        return result, dice_pass(log, seed, verifier.revealed)
    return result, DiceVerdict(findings, verifier.summary)


def dice_pass(log: str, seed: str | None, hint: str | None) -> DiceVerdict:
    """The dice of ``log`` checked on their own, decoding its lines (no chain check)."""
    verifier = _fed(log, RollVerifier(seed, hint=hint, hold=False))
    findings = verifier.finish()
    if verifier.redo:
        verifier = _fed(log, RollVerifier(seed, hint=verifier.revealed, hold=False))
        findings = verifier.finish()
    return DiceVerdict(findings, verifier.summary)


_READ = frozenset((DiceRolled, CombatantJoined, SceneStarted, SceneEnded))
"""The kinds the dice check reads (``RollVerifier.feed``); the others are decoded as their
``seq`` and ``prev`` only (``link_decoder``), which costs a third of a full decode."""


def _fed(log: str, verifier: RollVerifier) -> RollVerifier:
    feed = verifier.feed
    decode = link_decoder(_READ).decode
    with open_log(log) as stream:
        for line, raw in enumerate(raw_lines(stream), 1):
            try:
                event = decode(raw)
            except Exception:
                break  # the chain check names it, and then the dice do not count
            feed(line, event)
    return verifier


def _beside(log: str, seed: str | None, hint: str | None, parallel_min_bytes: int) -> tuple[VerifyResult, DiceVerdict | None]:
    """The chain checked here (on every core) while a forked child checks the dice; the
    child is stopped at once when the chain is broken (its verdict would not count)."""
    child = Forked(dice_pass, log, seed, hint)
    try:
        result = verify_log(log, parallel_min_bytes=parallel_min_bytes)
        if not result.ok:
            return result, None
        try:
            return result, child.result()
        except ChildLost:
            return result, dice_pass(log, seed, hint)  # the child was killed: check here
    finally:
        child.kill()
