"""The audit's dice checks: ``RollVerifier`` (``fightlog verify --dice``) as findings.

Engine rolls are recomputed from the revealed (or given) seed; external rolls, and engine
rolls when no seed is available, are checked for face ranges and arithmetic. Impossible
faces are checked here for every roll, so a face of 101 on a d100 is named as impossible
whatever the seed says. External rolls are summed up as one ``dice.unverifiable`` info
finding per roller (at their first external roll): their honesty cannot be checked.

The dice are checked here as recorded, before any ruling: what the generator produced, as
``fightlog verify --dice`` checks it. A GM's amendment of a roll is checked again as ruled
(``fightlog.audit.ruled``, ``dice.ruled``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from msgspec import Struct

from fightlog.errors import DiceError
from fightlog.events.model import AnyEvent, CombatantJoined, DiceRolled, SceneEnded, SceneStarted
from fightlog.dice.fair import SCHEME, commitment, seed_bytes
from fightlog.dice.recompute import Recomputer
from fightlog.dice.verify import RollFinding, RollSummary, RollVerifier

CODE: dict[str, str] = {
    "roll-range": "dice.face",
    "roll-total": "dice.arithmetic",
    "roll-notation": "dice.notation",
    "roll-kept": "dice.kept",
    "roll-reroll": "dice.reroll",
    "roll-explode": "dice.reroll",
    "roll-forced": "dice.claim",
    "roll-outcome": "dice.claim",
    "roll-sum": "dice.claim",
    "roll-botches": "dice.claim",
    "roll-limit": "dice.limit",
    "roll-dice": "dice.seed",
    "roll-index": "dice.index",
    "dice-seed-mismatch": "dice.seed",
    "dice-seed-invalid": "dice.seed",
    "dice-no-commitment": "dice.commitment",
    "dice-seed-not-revealed": "dice.unverified",
    "dice-scheme-unknown": "dice.unverified",
}
"""``RollFinding.code`` -> the audit's code."""

FED: frozenset[type] = frozenset({DiceRolled, CombatantJoined, SceneStarted, SceneEnded})
"""The kinds the dice checks read; ``feed`` ignores every other event, so a caller may pass
only these."""


class DiceFinding(Struct, frozen=True, gc=False):
    """A dice finding before it becomes a ``Finding`` (the auditor adds the rule section and
    any GM acceptance); also what the audit's child finds (``fightlog.audit.recorded``),
    with ``ref``, the transcript message an imported fight's finding cites."""

    code: str
    seq: int
    message: str
    actor: str | None
    ref: str | None = None


class DiceReport(Struct, frozen=True):
    """Every dice finding (in the order ``DiceAudit.finish`` gives them) and the summary line."""

    findings: list[DiceFinding]
    summary: str


def problems(findings: list[DiceFinding]) -> int:
    """The dice findings that are problems: all but ``dice.unverifiable`` and ``dice.partial`` (info)."""
    return sum(1 for found in findings if found.code not in ("dice.unverifiable", "dice.partial"))


class DiceAudit:
    """Feed every event as recorded (``feed``), then ``finish``."""

    def __init__(self, seed: str | None = None) -> None:
        self.verifier = RollVerifier(seed)
        self._rollers: dict[int, str] = {}
        self._impossible: list[DiceFinding] = []
        self._partial: list[DiceFinding] = []
        self._external: dict[str, list[int]] = {}
        self._tools: dict[str, set[str]] = {}

    def feed(self, event: AnyEvent) -> None:
        kind = type(event)
        if kind is DiceRolled:
            self._roll(event)  # type: ignore[arg-type]
        elif kind not in FED:
            return
        self.verifier.feed(event.seq, event)

    def _roll(self, event: DiceRolled) -> None:
        self._rollers[event.seq] = event.roller
        dialect = event.dialect not in (None, "fightlog")  # faces per term (dF, d%): external.py
        partial = event.generator == "external" and bool(event.unread)
        if partial:  # what the reader missed (a hidden face) is not the roller's doing
            self._partial.append(DiceFinding(
                "dice.partial",
                event.seq,
                f"{event.roller}'s {'' if event.purpose == 'other' else event.purpose + ' '}roll ({event.notation}) "
                "was read only in part from "
                f"{event.tool or 'its bot'}'s reply ({event.unread}): its dice and total are not checked",
                event.roller,
            ))
        for at, die in enumerate(() if dialect or partial else event.dice):
            for face in (*die.rerolled, die.face):
                if not 1 <= face <= die.sides:
                    kind = "an external" if event.generator == "external" else "an engine"
                    self._impossible.append(
                        DiceFinding(
                            "dice.face",
                            event.seq,
                            f"{event.roller}'s {event.purpose} roll ({event.notation}, {kind} roll): dice[{at}] "
                            f"shows {face} on a d{die.sides}, which has faces 1 to {die.sides}",
                            event.roller,
                        )
                    )
                    return
        if event.generator == "external" and not partial:  # a partial roll is said apart (dice.partial)
            self._external.setdefault(event.roller, []).append(event.seq)
            if event.tool:
                self._tools.setdefault(event.roller, set()).add(event.tool)

    def finish(self) -> Iterator[DiceFinding]:
        """Every dice finding (impossible faces first named, then the verifier's)."""
        impossible = {f.seq for f in self._impossible}
        yield from self._impossible
        yield from self._partial
        for found in self.verifier.finish():
            if found.seq in impossible and found.code in ("roll-range", "roll-dice", "roll-total"):
                continue  # named above, more plainly
            yield self._converted(found)
        for roller in sorted(self._external, key=lambda r: self._external[r][0]):
            seqs = self._external[roller]
            tools = sorted(self._tools.get(roller, ()))
            source = f" from {', '.join(tools)}" if tools else ""
            count = f"{len(seqs)} external roll{'s' if len(seqs) != 1 else ''}"
            yield DiceFinding(
                "dice.unverifiable",
                seqs[0],
                f"{roller}'s {count}{source} (first at seq {seqs[0]}) cannot be checked for honesty, "
                "only for face ranges and arithmetic",
                roller,
            )

    def report(self) -> DiceReport:
        """``finish`` and the line on what the dice check could do, in one value (what a
        checking process sends back). The line counts the problems reported: the verifier's
        own count would include an impossible face ``finish`` names once, more plainly."""
        findings = list(self.finish())
        summary = dataclasses.replace(self.verifier.summary, findings=problems(findings))
        return DiceReport(findings=findings, summary=summary.describe())

    def _converted(self, found: RollFinding) -> DiceFinding:
        return DiceFinding(CODE.get(found.code, "dice.seed"), found.seq, found.message, self._rollers.get(found.seq))


