"""Reactions a hand-kept Traveller log makes without the table's marks (Reaction: each
costs DM-1 on the reactor's next set of actions).

The table marks each reaction with a ``reacted`` effect, which the attack DMs read
(``Fighter.check_mods``). A log kept by hand writes the reaction post and not the mark: its
reactor's next shot carried the DM-1 and was a false ``rules.attack-dm``, and one without it
passed. ``UnmarkedReactions`` keeps the reaction posts of a log that writes no mark, owed
until the reactor's next turn ends (a turn a dive lost does not pay them under
``reaction_dm_on = "next_actions"``), and gives the DMs they cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from fightlog.events.model import DeclarationPosted, EffectApplied, TurnEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.fighters import Mods
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.fighters import REACTED, options_of
from fightlog.rules.traveller.ruleset import REACTIONS


class UnmarkedReactions:
    """The reaction posts a log without ``reacted`` marks owes DMs for (see the module
    docstring); none once the log is seen to write the marks."""

    def __init__(self) -> None:
        self.marked = False
        self._owed: dict[str, list[int]] = {}
        """Reactor -> the ``seq`` of each reaction post of theirs not paid yet."""

    def checks(self) -> Mapping[type, Check]:
        return {DeclarationPosted: cast(Check, self.posted), EffectApplied: cast(Check, self.applied),
                TurnEnded: cast(Check, self.turn_ended)}

    def posted(self, before: SceneState, event: DeclarationPosted, after: SceneState, view: AuditView) -> None:
        if event.responds_to is not None and any(a.type in REACTIONS and a.type != "take" for a in event.actions):
            self._owed.setdefault(event.actor, []).append(event.seq)

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if event.name == REACTED:
            self.marked = True
            self._owed.clear()

    def turn_ended(self, before: SceneState, event: TurnEnded, after: SceneState, view: AuditView) -> None:
        owed = self._owed.get(event.actor)
        if not owed:
            return
        who = before.combatants.get(event.actor)
        if who is not None and "dived" in who.statuses and options_of(before).reaction_dm_on == "next_actions":
            return  # a turn the dive lost: no actions made, the DMs wait for the next
        started = before.turn.started
        left = [seq for seq in owed if seq > started]  # made in this turn: owed by the next
        if left:
            self._owed[event.actor] = left
        else:
            del self._owed[event.actor]

    def mods(self, before: SceneState, actor: str) -> Mods:
        """The DMs ``actor``'s reactions not paid yet cost (none in a log that marks them)."""
        if self.marked:
            return []
        owed = self._owed.get(actor)
        if not owed:
            return []
        dm = options_of(before).reaction_dm
        return [(dm, f"reaction at {seq}") for seq in owed]
