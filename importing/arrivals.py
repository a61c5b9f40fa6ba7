"""Combatants who enter an imported fight in progress (a cast entry's ``arrives``).

A reinforcement answering a com call, a passer-by who heard the gunfire: they are not in
the posting order when the fight starts. The cast gives the round of the log they enter
(``arrives = 3``) and their place in ``order``; the import writes their ``combatant_joined``
(``arrival``, ``after`` the one before them in ``order`` who is in the fight by then) as the
round before it closes, so the fold slots them in from that round on (``arrival_delay``: one
round, in every ruleset fightlog has), and the builder expects their posts from then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from fightlog.errors import InputError
from fightlog.events.model import AnyEvent, CombatantJoined

if TYPE_CHECKING:
    from fightlog.importing.cast import Cast


def slots(cast: Cast) -> dict[str, tuple[int, str]]:
    """Each arrival's round and the combatant whose slot they follow: the nearest before
    them in the posting order who is in the fight by that round. An arrival with nobody
    before them is refused (a slot is claimed after someone: move them down ``order``)."""
    order = cast.order
    rounds = {entry.id: entry.arrives for entry in cast.file.combatants}
    found: dict[str, tuple[int, str]] = {}
    for index, entry in enumerate(cast.file.combatants):
        arrives = entry.arrives
        if arrives is None:
            continue
        where = cast._line(("combatants", index, "arrives"))
        if entry.id not in order:
            raise InputError(f"combatants[{index}].arrives: {entry.id} arrives in round {arrives} but is not in "
                             "`order`: give their slot there", path=cast.path, line=where)
        at = order.index(entry.id)
        after = next((a for a in reversed(order[:at]) if (rounds[a] or 0) <= arrives), None)
        if after is None:
            raise InputError(
                f"combatants[{index}].arrives: {entry.id} arrives in round {arrives} but nobody before them in "
                "the posting order is in the fight by then: an arrival takes the slot after someone (move them "
                "down `order`)", path=cast.path, line=where,
            )
        found[entry.id] = (arrives, after)
    return found


def held(joined: Sequence[AnyEvent], arriving: Mapping[str, tuple[int, str]], order: Sequence[str]
         ) -> tuple[list[AnyEvent], dict[int, list[CombatantJoined]]]:
    """``joined`` split: those in the fight from the start, and the arrivals' joins by the
    round they enter, each marked ``arrival`` and ``after`` its slot, in posting ``order``
    (one after another arriving in the same round joins after them)."""
    now: list[AnyEvent] = []
    later: dict[int, list[CombatantJoined]] = {}
    for event in joined:
        slot = arriving.get(event.actor) if isinstance(event, CombatantJoined) else None
        if slot is None or not isinstance(event, CombatantJoined):
            now.append(event)
            continue
        later.setdefault(slot[0], []).append(replace(event, arrival=True, after=slot[1]))
    for joins in later.values():
        joins.sort(key=lambda event: order.index(event.actor))
    return now, later
