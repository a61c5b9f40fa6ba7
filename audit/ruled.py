"""The dice as ruled: a GM's amendment of a roll is checked like the roll itself.

The dice checks (``fightlog.audit.dice_checks``) read every roll as recorded, as ``fightlog verify
--dice`` does: what the generator produced. A ruling that amends a roll changes what the
rules read, so the audit also runs the same checks on the rolls as ruled (every ``amend`` in
force applied; a void leaves the roll as recorded, since voiding a roll undoes it rather than
changing its dice) and reports each finding the rolls as recorded did not give as
``dice.ruled``, naming the ruling: an engine roll amended to faces its seed does not give (a
forged roll made through a ruling), a face off its die, a total that does not add up.
``fightlog rule`` refuses the last two before they are written; the audit still names them
in a log written otherwise.

``RuledRolls`` watches the fold's input for events a ruling amends; only when one is a kind
the dice checks read are the checks run again (``findings``), over the log's dice events.

``ForeseenRolls`` looks for engine rolls after a ``scene_ended`` that revealed a seed kept
secret until then, whether that end stands or a void undid it (``fightlog rule`` refuses
that void and ``fightlog play`` neither rolls after an end nor plays on after such a void,
but an older fightlog or a hand edit may have written either).
Such a roll was drawn from a seed anyone holding the log could read: the first is
``dice.foreseeable``, counting the rest. An open scene's seed was public from its start, as
its players agreed; an end that revealed no seed unseals nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from msgspec.structs import replace

from fightlog.audit.dice_checks import FED, DiceAudit, DiceFinding
from fightlog.errors import FoldError
from fightlog.events.model import AnyEvent, DiceRolled, RulingMade, SceneEnded, SceneStarted
from fightlog.events.seals import opened, seals_the_dice
from fightlog.reducers.fold import Plan, apply_ruling

CODE = "dice.ruled"
FORESEEABLE = "dice.foreseeable"
_INFO = frozenset({"dice.unverifiable", "dice.partial"})
"""Dice findings that are no problem: a count of external rolls changes when a ruling mends a
roll's faces, and is not a finding of the roll as ruled."""


class Verdict(NamedTuple):
    """The dice as ruled: what the checks find there and not as recorded (``dice.ruled``),
    and the findings of the rolls as recorded that the amendments settled (``(code, seq)``:
    the roll as ruled gives no finding of that code; one worded otherwise, as a ruling that
    changed only a roll's purpose words it, is the same problem, neither settled nor new)."""

    findings: list[DiceFinding]
    settled: frozenset[tuple[str, int]]


