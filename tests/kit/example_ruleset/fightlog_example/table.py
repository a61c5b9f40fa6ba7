"""Live play and scripted fights for ``example``: the kit's table skeleton filled in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from msgspec import Struct
from pydantic import Field

from fightlog.errors import RefusedError
from fightlog.events.model import (AttackResolved, CombatantJoined, DamageApplied, DeclarationPosted, InitiativeSet,
                                   RoundEnded, RoundStarted, StatusChanged, TurnEnded, TurnStarted)
from fightlog.kit.fighters import absent
from fightlog.kit.inputs import Seq, Strict
from fightlog.kit.options import SceneOptions, read_options
from fightlog.kit.rosters import RosterFormat
from fightlog.kit.table import Post, Scribe
from fightlog.kit.table_base import TableBase
from fightlog.kit.turn_keeping import open_turn, starting, takers
from fightlog_example.ruleset import ACTION_TYPES, OUT


class ExampleOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    hit_on: int = 10


class Sheet(Strict):
    hp: int = Field(ge=1)


class Combatant(Strict):
    id: str
    name: str
    side: str
    sheet: Sheet


class Roster(Strict):
    combatants: Seq[Combatant]


ROSTERS: Final = RosterFormat(Roster, Sheet, (Roster, Combatant, Sheet))
options_of: Final = SceneOptions(lambda data: read_options(ExampleOptions, data, ruleset="example"),
                                  fallback=ExampleOptions())


def hit(score: int, options: ExampleOptions) -> bool:
    """The one rule: a hit on ``hit_on`` or more (the table and the audit both ask it)."""
    return score >= options.hit_on


class ExampleTable(TableBase):
    id = "example"
    option_type = ExampleOptions
    action_types = ACTION_TYPES
    out = OUT

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> ExampleOptions:
        return read_options(ExampleOptions, overrides, ruleset="example", where=where)

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        return [CombatantJoined(actor=c.id, name=c.name, side=c.side, pools={"hp": c.sheet.hp}, sheet={"hp": c.sheet.hp})
                for c in ROSTERS.load_roster(path).combatants]

    def open_fight(self, scribe: Scribe) -> None:
        scribe.emit(InitiativeSet(order=starting(scribe.state, OUT), reason="order joined"))
        scribe.emit(RoundStarted(round=1))
        self._next(scribe)

    def close_turn(self, scribe: Scribe) -> None:
        scribe.emit(TurnEnded(actor=open_turn(scribe.state), round=scribe.state.turn.round))
        self._next(scribe)

    def _next(self, scribe: Scribe) -> None:
        turn = scribe.state.turn
        waiting = [a for a in takers(scribe.state, OUT) if a not in turn.acted]
        if not waiting:
            scribe.emit(RoundEnded(round=turn.round))
            scribe.emit(RoundStarted(round=turn.round + 1))
            waiting = takers(scribe.state, OUT)
        scribe.emit(TurnStarted(actor=waiting[0], round=scribe.state.turn.round))

    def play(self, scribe: Scribe, post: Post) -> None:
        if scribe.state.turn.current != post.actor:
            raise RefusedError(f"out of turn: it is {scribe.state.turn.current}'s turn to post", code="order.out-of-turn")
        declared = scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, actions=list(post.actions)))
        for action in post.actions:
            if action.type == "attack":
                self._attack(scribe, post.actor, action.target, declared)

    def _attack(self, scribe: Scribe, attacker: str, target: str | None, declared: int) -> None:
        who = scribe.state.combatants.get(target or "")
        if who is None or not OUT.isdisjoint(who.statuses):
            raise absent(scribe.state, str(target))
        rolled, seq = scribe.roll("1d20", roller=attacker, purpose="attack", for_seq=declared)
        options = options_of(scribe.state)
        landed = hit(rolled.total, options)
        resolved = scribe.emit(AttackResolved(attacker=attacker, target=who.actor, hit=landed, score=rolled.total,
                                              against=options.hit_on, rolls=[seq], declaration=declared))
        if landed:
            damage, _ = scribe.roll("1d6", roller=attacker, purpose="damage", for_seq=resolved)
            taken = min(damage.total, who.pools.get("hp", 0))
            scribe.emit(DamageApplied(target=who.actor, raw=damage.total, taken=taken, cause=resolved))
            if taken >= who.pools.get("hp", 0):
                scribe.emit(StatusChanged(actor=who.actor, status="defeated", cause=resolved))


TABLE: Final = ExampleTable()
