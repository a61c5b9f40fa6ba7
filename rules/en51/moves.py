"""Move actions (Movement): declared in one's turn, the mover a moving target at once, and all
resolved together at the end of the turn, in the order declared: those still able to arrive,
then carry out what they combined with the move (a melee attack, a ranged attack using
Defense, Cover or Hide)."""

from __future__ import annotations

from typing import Any

from fightlog.events.model import Action, EffectApplied, EffectExpired, Moved, StatusChanged
from fightlog.kit.declared import voided
from fightlog.kit.table import Scribe
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.en51 import attack, harm, tactics
from fightlog.rules.en51.fighters import Fighter

_KEPT = ("target", "weapon", "mode", "distance")


def kept(action: Action, declaration: int, answer: int | None = None) -> dict[str, Any]:
    """``action`` kept in an effect's params (``then``: its type), with the declaration."""
    params: dict[str, Any] = {"declaration": declaration, "then": action.type}
    if answer is not None:
        params["answer"] = answer
    params.update({k: getattr(action, k) for k in _KEPT if getattr(action, k) is not None})
    params.update({f"p_{k}": v for k, v in action.params.items()})
    return params


def declare(scribe: Scribe, actor: str, move: Action, then: Action | None, declaration: int) -> None:
    """The move as declared: the mover is a moving target; it waits for the end of the turn."""
    params: dict[str, Any] = {"metres": move.distance or 0, "declaration": declaration}
    if then is not None:
        params.update(kept(then, declaration))
    scribe.emit(StatusChanged(actor=actor, status="moving", cause=declaration))
    scribe.emit(EffectApplied(effect=f"move-{scribe.next_seq}", name="move", target=actor, source=actor,
                              cause=declaration, params=params))


def _then(effect: ActiveEffect) -> Action | None:
    kind = effect.params.get("then")
    if not isinstance(kind, str):
        return None
    fields = {k: effect.params[k] for k in _KEPT if k in effect.params}
    params = {k[2:]: v for k, v in effect.params.items() if k.startswith("p_")}
    return Action(type=kind, params=params, **fields)


def _answer(state: SceneState, declaration: int) -> ActiveEffect | None:
    return next((e for e in state.effects.values() if e.name == "answer"
                 and e.params.get("declaration") == declaration), None)


def waiting_attacks(state: SceneState, target: str) -> list[attack.Swing]:
    """The attacks combined with a move, on ``target``, not answered yet (in the order declared)."""
    out = []
    for effect in sorted((e for e in state.effects.values() if e.name == "move"), key=lambda e: e.applied):
        then = _then(effect)
        declaration = int(effect.params.get("declaration", 0))
        if then is not None and then.type == "attack" and then.target == target and _answer(state, declaration) is None:
            out.append(attack.Swing(effect.target, target, then, declaration))
    return out


def resolve_all(scribe: Scribe) -> None:
    """Every move of the turn, in the order declared."""
    moves = sorted((e for e in scribe.state.effects.values() if e.name == "move"), key=lambda e: e.applied)
    for effect in moves:
        _arrive(scribe, effect)


def _void(scribe: Scribe, effect: ActiveEffect, answer: ActiveEffect | None) -> None:
    """A move whose post a ruling voided: not played (no move, nothing combined with it, no
    answer to it rolled); its effects end citing nothing voided."""
    if answer is not None:
        scribe.emit(EffectExpired(effect=answer.effect, target=answer.target, reason="the move's post was voided"))
    scribe.emit(EffectExpired(effect=effect.effect, target=effect.target, reason="the post was voided: not played"))
    if Fighter(scribe.state, effect.target).has("moving"):
        scribe.emit(StatusChanged(actor=effect.target, status="moving", on=False, note="the post was voided"))


def _arrive(scribe: Scribe, effect: ActiveEffect) -> None:
    actor = effect.target
    declaration = int(effect.params.get("declaration", 0))
    who = Fighter(scribe.state, actor)
    answer = _answer(scribe.state, declaration)
    if voided(scribe.state, declaration):
        _void(scribe, effect, answer)
        return
    if answer is not None and voided(scribe.state, int(answer.params.get("answer", 0))):
        scribe.emit(EffectExpired(effect=answer.effect, target=actor, reason="the answer's post was voided"))
        answer = None
    reply = None if answer is None else (int(answer.params.get("answer", 0)), _then(answer))
    if answer is not None:
        scribe.emit(EffectExpired(effect=answer.effect, target=actor, reason="the attack answered resolved"))
    rolled = who.has("rolling")  # rolling with a hit replaces the move after half the distance (Roll with it)
    scribe.emit(EffectExpired(effect=effect.effect, target=actor,
                              reason="stopped" if who.out else "rolled with a hit" if rolled else "arrived"))
    scribe.emit(StatusChanged(actor=actor, status="moving", on=False, cause=declaration))
    if who.out:
        return
    metres = int(effect.params.get("metres", 0))
    scribe.emit(Moved(actor=actor, metres=metres // 2 if rolled else metres, cause=declaration))
    if rolled:  # the action replaced is the move: not the next turn's too
        harm.rolled_off(scribe, actor, declaration, "rolling with it replaced the move")
    tactics.leave_cover(scribe, actor, declaration)
    then = _then(effect)
    if then is None or rolled:
        return
    if then.type == "attack" and then.target is not None:
        answered = None if reply is None or reply[1] is None else (reply[0], reply[1])
        attack.resolve(scribe, attack.Swing(actor, then.target, then, declaration), answered, moved=True)
    elif then.type in ("cover", "hide"):
        tactics.TACTICS[then.type](scribe, actor, then, declaration)
