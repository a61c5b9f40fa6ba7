"""The RoE audit's checks of effects (``audit.Roe7Audit``), and what the checks remember of
them: which stuns, lost actions and damaging debuffs were applied to whom, when an effect
ended, whether the open turn's start-of-turn phase is over, and the lost actions natural 1s
owe.

- ``effect_ticked`` / ``effect_counted_down``: ticks only for damaging debuffs
  (``harm.DAMAGING``), once, at the start of the victim's turn, of an effect still active;
  a tick missed is reported when the start-of-turn phase ends (``_close``: the turn's first
  post, or its end).
- a natural 1 (on an attack, a dodge, a skill roll) costs its roller their next action: a
  lost action (an effect, or a status in a hand-kept log) must follow before the turn ends
  (``_owe``, ``_settle``; Critical Success or Failure).
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import FightlogError
from fightlog.events.model import (
    AttackResolved,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    Event,
    StatusChanged,
)
from fightlog.kit.checks import AuditView
from fightlog.kit.countdowns import TurnCountdowns
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.roe7.audit_earned import KIND_OF, unearned
from fightlog.rules.roe7.audit_rolls import RollChecks
from fightlog.rules.roe7.fighters import Fighter, ran_out
from fightlog.rules.roe7.harm import DAMAGING
from fightlog.rules.roe7.ruleset import OUT
from fightlog.rules.roe7.table import RESTRICTING

LOST: Final = frozenset({"lost_action", "lost_turn"})
"""The effects a natural 1 leaves (``conditions.lose_action``)."""

LOST_STATUSES: Final = frozenset({"lost_action", "lost_turn", "action_lost"})
"""The same written as a status, as hand-kept logs do."""

_MEMORY: Final = 4096
"""How many ended effects are remembered for messages (the oldest half is dropped beyond)."""


def _hyperactive(state: SceneState, actor: str) -> bool:
    """Whether ``actor`` is a Hyperactivity feral (a sheet that does not read: no)."""
    if actor not in state.combatants:
        return False
    try:
        return Fighter(state, actor).racial == "hyperactivity"
    except FightlogError:
        return False


def _strength_of(name: str, magnitude: int | None, turns: int | None) -> str:
    """``5 a turn for 5 turns`` (a bleed), ``-15 for 1 turn`` (suppression), ``1 turn`` (a stun)."""
    lasting = "no set number of turns" if turns is None else f"{turns} turn{'' if turns == 1 else 's'}"
    if name == "bleed":
        return f"{magnitude} a turn for {lasting}"
    return f"{magnitude} for {lasting}" if name == "suppressed" else lasting


class EffectChecks(RollChecks):
    """The checks of effects and ticks, the start-of-turn phase, and the lost actions
    natural 1s owe."""

    def __init__(self) -> None:
        super().__init__()
        self._closed = -1
        """``turn.started`` of the turn whose start-of-turn phase is over."""
        self._ended: dict[str, tuple[int, str]] = {}
        """Effect id -> (seq, why) it ended (expired, removed or replaced)."""
        self._countdowns = TurnCountdowns(skip=("grenade",))  # a fuse counts on its thrower's turns (explosives)
        self._lost: set[str] = set()
        """Who lost an action (an effect, or a status in a hand-kept log) this turn."""
        self._owed: dict[str, tuple[AttackResolved, str, tuple[object, ...]]] = {}
        """Who owes a lost action this turn -> the outcome whose natural 1 costs it, and why
        (a template and its values, see ``_owe``)."""
        self._restricting: dict[str, dict[str, None]] = {}
        """Victim -> the stuns and lost actions or turns applied to them (effect ids), pruned
        once they end."""
        self._damaging: dict[str, dict[str, None]] = {}
        """Victim -> the damaging debuffs applied to them (effect ids), pruned once they end."""
        self._flagged: set[int] = set()
        """Ticks already reported as of an effect no longer active (their damage is not)."""
        self.stun_ended: dict[str, int] = {}
        """Who is immune to stun (Stun: until the end of their next turn after a stun ends)
        -> ``turn.started`` of the turn it ended in; read from the stun's end itself, so a
        hand-kept log that writes no ``stun_immunity`` is judged too (``PostChecks.turn_ended``
        ends it)."""

    def applied(self, before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
        if event.refreshes is not None:
            self._end(event.refreshes, event.seq, f"replaced by {event.effect}")
        name = event.name
        self.kept_effects.add((event.target, name))
        if name == "bleed" or name == "stun" or name == "suppressed":
            self._strength(before, event, view)
        if name == "stun":
            self._immune(before, event, view)
        if name in KIND_OF and event.cause is not None:
            self._earned(before, name, event.cause, event, event.target, view)
        if name in RESTRICTING:
            self._restricting.setdefault(event.target, {})[event.effect] = None
            if name in LOST:
                self._lost.add(event.target)
                if event.duration is not None and event.duration != 1:  # the next action, or turn: one
                    view.report("rules.effect-wrong", event, f"{event.target}'s {name} lasts {event.duration} turns; "
                                f"a {name.replace('_', ' ')} costs the next one only", actor=event.target)
        elif name in DAMAGING:
            self._damaging.setdefault(event.target, {})[event.effect] = None

    def _immune(self, before: SceneState, event: EffectApplied, view: AuditView) -> None:
        """A stun on someone still stunned, or immune after a stun ended (Stun)."""
        target = event.target
        for effect in before.effects.values():
            if effect.target == target and not ran_out(effect) and effect.name in ("stun", "stun_immunity"):
                why = "is stunned already" if effect.name == "stun" else "is immune to stun (stun_immunity)"
                break
        else:
            if target not in self.stun_ended:
                return
            why = "is immune to stun until the end of their next turn after a stun ended"
        view.report("rules.effect-wrong", event, f"{target} {why}: this stun does not take", actor=target)

    def _strength(self, before: SceneState, event: EffectApplied, view: AuditView) -> None:
        """A bleed deals ``bleed_damage`` a turn for ``bleed_turns``; a stun lasts
        ``stun_turns`` (the scene's options); suppression is ``-suppression_penalty`` to the
        end of the target's next turn (Suppressive Fire); each a turn longer on a
        Hyperactivity feral (``conditions.apply``). What the event leaves out is not judged."""
        opts = self.options(before)
        longer = 1 if _hyperactive(before, event.target) else 0
        if event.name == "bleed":
            want: tuple[int | None, int | None] = (opts.bleed_damage, opts.bleed_turns + longer)
        elif event.name == "suppressed":
            want = (-opts.suppression_penalty, 1 + longer)
        else:
            want = (event.magnitude, opts.stun_turns + longer)
        got = (event.magnitude, event.duration)
        if (got[0] is not None and got[0] != want[0]) or (got[1] is not None and got[1] != want[1]):
            view.report("rules.effect-wrong", event, f"{event.target}'s {event.name}: {_strength_of(event.name, *got)}; "
                        f"the rules give {_strength_of(event.name, *want)}", actor=event.target)

    def status(self, before: SceneState, event: StatusChanged, after: SceneState, view: AuditView) -> None:
        """A lost action written as a status (hand-kept logs) settles a natural 1 too; a
        whip's knock prone is earned by its hit."""
        if event.on and event.status in LOST_STATUSES:
            self._lost.add(event.actor)
        if event.on and event.status == "prone" and event.cause is not None:
            self._earned(before, "prone", event.cause, event, event.actor, view)

    def _earned(self, before: SceneState, name: str, cause: int, event: Event, target: str, view: AuditView) -> None:
        """An effect citing an attack: that attack earned it (``audit_earned``)."""
        attack = view.event(cause)
        if type(attack) is not AttackResolved:
            return
        opts = self.options(before)
        why = unearned(name, attack, view, opts, lambda text: self.weapon(text, opts, before, attack.attacker))
        if why is not None:
            view.report("rules.effect-wrong", event, f"{target}'s {why}", actor=target)

    # ------------------------------------------------------------------ lost actions

    def _owe(self, actor: str, event: AttackResolved, why: str, *args: object) -> None:
        """A natural 1 costs ``actor`` their next action: a lost action must follow before the
        turn ends (checked by ``turn_ended``). ``why`` is a ``str.format`` template of
        ``args``, written out only if a finding needs it."""
        owed = self._owed
        if actor not in owed:
            owed[actor] = (event, why, args)

    def _settle(self, before: SceneState, view: AuditView) -> None:
        for actor, (event, why_format, args) in self._owed.items():
            if actor in self._lost:
                continue
            who = before.combatants.get(actor)
            if who is None or OUT.intersection(who.statuses):
                continue  # no debuff lands on someone out of the fight
            why = why_format.format(*args)
            view.report(
                "rules.critical", event,
                f"{why}, which costs {actor} their next action, but no lost action followed", actor=actor,
            )
        self._owed.clear()
        self._lost.clear()

    # ------------------------------------------------------------------ ticks

    def ticked(self, before: SceneState, event: EffectTicked, after: SceneState, view: AuditView) -> None:
        """A tick: of an active damaging debuff, once, at the start of its victim's turn."""
        victim = event.target
        effect = before.effects.get(event.effect)
        if effect is None:
            self._flag(event.seq)
            view.report(
                "rules.expired-effect", event, f"{event.effect} ticked on {victim} {self._gone(event.effect)}",
                actor=victim,
            )
            return
        name = effect.name
        if name not in DAMAGING:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked on {victim}, but only damaging debuffs tick "
                "(bleed, chemical burn)",
                actor=victim,
            )
            return
        if effect.target != victim:
            view.report(
                "rules.tick-wrong", event, f"the tick names {victim}, but {event.effect} is on {effect.target}",
                actor=victim,
            )
            return
        if self._untimely(before, event, effect, view):
            return
        self._tick_on(before, event, effect, view)

    def _untimely(self, before: SceneState, event: EffectTicked, effect: ActiveEffect, view: AuditView) -> bool:
        """``ticked``: a tick outside its victim's start-of-turn phase, of an effect applied
        after the turn began, or a second one in the turn (reported: ``True``)."""
        victim, name = event.target, effect.name
        turn = before.turn
        if turn.current != victim or self._closed == turn.started:
            when = (
                f"after {victim}'s turn had begun (ticks come before the post)" if turn.current == victim
                else f"in {turn.current}'s turn" if turn.current is not None else "between turns"
            )
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked on {victim} {when}: it ticks at the start of "
                f"{victim}'s turn",
                actor=victim,
            )
            return True
        if effect.applied > turn.started:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} was applied at seq {effect.applied}, after {victim}'s turn began: it first ticks "
                f"at the start of {victim}'s next turn",
                actor=victim,
            )
            return True
        start = view.turn_start.effects.get(event.effect)
        if start is not None and effect.ticks > start.ticks:
            view.report(
                "rules.tick-extra", event,
                f"{event.effect} ({name.replace('_', ' ')}) ticked twice at the start of {victim}'s turn "
                f"(round {turn.round}): once a turn",
                actor=victim,
            )
            return True
        return False

    def _tick_on(self, before: SceneState, event: EffectTicked, effect: ActiveEffect, view: AuditView) -> None:
        """``ticked``, in its time: not on someone out of the fight, with the turns left."""
        victim = event.target
        who = before.combatants.get(victim)
        if who is not None:
            gone = OUT.intersection(who.statuses)
            if gone:
                view.report(
                    "rules.tick-extra", event,
                    f"{event.effect} ticked on {victim}, who is out of the fight ({', '.join(sorted(gone))}): "
                    "ticks stop",
                    actor=victim,
                )
                return
        if event.remaining is not None and event.remaining != effect.remaining:
            view.report(
                "rules.tick-wrong", event,
                f"the tick of {event.effect} on {victim} records {event.remaining} turn{'s' if event.remaining != 1 else ''} left; it has "
                f"{effect.remaining}",
                actor=victim,
            )

    def counted_down(self, before: SceneState, event: EffectCountedDown, after: SceneState, view: AuditView) -> None:
        found = before.effects.get(event.effect)
        if found is not None:
            self._countdowns.counted(before, event, after, view)
            if event.remaining == 0:  # ended, whether or not an expiry follows
                self._stun_ends(before, found)
            return
        view.report(
            "rules.expired-effect", event,
            f"{event.effect} on {event.target} was counted down {self._gone(event.effect)}", actor=event.target,
        )

    def expired(self, before: SceneState, event: EffectExpired, after: SceneState, view: AuditView) -> None:
        found = before.effects.get(event.effect)
        if found is not None:
            self._stun_ends(before, found)
        ended = self._ended  # ``_end``, written out
        if len(ended) >= _MEMORY:
            for old in list(ended)[: _MEMORY // 2]:
                del ended[old]
        ended[event.effect] = (event.seq, event.reason)

    def _stun_ends(self, before: SceneState, effect: ActiveEffect) -> None:
        """``effect`` ends (expired, or counted down to 0): a stun's end starts its victim's
        immunity (``stun_ended``)."""
        if effect.name == "stun":
            self.stun_ended[effect.target] = before.turn.started

    def _end(self, effect: str, seq: int, why: str) -> None:
        ended = self._ended
        if len(ended) >= _MEMORY:
            for old in list(ended)[: _MEMORY // 2]:
                del ended[old]
        ended[effect] = (seq, why)

    def _gone(self, effect: str) -> str:
        ended = self._ended.get(effect)
        if ended is None:
            return "although it is not active (never applied, or ended long before)"
        return f"after it had ended at seq {ended[0]} ({ended[1]})"

    def _flag(self, seq: int) -> None:
        if len(self._flagged) > 64:
            self._flagged.clear()
        self._flagged.add(seq)

    def _close(self, before: SceneState, event: Event, view: AuditView) -> None:
        """The start-of-turn phase is over (the turn's first post, or its end): every damaging
        debuff on the actor at the turn's start must have ticked by now. Called once a turn;
        returns at once when no damaging debuff was applied to the actor (the common case)."""
        turn = before.turn
        self._closed = turn.started
        actor = turn.current
        if actor is None:
            return
        damaging = self._damaging.get(actor)
        if not damaging:
            return
        start = view.turn_start
        if start.turn.started != turn.started:
            return
        for eid in list(damaging):
            now = before.effects.get(eid)
            if now is None or now.name not in DAMAGING or now.target != actor or ran_out(now):
                del damaging[eid]  # ended
                continue
            effect = start.effects.get(eid)
            if effect is None or now.ticks > effect.ticks:
                continue
            who = before.combatants.get(actor)
            if who is None or OUT.intersection(who.statuses):
                return  # ticks stop once the victim is out
            view.report(
                "rules.tick-missing", event,
                f"{eid} ({effect.name.replace('_', ' ')}) on {actor} did not tick at the start of {actor}'s turn "
                f"(round {turn.round}, seq {turn.started}): its damage comes before the post",
                actor=actor,
            )

    # ------------------------------------------------------------------ stuns and lost actions

    def _restricting_on(self, state: SceneState, actor: str) -> list[ActiveEffect]:
        """The ``RESTRICTING`` effects on ``actor`` (stun, a lost action or turn), by id, from
        those applied in the scene (pruned once they end, as at 0 turns left: Debuffs removes
        an effect counted down to 0, which a hand-kept log may not say with an expiry)."""
        memo = self._restricting.get(actor)
        if not memo:
            return []
        found: list[ActiveEffect] = []
        effects = state.effects
        for eid in list(memo):
            effect = effects.get(eid)
            if effect is None or effect.name not in RESTRICTING or effect.target != actor or ran_out(effect):
                del memo[eid]  # ended
            else:
                found.append(effect)
        if len(found) > 1:
            found.sort(key=_effect_id)
        return found


def _effect_id(effect: ActiveEffect) -> str:
    return effect.effect
