"""Extended actions (Extended Action): a task of several rounds, such as a repair or a
hack under fire.

``task skill=NAME characteristic=INT rounds=N`` (a significant action): the first starts the
task with a check (2D + skill + characteristic DM, 8+; a failure starts nothing), each later
one adds a round of progress; the task is done when no rounds are left. Damaged while at it,
the worker checks again with the damage as a negative DM: a failure loses this round's
progress, and an Effect of -6 or worse spoils the task.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied, EffectExpired
from fightlog.kit.fighters import Mods
from fightlog.kit.table import Scribe
from fightlog.rules.traveller.card import CHARACTERISTICS, SKILLS
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import Fighter

TASK: Final = "task"
SPOILED: Final = -6


def _mods(who: Fighter, skill: str, characteristic: str) -> Mods:
    return [m for m in (who.skill(skill), (who.dm(characteristic), f"{characteristic} DM"), *who.check_mods()) if m[0]]


def task(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    ident = f"{TASK}-{actor}"
    going = scribe.state.effects.get(ident)
    if going is not None:
        left = (going.remaining or 0) - 1
        if left <= 0:
            scribe.emit(EffectExpired(cause=declaration, effect=ident, target=actor, reason="done"))
        else:
            _set(scribe, actor, going.params, left, scribe.state.turn.round, declaration)
        return
    skill, characteristic = str(action.params.get("skill", "")), str(action.params.get("characteristic", "EDU"))
    rounds = action.params.get("rounds", 1)
    if characteristic not in CHARACTERISTICS or not isinstance(rounds, int) or rounds < 1 or not skill:
        raise RefusedError("task skill=NAME characteristic=STR|DEX|END|INT|EDU|SOC rounds=N (N >= 1)")
    if skill not in SKILLS:
        raise RefusedError(f"task skill={skill}: no such Traveller skill")
    rolled, seq = scribe.roll("2d6", roller=actor, purpose="task", modifiers=_mods(who, skill, characteristic),
                              for_seq=declaration)
    if effect(rolled.total, who.options) >= 0:
        _set(scribe, actor, {"skill": skill, "characteristic": characteristic}, rounds, 0, seq)


def _set(scribe: Scribe, actor: str, params: Mapping[str, Any], left: int, progressed: int, cause: int) -> None:
    """The task with ``left`` rounds to go, last advanced in round ``progressed`` (0: not yet)."""
    ident = f"{TASK}-{actor}"
    scribe.emit(EffectApplied(effect=ident, name=TASK, target=actor, duration=left, cause=cause,
                              refreshes=ident if ident in scribe.state.effects else None,
                              params={"skill": params["skill"], "characteristic": params["characteristic"],
                                      "progressed": progressed}))


def damaged(scribe: Scribe, actor: str, amount: int, cause: int) -> None:
    """A worker damaged while at an extended task checks again, the damage as a negative DM:
    a failure loses this round's progress, an Effect of -6 or worse spoils the task."""
    ident = f"{TASK}-{actor}"
    going = scribe.state.effects.get(ident)
    if going is None or amount <= 0:
        return
    who = Fighter(scribe.state, actor)
    skill, characteristic = str(going.params.get("skill")), str(going.params.get("characteristic"))
    mods = [*_mods(who, skill, characteristic), (-amount, "damage")]
    rolled, seq = scribe.roll("2d6", roller=actor, purpose="task", modifiers=mods, for_seq=cause)
    margin = effect(rolled.total, who.options)
    if margin <= SPOILED:
        scribe.emit(EffectExpired(cause=cause, effect=ident, target=actor, reason="spoiled"))
    elif margin < 0 and going.params.get("progressed") == scribe.state.turn.round:
        _set(scribe, actor, going.params, (going.remaining or 0) + 1, 0, seq)
