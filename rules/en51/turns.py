"""The turn structure (Combat; Surprise; Movement; Roll with it). An en5.1 *turn* is a fightlog
round: everyone takes one combat action in it, each in a fightlog turn of their own.

``begin`` decides the order (as joined, or a surprise: the surprising side first, named or
rolled for) and opens round 1. ``end_turn`` resolves the attacks of the turn nobody answered,
then opens the next; a combatant whose action is spent (a counterattack, rolling with it)
has their turn opened and closed. A new round first ends the old: moves resolved in the order
declared, then the turn's guards, aims and waits lapse.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.errors import RefusedError
from fightlog.events.model import (Action, EffectExpired, InitiativeRolled, InitiativeSet, RoundEnded, RoundStarted,
                                   StatusChanged, TurnEnded, TurnStarted)
from fightlog.kit.table import Scribe
from fightlog.kit.turn_keeping import open_turn, starting, takers
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.en51 import attack, harm, moves
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.options import En51Options, options_of
from fightlog.rules.en51.ruleset import ANSWERS, OUT

LOST = ("spent", "rolling")
"""Statuses that cost the next turn's action: a counterattack made, rolling with it."""

LAPSE_EACH_TURN = ("guard", "waiting")
LAPSE_AFTER_NEXT = ("aim", "readied")


