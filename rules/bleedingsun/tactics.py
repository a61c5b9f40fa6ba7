"""Actions other than attacks, in one's own turn (Combat Actions & Cost; Holding an Aim;
Total Defense; Health and Dying: a medic's stabilize; Status Affect Saves: putting out fire,
breaking free from frozen): each handler checks its action, then emits what follows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied, EffectExpired, Moved, StatusChanged, WeaponReloaded
from fightlog.kit.table import Scribe
from fightlog.rules.bleedingsun import fuses, grapple, harm, readying
from fightlog.rules.bleedingsun.arithmetic import move_cost
from fightlog.rules.bleedingsun.fighters import AIM, BLEEDING, DEFENSE, Fighter
from fightlog.rules.bleedingsun.planning import MOST_HEXES, mode_of
from fightlog.rules.bleedingsun.post_params import check_fires
from fightlog.rules.bleedingsun.pools import roll_pool

Handler = Callable[[Scribe, str, Action, int], None]


def aim(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    weapon = who.weapon(action.weapon)
    if weapon.kind == "melee":
        raise RefusedError(f"aim: the {weapon.name} is a melee weapon; an aim adds to a ranged attack",
                           code="rules.incomplete")
    if who.aim_held():
        raise RefusedError(f"{actor} holds an aim already: no move action needed", code="rules.incomplete")
    scribe.emit(EffectApplied(effect=f"{AIM}-{actor}", name=AIM, target=actor, cause=cause,
                              refreshes=f"{AIM}-{actor}" if who.effects(AIM) else None,
                              params={"weapon": weapon.name, "held": False, "round": scribe.state.turn.round}))


def hold_aim(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Holding an Aim: kept into the next round (no move action to aim then); -1 to the
    threshold to hit the holder while held."""
    who = Fighter(scribe.state, actor)
    found = who.effect(AIM)
    if found is None:
        raise RefusedError(f"{actor} is not aiming: aim first", code="rules.aim")
    scribe.emit(EffectApplied(effect=found.effect, name=AIM, target=actor, cause=cause, refreshes=found.effect,
                              params={**found.params, "held": True, "round": scribe.state.turn.round}))


