"""A combatant as the en5.1 rules see them: folded state (the Wounds track as pools,
statuses, effects) plus their sheet card."""

from __future__ import annotations

from functools import cached_property

from fightlog.kit.fighters import FighterBase, carried_weapon
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.en51.card import TRACK, Card, WeaponCard, read_card, wound_pool
from fightlog.rules.en51.ruleset import ACTION_TYPES, OUT


class Fighter(FighterBase):
    """One combatant's rules view."""

    out_statuses = OUT

    @cached_property
    def card(self) -> Card:
        return read_card(self.who.sheet)

    def wounds(self) -> list[int]:
        """The marked circles of the Wounds track, lowest first."""
        pools = self.who.pools
        return [c for c in range(1, TRACK + 1) if pools.get(wound_pool(c), 1) <= 0]

    def weapon(self, name: str | None) -> WeaponCard:
        """The weapon ``name`` (the first one when ``None``); refused when not carried."""
        return carried_weapon(self.actor, self.card.weapons, name)

    def weapon_effect(self, name: str, weapon: str) -> ActiveEffect | None:
        for effect in self.effects(name):
            if effect.params.get("weapon") == weapon:
                return effect
        return None

    def acted(self) -> bool:
        """Whether this combatant has used their combat action this turn: taken their turn
        (or waited), spent it on a counterattack, sacrificed it rolling with a hit (Roll with
        it: the next available action), or posted a combat action in their open turn
        (an open turn with no post yet is no action: a held attack may cut in on it and be
        countered)."""
        turn = self.state.turn
        posted = turn.current == self.actor and self.posted()
        return self.actor in turn.acted or self.has("spent") or self.has("rolling") or posted

    def posted(self) -> bool:
        """Whether this combatant has posted a combat action of their own (no answer, no
        held action) among the open turn's posts."""
        return any(p.actor == self.actor and p.responds_to is None and any(ACTION_TYPES.get(a.type) is not None
                                                                            for a in p.actions)
                   for p in self.state.pending)
