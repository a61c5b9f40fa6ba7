"""Fleeing and calling for aid, and interrupting either (Fleeing; Calling for Aid).

Both are declared, then anyone who interrupts declares (``interrupt``, answering the post)
*before any roll*: the rolls happen when the turn ends. The fleeing or calling character
rolls 1d100 plus dodge modifiers; each interrupter makes one attack roll against it. A flee
that is struck takes one hit's damage and fails; a com call that is struck is destroyed.
A successful call brings the called ally in after the caller's next two turns (one near
their base); a successful flee takes the character out of the fight.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, AttackResolved, ResourceSpent, StatusChanged
from fightlog.reducers.state import PendingDeclaration
from fightlog.rules.roe7 import conditions
from fightlog.rules.roe7.attack_rolls import accuracy, attack_die, can_crit, gm_modifier, outcome
from fightlog.rules.roe7.attack_shots import check_reach, check_ready, measure, nearest_m
from fightlog.rules.roe7.fighters import UNARMED, Breach, Fighter, capped
from fightlog.rules.roe7.geometry import Band, band
from fightlog.rules.roe7.tokens import WeaponToken
from fightlog.rules.roe7.harm import take
from fightlog.kit.table import Scribe

INTERRUPTIBLE = ("flee", "com_call")
FLEE_ATTEMPTS = "flee_attempts"
"""The resource a flee attempt spends (``resource_spent``), counted in ``Combatant.spent``."""


def flee(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    if flees_left(who) <= 0:
        raise RefusedError(f"{actor} has used both flee attempts of this combat", code="rules.flee-limit")
    if who.racial == "artificial-strength":
        allies = [
            c.actor
            for c in scribe.state.combatants.values()
            if c.side == who.side and c.actor != actor and not Fighter(scribe.state, c.actor).out
            and Fighter(scribe.state, c.actor).sheet.race != "splicer"
        ]
        if allies:
            raise RefusedError(f"Artificial Strength: {actor} cannot flee while allied non-splicers fight ({', '.join(sorted(allies))})")


def flees_left(who: Fighter) -> int:
    """Flee attempts left in this combat (Fleeing: two each): an attempt counts when it is
    rolled, at the end of the fleeing turn (``resource_spent`` of ``flee_attempts``)."""
    return who.options.flee_attempts - who.who.spent.get(FLEE_ATTEMPTS, 0)


def com_call(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    if who.has("com_disabled"):
        raise RefusedError(f"{actor}'s com was destroyed earlier in this combat")
    called = action.params.get("calls")
    if not isinstance(called, str):
        raise RefusedError("a com call names who it calls: calls=ID (a reserve from the roster)", code="rules.incomplete")
    ally = Fighter(scribe.state, called)
    if not ally.has("reserve"):
        raise RefusedError(f"{called} is not a reserve waiting for a call")


def pending_call(scribe: Scribe, responds_to: int | None) -> PendingDeclaration:
    """The flee or com call an interrupt answers (the open turn's, when not named)."""
    for post in scribe.state.pending:
        if responds_to is not None and post.seq != responds_to:
            continue
        if any(a.type in INTERRUPTIBLE for a in post.actions):
            return post
    what = f"seq {responds_to}" if responds_to is not None else "this turn"
    raise RefusedError(f"nothing to interrupt: no flee or com call pending ({what})")


def interrupt_breach(who: Fighter, caller: str | None) -> Breach | None:
    """Whether ``who`` may not interrupt ``caller``'s flee or com call: not one's own; not an
    arrival before their next turn (Entering a Combat in Progress); not with the next action
    already lost (an earlier interrupt, a critical failure, a stun), since interrupting spends it."""
    actor = who.actor
    if caller == actor:
        return Breach("rules.refused", "one cannot interrupt one's own flee or call")
    if who.has("arriving") or who.has("arrived"):
        return Breach(
            "order.arrival-acted", f"{actor} has just arrived: no actions, interrupts included, until their next turn"
        )
    if who.effects("lost_action") or who.effects("lost_turn"):
        return Breach(
            "rules.allowance", f"{actor}'s next action is already lost (an earlier interrupt or a critical failure)"
        )
    if who.effects("stun"):
        return Breach("rules.allowance", f"{actor} is stunned: the next action is lost to the stun, so there is none "
                                         "to spend on an interrupt")
    return None


def interrupt(scribe: Scribe, actor: str, action: Action, declaration: int, responds_to: int) -> None:
    """Declare an interrupt: checked now, rolled when the turn ends; it costs the
    interrupter's next action."""
    call = next(p for p in scribe.state.pending if p.seq == responds_to)
    who = Fighter(scribe.state, actor)
    found = interrupt_breach(who, call.actor)
    if found is not None:
        raise RefusedError(found.message, code=found.code)
    gm_modifier(action, who.options)  # checked now: the strike is rolled when the caller's turn ends
    target = Fighter(scribe.state, call.actor)
    token, _ = who.weapon(action.weapon)
    check_reach(who, token, measure(scribe, who, target, action), call.actor, nearest=nearest_m(who, target, action))
    check_ready(who, token)
    conditions.lose_action(scribe, actor, whole_turn=False, source=f"interrupting {call.actor}", cause=declaration)


def resolve(scribe: Scribe, actor: str) -> None:
    """At the end of ``actor``'s turn: roll their pending flee or com call against the
    interrupters declared for it."""
    for post in [p for p in scribe.state.pending if p.actor == actor]:
        kinds = [a for a in post.actions if a.type in INTERRUPTIBLE]
        if not kinds:
            continue
        action = kinds[0]
        interrupters = [p for p in scribe.state.pending if p.responds_to == post.seq]
        _resolve_one(scribe, actor, action, post.seq, interrupters)


def _resolve_one(
    scribe: Scribe, actor: str, action: Action, declaration: int, interrupters: list[PendingDeclaration]
) -> None:
    """The flee or call roll (1d100 plus dodge modifiers, and flee modifiers for a flee),
    made even when nobody interrupts (it cannot fail then); each interrupter's attack must
    beat it."""
    who = Fighter(scribe.state, actor)
    opts = who.options
    mods = who.mods("dodge") + (who.mods("flee") if action.type == "flee" else [])
    rolled, roll_seq = scribe.roll(
        "1d100", roller=actor, purpose=action.type, modifiers=capped(mods, opts.modifier_cap), for_seq=declaration
    )
    if rolled.dice[0].face == 1 and interrupters:
        conditions.lose_action(scribe, actor, whole_turn=who.racial == "advanced-prosthetics",
                               source="critical failure on defence", cause=roll_seq)
    stopped = False
    for post in interrupters:
        for act in post.actions:
            if act.type != "interrupt":
                continue
            struck = _strike(scribe, post.actor, actor, act, rolled.total, rolled.dice[0].face, post.seq, action.type)
            stopped = stopped or struck
    if action.type == "flee":
        scribe.emit(ResourceSpent(actor=actor, resource=FLEE_ATTEMPTS, cause=declaration))
        if not stopped and not Fighter(scribe.state, actor).out:
            scribe.emit(StatusChanged(actor=actor, status="fled", cause=roll_seq, note="broke from combat"))
        return
    if stopped:
        scribe.emit(StatusChanged(actor=actor, status="com_disabled", cause=roll_seq, note="com destroyed by an interrupt"))
        return
    called = str(action.params.get("calls"))
    near = action.params.get("near_base") is True
    turns = opts.reinforcement_turns_near_base if near else opts.reinforcement_turns
    conditions.apply(
        scribe,
        "reinforcements",
        actor,
        source=actor,
        duration=turns,
        counts_on=actor,
        cause=roll_seq,
        params={"calls": called},
    )


def _strike(
    scribe: Scribe, attacker: str, target: str, action: Action, against: int, natural_def: int, declaration: int, what: str
) -> bool:
    """One interrupter's one attack roll against the flee or call roll; a hit on a flee deals
    one hit's damage (a critical doubles its die)."""
    a = Fighter(scribe.state, attacker)
    t = Fighter(scribe.state, target)
    opts = a.options
    token, weapon = a.weapon(action.weapon)
    where = band(measure(scribe, a, t, action))
    sides = attack_die(token, where)
    rolled, seq = scribe.roll(
        f"1d{sides}",
        roller=attacker,
        purpose="attack",
        modifiers=accuracy(a, token, weapon, 0, action),
        for_seq=declaration,
        label=f"interrupting a {what.replace('_', ' ')}",
    )
    result = outcome(rolled.dice[0].face, rolled.total, sides, can_crit(token, where), (against, natural_def), opts)
    resolved = scribe.emit(
        AttackResolved(
            attacker=attacker,
            target=target,
            hit=result.hit,
            score=rolled.total,
            against=against,
            critical=result.critical,
            rolls=[seq],
            weapon=token.text,
            declaration=declaration,
            notes=[f"interrupting {target}'s {what.replace('_', ' ')}", *result.notes],
        )
    )
    if token.family == "firearm":
        scribe.emit(ResourceSpent(actor=attacker, resource=token.text, amount=1, cause=declaration))
    if result.hit and what == "flee":
        _one_hit(scribe, a, t, token, where, crit=result.crit, cause=resolved)
    return result.hit


def _one_hit(scribe: Scribe, a: Fighter, t: Fighter, token: WeaponToken, where: Band, *, crit: bool, cause: int) -> None:
    """Fleeing: the fleeing character "takes damage for 1 hit" of the weapon used."""
    opts = a.options
    sides = token.close_range_damage_sides if token.shotgun and where == "close" else token.damage_sides
    notation = f"1d{sides}*2" if crit else f"1d{sides}"
    mods = capped(a.damage_mods(token.damage_type), opts.modifier_cap)
    damage, dmg_seq = scribe.roll(notation, roller=a.actor, purpose="damage", modifiers=mods, for_seq=cause)
    take(
        scribe, t.actor, max(0, damage.total), t.dr(token.damage_type), damage_type=token.damage_type,
        source=token.text, cause=dmg_seq, attacker=a.actor, mortal=token.text != UNARMED,
    )
