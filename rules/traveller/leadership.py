"""Leadership (Significant Action: Leadership).

2D + Leadership + the best of INT, EDU and SOC DM. On success the leader holds Effect many
DM+1 (a ``leadership`` effect whose remaining count is what is left), handed out one at a
time with ``encourage target=ALLY`` (talking: free): the ally's next check takes DM+1. On
failure the other side's first standing combatant holds the negative Effect's worth instead
(``leadership_failure``). DM+1s not handed out lapse when the next round ends (``turns``).
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied, EffectExpired, EffectTicked
from fightlog.kit.table import Scribe
from fightlog.rules.traveller.attack import used_up
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import ENCOURAGED, LEADERSHIP, Fighter
from fightlog.rules.traveller.initiative import side_of


def lead(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    dm, name = who.best("INT", "EDU", "SOC")
    mods = [who.skill("leadership"), (dm, f"{name} DM"), *who.check_mods()]
    rolled, seq = scribe.roll("2d6", roller=actor, purpose="leadership", modifiers=[m for m in mods if m[0]],
                              for_seq=declaration)
    used_up(scribe, Fighter(scribe.state, actor), declaration)
    margin = effect(rolled.total, who.options)
    holder = actor
    if margin < 0:
        if who.options.leadership_failure == "none":
            return
        side = side_of(scribe.state, actor)
        others = [a for a in scribe.state.turn.order
                  if side_of(scribe.state, a) != side and not Fighter(scribe.state, a).out]
        if not others:
            return
        holder = others[0]
    if margin == 0:
        return
    scribe.emit(EffectApplied(effect=f"{LEADERSHIP}-{seq}", name=LEADERSHIP, target=holder, source=actor,
                              duration=abs(margin), cause=seq,
                              params={"effect": margin, "round": scribe.state.turn.round}))


def encourage(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    """Hand one DM+1 of a leadership effect to an ally (free)."""
    who = Fighter(scribe.state, actor)
    held = [e for e in who.effects(LEADERSHIP) if (e.remaining or 0) > 0]
    if not held:
        raise RefusedError(f"{actor} holds no leadership DM+1 to hand out")
    ally = Fighter(scribe.state, action.target or "")
    if side_of(scribe.state, ally.actor) != side_of(scribe.state, actor):
        raise RefusedError(f"{ally.actor} is not on {actor}'s side", code="rules.target")
    source = held[0]
    left = (source.remaining or 0) - 1
    if left:
        scribe.emit(EffectTicked(effect=source.effect, target=actor, remaining=left))
    else:
        scribe.emit(EffectExpired(cause=declaration, effect=source.effect, target=actor, reason="handed out"))
    scribe.emit(EffectApplied(effect=f"{ENCOURAGED}-{declaration}-{ally.actor}", name=ENCOURAGED, target=ally.actor,
                              source=actor, magnitude=1, cause=declaration))
