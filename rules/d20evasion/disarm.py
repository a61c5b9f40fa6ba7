"""Disarming, and getting a weapon back (Disarming; Carrying Weapons and Items).

Within melee range, a STR/LVL roll (1d20 + Strength bonus + level bonus) against the target's
Evasion + 3 knocks their weapon out of their hand; a natural 20 throws it as far as the
disarmer moves (their speed). The disarmed pick it up with an action (after moving to it when
it was thrown) or draw another weapon; until then they fight with hand weapons or bare hands.
"""

from __future__ import annotations

from fightlog.events.model import Action, AttackResolved
from fightlog.rules.d20evasion import conditions
from fightlog.rules.d20evasion.attack import disarm_outcome
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.kit.table import Scribe


def knocked(target: Fighter, action: Action) -> str:
    """The weapon a disarm goes for: the one named, else the target's first (not a hand
    weapon)."""
    if action.params.get("knock") is not None:
        return str(action.params["knock"])
    held = [w for w in target.card.weapons if not w.hand]
    return held[0].name if held else ""


def disarm(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    assert action.target is not None
    who = Fighter(scribe.state, actor)
    target = Fighter(scribe.state, action.target)
    weapon = knocked(target, action)
    rolled, seq = scribe.roll("1d20", roller=actor, purpose="disarm", modifiers=who.disarm_mods(), for_seq=declaration)
    evasion = target.evasion()
    face = rolled.dice[0].face
    success, difficulty, thrown = disarm_outcome(face, rolled.total, evasion, who.options)
    distance = who.speed_ft() if thrown else 0
    notes = [f"disarm {weapon}: Evasion {evasion} + {who.options.disarm_difficulty_bonus}"]
    if thrown:
        notes.append(f"natural {face}: the weapon is thrown {distance} ft")
    resolved = scribe.emit(
        AttackResolved(attacker=actor, target=action.target, hit=success, score=rolled.total, against=difficulty,
                       margin=rolled.total - difficulty, rolls=[seq], declaration=declaration, notes=notes)
    )
    if success:
        conditions.apply(scribe, "disarmed", action.target, source=actor, cause=resolved,
                         params={"weapon": weapon, "thrown_ft": distance})


def draw(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Changing weapons; a disarmed combatant drawing another is armed again."""
    dropped = Fighter(scribe.state, actor).dropped()
    if dropped is not None:
        conditions.expire(scribe, dropped, "drew another weapon")


def pick_up(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    dropped = Fighter(scribe.state, actor).dropped()
    if dropped is not None:
        conditions.expire(scribe, dropped, "picked up")
