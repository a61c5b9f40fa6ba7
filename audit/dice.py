"""The audit's dice checks: ``RollVerifier`` (``fightlog verify --dice``) as findings.

Engine rolls are recomputed from the revealed (or given) seed; external rolls, and engine
rolls when no seed is available, are checked for face ranges and arithmetic. Impossible
faces are checked here for every roll, so a face of 101 on a d100 is named as impossible
whatever the seed says. External rolls are summed up as one ``dice.unverifiable`` info
finding per roller (at their first external roll): their honesty cannot be checked.

The dice are checked as recorded, before any ruling: a GM's amendment of a roll changes what
the rules see, not what the generator produced.
"""

from __future__ import annotations

from collections.abc import Iterator

from fightlog.events.model import AnyEvent, CombatantJoined, DiceRolled, SceneEnded, SceneStarted
from fightlog.rules.dice.verify import RollFinding, RollVerifier

CODE: dict[str, str] = {
    "roll-range": "dice.face",
    "roll-total": "dice.arithmetic",
    "roll-notation": "dice.notation",
    "roll-dice": "dice.seed",
    "roll-index": "dice.index",
    "dice-seed-mismatch": "dice.seed",
    "dice-seed-invalid": "dice.seed",
    "dice-no-commitment": "dice.commitment",
    "dice-seed-not-revealed": "dice.unverified",
    "dice-scheme-unknown": "dice.unverified",
}
"""``RollFinding.code`` -> the audit's code."""

_FED = (DiceRolled, CombatantJoined, SceneStarted, SceneEnded)


class DiceFinding:
    """A dice finding before it becomes a ``Finding`` (the auditor adds the rule section and
    any GM acceptance)."""

    __slots__ = ("code", "seq", "message", "actor")

    def __init__(self, code: str, seq: int, message: str, actor: str | None) -> None:
        self.code = code
        self.seq = seq
        self.message = message
        self.actor = actor


class DiceAudit:
    """Feed every event as recorded (``feed``), then ``finish``."""

    def __init__(self, seed: str | None = None) -> None:
        self.verifier = RollVerifier(seed)
        self._rollers: dict[int, str] = {}
        self._impossible: list[DiceFinding] = []
        self._external: dict[str, list[int]] = {}
        self._tools: dict[str, set[str]] = {}

    def feed(self, event: AnyEvent) -> None:
        if type(event) is DiceRolled:
            self._roll(event)
        if isinstance(event, _FED):
            self.verifier.feed(event.seq, event)

    def _roll(self, event: DiceRolled) -> None:
        self._rollers[event.seq] = event.roller
        for die in event.dice:
            for face in (*die.rerolled, die.face):
                if not 1 <= face <= die.sides:
                    kind = "an external" if event.generator == "external" else "an engine"
                    self._impossible.append(
                        DiceFinding(
                            "dice.face",
                            event.seq,
                            f"{event.roller}'s {event.purpose} roll ({event.notation}, {kind} roll) shows "
                            f"{face} on a d{die.sides}, which has faces 1 to {die.sides}",
                            event.roller,
                        )
                    )
                    return
        if event.generator == "external":
            self._external.setdefault(event.roller, []).append(event.seq)
            if event.tool:
                self._tools.setdefault(event.roller, set()).add(event.tool)

    def finish(self) -> Iterator[DiceFinding]:
        """Every dice finding (impossible faces first named, then the verifier's)."""
        impossible = {f.seq for f in self._impossible}
        yield from self._impossible
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

    def describe(self) -> str:
        """One line on what the dice check could do (after ``finish``)."""
        return self.verifier.summary.describe()

    def _converted(self, found: RollFinding) -> DiceFinding:
        return DiceFinding(CODE.get(found.code, "dice.seed"), found.seq, found.message, self._rollers.get(found.seq))