def sides(state: SceneState, fighters: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The sides in the order their first member joined, with their members."""
    out: dict[str, list[str]] = {}
    for actor in fighters:
        out.setdefault(state.combatants[actor].side or actor, []).append(actor)
    return list(out.items())


def _order(scribe: Scribe, fighters: list[str], options: En51Options) -> tuple[list[list[str]], str]:
    state = scribe.state
    teams = sides(state, fighters)
    if options.surprise == "none":
        return [fighters], "as joined"
    if options.surprise == "side":
        if options.surprising_side not in (s for s, _ in teams):
            raise RefusedError(f"en51 option 'surprising_side': {options.surprising_side!r} is no side in the fight "
                               f"(sides: {', '.join(s for s, _ in teams)})")
        first = [m for s, m in teams if s == options.surprising_side]
        rest = [m for s, m in teams if s != options.surprising_side]
        return first + rest, f"surprise: {options.surprising_side} acts first"
    scored = []
    for index, (side, members) in enumerate(teams):
        traits = sum(Fighter(state, m).card.surprise for m in members)
        rolled, seq = scribe.roll("1d20", roller=members[0], purpose="surprise", label=f"surprise: {side}",
                                  modifiers=[(traits, "traits")] if traits else ())
        scribe.emit(InitiativeRolled(actor=members[0], score=rolled.total, roll=seq, group=members))
        players = any(state.combatants[m].role == "pc" for m in members)
        scored.append((-rolled.total, not players, index, members))
    scored.sort()
    return [members for *_, members in scored], "surprise: the highest team roll first, a draw to the players"


def begin(scribe: Scribe) -> None:
    state = scribe.state
    options = options_of(state)
    groups, reason = _order(scribe, starting(state, OUT), options)
    scribe.emit(InitiativeSet(order=[a for group in groups for a in group], reason=reason))
    if options.surprise != "none":
        for group in groups[1:]:
            for actor in group:
                scribe.emit(StatusChanged(actor=actor, status="surprised", note="acts after the surprising side"))
    scribe.emit(RoundStarted(round=1))
    open_next(scribe)


def open_next(scribe: Scribe) -> None:
    """Open the next turn; a new round when everyone has acted."""
    for _ in range(4 * len(scribe.state.combatants) + 4):
        turn = scribe.state.turn
        eligible = takers(scribe.state, OUT)
        waiting = [a for a in eligible if a not in turn.acted]
        if not waiting:
            if not eligible:
                return
            new_round(scribe)
            continue
        actor = waiting[0]
        seq = scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        who = Fighter(scribe.state, actor)
        if who.has("surprised"):
            scribe.emit(StatusChanged(actor=actor, status="surprised", on=False, cause=seq))
        lost = next((s for s in LOST if who.has(s)), None)
        if lost is None:
            return
        if lost == "spent":
            scribe.emit(StatusChanged(actor=actor, status=lost, on=False, cause=seq,
                                      note="the action went on a counterattack"))
        else:
            harm.rolled_off(scribe, actor, seq, "the action lost rolling with it")
        scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))


def new_round(scribe: Scribe) -> None:
    """End the turn (moves resolved, the turn's effects lapsing) and start the next."""
    moves.resolve_all(scribe)
    round_ = scribe.state.turn.round
    for effect in sorted(scribe.state.effects.values(), key=lambda e: e.applied):
        lapsed = effect.name in LAPSE_EACH_TURN or (
            effect.name in LAPSE_AFTER_NEXT and int(effect.params.get("round", 0)) < round_)
        if lapsed:
            scribe.emit(EffectExpired(effect=effect.effect, target=effect.target, reason="the turn ended"))
    for actor in sorted(scribe.state.combatants):
        if Fighter(scribe.state, actor).has("surprised"):
            scribe.emit(StatusChanged(actor=actor, status="surprised", on=False, note="the first turn ended"))
    scribe.emit(RoundEnded(round=round_))
    scribe.emit(RoundStarted(round=round_ + 1))


def attack_of(post: PendingDeclaration) -> Action | None:
    """The attack a post resolves at once or at the end of the fightlog turn (not one
    combined with a move: that waits for the end of the en5.1 turn)."""
    if any(a.type == "move" for a in post.actions):
        return None
    return next((a for a in post.actions if a.type == "attack"), None)


def answer_to(state: SceneState, post: PendingDeclaration) -> PendingDeclaration | None:
    for other in state.pending:
        if other.responds_to == post.seq and any(a.type in ANSWERS for a in other.actions):
            return other
    return None


def cutting_in(state: SceneState) -> dict[int, int]:
    """The held actions cutting in on a post of the open turn (Waiting): the held post's seq
    -> the seq of the post it cuts in on (effect ``cut_in``)."""
    return {int(e.params.get("declaration", 0)): int(e.params.get("before", 0))
            for e in state.effects.values() if e.name == "cut_in"}


def in_order(state: SceneState) -> list[PendingDeclaration]:
    """The open turn's posts in the order they resolve: as declared, except that a held
    action cutting in on a post comes just before it (Waiting: it cuts the other off)."""
    before = cutting_in(state)
    cut = {seq for seq, on in before.items() if any(p.seq == on for p in state.pending)}
    out: list[PendingDeclaration] = []
    for post in state.pending:
        if post.seq in cut:
            continue
        out.extend(p for p in state.pending if p.seq in cut and before[p.seq] == post.seq)
        out.append(post)
    return out


def unanswered(state: SceneState) -> list[tuple[PendingDeclaration, Action]]:
    """The attacks of the open turn still to resolve, in the order they resolve (``in_order``):
    not answered, and not resolved (an answer a GM voided leaves its attack resolved, unless
    the resolution is voided too)."""
    return [(p, a) for p in in_order(state)
            if (a := attack_of(p)) is not None and a.target not in p.resolved and answer_to(state, p) is None]


def resolve_cut_ins(scribe: Scribe, declaration: int) -> None:
    """Resolve the held attacks still unanswered that cut in on the post ``declaration``,
    before it is resolved (Waiting)."""
    before = cutting_in(scribe.state)
    for post, action in unanswered(scribe.state):
        if before.get(post.seq) == declaration and action.target is not None:
            attack.resolve(scribe, attack.Swing(post.actor, action.target, action, post.seq), None)


def end_turn(scribe: Scribe) -> None:
    actor = open_turn(scribe.state)
    for post, action in unanswered(scribe.state):
        if action.target is not None:
            attack.resolve(scribe, attack.Swing(post.actor, action.target, action, post.seq), None)
    closing = Fighter(scribe.state, actor)
    if closing.has("spent"):  # a counterattack made in one's own turn is that turn's action
        scribe.emit(StatusChanged(actor=actor, status="spent", on=False, note="the action went on a counterattack"))
    elif closing.has("rolling") and not closing.posted():  # rolled with a hit before acting: this turn's
        harm.rolled_off(scribe, actor, None, "the action lost rolling with it")
    for effect in sorted(scribe.state.effects.values(), key=lambda e: e.applied):
        if effect.name == "cut_in":
            scribe.emit(EffectExpired(effect=effect.effect, target=effect.target, reason="the turn ended"))
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
    open_next(scribe)