class FastDice:
    """``DiceAudit``'s verdict, cheaper for the common case: an engine fight whose seed is
    known (given, open, or revealed at the end, ``hint``) when ``scene_started`` is read.

    ``DiceAudit`` holds every engine roll until the seed is revealed, then recomputes each
    through the general dice plan. Here each engine roll is recomputed as it comes, under
    the first candidate seed that matches the commitment (the order ``RollVerifier`` tries
    them in: given, open, then ``hint``, the seed the log's last ``scene_ended`` reveals),
    through the dice fast path, and compared with what was recorded. A roll that is in
    order and equal to its recomputation can produce no finding whatever else the log says,
    provided the verifier ends up using that same seed; every other event (and every
    external roll) goes to an inner ``DiceAudit``. ``report`` checks that proviso and returns
    the inner audit's report with the clean rolls counted in, or ``None`` when it cannot
    vouch for the result (a roll that differs or is out of order, another seed chosen, a
    second scene): the caller then runs ``DiceAudit`` over the log again. With no candidate
    seed at ``scene_started``, every event goes to the inner audit and the report is its own.
    """

    def __init__(self, seed: str | None = None, *, hint: str | None = None) -> None:
        self.inner = DiceAudit(seed)
        self._given = seed
        self._hint = hint
        self._seed: bytes | None = None
        self._scene = ""
        self._scenes = 0
        self._salts: tuple[str, ...] = ()
        self._next = 0
        self._clean = 0
        self._engine_fed = False
        self._lost = False
        self._open: str | None = None
        self._revealed: str | None = None
        self._recompute: Recomputer | None = None
        """The engine rolls recomputed under ``_seed`` (made when first needed)."""

    def feed(self, event: AnyEvent) -> None:
        kind = type(event)
        if kind is DiceRolled:
            if event.generator == "engine":  # type: ignore[union-attr]
                if self._seed is not None:
                    if not self._lost and not self._recomputes(event):  # type: ignore[arg-type]
                        self._lost = True
                    return
                self._engine_fed = True
        elif kind is CombatantJoined:
            salt = event.salt  # type: ignore[union-attr]
            if salt is not None:
                self._salts = (*self._salts, salt)
        elif kind is SceneStarted:
            self._started(event)  # type: ignore[arg-type]
        elif kind is SceneEnded:
            if event.seed is not None:  # type: ignore[union-attr]
                self._revealed = event.seed  # type: ignore[union-attr]
        else:
            return
        self.inner.feed(event)

    def report(self) -> DiceReport | None:
        """The report ``DiceAudit`` would give for the events fed, or ``None`` (see above)."""
        report = self.inner.report()
        if not self._clean:
            return None if self._lost else report
        if self._lost or self._scenes > 1:
            return None
        summary = self.inner.verifier.summary
        chosen = {"given": self._given, "open": self._open, "revealed": self._revealed}.get(summary.seed)
        if chosen is None or _seed_of(chosen) != self._seed:
            return None
        counted = RollSummary(
            engine=summary.engine + self._clean,
            recomputed=summary.recomputed + self._clean,
            external=summary.external,
            partial=summary.partial,
            seed=summary.seed,
            findings=problems(report.findings),
        )
        return DiceReport(findings=report.findings, summary=counted.describe())

    def _started(self, event: SceneStarted) -> None:
        self._scenes += 1
        self._scene = event.scene
        self._recompute = None
        dice = event.dice
        self._open = None if dice is None else dice.seed
        if self._scenes > 1:
            self._lost = self._lost or self._seed is not None
            self._seed = None
            return
        if self._engine_fed or dice is None or dice.scheme != SCHEME:
            return
        for candidate in (self._given, self._open, self._hint):
            raw = None if candidate is None else _seed_of(candidate)
            if raw is not None and commitment(raw) == dice.commitment:
                self._seed = raw
                return

    def _recomputes(self, event: DiceRolled) -> bool:
        """Whether ``event`` is the next engine roll and the seed gives exactly its dice and
        (with its modifiers) its total, as ``RollVerifier`` recomputes them
        (``dice/recompute.py``). Anything unusual (a notation refused, a roll the
        generator cannot make) is a no: the verifier then judges the whole log."""
        index = event.index
        if index != self._next:
            return False
        self._next = index + 1
        try:
            recompute = self._recompute
            if recompute is None:
                assert self._seed is not None
                recompute = self._recompute = Recomputer(self._seed, self._scene)
            total, dice = recompute.rolled(event.notation, self._salts, index, event.dialect)
            for modifier in event.modifiers:
                total += modifier.value
        except Exception:
            return False
        if total != event.total or dice != event.dice:
            return False
        self._clean += 1
        return True


def _seed_of(text: str) -> bytes | None:
    try:
        return seed_bytes(text)
    except DiceError:
        return None

