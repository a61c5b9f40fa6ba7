"""A ruling checked against the whole log it joins (``fightlog rule``).

``audit_ruled``: the log as ruled must fold and audit (findings are the log's business; an
error is the ruling's). ``refuse_stalling``: a fight in progress is left where ``play`` can
move it on. The ruling's own change is checked before, by ``fightlog.audit.amendment``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fightlog.audit.auditor import Report, audit_events
from fightlog.errors import FightlogError, FoldError, InputError
from fightlog.events.model import AnyEvent, CombatantJoined, InitiativeSet, RoundStarted, RulingMade, TurnStarted
from fightlog.reducers.fold import fold, plan_of


def audit_ruled(events: Sequence[AnyEvent], ruling: RulingMade, *, name: str) -> Report:
    """The audit of ``events`` with ``ruling`` after them: the log as it would be ruled.
    ``InputError`` naming the ruling when that log does not fold or cannot be audited."""
    try:
        return audit_events([*events, ruling])
    except FightlogError as exc:
        line = exc.line if isinstance(exc, InputError) else None
        message = exc.message
        if isinstance(exc, FoldError) and line == ruling.seq:  # about the ruling itself
            raise InputError(message, path=name, line=ruling.target) from None
        at = f" at seq {line}" if line else ""
        raise InputError(
            f"{ruling.action} of seq {ruling.target}: the log as ruled cannot be audited{at}: {message}",
            path=name,
            line=ruling.target,
        ) from None


def refuse_stalling(events: Sequence[AnyEvent], ruling: RulingMade, *, name: str) -> None:
    """Refuse a void or amendment that would leave a fight in progress where ``play`` cannot
    move it on, a state no rules make: the turn open now without its ``turn_started`` (no
    turn to end, a fight begun already), the round under way without its ``round_started``
    (a fight in no round), no posting order left (nobody to pass the turn to), a join
    ruled so that someone in the order, or with the open turn, is no longer in the fight (no
    post of theirs, nor an end of their turn, is then possible). Each says what to do
    instead (``InputError`` at the event ruled on)."""
    log, target = name, ruling.target
    event = events[target - 1]
    if ruling.action not in ("void", "amend") or not isinstance(
            event, (TurnStarted, RoundStarted, InitiativeSet, CombatantJoined)):
        return
    rulings = [e for e in events if isinstance(e, RulingMade)]
    state = fold(events, plan=plan_of(rulings))  # as ruled so far
    turn = state.turn
    if state.scene is None or state.scene.ended or turn.round == 0:
        return
    ruled = fold(events, plan=plan_of([*rulings, ruling]))
    after = ruled.turn
    done = "voided" if ruling.action == "void" else "amended so"
    if isinstance(event, CombatantJoined):
        gone = [a for a in (*after.order, *([after.current] if after.current else [])) if a not in ruled.combatants]
        if gone:
            raise InputError(
                f"seq {target} joined {event.actor}: {done}, {gone[0]} would be in the posting order but not in the "
                f"fight, and play could not pass their turn (amend the posting order first, or leave the join)",
                path=log, line=target,
            )
        return
    if isinstance(event, TurnStarted) and turn.current is not None and after.current is None:
        raise InputError(
            f"seq {target} opened {turn.current}'s turn, open now: {done}, the fight would have no turn open "
            f"and play could neither end it nor begin again (end the turn instead: fightlog play end-turn "
            f"{log}; or amend who has it: --set actor=ID)",
            path=log, line=target,
        )
    if isinstance(event, RoundStarted) and turn.in_round and not after.in_round:
        raise InputError(
            f"seq {target} opened round {turn.round}, under way: {done}, the fight would be in no round and play "
            f"could not go on (end the scene instead: fightlog play end {log}; or void or amend what the round "
            "got wrong)",
            path=log, line=target,
        )
    if isinstance(event, InitiativeSet) and turn.order and not after.order:
        raise InputError(
            f"seq {target} set the only posting order ({', '.join(turn.order)}): {done}, the fight would have no "
            f"order and play could pass the turn to nobody (amend it instead: --set 'order=[\"ID\", ...]')",
            path=log, line=target,
        )
