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

Engine rolls are held until the seed is known (``finish`` when it is only revealed at the
end), so memory grows with the number of engine rolls, not with the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fightlog.errors import DiceError
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DiceCommitment,
    DiceRolled,
    Die,
    SceneEnded,
    SceneStarted,
)
from fightlog.rules.dice.events import read_roll
from fightlog.rules.dice.expression import compile_expression
from fightlog.rules.dice.external import check_event
from fightlog.rules.dice.fair import SCHEME, FairGenerator, commitment, seed_bytes

SeedSource = Literal["given", "open", "revealed", "missing", "rejected", "unsupported"]


@dataclass(frozen=True, slots=True)
class RollFinding:
    """One problem with the dice of a log, pinned to a line.

    ``code`` is stable (``roll-dice``, ``roll-total``, ``roll-index``, ``roll-range``,
    ``roll-notation``, ``dice-seed-mismatch``, ``dice-seed-invalid``, ``dice-no-commitment``,
    ``dice-seed-not-revealed``, ``dice-scheme-unknown``); ``message`` is one sentence naming
    the roll; ``str()`` prefixes the line.
    """

    line: int
    seq: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class RollSummary:
    """What ``finish`` could check. ``seed`` says where the seed used came from (``given``,
    ``open``, ``revealed``) or why none was used (``missing``: not revealed and not given;
    ``rejected``: none matched the commitment; ``unsupported``: unknown scheme)."""

    engine: int
    recomputed: int
    external: int
    seed: SeedSource
    findings: int

    def describe(self) -> str:
        """One line for ``fightlog verify``."""
        where = {
            "given": "the seed given",
            "open": "the seed revealed in scene_started (open scene)",
            "revealed": "the seed revealed in scene_ended",
            "missing": "",
            "rejected": "",
            "unsupported": "",
        }[self.seed]
        parts: list[str] = []
        if self.recomputed:
            parts.append(f"{_n(self.recomputed, 'engine roll')} recomputed from {where}")
        unchecked = self.engine - self.recomputed
        if unchecked:
            why = {
                "missing": "seed not revealed yet",
                "rejected": "no seed matches the commitment",
                "unsupported": "unknown dice scheme",
            }.get(self.seed, "no seed")
            parts.append(
                f"{_n(unchecked, 'engine roll')} checked for arithmetic, ranges and order "
                f"only ({why})"
            )
        if self.external:
            parts.append(
                f"{_n(self.external, 'external roll')} checked for arithmetic and ranges "
                "(honesty unverifiable)"
            )
        if not parts:
            parts.append("no rolls")
        ok = "no problems" if not self.findings else _n(self.findings, "problem")
        return f"dice: {'; '.join(parts)}; {ok}"


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

    def __init__(self, seed: str | None = None) -> None:
        self._given: bytes | None = None if seed is None else seed_bytes(seed, what="--seed")
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
        self._held: list[_Held] = []
        self._seed: bytes | None = None
        self._source: SeedSource = "missing"
        self._tried: set[SeedSource] = set()
        self._generators: dict[tuple[str, ...], FairGenerator] = {}
        self._findings: list[RollFinding] = []
        self._summary: RollSummary | None = None

    # ------------------------------------------------------------------ streaming

    def feed(self, line: int, event: AnyEvent) -> None:
        """Take the next event of the log (``line`` is its 1-based line number)."""
        if isinstance(event, DiceRolled):
            self._roll(line, event)
        elif isinstance(event, CombatantJoined):
            if event.salt is not None:
                self._salts = (*self._salts, event.salt)
        elif isinstance(event, SceneStarted):
            self._scene = event.scene
            self._commit = event.dice
            self._commit_line = line
            if event.dice is not None and event.dice.seed is not None:
                self._open = (event.dice.seed, line)
            if self._given is not None or self._open is not None:
                self._choose_seed()
        elif isinstance(event, SceneEnded):
            self._ended_line = line
            if event.seed is not None:
                self._revealed = (event.seed, line)

    def finish(self) -> list[RollFinding]:
        """Check what was held for the seed and return every finding, by line."""
        if self._seed is None:
            self._choose_seed()
        for held in self._held:
            self._check_engine(held)
        self._held.clear()
        if self._engine and self._commit is None:
            self._finding(
                self._commit_line or 1,
                "dice-no-commitment",
                f"{_n(self._engine, 'engine roll')} but scene_started carries no dice "
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
            seed=self._source,
            findings=len(self._findings),
        )
        return list(self._findings)

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

    # ------------------------------------------------------------------ rolls

    def _roll(self, line: int, event: DiceRolled) -> None:
        if event.generator == "external":
            self._external += 1
            for found in check_event(event, _name(event)):  # re-evaluated under its dialect
                self._finding(line, found.code, found.message, event.seq)
            return
        self._engine += 1
        expected = self._max_index + 1
        index = event.index
        if index is None:
            self._finding(line, "roll-index", f"{_name(event)}: an engine roll without an index",
                          event.seq)
            index = expected
        elif index != expected:
            if index <= self._max_index:
                what = f"comes after roll #{self._max_index} (repeated or out of order)"
            else:
                skipped = (
                    f"#{expected}" if index == expected + 1 else f"#{expected}..#{index - 1}"
                )
                what = f"expected #{expected}: roll {skipped} is missing (re-rolled?)"
            self._finding(line, "roll-index", f"{_name(event)}: index {index} {what}", event.seq)
        self._max_index = max(self._max_index, index)
        held = _Held(line, event, self._salts, index)
        if self._seed is not None:
            self._check_engine(held)
        else:
            self._held.append(held)

    def _check_engine(self, held: _Held) -> None:
        event, line = held.event, held.line
        name = _name(event)
        if self._seed is None:
            self._check_arithmetic(line, event, name)
            return
        self._recomputed += 1
        try:
            expr = compile_expression(event.notation)
        except DiceError as exc:
            self._finding(line, "roll-notation", f"{name}: the notation is refused: {exc}",
                          event.seq)
            return
        gen = self._generators.get(held.salts)
        if gen is None:
            gen = FairGenerator(self._seed, self._scene, held.salts)
            self._generators[held.salts] = gen
        result = expr.roll(gen.stream(held.index), index=held.index)
        diff = _difference(event.dice, result.dice)
        if diff:
            self._finding(line, "roll-dice", f"{name}: {diff}", event.seq)
        total = result.value + sum(m.value for m in event.modifiers)
        if event.total != total:
            self._finding(
                line,
                "roll-total",
                f"{name}: total {event.total} recorded, seed and modifiers give {total}",
                event.seq,
            )

    def _check_arithmetic(self, line: int, event: DiceRolled, name: str) -> None:
        for i, die in enumerate(event.dice, 1):
            bad = [f for f in (*die.rerolled, die.face) if not 1 <= f <= die.sides]
            if bad:
                self._finding(
                    line,
                    "roll-range",
                    f"{name}: die {i} shows {bad[0]}, outside 1..{die.sides} of a d{die.sides}",
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


def _name(event: DiceRolled) -> str:
    """How a finding names a roll: ``roll #3 by bob (1d100)``."""
    if event.generator == "external":
        who = "external roll"
    elif event.index is None:
        who = "engine roll"
    else:
        who = f"roll #{event.index}"
    return f"{who} by {event.roller} ({event.notation})"


def _difference(recorded: list[Die], expected: list[Die]) -> str | None:
    """The first difference between recorded and recomputed dice, in words (None if same)."""
    diffs: list[str] = []
    single = len(recorded) == len(expected) == 1
    for i, (r, e) in enumerate(zip(recorded, expected), 1):
        where = "" if single else f"die {i}: "
        if r.sides != e.sides:
            diffs.append(f"{where}a d{r.sides} recorded, the notation rolls a d{e.sides}")
        elif r.face != e.face:
            diffs.append(f"{where}face {r.face} recorded, seed gives {e.face}")
        elif r.rerolled != e.rerolled:
            diffs.append(
                f"{where}rerolled from {r.rerolled or 'nothing'} recorded, seed gives "
                f"{e.rerolled or 'no reroll'}"
            )
        elif r.kept != e.kept:
            diffs.append(
                f"{where}{'kept' if r.kept else 'dropped'} recorded, the notation "
                f"{'keeps' if e.kept else 'drops'} it"
            )
        elif r.exploded != e.exploded:
            diffs.append(
                f"{where}{'' if r.exploded else 'not '}exploded recorded, seed gives "
                f"{'an exploded die' if e.exploded else 'a rolled die'}"
            )
        elif r.label != e.label:
            diffs.append(f"{where}label {r.label!r} recorded, the notation gives {e.label!r}")
    if len(recorded) != len(expected):
        diffs.append(f"{len(recorded)} {'die' if len(recorded) == 1 else 'dice'} recorded, seed gives {len(expected)}")
    if not diffs:
        return None
    more = len(diffs) - 1
    return diffs[0] + (f" (and {_n(more, 'more difference')})" if more else "")


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
