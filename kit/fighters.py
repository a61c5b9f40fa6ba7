"""Fighter lookup, the same for every ruleset: a combatant's standing in the folded state
(pools, statuses, effects, position), the refusal for naming someone not in the fight, and the
shape of modifier lists and allowance breaches.

A ruleset's ``Fighter`` subclasses ``FighterBase`` (naming ``out_statuses``, its statuses
that take a combatant out of the fight) and adds what its sheets give: weapons, modifiers,
defences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, NamedTuple, Protocol, TypeVar

from fightlog.errors import RefusedError
from fightlog.reducers.state import ActiveEffect, Combatant, SceneState

Mods = list[tuple[int, str]]
"""Modifiers as ``(value, source)`` pairs, ready for a ``dice_rolled`` event."""


class Breach(NamedTuple):
    """A post beyond what its poster may do: the rule broken, in the audit's terms
    (``rules.allowance``, ``order.cannot-act``, ``order.arrival-acted``...), and the reason
    the table gives when it refuses the post."""

    code: str
    message: str


def sum_mods(mods: Iterable[tuple[int, str]]) -> int:
    return sum(v for v, _ in mods)


def absent(state: SceneState, actor: str, *, code: str = "rules.target") -> RefusedError:
    """The refusal for naming ``actor``, who has not joined the fight, or has and is out of
    it (as a target, unless ``code`` says otherwise)."""
    who = state.combatants.get(actor)
    if who is not None:
        shown = f" ({', '.join(who.statuses)})" if who.statuses else ""
        return RefusedError(f"{actor!r} is out of the fight{shown}", code=code)
    known = ", ".join(sorted(state.combatants)) or "nobody yet"
    return RefusedError(f"{actor!r} is not in the fight (combatants: {known})", code=code)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


W = TypeVar("W", bound=_Named)


def carried_weapon(actor: str, weapons: Sequence[W], name: str | None) -> W:
    """The weapon ``name`` of ``weapons`` (the first one when ``None``); refused when
    ``actor`` does not carry it."""
    if name is None:
        if not weapons:
            raise RefusedError(f"{actor} carries no weapon: name one (weapon=NAME)", code="rules.incomplete")
        return weapons[0]
    for weapon in weapons:
        if weapon.name == name:
            return weapon
    carried = ", ".join(w.name for w in weapons) or "none"
    raise RefusedError(f"{actor} carries no weapon {name!r} (carried: {carried})", code="rules.not-carried")


def _effect_id(effect: ActiveEffect) -> str:
    return effect.effect


class FighterBase:
    """One combatant's standing, as every ruleset reads it; ``absent`` refused when
    ``actor`` has not joined."""

    out_statuses: ClassVar[frozenset[str]] = frozenset()
    """The statuses that take a combatant out of the fight (the ruleset's ``OUT``)."""

    def __init__(self, state: SceneState, actor: str) -> None:
        who = state.combatants.get(actor)
        if who is None:
            raise absent(state, actor)
        self.state = state
        self.actor = actor
        self.who: Combatant = who

    @property
    def hp(self) -> int:
        return self.who.pools.get("hp", 0)

    @property
    def out(self) -> bool:
        return not self.out_statuses.isdisjoint(self.who.statuses)

    def able(self) -> None:
        """Refuse (``order.cannot-act``) a post by a combatant a status has taken out of the
        fight, naming those statuses."""
        if self.out:
            gone = ", ".join(s for s in self.who.statuses if s in self.out_statuses)
            raise RefusedError(f"{self.actor} cannot act ({gone})", code="order.cannot-act")

    def has(self, status: str) -> bool:
        return status in self.who.statuses

    @property
    def position(self) -> tuple[int, int] | None:
        return self.who.position

    def effects(self, name: str | None = None, *, on: bool = True) -> list[ActiveEffect]:
        """Effects on this combatant (``on``) or counting on them (``on=False``), by id."""
        effects = self.state.effects
        if not effects:
            return []
        actor = self.actor
        found = [
            e
            for e in effects.values()
            if (e.target == actor if on else e.counts_on == actor) and (name is None or e.name == name)
        ]
        if len(found) > 1:
            found.sort(key=_effect_id)  # the effects slice is keyed by effect id
        return found

    def effect(self, name: str) -> ActiveEffect | None:
        found = self.effects(name)
        return found[0] if found else None

    def at_turn_start(self, effect: ActiveEffect) -> bool:
        """Whether ``effect`` was in place when the open turn started."""
        return effect.applied < self.state.turn.started
