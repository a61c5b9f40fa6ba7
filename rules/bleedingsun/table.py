"""Live play and scripted fights for ``bleeding-sun``: the kit's table skeleton
(``fightlog.kit.table_base``) filled in.

A post is one of two things. In one's own turn: actions within the round's economy
(``economy``), attacks planned (``planning``) and each other action played by its handler
(``tactics``); while the poster's attacks wait for their targets' answers, nothing more. Out
of turn: one immediate action or an answer (``immediate``). A refusal leaves the scribe as
it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fightlog.errors import RefusedError
from msgspec.structs import replace

from fightlog.events.model import Action, CombatantJoined, DeclarationPosted, StatusChanged
from fightlog.kit.table import Entrant, Post, Scribe
from fightlog.kit.table_base import TableBase
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun import immediate, turns
from fightlog.rules.bleedingsun.declared import check_own, play_own
from fightlog.rules.bleedingsun.economy import made_frozen, stance_named
from fightlog.rules.bleedingsun.fighters import INCOMING, Fighter
from fightlog.rules.bleedingsun.options import RULESET_ID, BleedingSunOptions, read_options
from fightlog.rules.bleedingsun.ruleset import ACTION_TYPES, OUT


class BleedingSunTable(TableBase):
    id = RULESET_ID
    option_type = BleedingSunOptions
    action_types = ACTION_TYPES
    out = OUT
    no_map = "each attack says how far, distance=N (hexes), or at what range band, range=BAND"

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> BleedingSunOptions:
        return read_options(overrides, where=where)

    def awaiting(self, state: SceneState) -> list[tuple[int, str]]:
        found = sorted((int(e.params.get("declaration") or 0), e.target) for e in state.effects.values()
                       if e.name == INCOMING)
        return list(dict.fromkeys(found))

    def reads(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        from fightlog.rules.bleedingsun.planning import ATTACKS
        from fightlog.rules.bleedingsun.post_params import reads

        return reads(self.action_types, ATTACKS)

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        from fightlog.rules.bleedingsun.roster import joined, load_roster

        return [joined(c) for c in load_roster(path).combatants]

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        """One arriving in a fight under way is flat-footed until their first turn, as
        ``begin`` makes everyone (The way of the shadow warrior: who has yet to act)."""
        if arrival:
            scribe.emit(StatusChanged(actor=entrant.actor, status="flat_footed", cause=seq,
                                      note="has not acted in the fight yet"))

    def open_fight(self, scribe: Scribe) -> None:
        turns.begin(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        turns.end_turn(scribe)

    def play(self, scribe: Scribe, post: Post) -> None:
        state = scribe.state
        who = Fighter(state, post.actor)
        who.able()
        if state.turn.current != post.actor:
            immediate.post_out_of_turn(scribe, post)
            return
        if post.responds_to is not None:
            raise RefusedError("a post in one's own turn answers nothing (responds_to is for immediate actions)",
                               code="order.out-of-turn")
        if not post.actions:
            scribe.emit(DeclarationPosted(actor=post.actor, text=post.text))
            return
        actions = _from(post.actions, who.stance, frozen=who.frozen_since() is not None)
        planned = check_own(state, post.actor, actions, strict=not post.recorded)
        declaration = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=actions))
        play_own(scribe, post.actor, actions, declaration, planned)


def _from(actions: Sequence[Action], stance: str | None, *, frozen: bool = False) -> list[Action]:
    """Each stance change records the stance it starts from (what it costs, and which kind
    of move action it is, depend on it): the post's opening stance, then what the change
    before it went to (each one recorded ``from`` the opening stance made crouching and
    standing again cost one move action). A move made frozen records it (``frozen=true``: +1
    MP a hex, still counted once the fighter breaks free in the same turn)."""
    told: list[Action] = []
    for action in actions:
        if action.type == "stance":
            action = replace(action, params={**action.params, "from": stance or "standing"})
            stance = stance_named(action.params.get("to"))
        elif action.type == "move" and frozen:
            action = made_frozen(action)
        told.append(action)
    return told


TABLE: Final = BleedingSunTable()
