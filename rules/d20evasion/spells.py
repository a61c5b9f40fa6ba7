"""Spells (Casting Spells; Minions).

Casting is an action (a long cast, both); the MP is spent whether the spell works or not, and
a spell with a cooldown cannot be cast again until that many full rounds have passed (it
counts on the caster's turns). A spell cast at an enemy is an attack: 1d20 plus the
Willpower bonus (and class, skill, gear) against Evasion, Willpower's base damage plus the
spell's. A spell for an ally or oneself heals, changes the damage taken for some rounds
(Protect halves it), or summons a minion, who acts right after the summoner from the round
after (the summoner's next turn).
"""

from __future__ import annotations

from fightlog.events.model import Action, ResourceSpent, StatusChanged
from fightlog.rules.d20evasion import conditions, harm
from fightlog.rules.d20evasion.attack import strike
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.kit.table import Scribe


def spell_name(action: Action) -> str | None:
    name = action.params.get("spell")
    return name if isinstance(name, str) else None


def cast(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    spell = who.spell(spell_name(action))
    if spell.mp:
        scribe.emit(ResourceSpent(actor=actor, resource="mp", amount=spell.mp, cause=declaration))
    if spell.cooldown:
        conditions.apply(scribe, "cooldown", actor, source=spell.name, duration=spell.cooldown, cause=declaration,
                         params={"spell": spell.name})
    if spell.target == "enemy":
        if action.params.get("defensive_turn") is True:
            return
        assert action.target is not None
        strike(scribe, Fighter(scribe.state, actor), action.target, spell, declaration)
        return
    target = action.target or actor
    if spell.heal:
        harm.heal(scribe, target, spell.heal, pool="hp", source=spell.name, cause=declaration)
    if spell.damage_taken_percent is not None:
        conditions.apply(scribe, spell.name, target, source=actor, duration=spell.rounds, cause=declaration,
                         params={"damage_percent": spell.damage_taken_percent})
    if spell.summons is not None:
        summon(scribe, actor, spell.summons, declaration)


def summon(scribe: Scribe, owner: str, minion: str, cause: int) -> None:
    """The minion leaves the reserve; it takes the slot after its summoner next round."""
    scribe.emit(StatusChanged(actor=minion, status="reserve", on=False, cause=cause))
    name = scribe.state.combatants[owner].name
    scribe.emit(StatusChanged(actor=minion, status="summoned", cause=cause,
                              note=f"acts after {name} from the next round"))
