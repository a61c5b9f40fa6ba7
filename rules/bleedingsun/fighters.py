"""A combatant as the Bleeding Sun rules see them: folded state (HP, statuses, effects) plus
the sheet card, and the effect names the table keeps."""

from __future__ import annotations

from operator import attrgetter
from typing import Final

from fightlog.kit.fighters import FighterBase, absent, carried_weapon
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.bleedingsun.card import Card, WeaponCard, read_card
from fightlog.rules.bleedingsun.options import BleedingSunOptions, options_of
from fightlog.rules.bleedingsun.ruleset import BLEEDING as BLEEDING
from fightlog.rules.bleedingsun.ruleset import OUT


AIM: Final = "aim"
"""An aim (1 MA): +1 to the next attack; ``held`` when held into the next round."""
IMMEDIATE: Final = "immediate"
"""The round's immediate action spent (until the start of one's next turn)."""
DEFENSE: Final = "total_defense"
INCOMING: Final = "incoming"
"""An attack waiting for its target's answer (dodge, block, resist or take)."""
STAGGERED: Final = "staggered"
FROZEN: Final = "frozen"
STUNNED: Final = "stunned"
FATIGUE: Final = "fatigue"
IMMUNE: Final = "immune"
TICKING: Final = frozenset({"burning", "confused"})
"""Statuses that fire at the start of the victim's turn."""
LASTING: Final = frozenset({"burning", "frozen", "irradiated", "poisoned"})
"""Statuses that last until treated or broken free from."""

_BY_ID: Final = attrgetter("effect")
"""An effect's id: the order of ``Fighter.effects`` (the effects slice is keyed by it)."""

HELPLESS: Final = frozenset({"unconscious", "stunned", "paralyzed"})
STANCES: Final = ("crouched", "prone")


class Fighter(FighterBase):
    """One combatant's rules view."""

    out_statuses = OUT

    def frozen_since(self) -> int | None:
        """The ``seq`` of the freeze in force on this fighter (the earliest), ``None`` unfrozen."""
        frozen = self.effects(FROZEN)
        return min(e.applied for e in frozen) if frozen else None

    def __init__(self, state: SceneState, actor: str) -> None:
        who = state.combatants.get(actor)
        if who is None:
            raise absent(state, actor)
        self.state = state  # what FighterBase.__init__ sets, without the call (the audit's hot path: +2% compiled)
        self.actor = actor
        self.who = who
        self.options: BleedingSunOptions = options_of(state)  # never refused: the defaults stand in
        self._card: Card | None = None
        self._mine: list[ActiveEffect] | None = None
        """The effects on this combatant, by id, read once (``_on``)."""

    @property
    def card(self) -> Card:
        """The sheet's card, read on first use: a sheet that does not read (``InputError``)
        refuses only what reads it, not every look at this combatant (an ally's standing, a
        status)."""
        card = self._card
        if card is None:
            card = self._card = read_card(self.who.sheet)
        return card

    def _on(self) -> list[ActiveEffect]:
        """The effects on this combatant, by id, read once (a plan or a threshold asks for
        three or four kinds: one pass over the scene's effects, not one a kind)."""
        mine = self._mine
        if mine is None:  # ``FighterBase.effects()``, written out: a compiled loop (``setup.py``)
            actor = self.actor
            mine = [e for e in self.state.effects.values() if e.target == actor]
            if len(mine) > 1:
                mine.sort(key=_BY_ID)  # the effects slice is keyed by effect id
            self._mine = mine
        return mine

    def effects(self, name: str | None = None, *, on: bool = True) -> list[ActiveEffect]:
        if not on:
            return super().effects(name, on=False)
        if name is None:
            return list(self._on())
        return [e for e in self._on() if e.name == name]

    @property
    def stance(self) -> str | None:
        statuses = self.who.statuses
        for name in STANCES:
            if name in statuses:
                return name
        return None

    def attr(self, name: str) -> int:
        return self.card.attr(name)

    def weapon(self, name: str | None) -> WeaponCard:
        """The weapon ``name`` (the first one when ``None``); refused when not carried."""
        return carried_weapon(self.actor, self.card.weapons, name)

    def stagger(self) -> int:
        """The dice staggering takes off every pool (1 a stagger in force)."""
        total = 0
        for e in self._on():  # every pool asks: no list of the staggers first
            if e.name == STAGGERED:
                total += e.magnitude or 1
        return total

    def check_pool(self, name: str) -> int:
        """The dice of a check of attribute ``name``: the attribute less a stagger (a defense,
        a status save before its bonus)."""
        return self.attr(name) - self.stagger()

    def defends_with(self, given: object = None) -> str:
        """The attribute a total defense rolls: ``given`` (``with=``), else the higher of
        Agility and Body (Total Defense)."""
        if given is not None:
            return str(given)
        return "agility" if self.attr("agility") >= self.attr("body") else "body"

    def pace(self) -> int:
        """The MP a move action buys: pace, less 1 for each stagger that took MP (at least 1:
        the chapter's lost move action is not played)."""
        lost = sum(1 for e in self.effects(STAGGERED) if e.params.get("mp") is True)
        return max(1, self.card.pace - lost)

    def immediate_spent(self) -> bool:
        return bool(self.effects(IMMEDIATE))

    def defending(self) -> bool:
        return bool(self.effects(DEFENSE))

    def aim_held(self) -> bool:
        return any(e.name == AIM and e.params.get("held") for e in self._on())

    def flat_footed(self) -> bool:
        return self.has("flat_footed")

    def helpless(self) -> bool:
        return not HELPLESS.isdisjoint(self.who.statuses)


def guard(state: SceneState, actor: str) -> tuple[int, bool]:
    """What total defense adds to ``actor``'s threshold (its magnitudes) and whether they hold
    an aim (``Fighter.aim_held``): one pass over the scene's effects, no list of theirs
    (``resolve.target_threshold``, for every attack)."""
    extra, held = 0, False
    for e in state.effects.values():
        if e.target == actor:
            if e.name == DEFENSE:
                extra += e.magnitude or 0
            elif e.name == AIM and e.params.get("held"):
                held = True
    return extra, held
