"""The other actions: aiming, hiding, reloading, drawing, skill rolls, putting out flames
(Aimed Shots; Stealth; Reloading; Changing Weapons; Skill Rolls; Chemical Burn)."""

from __future__ import annotations

from typing import get_args

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, StatusChanged, WeaponReloaded
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.attack_rolls import gm_modifier
from fightlog.rules.roe7.fighters import Fighter, capped
from fightlog.rules.roe7.terms import RollType
from fightlog.kit.table import Scribe


def aim(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """An action spent aiming at a target; the shot comes next turn."""
    if action.target is None:
        raise RefusedError("aim needs a target (target=ID)", code="rules.target")
    Fighter(scribe.state, action.target)
    conditions.apply(
        scribe, "aim", actor, source=actor, duration=1, counts_on=actor, cause=declaration,
        params={"target": action.target},
    )


def hide(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Setting up to hide (for a sneak attack). Once spotted in a fight, only from cover."""
    who = Fighter(scribe.state, actor)
    if who.has("hidden"):
        raise RefusedError(f"{actor} is already hidden", code="rules.incomplete")
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
        raise RefusedError(f"{token.text} does not need a reload", code="rules.incomplete")
    if token.chainfed:
        started = who.effect("reloading")
        if started is None or started.params.get("weapon") != token.text:
            conditions.apply(
                scribe, "reloading", actor, source=actor, duration=None, counts_on=actor, cause=declaration,
                params={"weapon": token.text},
            )
            return
        conditions.expire(scribe, started, "reloaded", cause=declaration)
    scribe.emit(WeaponReloaded(actor=actor, weapon=token.text, cause=declaration))


def draw(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Drawing or swapping what is in hand: the weapon must be carried."""
    Fighter(scribe.state, actor).weapon(action.weapon)


def extinguish(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    burn = who.effect("chemical_burn")
    if burn is None:
        raise RefusedError(f"{actor} is not burning", code="rules.incomplete")
    conditions.expire(scribe, burn, "extinguished", cause=declaration)


def skill(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """A skill roll (Skill Rolls): 1d100 plus the skill's modifiers (and a GM's +/-5), capped,
    against the target's roll of the same (or ``against=``) skill, ties to the target, or
    against 50 when nobody opposes. A natural 1 fails and costs the next action; a natural
    100 succeeds unless the other side rolls one too (Critical Success or Failure)."""
    roll = action.params.get("roll")
    known = get_args(RollType)
    if roll not in known:
        raise RefusedError(f"skill needs roll=TYPE, one of {', '.join(known)}",
                           code="rules.incomplete" if roll is None else "rules.refused")
    who = Fighter(scribe.state, actor)
    opts = who.options
    against_type = action.params.get("against", roll)
    if action.target is not None and against_type not in known:
        raise RefusedError(f"against= must be a roll type, not {against_type!r}")
    other = Fighter(scribe.state, action.target) if action.target is not None else None
    mods = who.stealth_mods() if roll == "stealth" else who.mods(roll)  # type: ignore[arg-type]
    mods = capped(mods + gm_modifier(action, opts), opts.modifier_cap)
    rolled, seq = scribe.roll("1d100", roller=actor, purpose="skill", modifiers=mods, for_seq=declaration, label=str(roll))
    natural = rolled.dice[0].face
    if other is None:
        won = skill_won(natural, rolled.total, opts.unopposed_target)
        _skill_result(scribe, actor, actor, won, rolled.total, opts.unopposed_target, [seq], declaration,
                      f"{roll} roll against {opts.unopposed_target}")
    else:
        opposed, o_seq = scribe.roll(
            "1d100", roller=other.actor, purpose="skill",
            modifiers=capped(other.mods(against_type), opts.modifier_cap),  # type: ignore[arg-type]
            for_seq=declaration, label=str(against_type),
        )
        theirs = opposed.dice[0].face
        if theirs == 1:
            conditions.lose_action(scribe, other.actor, whole_turn=False, source="critical failure", cause=o_seq)
        won = skill_won(natural, rolled.total, opposed.total, theirs)
        _skill_result(scribe, actor, other.actor, won, rolled.total, opposed.total, [seq, o_seq], declaration,
                      f"{roll} roll against {against_type}")
    if natural == 1:
        conditions.lose_action(scribe, actor, whole_turn=False, source="critical failure", cause=seq)


def skill_won(natural: int, total: int, against: int, theirs: int | None = None) -> bool:
    """Skill Rolls; Critical Success or Failure: whether a roll of natural ``natural`` and
    ``total`` succeeds against ``against``: the target number (reached is enough) when
    nobody opposes (``theirs`` is ``None``), else the opposing total (beaten: a tie goes to
    the one opposing), whose natural die is ``theirs``. A natural 1 fails; a natural 100
    succeeds, unless the other side rolls one too; the other side's natural 1 fails them."""
    if natural == 1:
        return False
    if theirs is None:
        return natural == 100 or total >= against
    return theirs != 100 and (natural == 100 or theirs == 1 or total > against)


def _skill_result(
    scribe: Scribe, actor: str, target: str, won: bool, score: int, against: int, rolls: list[int], declaration: int,
    note: str,
) -> None:
    scribe.emit(
        AttackResolved(
            attacker=actor, target=target, hit=won, score=score, against=against, rolls=rolls,
            declaration=declaration, notes=[note],
        )
    )
