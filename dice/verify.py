"""Checking the rolls of a log: streaming, one event at a time.

``RollVerifier`` is fed every ``(line, event)`` of a log in order and returns its findings at
``finish()``. What it checks:

* the seed (given by the caller, or revealed in ``scene_started.dice.seed`` for an open
  scene, or in ``scene_ended.seed``) against the scene's commitment; a seed that does not
  match is named, and the next candidate is tried;
* every engine roll: its ``index`` runs 0, 1, 2... in log order; with a matching seed its
  faces, kept/dropped marks, rerolls, explosions, labels and total are recomputed from
  (seed, scene, salts recorded before it, index) and any difference is named;
* every external roll, and every engine roll when no seed is available: faces within
  ``1..sides``, the dice fit the notation, and the total equals the kept faces combined per
  the notation plus the modifiers. Their honesty cannot be checked: ``summary`` counts them.

Where the seed comes from decides what memory the check takes. A seed given, or revealed
in ``scene_started`` (an open scene), is known before the first roll, and each roll is
recomputed as it passes. A seed revealed only in ``scene_ended``, at the end, is either
known from a ``hint`` (the seed the log's last lines reveal, read first: ``fightlog.events.
tail``; it is adopted only if it matches the commitment, and confirmed when the stream
reaches it), or else engine rolls are held until ``finish`` (``hold=True``, the default:
memory grows with the number of engine rolls) or checked at once for their arithmetic with
``redo`` set when a seed turns up at the end (``hold=False``: memory stays flat, and the
caller reads the log again with the seed it found as the hint).
"""

from __future__ import annotations

from dataclasses import dataclass

from fightlog.errors import DiceError
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DiceCommitment,
    DiceRolled,
    SceneEnded,
    SceneStarted,
)
from fightlog.dice.roll_events import read_roll
from fightlog.dice.expression import compile_expression
from fightlog.dice.external import check_event
from fightlog.dice.fair import INDEXES, SCHEME, commitment, seed_bytes
from fightlog.dice.recompute import Recomputer
from fightlog.dice.roll_report import (
    RollFinding,
    RollSummary,
    SeedSource,
    dice_difference,
    plural_of,
    roll_name,
)

__all__ = ["RollFinding", "RollSummary", "RollVerifier", "SeedSource"]

@dataclass(frozen=True, slots=True)
class _Held:
    line: int
    event: DiceRolled
    salts: tuple[str, ...]
    index: int


