"""The skeleton of a ruleset's ``Table`` (``fightlog.kit.table``): what every ruleset's table
does the same way, once, with the places a ruleset fills in.

A ruleset's table subclasses ``TableBase``, names its ``id``, ``option_type`` (the options
Struct), ``action_types`` (every action type and its cost, the ruleset's ``ACTION_TYPES``)
and ``out`` (the statuses that take a combatant out of the fight), and fills in:

- ``read_options``: overrides read and validated as its options Struct;
- ``joins``: the ``combatant_joined`` events of a roster file (its roster module);
- ``open_fight``, ``close_turn``: its turn bookkeeping (the posting order, round 1 and the
  first turn; closing the open turn and opening the next);
- ``play``: a declaration once the shared checks passed (whose turn, the allowance, the
  actions);
- optionally ``joined`` (statuses a combatant joins with: reserve, arriving) and ``placed``
  (who an arrival may be placed after).

The skeleton keeps the rest the same for every ruleset: a join refused when no scene is open,
for a combatant already in, or after someone not in the fight; a refused ``begin``,
``end_turn`` or ``post`` leaves the scribe as it was (``Scribe.attempt``); a post by someone
not in the fight, of an action type the ruleset does not have, or before the fight begins is
refused before the ruleset is asked, and an out-of-character post carries no actions; the
winner of a scene is the one side still standing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import FightlogError, RefusedError, SeedUnavailableError
from fightlog.events.model import Action, CombatantJoined, DeclarationPosted, Json, Moved, SceneEnded
from fightlog.kit.declared import off_the_map, unknown_action, unread_param
from fightlog.kit.fighters import absent
from fightlog.kit.options import as_data
from fightlog.kit.table import Entrant, Post, Scribe, check_responds_to
from fightlog.reducers.derive import standing_sides
from fightlog.reducers.state import SceneState


def require_open(state: SceneState) -> None:
    """Refuse unless a scene is open (started and not ended)."""
    if state.scene is None:
        raise RefusedError("no scene is open")
    if state.scene.ended:
        raise RefusedError(f"the scene {state.scene.scene!r} has ended: nothing more can be written to it")


def not_arrived(state: SceneState, name: str) -> RefusedError | None:
    """The refusal of a post naming ``name`` while they wait to enter the fight (an arrival's
    slot comes in a later round: Entering a Combat in Progress), else ``None``."""
    for arrival in state.turn.arrivals:
        if arrival.actor == name:
            return RefusedError(f"{name} arrives in round {arrival.round}: not in the fight yet", code="rules.target")
    return None


class TableBase:
    """A ``Table`` but for what a ruleset fills in (see the module docstring)."""

    id: str
    option_type: type[Struct]
    action_types: Mapping[str, str | None]
    out: frozenset[str]
    params_read: Mapping[str, tuple[str, ...]] | None = None
    """The params each action type reads (a type not listed reads none): a post writing
    another is refused, as it would change nothing (a name misspelt, ``coverr=half``);
    ``None``: the ruleset checks its params itself."""
    fields_read: Mapping[str, tuple[str, ...]] | None = None
    """The ``Action`` fields each action type reads (``kit.declared.FIELD_KEYS``; a type not
    listed reads none), checked with ``params_read``: ``reload weapon=Rifle target=bob`` is
    refused; ``None``: fields are not checked."""
    distance_from_map: bool = False
    """Whether an attack's distance is measured on the map when both fighters' positions are
    kept (roe7, traveller): a post's ``distance=`` that says otherwise is refused, as the map's
    would be used and the post's shown."""
    no_map: str | None = None
    """Why the ruleset keeps no positions (each post says how far), refusing a position given at
    a join; ``None``: positions are kept."""

    def reserve_refused(self, joined: CombatantJoined) -> str | None:
        """Why ``joined`` may not join in reserve (``join(reserve=True)``, a scenario's
        ``reserve``), refusing it; ``None``: it may. By default a ruleset has no way to bring a
        reserve into the fight (roe7's com call, d20-evasion's summon do)."""
        return f"{self.id} has no way to bring a reserve into the fight: join them when they come (an arrival)"

    def awaiting(self, state: SceneState) -> list[tuple[int, str]]:
        """The open turn's attacks waiting for a defender's answer: ``(post seq, defender)``
        each, in order (none where attacks resolve at once); ``play post`` says so, as
        ``play end-turn`` would resolve them unanswered."""
        return []

    def open_answers(self, state: SceneState, defender: str, seq: int, kinds: Sequence[str]) -> list[str]:
        """Of the answer ``kinds``, those ``defender`` may post to the post at ``seq`` now
        (``play post``'s ``waiting:`` line): each tried on a scratch scribe, nothing written.
        One refused only for what the bare action lacks (a weapon to name:
        ``rules.incomplete``), or at its dice (no seed here), is open; one the rules refuse
        now (a counter after acting, an immediate action spent) is not."""
        out: list[str] = []
        for kind in kinds:
            try:
                self.post(Scribe(state, None), Post(actor=defender, actions=(Action(type=kind),), responds_to=seq))
            except SeedUnavailableError:
                pass  # its checks passed: it rolls
            except RefusedError as refused:
                if refused.code != "rules.incomplete":
                    continue
            except FightlogError:
                pass  # not the rules' refusal: left for the post to say
            out.append(kind)
        return out

    def reads(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """Each action type's ``Action`` fields and params a post may write (``fightlog
        rulesets --actions``): ``fields_read`` and ``params_read``; a ruleset that checks its
        params itself (``params_read`` of ``None``) says what it reads by overriding this."""
        fields, params = self.fields_read or {}, self.params_read or {}
        return {kind: (fields.get(kind, ()), params.get(kind, ())) for kind in self.action_types}

    # ------------------------------------------------------------------ filled in by a ruleset

    def read_options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> Struct:
        """``overrides`` read as the ruleset's options Struct; ``InputError`` at ``where``."""
        raise NotImplementedError

    def joins(self, path: str) -> Sequence[CombatantJoined]:
        """The ``combatant_joined`` events of the roster file at ``path``."""
        raise NotImplementedError

    def open_fight(self, scribe: Scribe) -> None:
        """Open the fight: the posting order, round 1, the first turn."""
        raise NotImplementedError

    def close_turn(self, scribe: Scribe) -> None:
        """Close the open turn and open the next."""
        raise NotImplementedError

    def play(self, scribe: Scribe, post: Post) -> None:
        """Resolve an in-character post by a combatant in the fight, of action types the
        ruleset has, once the fight has begun: refuse it, or emit its declaration and what
        follows."""
        raise NotImplementedError

    def joined(self, scribe: Scribe, entrant: Entrant, joined: CombatantJoined, seq: int, *, arrival: bool,
               reserve: bool) -> None:
        """What follows the ``combatant_joined`` at ``seq`` (and its position): statuses for a
        reserve or an arrival. Nothing by default."""

    def placed(self, state: SceneState, actor: str) -> bool:
        """Whether a newcomer may be placed after ``actor`` (``join --after``)."""
        return actor in state.combatants

    # ------------------------------------------------------------------ the Table

    def options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> dict[str, Json]:
        """Every option with ``overrides`` applied, validated, as ``scene_started.options``
        records them."""
        return as_data(self.read_options(overrides, where=where))

    def roster(self, path: str) -> Sequence[Entrant]:
        return [Entrant(actor=joined.actor, joined=joined) for joined in self.joins(path)]

    def join(
        self,
        scribe: Scribe,
        entrant: Entrant,
        *,
        arrival: bool = False,
        after: str | None = None,
        salt: str | None = None,
        reserve: bool = False,
    ) -> None:
        state = scribe.state
        require_open(state)
        if entrant.actor in state.combatants:
            raise RefusedError(f"{entrant.actor} has joined already")
        if after is not None and not self.placed(state, after):
            raise RefusedError(f"after={after}: {after} is not in the fight")
        if entrant.position is not None and self.no_map is not None:
            raise RefusedError(f"{entrant.actor}: a position is given, but {self.id} keeps no map: {self.no_map}")
        joined = entrant.joined
        assert isinstance(joined, CombatantJoined)
        refused = self.reserve_refused(joined) if reserve else None
        if refused is not None:
            raise RefusedError(f"{entrant.actor} cannot join in reserve: {refused}")
        arrival = arrival or (state.turn.round > 0 and not reserve)
        seq = scribe.emit(replace(joined, arrival=arrival, after=after, salt=salt))
        if entrant.position is not None:
            x, y = entrant.position
            scribe.emit(Moved(actor=entrant.actor, x=x, y=y, cause=seq))
        self.joined(scribe, entrant, joined, seq, arrival=arrival, reserve=reserve)

    def begin(self, scribe: Scribe) -> None:
        require_open(scribe.state)
        with scribe.attempt():
            self.open_fight(scribe)

    def end_turn(self, scribe: Scribe) -> None:
        require_open(scribe.state)
        with scribe.attempt():
            self.close_turn(scribe)

    def end(self, scribe: Scribe, *, reveal: str | None, reason: str | None = None) -> None:
        state = scribe.state
        require_open(state)
        standing = standing_sides(state, frozenset(self.out))
        winner = standing[0] if len(standing) == 1 else None
        scribe.emit(SceneEnded(seed=reveal, winner=winner, reason=reason))

    def post(self, scribe: Scribe, post: Post) -> None:
        with scribe.attempt():
            if self._shared_checks(scribe, post):
                self.play(scribe, post)

    def _shared_checks(self, scribe: Scribe, post: Post) -> bool:
        """Refuse what every ruleset refuses in a post; emit an out-of-character one. Whether
        the ruleset's ``play`` is to resolve the post."""
        state = scribe.state
        require_open(state)
        check_responds_to(state, post)
        if post.actor not in state.combatants:
            raise absent(state, post.actor, code="order.not-in-fight")
        unknown = unknown_action(post.actions, self.action_types)
        if unknown is not None:
            raise unknown
        if self.params_read is not None and not post.recorded:
            unread_param(post.actions, self.params_read, self.fields_read)
        if not post.recorded:  # a target nobody joined as (a typo, someone of another scene), or not here yet
            for action in post.actions:
                for named in (action.target, *action.targets):
                    if named is not None and named not in state.combatants:
                        raise absent(state, named)
                    if named is not None and named != post.actor:
                        arriving = not_arrived(state, named)
                        if arriving is not None:
                            raise arriving
        if self.distance_from_map and not post.recorded:
            off_the_map(state, post)
        if post.ooc:
            if post.actions:
                raise RefusedError("an out-of-character post carries no actions")
            scribe.emit(DeclarationPosted(actor=post.actor, text=post.text, ooc=True))
            return False
        if state.turn.round == 0:
            raise RefusedError("the fight has not begun (begin it first)", code="order.out-of-turn")
        return True
