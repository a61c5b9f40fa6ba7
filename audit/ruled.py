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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from fightlog.audit.dice_checks import FED, DiceAudit, DiceFinding
from fightlog.errors import FoldError
from fightlog.events.model import AnyEvent, RulingMade
from fightlog.reducers.fold import Plan, apply_ruling

CODE = "dice.ruled"


class RuledRolls:
    """The amendments in ``plan`` to events the dice checks read."""

    def __init__(self, plan: Plan) -> None:
        self.amends: dict[int, RulingMade] = {seq: r for seq, r in plan.items() if r.action == "amend"}
        self.found: list[int] = []
        """The ``seq`` of every event watched that the dice checks read and a ruling amends."""

    def watch(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """``events`` passed on, noting the amended ones the dice checks read."""
        amends, found = self.amends, self.found
        for event in events:
            if event.seq in amends and type(event) in FED:
                found.append(event.seq)
            yield event

    def findings(
        self, again: Callable[[], Iterable[AnyEvent]], seed: str | None, recorded: Sequence[DiceFinding]
    ) -> list[DiceFinding]:
        """The dice findings of the log as ruled (its dice events read ``again``, as
        recorded) that it does not give as recorded (``recorded``), as ``dice.ruled``."""
        if not self.found:
            return []
        amends = self.amends
        audit = DiceAudit(seed)
        for event in again():
            ruling = amends.get(event.seq)
            if ruling is not None:
                try:
                    event = apply_ruling(event, ruling) or event
                except FoldError:
                    pass  # the fold names it
            audit.feed(event)
        known = {(f.code, f.seq, f.message) for f in recorded}
        first = amends[self.found[0]].seq
        out: list[DiceFinding] = []
        for found in audit.finish():
            if (found.code, found.seq, found.message) in known:
                continue
            by = amends[found.seq].seq if found.seq in amends else first
            message = found.message.replace(" recorded, ", " ruled, ")
            out.append(DiceFinding(CODE, found.seq, f"as amended by the ruling at seq {by}: {message}", found.actor))
        return out