class RollVerifier:
    """Streaming verifier of a log's rolls: ``feed`` every event in order, then ``finish``.

    ``seed`` (hex) overrides the seeds the log reveals; it is still checked against the
    commitment. A seed that is not hex raises ``DiceSeedError`` at once.
    """

    def __init__(self, seed: str | None = None, *, hint: str | None = None, hold: bool = True) -> None:
        self._given: bytes | None = None if seed is None else seed_bytes(seed, what="--seed")
        self._hint = hint
        self._hold = hold
        self._hinted = False
        self.redo = False
        """After ``finish``: the checks made while streaming did not use the seed the log
        turned out to reveal; read the log again with ``hint=revealed``."""
        self._recompute: Recomputer | None = None
        self._scene = ""
        self._commit: DiceCommitment | None = None
        self._commit_line = 0
        self._open: tuple[str, int] | None = None
        self._revealed: tuple[str, int] | None = None
        self._ended_line = 0
        self._salts: tuple[str, ...] = ()
        self._max_index = -1
        self._engine = 0
        self._recomputed = 0
        self._external = 0
        self._partial = 0
        self._held: list[_Held] = []
        self._seed: bytes | None = None
        self._source: SeedSource = "missing"
        self._tried: set[SeedSource] = set()
        self._findings: list[RollFinding] = []
        self._summary: RollSummary | None = None

    # ------------------------------------------------------------------ streaming

    def feed(self, line: int, event: AnyEvent) -> None:
        """Take the next event of the log (``line`` is its 1-based line number)."""
        kind = type(event)
        if kind is DiceRolled:
            self._roll(line, event)  # type: ignore[arg-type]
        elif kind is CombatantJoined:
            salt = event.salt  # type: ignore[union-attr]
            if salt is not None:
                self._salts = (*self._salts, salt)
        elif isinstance(event, SceneStarted):
            self._scene = event.scene
            self._commit = event.dice
            self._commit_line = line
            if event.dice is not None and event.dice.seed is not None:
                self._open = (event.dice.seed, line)
            if self._given is not None or self._open is not None:
                self._choose_seed()
            if self._seed is None and self._hint is not None:
                self._adopt_hint()
        elif isinstance(event, SceneEnded):
            self._ended_line = line
            if event.seed is not None:
                self._revealed = (event.seed, line)

    def finish(self) -> list[RollFinding]:
        """Check what was held for the seed and return every finding, by line."""
        if self._hinted:
            if self.revealed != self._hint:
                self.redo = True  # the log's end said otherwise than the stream
                return []
            self._tried.add("revealed")
        if self._seed is None:
            self._choose_seed()
            if self._seed is not None and not self._hold and self._engine:
                self.redo = True  # a seed revealed where the hint did not look
                return []
        for held in self._held:
            self._check_engine(held.line, held.event, held.salts, held.index)
        self._held.clear()
        if self._engine and self._commit is None:
            self._finding(
                self._commit_line or 1,
                "dice-no-commitment",
                f"{plural_of(self._engine, 'engine roll')} but scene_started carries no dice "
                "commitment, so the seed could have been chosen after the fact",
            )
        if self._engine and self._source == "missing" and self._ended_line:
            self._finding(
                self._ended_line,
                "dice-seed-not-revealed",
                "the scene ended without revealing its dice seed (scene_ended.seed), so its "
                "engine rolls cannot be recomputed",
            )
        self._findings.sort(key=lambda f: f.line)
        self._summary = RollSummary(
            engine=self._engine,
            recomputed=self._recomputed,
            external=self._external,
            partial=self._partial,
            seed=self._source,
            findings=len(self._findings),
        )
        return list(self._findings)

    @property
    def revealed(self) -> str | None:
        """The seed ``scene_ended`` revealed, as written (``None``: none yet)."""
        return None if self._revealed is None else self._revealed[0]

    @property
    def summary(self) -> RollSummary:
        """The counts behind the findings (after ``finish``)."""
        if self._summary is None:
            raise RuntimeError("call finish() first")
        return self._summary

    # ------------------------------------------------------------------ seed

    def _choose_seed(self) -> None:
        """Use the first seed candidate (given, open, revealed) that matches the commitment,
        naming each candidate that does not; each candidate is tried once."""
        commit = self._commit
        if commit is not None and commit.scheme != SCHEME:
            if self._source != "unsupported":
                self._source = "unsupported"
                self._finding(
                    self._commit_line,
                    "dice-scheme-unknown",
                    f"the dice scheme {commit.scheme!r} is not {SCHEME!r}: engine rolls "
                    "cannot be recomputed",
                )
            return
        candidates: list[tuple[SeedSource, str | bytes | None, int, str]] = [
            ("given", self._given, self._commit_line, "the seed given"),
            ("open", *(self._open or (None, 0)), "the seed revealed in scene_started"),
            ("revealed", *(self._revealed or (None, 0)), "the seed revealed in scene_ended"),
        ]
        for source, seed, line, what in candidates:
            if seed is None or source in self._tried:
                continue
            self._tried.add(source)
            try:
                raw = seed if isinstance(seed, bytes) else seed_bytes(seed, what=what)
            except DiceError as exc:
                self._finding(line, "dice-seed-invalid", str(exc))
                continue
            if commit is not None and commitment(raw) != commit.commitment:
                self._finding(
                    line,
                    "dice-seed-mismatch",
                    f"{what} does not match the commitment of line {self._commit_line} "
                    f"(sha256 of the seed is {commitment(raw)[:12]}..., committed "
                    f"{commit.commitment[:12]}...): the seed was changed",
                )
                continue
            self._seed = raw
            self._source = source
            return
        self._source = "rejected" if self._tried else "missing"

    def _adopt_hint(self) -> None:
        """Use the hint as the revealed seed from the start, if it matches the commitment, or
        if there is none (``_choose_seed`` takes a revealed seed then too, and the finding
        ``dice-no-commitment`` says what that is worth); ``finish`` confirms that the log does
        reveal it."""
        commit, hint = self._commit, self._hint
        if (commit is not None and commit.scheme != SCHEME) or hint is None:
            return
        try:
            raw = seed_bytes(hint)
        except DiceError:
            return
        if commit is None or commitment(raw) == commit.commitment:
            self._seed, self._source, self._hinted = raw, "revealed", True

    # ------------------------------------------------------------------ rolls

    def _roll(self, line: int, event: DiceRolled) -> None:
        if event.generator == "external":
            self._external += 1
            if event.unread:  # read in part from a bot's reply: its notation alone is judged
                self._partial += 1
            for found in check_event(event, roll_name(event)):  # re-evaluated under its dialect
                self._finding(line, found.code, found.message, event.seq)
            return
        self._engine += 1
        expected = self._max_index + 1
        index = event.index
        if index is None:
            self._finding(line, "roll-index", f"{roll_name(event)}: an engine roll without an index",
                          event.seq)
            index = expected
        elif not 0 <= index < INDEXES:
            self._finding(line, "roll-index", f"{roll_name(event)}: index {index} is no roll index (0 to 2**64 - 1): "
                          "no seed gives its dice", event.seq)
            self._check_arithmetic(line, event, roll_name(event))  # its faces and total, as without a seed
            return
        elif index != expected:
            if index <= self._max_index:
                what = f"comes after roll #{self._max_index} (repeated or out of order)"
            else:
                skipped = (
                    f"#{expected}" if index == expected + 1 else f"#{expected}..#{index - 1}"
                )
                what = f"expected #{expected}: roll {skipped} is missing (re-rolled?)"
            self._finding(line, "roll-index", f"{roll_name(event)}: index {index} {what}", event.seq)
        if index > self._max_index:
            self._max_index = index
        if self._seed is not None or not self._hold:
            self._check_engine(line, event, self._salts, index)
        else:
            self._held.append(_Held(line, event, self._salts, index))

    def _check_engine(self, line: int, event: DiceRolled, salts: tuple[str, ...], index: int) -> None:
        seed = self._seed
        if seed is None:
            self._check_arithmetic(line, event, roll_name(event))
            return
        self._recomputed += 1
        recompute = self._recompute
        if recompute is None or recompute.seed is not seed:
            recompute = self._recompute = Recomputer(seed, self._scene)
        try:
            value, dice = recompute.rolled(event.notation, salts, index, event.dialect)
        except DiceError as exc:
            self._finding(line, "roll-notation", f"{roll_name(event)}: the notation is refused: {exc}",
                          event.seq)
            return
        forged = False
        if dice != event.dice:
            diff = dice_difference(event.dice, dice)
            if diff:
                forged = True
                self._finding(line, "roll-dice", f"{roll_name(event)}: {diff}", event.seq)
        total = value
        for modifier in event.modifiers:
            total += modifier.value
        if event.total != total and not (forged and _adds_up(event)):  # a total that follows from the faces named
            self._finding(
                line,
                "roll-total",
                f"{roll_name(event)}: total {event.total} recorded, seed and modifiers give {total}",
                event.seq,
            )

    def _check_arithmetic(self, line: int, event: DiceRolled, name: str) -> None:
        for i, die in enumerate(event.dice):  # dice[i], as `rule amend SEQ --set dice[i].face=N` names it
            bad = [f for f in (*die.rerolled, die.face) if not 1 <= f <= die.sides]
            if bad:
                self._finding(
                    line,
                    "roll-range",
                    f"{name}: dice[{i}] shows {bad[0]} on a d{die.sides}, which has faces 1 to {die.sides}",
                    event.seq,
                )
                return
        try:
            compile_expression(event.notation)
        except DiceError as exc:
            self._finding(line, "roll-notation", f"{name}: the notation is refused: {exc}",
                          event.seq)
            return
        try:
            result = read_roll(event)
        except DiceError as exc:
            self._finding(line, "roll-dice", f"{name}: the dice do not fit the notation: {exc}",
                          event.seq)
            return
        if result.total != event.total:
            self._finding(
                line,
                "roll-total",
                f"{name}: total {event.total} recorded, dice and modifiers give {result.total}",
                event.seq,
            )

    def _finding(self, line: int, code: str, message: str, seq: int | None = None) -> None:
        self._findings.append(RollFinding(line, line if seq is None else seq, code, message))


def _adds_up(event: DiceRolled) -> bool:
    """Whether ``event``'s recorded total is its recorded faces and modifiers combined (then a
    total other than the seed's follows from faces other than the seed's, already named)."""
    try:
        return read_roll(event).total == event.total
    except DiceError:
        return False
