"""The other actions: aiming, hiding, reloading, drawing, skill rolls, putting out flames
(Aimed Shots; Stealth; Reloading; Changing Weapons; Skill Rolls; Chemical Burn)."""

from __future__ import annotations

from typing import get_args

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, StatusChanged, WeaponReloaded
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.terms import RollType
from fightlog.rules.table import Scribe


def aim(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """An action spent aiming at a target; the shot comes next turn."""
    if action.target is None:
        raise RefusedError("aim needs a target (target=ID)")
    Fighter(scribe.state, action.target)
    conditions.apply(
        scribe, "aim", actor, source=actor, duration=1, counts_on=actor, cause=declaration,
        params={"target": action.target},
    )


def hide(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Setting up to hide (for a sneak attack). Once spotted in a fight, only from cover."""
    who = Fighter(scribe.state, actor)
    if who.has("hidden"):
        raise RefusedError(f"{actor} is already hidden")
    if who.has("engaged") and not who.has("in_cover"):
        raise RefusedError(f"{actor} has been seen fighting: hiding again needs cover first")
    scribe.emit(StatusChanged(actor=actor, status="hidden", cause=declaration))


def reload(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Reload (or work the bolt); chainfed weapons take two reload actions and a move or an
    attack in between starts it over."""
    who = Fighter(scribe.state, actor)
    token, _ = who.weapon(action.weapon)
    if token.family != "firearm":
        raise RefusedError(f"{token.text} is not a firearm: melee and magika never reload")
    state = who.who.weapons.get(token.text)
    if state is None or not state.needs_reload:
        raise RefusedError(f"{token.text} does not need a reload")
    if token.chainfed:
        started = who.effect("reloading")
        if started is None or started.params.get("weapon") != token.text:
            conditions.apply(
                scribe, "reloading", actor, source=actor, duration=None, counts_on=actor, cause=declaration,
                params={"weapon": token.text},
            )
            return
        conditions.expire(scribe, started, "reloaded")
    scribe.emit(WeaponReloaded(actor=actor, weapon=token.text, cause=declaration))


def draw(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Drawing or swapping what is in hand: the weapon must be carried."""
    Fighter(scribe.state, actor).weapon(action.weapon)


def extinguish(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    burn = who.effect("chemical_burn")
    if burn is None:
        raise RefusedError(f"{actor} is not burning")
    conditions.expire(scribe, burn, "extinguished")


def skill(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A skill roll: 1d100 plus the skill's modifiers against the target's roll of the same
    (or ``against=``) skill, or against 50 when nobody opposes; ties to the defender."""
    roll = action.params.get("roll")
    known = get_args(RollType)
    if roll not in known:
        raise RefusedError(f"skill needs roll=TYPE, one of {', '.join(known)}")
    who = Fighter(scribe.state, actor)
    opts = who.options
    mods = who.mods(roll)  # type: ignore[arg-type]
    gm = action.params.get("gm")
    if isinstance(gm, int) and gm:
        if abs(gm) > opts.gm_modifier_limit:
            raise RefusedError(f"a GM circumstance modifier is within +/-{opts.gm_modifier_limit}, not {gm}")
        mods.append((gm, "GM circumstance"))
    rolled, seq = scribe.roll("1d100", roller=actor, purpose="skill", modifiers=capped(mods, opts.modifier_cap),
                              for_seq=declaration, label=str(roll))
    rolls = [seq]
    if action.target is not None:
        other = Fighter(scribe.state, action.target)
        against_type = action.params.get("against", roll)
        if against_type not in known:
            raise RefusedError(f"against= must be a roll type, not {against_type!r}")
        opposed, o_seq = scribe.roll(
            "1d100", roller=other.actor, purpose="skill",
            modifiers=capped(other.mods(against_type), opts.modifier_cap),  # type: ignore[arg-type]
            for_seq=declaration, label=str(against_type),
        )
        against, target = opposed.total, other.actor
        rolls.append(o_seq)
        won = rolled.total > against
    else:
        against, target = opts.unopposed_target, actor
        won = rolled.total >= against
    scribe.emit(
        AttackResolved(
            attacker=actor, target=target, hit=won, score=rolled.total, against=against, rolls=rolls,
            declaration=declaration, notes=[f"{roll} roll" + ("" if action.target else f" against {against}")],
        )
    )
