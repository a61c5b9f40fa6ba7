"""What checking a log's rolls reports: each problem (``RollFinding``), the counts behind
them (``RollSummary``), and how a finding names a roll and a difference of dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fightlog.events.model import DiceRolled, Die

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
    partial: int = 0
    """External rolls read only in part from a bot's reply (``DiceRolled.unread``): not checked."""

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
            parts.append(f"{plural_of(self.recomputed, 'engine roll')} recomputed from {where}")
        unchecked = self.engine - self.recomputed
        if unchecked:
            why = {
                "missing": "seed not revealed yet",
                "rejected": "no seed matches the commitment",
                "unsupported": "unknown dice scheme",
            }.get(self.seed, "no seed")
            parts.append(
                f"{plural_of(unchecked, 'engine roll')} checked for arithmetic, ranges and order "
                f"only ({why})"
            )
        checked = self.external - self.partial
        if checked:
            parts.append(
                f"{plural_of(checked, 'external roll')} checked for arithmetic and ranges "
                "(honesty unverifiable)"
            )
        if self.partial:
            parts.append(f"{plural_of(self.partial, 'external roll')} read only in part from a bot's reply, not checked")
        if not parts:
            parts.append("no rolls")
        ok = "no problems" if not self.findings else plural_of(self.findings, "problem")
        return f"dice: {'; '.join(parts)}; {ok}"


def roll_name(event: DiceRolled) -> str:
    """How a finding names a roll: ``roll #3 by bob (1d100)``."""
    if event.generator == "external":
        who = "external roll"
    elif event.index is None:
        who = "engine roll"
    else:
        who = f"roll #{event.index}"
    return f"{who} by {event.roller} ({event.notation})"


def dice_difference(recorded: list[Die], expected: list[Die]) -> str | None:
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
    return diffs[0] + (f" (and {plural_of(more, 'more difference')})" if more else "")


def plural_of(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
