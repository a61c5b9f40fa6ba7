"""A Traveller combatant as the rules read them: the card, current characteristics (the
physical ones are pools that damage lowers), their DMs, skills, stance, the weapon in hand,
and the effects that change their checks (aim, cover, the DM-1 of earlier reactions, a
leader's encouragement). ``options_of(state)`` gives a scene's options.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Final

from fightlog.kit.fighters import FighterBase, Mods, absent
from fightlog.kit.options import SceneOptions
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.traveller.card import PHYSICAL, Card, WeaponCard, read_card
from fightlog.rules.traveller.checks import characteristic_dm
from fightlog.rules.traveller.options import DEFAULTS, TravellerOptions, scene_options
from fightlog.rules.traveller.ruleset import OUT

options_of: Final = SceneOptions(scene_options, fallback=DEFAULTS)
"""The scene's options (read once per options object: the kit's ``SceneOptions``); options that
do not read give the defaults (the audit says so: ``scene.bad-options``)."""

AIM: Final = "aim"
REACTED: Final = "reacted"
COVER: Final = "cover"
ENCOURAGED: Final = "encouraged"
INCOMING: Final = "incoming"
HAND: Final = "hand"
DROPPED: Final = "dropped"
INJURED: Final = "injured"
KNOCKED_OUT: Final = "knocked_out"
FIRST_AIDED: Final = "first_aided"
LEADERSHIP: Final = "leadership"
GRAPPLE: Final = "grapple"
GRAPPLE_WON: Final = "grapple_won"
DEFERRED: Final = "deferred"
FALLING: Final = "falling"


_BY_ID: Final = attrgetter("effect")
"""An effect's id: the order of ``Fighter.effects`` (the effects slice is keyed by it)."""


class Fighter(FighterBase):
    out_statuses = OUT

    def __init__(self, state: SceneState, actor: str) -> None:
        who = state.combatants.get(actor)
        if who is None:
            raise absent(state, actor)
        self.state = state  # what FighterBase.__init__ sets, without the call (the audit's hot path)
        self.actor = actor
        self.who = who
        self.options: TravellerOptions = options_of(state)
        self._card: Card | None = None
        self._mine: list[ActiveEffect] | None = None
        """The effects on this combatant, read from the slice once per ``Fighter`` (in the
        slice's order, its history's, until ``_by_id`` sorts them)."""
        self._sorted = False

    @property
    def card(self) -> Card:
        """The sheet's card, read on first use: a sheet that does not read (``InputError``)
        refuses only what reads it (a check of this combatant's DMs, armour or weapon), not
        every look at this combatant (a side's Tactics, a reaction's cost, an ally's state)."""
        card = self._card
        if card is None:
            card = self._card = read_card(self.who.sheet)
        return card

    def effects(self, name: str | None = None, *, on: bool = True) -> list[ActiveEffect]:
        """Effects on this combatant by name, by id (the effects slice read once per ``Fighter``)."""
        if not on:
            return super().effects(name, on=on)
        mine = self._by_id()
        if name is None:
            return mine
        return [e for e in mine if e.name == name]

    def effect(self, name: str) -> ActiveEffect | None:
        """The first effect ``name`` on this combatant by id (``effects(name)[0]``, without
        a list or a sort: most combatants hold one of a name, or none)."""
        mine = self._mine
        if mine is None:
            mine = self._read()
        first = None
        for found in mine:
            if found.name == name and (first is None or found.effect < first.effect):
                first = found
        return first

    @classmethod
    def two(cls, state: SceneState, first: str, second: str) -> tuple[Fighter, Fighter]:
        """``Fighter(state, first), Fighter(state, second)``, their effects read in one pass
        over the slice (an attack reads both: the attacker's aim and reactions, the
        target's cover)."""
        one, other = cls(state, first), cls(state, second)
        if first != second:
            mine: list[ActiveEffect] = []
            theirs: list[ActiveEffect] = []
            for found in state.effects.values():
                target = found.target
                if target == first:
                    mine.append(found)
                elif target == second:
                    theirs.append(found)
            one._mine, other._mine = mine, theirs
        return one, other

    def _read(self) -> list[ActiveEffect]:
        actor = self.actor
        mine = self._mine = [e for e in self.state.effects.values() if e.target == actor]
        return mine

    def _by_id(self) -> list[ActiveEffect]:
        mine = self._mine
        if mine is None:
            mine = self._read()
        if not self._sorted:
            if len(mine) > 1:
                mine.sort(key=_BY_ID)
            self._sorted = True
        return mine

    # ------------------------------------------------------------------ characteristics

    def value(self, name: str) -> int:
        """A characteristic now: the pool for STR, DEX and END, the sheet for the rest."""
        if name in PHYSICAL:
            return self.who.pools.get(name, 0)
        value: int = getattr(self.card.characteristics, name)
        return value

    def dm(self, name: str) -> int:
        if name in PHYSICAL:  # ``value``, written out: every attack asks
            return characteristic_dm(self.who.pools.get(name, 0))
        return characteristic_dm(self.value(name))

    def best(self, *names: str) -> tuple[int, str]:
        """The best DM of ``names`` and the characteristic giving it (the first on a tie)."""
        return max(((self.dm(n), n) for n in names), key=lambda pair: pair[0])

    def skill(self, name: str) -> tuple[int, str]:
        """A skill's DM: its level, or the unskilled DM when the sheet lacks it."""
        level = self.card.skills.get(name)
        if level is None:
            return self.options.unskilled_dm, f"unskilled ({name})"
        return level, f"{name} {level}"

    def zeroed(self) -> int:
        """How many physical characteristics are at zero."""
        return sum(1 for name in PHYSICAL if self.who.pools.get(name, 0) <= 0)

    # ------------------------------------------------------------------ stance, weapons

    @property
    def stance(self) -> str:
        statuses = self.who.statuses
        if "prone" in statuses:
            return "prone"
        return "crouch" if "crouched" in statuses else "stand"

    def in_hand(self) -> WeaponCard | None:
        """The weapon in hand: the last drawn, else the sheet's first; ``None`` when it was
        dropped (bare hands are always at hand)."""
        drawn = self.effect(HAND)
        name = None if drawn is None else str(drawn.params.get("weapon"))
        weapon = self.card.weapon(name)
        if weapon is not None and self.dropped(weapon.name):
            return None
        return weapon

    def dropped(self, weapon: str) -> bool:
        return any(str(e.params.get("weapon", "")).casefold() == weapon.casefold() for e in self.effects(DROPPED))

    # ------------------------------------------------------------------ what changes checks

    def aim(self) -> int:
        found = self.effect(AIM)
        return 0 if found is None or found.magnitude is None else min(found.magnitude, self.options.aim_max)

    def cover(self) -> ActiveEffect | None:
        return self.effect(COVER)

    def check_mods(self) -> Mods:
        """What every check of this combatant carries: the DM of each earlier reaction
        (until their next turn's actions are over) and one leader's DM+1."""
        mine = self._mine
        if mine is None:
            mine = self._read()
        reacted: list[ActiveEffect] = []
        encouraged = False
        for found in mine:
            name = found.name
            if name == REACTED:
                reacted.append(found)
            elif name == ENCOURAGED:
                encouraged = True
        if len(reacted) > 1 and not self._sorted:
            reacted.sort(key=_BY_ID)  # the reactions by id, as ``effects()`` gives them
        mods: Mods = [(found.magnitude or 0, f"reaction at {found.applied}") for found in reacted]
        if encouraged:
            mods.append((1, "leadership"))
        return mods
