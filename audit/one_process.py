"""The audit on one process: the log read with its chain checked, folded and checked in one
pass (``fightlog.audit.one_pass``), the dice checked beside it; or a log held in memory
(``audit_events``).

Rulings are collected before the fold (a ruling made late in the fight still governs the
event it targets from the start); for a file, only the lines that mention ``ruling_made`` are
decoded for that (``read_rulings``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from fightlog.audit.dice_checks import FED, DiceAudit, DiceReport, FastDice
from fightlog.audit.one_pass import Auditor, Report
from fightlog.audit.reading import checked
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, RulingMade
from fightlog.events.reader import open_log, raw_lines
from fightlog.events.seeds import seed_hex
from fightlog.events.tail import revealed_in, revealed_seed
from fightlog.reducers.state import EMPTY, SceneState


def audit_events(events: Sequence[AnyEvent], *, seed: int | str | None = None, start: SceneState = EMPTY) -> Report:
    """Audit a log held in memory (the events in order, from ``start``); ``seed`` as
    ``audit_log`` takes it."""
    hexed = None if seed is None else seed_hex(seed)
    rulings = [e for e in events if type(e) is RulingMade]
    auditor = Auditor(rulings, seed=hexed)
    dice = FastDice(hexed, hint=revealed_in(reversed(events)))
    feed = dice.feed
    fed = FED

    def recorded() -> Iterator[AnyEvent]:
        for event in events:
            if type(event) in fed:
                feed(event)
            yield event

    auditor.fold(recorded(), start=start)
    return auditor.finish(or_exact(dice, hexed, lambda: events), again=lambda: events)


def audit_sequential(name: str, seed: str | None) -> Report:
    """Audit the log at ``name`` on this process: its rulings first, then one pass with the
    chain checked as it is read and the dice checked beside the fold."""
    auditor = Auditor(read_rulings(name), seed=seed)
    dice = FastDice(seed, hint=revealed_seed(name))
    with open_log(name) as stream:
        auditor.fold(checked(stream, name, dice.feed))
    return auditor.finish(or_exact(dice, seed, lambda: dice_events(name)), again=lambda: dice_events(name))


def read_rulings(path: str) -> list[RulingMade]:
    """The log's rulings, decoding only the lines that mention ``ruling_made`` (the full
    read that follows checks every line)."""
    found: list[RulingMade] = []
    with open_log(path) as stream:
        for raw in raw_lines(stream):
            if b'"ruling_made"' in raw:
                try:
                    event = DECODER.decode(raw)
                except Exception:
                    continue  # the checked read names it
                if type(event) is RulingMade:
                    found.append(event)
    return found


def or_exact(dice: FastDice, seed: str | None, again: Callable[[], Iterable[AnyEvent]]) -> DiceReport:
    """``dice``'s report, or when it cannot vouch for it, ``DiceAudit`` over the events again."""
    report = dice.report()
    if report is not None:
        return report
    exact = DiceAudit(seed)
    for event in again():
        exact.feed(event)
    return exact.report()


def dice_events(path: str) -> Iterator[AnyEvent]:
    """The events the dice checks read, from a log already checked."""
    with open_log(path) as stream:
        for raw in raw_lines(stream):
            event = DECODER.decode(raw)
            if type(event) in FED:
                yield event