class RuledRolls:
    """The amendments in ``plan`` to events the dice checks read."""

    def __init__(self, plan: Plan) -> None:
        self.amends: dict[int, RulingMade] = {seq: r for seq, r in plan.items() if r.action == "amend"}
        self.found: list[int] = []
        """The ``seq`` of every event watched that the dice checks read and a ruling amends."""
        self.refs: dict[int, str] = {}
        """Where each amended event came from, as recorded (``origin.ref``: a transcript's
        line): the event as ruled comes from the ruling, and a finding on it still cites its line."""

    def watch(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """``events`` passed on, noting the amended ones the dice checks read, and where each
        amended event came from."""
        amends, found = self.amends, self.found
        for event in events:
            if event.seq in amends:
                if type(event) in FED:
                    found.append(event.seq)
                origin = event.origin
                if origin is not None and origin.ref is not None:
                    self.refs[event.seq] = origin.ref
            yield event

    def findings(
        self, again: Callable[[], Iterable[AnyEvent]], seed: str | None, recorded: Sequence[DiceFinding]
    ) -> Verdict:
        """The dice findings of the log as ruled (its dice events read ``again``, as
        recorded) that it does not give as recorded (``recorded``), as ``dice.ruled``; and
        the findings of amended rolls as recorded that it does not give as ruled (settled)."""
        if not self.found:
            return Verdict([], frozenset())
        amends = self.amends
        audit = DiceAudit(seed)
        for event in again():
            ruling = amends.get(event.seq)
            if ruling is not None:
                try:
                    event = apply_ruling(event, ruling) or event
                except FoldError:
                    pass  # the fold names it
                if type(event) is DiceRolled and event.unread and {"dice", "total"} & ruling.changes.keys() \
                        and "unread" not in ruling.changes:
                    event = replace(event, unread=None)  # the GM gave what the reader missed: judged whole
            audit.feed(event)
        known = {(f.code, f.seq) for f in recorded if f.code not in _INFO}
        first = amends[self.found[0]].seq
        out: list[DiceFinding] = []
        ruled = [f for f in audit.finish() if f.code not in _INFO]
        given = {(f.code, f.seq) for f in ruled}
        settled = frozenset(key for key in known if key[1] in amends and key not in given)
        for found in ruled:
            if (found.code, found.seq) in known:
                continue
            by = amends[found.seq].seq if found.seq in amends else first
            message = found.message.replace(" recorded, ", " ruled, ")
            out.append(DiceFinding(CODE, found.seq, f"as amended by the ruling at seq {by}: {message}", found.actor))
        return Verdict(out, settled)


class ForeseenRolls:
    """The engine rolls drawn after the scene's end revealed their seed (see the module
    docstring): after an end a void undid (``watch``, over the log as recorded, when the
    plan voids anything) or one that stands (``ended`` and ``rolled``, the fold's hooks)."""

    def __init__(self, plan: Plan) -> None:
        self.voids: dict[int, RulingMade] = {seq: r for seq, r in plan.items() if r.action == "void"}
        self.opened = False
        """The scene's seed was public from its start (an open scene)."""
        self.end: SceneEnded | None = None
        """The end that revealed the seed."""
        self.first: DiceRolled | None = None
        """The first engine roll drawn after it."""
        self.more = 0
        """How many engine rolls came after ``first``."""

    def watch(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """``events`` passed on (as recorded), noting a voided end and the rolls after it."""
        voids = self.voids
        for event in events:
            kind = type(event)
            if kind is DiceRolled:
                if self.end is not None and self.end.seq in voids and event.seq not in voids:
                    self.rolled(event)  # type: ignore[arg-type]
            elif kind is SceneStarted:
                self.started(event)  # type: ignore[arg-type]
            elif kind is SceneEnded and event.seq in voids:
                self.ended(event)  # type: ignore[arg-type]
            yield event

    def started(self, event: SceneStarted) -> None:
        """The scene starts (a log holds one): its seed secret, or open."""
        self.opened = opened(event)

    def ended(self, event: SceneEnded) -> bool:
        """Note ``event`` if it is the first end to reveal a seed kept secret until then;
        whether it did (the caller then passes on the rolls after it, ``rolled``)."""
        if self.end is None and seals_the_dice(event, self.opened):
            self.end = event
            return True
        return False

    @property
    def standing(self) -> bool:
        """The end that revealed the seed stands (the fold's hooks pass on the rolls after it)."""
        return self.end is not None and self.end.seq not in self.voids

    def rolled(self, event: DiceRolled) -> None:
        if event.generator == "engine" and self.end is not None and event.seq > self.end.seq:
            if self.first is None:
                self.first = event
            else:
                self.more += 1

    def findings(self) -> list[DiceFinding]:
        """``dice.foreseeable`` at the first engine roll after the end, or nothing."""
        first, end = self.first, self.end
        if first is None or end is None:
            return []
        ruling = self.voids.get(end.seq)
        voided = f", and the ruling at seq {ruling.seq} voided that end" if ruling is not None else ""
        rest = f"; so could the {self.more} engine roll{'s' if self.more != 1 else ''} after it" if self.more else ""
        message = (f"{first.roller}'s roll came after the scene's end at seq {end.seq} revealed the dice seed"
                   f"{voided}: anyone holding the log could foresee it{rest}")
        return [DiceFinding(FORESEEABLE, first.seq, message, first.roller)]