def stance(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    to = action.params.get("to", "standing")
    if to not in ("standing", "crouched", "prone"):
        raise RefusedError(f"stance to={to!r}: standing, crouched or prone", code="rules.incomplete")
    wanted = None if to == "standing" else str(to)
    if wanted == who.stance:
        raise RefusedError(f"{actor} is {to} already", code="rules.incomplete")
    if who.stance is not None:
        scribe.emit(StatusChanged(actor=actor, status=who.stance, on=False, cause=cause))
    if wanted is not None:
        scribe.emit(StatusChanged(actor=actor, status=wanted, cause=cause))


def _how_far(action: Action, what: str) -> int:
    """The hexes a move or sprint covers (``hexes=N`` or the action's distance): a whole
    number from 1 to ``MOST_HEXES``; refused, saying what was given, otherwise."""
    given = "hexes" in action.params
    hexes = action.params.get("hexes", action.distance)
    if isinstance(hexes, int) and not isinstance(hexes, bool) and 1 <= hexes <= MOST_HEXES:
        return hexes
    if hexes is None:
        raise RefusedError(f"{what}: how far (hexes=N)", code="rules.incomplete")
    written = f"hexes={hexes}" if given else f"distance {hexes}"
    raise RefusedError(f"{what}: {written}: how far, a whole number of hexes from 1 to {MOST_HEXES}",
                       code="rules.incomplete")


def move(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    hexes = _how_far(action, "move")
    terrain = str(action.params.get("terrain", "open"))
    if terrain not in ("open", "difficult", "swim", "climb"):
        raise RefusedError(f"terrain={terrain!r}: open, difficult, swim or climb", code="rules.incomplete")
    cost = move_cost(hexes, stance=who.stance, terrain=terrain, cautious=action.params.get("cautious") is True,
                     extra=1 if who.effects("frozen") else 0)
    scribe.emit(Moved(actor=actor, points=cost, cause=cause))


def sprint(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    who = Fighter(scribe.state, actor)
    hexes = _how_far(action, "sprint")
    cost = move_cost(hexes, stance=who.stance, terrain="open", cautious=False, extra=1 if who.effects("frozen") else 0)
    most = who.pace() + who.card.sprint
    if cost > most:
        raise RefusedError(f"a sprint gives pace + sprint = {most} MP: {hexes} hexes cost {cost}", code="rules.allowance")
    scribe.emit(Moved(actor=actor, points=cost, cause=cause))


def reload(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    weapon = Fighter(scribe.state, actor).weapon(action.weapon)
    if weapon.kind == "melee":
        raise RefusedError(f"reload: the {weapon.name} is a melee weapon: nothing to reload", code="rules.incomplete")
    scribe.emit(WeaponReloaded(actor=actor, weapon=weapon.name, cause=cause))


def draw(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    Fighter(scribe.state, actor).weapon(action.weapon)


def total_defense(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Total Defense: Agility or Body (``with=``, the higher by default); each hit adds to the
    threshold to hit until one's next turn, and defending takes no immediate action."""
    who = Fighter(scribe.state, actor)
    use = who.defends_with(action.params.get("with"))
    if use not in ("agility", "body"):
        raise RefusedError(f"total_defense with={use!r}: agility or body", code="rules.incomplete")
    rolled = roll_pool(scribe, who.check_pool(use), who.options, roller=actor, purpose="defense",
                       label=f"total defense: {use} {who.attr(use)}", for_seq=cause)
    scribe.emit(EffectApplied(effect=f"{DEFENSE}-{actor}-{cause}", name=DEFENSE, target=actor, cause=cause,
                              magnitude=rolled.hits, params={"with": use, "roll": rolled.seq or 0}))


def stabilize(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """A medic's stabilize: Medic - |target's HP| against the rounds bled out."""
    if action.target is None:
        raise RefusedError("stabilize: whom (target=ID)", code="rules.incomplete")
    patient = Fighter(scribe.state, action.target)
    found = patient.effect(BLEEDING)
    if found is None:
        raise RefusedError(f"{action.target} is not bleeding out", code="rules.stabilize")
    healer = Fighter(scribe.state, actor)
    rounds = harm.rounds_bled(found)
    dice = harm.stabilize_pool(healer.attr("medic"), patient.hp) - healer.stagger()
    rolled = roll_pool(scribe, dice, healer.options, roller=actor, purpose="stabilize",
                       label=f"stabilize {action.target}: medic {healer.attr('medic')} - |{patient.hp}| vs {rounds}",
                       for_seq=cause)
    if rolled.hits >= rounds:
        harm.stable(scribe, action.target, found, rolled.seq or cause, f"stabilized by {actor}")


def _break(name: str, attributes: tuple[str, str]) -> Handler:
    """Putting out a fire, breaking free: a standard action, the better attribute against
    ``break_free``, less 1 a move action spent on it (``effort=N``), at least 1."""
    def handler(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
        who = Fighter(scribe.state, actor)
        found = who.effect(name)
        if found is None:
            raise RefusedError(f"{actor} is not {name}: nothing to {'put out' if name == 'burning' else 'break'}")
        use = max(attributes, key=who.attr)
        effort = action.params.get("effort", 0)
        if not isinstance(effort, int) or isinstance(effort, bool) or effort < 0:
            raise RefusedError(f"effort={effort!r}: the move actions spent, a whole number", code="rules.incomplete")
        target = max(1, who.options.break_free - effort)
        rolled = roll_pool(scribe, who.attr(use) - who.stagger(), who.options, roller=actor, purpose="check",
                           label=f"{name}: {use} {who.attr(use)} vs {target}"
                           + (f" ({effort} move actions spent)" if effort else ""), for_seq=cause)
        if rolled.hits >= target:
            scribe.emit(EffectExpired(cause=cause, effect=found.effect, target=actor, reason=f"{use} check made"))
    return handler


def delay(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Delay: no action this turn; the turn is taken when one comes out of the delay
    (``undelay``, in another's turn), at the end of that turn, and one's place in the
    sequence is there from then on."""
    scribe.emit(StatusChanged(actor=actor, status="delaying", cause=cause, note="delays the turn"))


def nothing(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Talking, dropping, picking up, looking: the declaration is all."""


def setting(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    """Changing a fire type (a free action): the declaration is all, to a mode the weapon has."""
    weapon = Fighter(scribe.state, actor).weapon(action.weapon)
    check_fires(action, weapon)
    if action.mode is not None:
        mode_of(weapon, action)  # refused when the weapon lacks it (rules.fire-mode)


HANDLERS: Final[Mapping[str, Handler]] = {
    "aim": aim, "hold_aim": hold_aim, "stance": stance, "move": move, "sprint": sprint, "reload": reload,
    "draw": draw, "total_defense": total_defense, "stabilize": stabilize, "delay": delay,
    "extinguish": _break("burning", ("intelligence", "savvy")), "break_free": _break("frozen", ("strength", "body")),
    "grapple": grapple.grapple, "escape": grapple.escape,
    "say": nothing, "drop": nothing, "setting": setting, "cook": fuses.cook, "ready": readying.ready,
    "pick_up": nothing, "perceive": nothing,
}
