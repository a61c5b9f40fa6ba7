"""The table: how live play and scripted fights drive a ruleset.

A ruleset that can *play* (not only fold) provides a ``Table``: it joins combatants from its
roster format, opens the fight, resolves posts and ends turns, each time returning the events
to append. It decides; it never writes. The caller (the CLI) folds the log, asks the table,
and appends what it returned with ``expect=state.seq``, so a decision never lands after
events it did not see.

Decisions are made through a ``Scribe``: it holds the working state, gives each new event its
``seq`` and folds it at once (so a later decision in the same batch sees the HP an earlier
one took), and draws every die from the scene's seeded generator with the next roll index.
Randomness therefore comes only from the seed; the same state, seed and request give the
same events, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import RefusedError, SeedUnavailableError
from fightlog.events.model import Action, AnyEvent, DiceRolled, Json
from fightlog.reducers.fold import reduce
from fightlog.reducers.state import SceneInfo, SceneState
from fightlog.kit.ruleset import playable, ruleset_for
from fightlog.kit.spelling import closest
from fightlog.dice import FairGenerator, ModifierLike, RollResult, dice_rolled, roll


class Post(Struct, frozen=True, kw_only=True):
    """A declaration asked for: who posts, the text, the structured actions."""

    actor: str
    text: str = ""
    actions: tuple[Action, ...] = ()
    responds_to: int | None = None
    ooc: bool = False
    recorded: bool = False
    """A post re-derived from a log (a dispute, a replay's requests), not asked for now: a param
    its action does not read is let through, as it changed nothing when it was recorded."""


def check_responds_to(state: SceneState, post: Post) -> None:
    """A post answers an event already in the log: a ``responds_to`` past its end (a post
    that does not exist) is refused, in every ruleset and from a scenario too."""
    if post.responds_to is not None and post.responds_to > state.seq:
        raise RefusedError(f"responds_to {post.responds_to}: no such event (the log ends at seq {state.seq})",
                           code="order.out-of-turn")  # as the d20-evasion table words answering no post of the turn


class Entrant(Struct, frozen=True, kw_only=True):
    """A combatant ready to join: ``joined`` is the ruleset's ``combatant_joined`` event
    (without seq), ``position`` where they stand, if the scene keeps positions."""

    actor: str
    joined: AnyEvent
    position: tuple[int, int] | None = None


class Scribe:
    """Working state plus the events decided so far (see the module docstring)."""

    def __init__(self, state: SceneState, seed: str | None) -> None:
        self.state = state
        self.start = state.seq
        self.seed = seed
        self.events: list[AnyEvent] = []
        self._generators: dict[tuple[str, ...], FairGenerator] = {}

    def emit(self, event: AnyEvent) -> int:
        """Append ``event`` to the batch and fold it; its ``seq``."""
        seq = self.state.seq + 1
        event = replace(event, seq=seq)
        self.state = reduce(self.state, event)
        self.events.append(event)
        return seq

    @contextmanager
    def attempt(self) -> Iterator[None]:
        """Everything emitted inside is undone if the rules refuse (``RefusedError``), so a
        refused post leaves no trace in the batch or the working state."""
        state, count = self.state, len(self.events)
        try:
            yield
        except RefusedError:
            self.state = state
            del self.events[count:]
            raise

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next emitted event will get."""
        return self.state.seq + 1

    def roll(
        self,
        notation: str,
        *,
        roller: str,
        purpose: str,
        modifiers: Iterable[ModifierLike] = (),
        for_seq: int | None = None,
        label: str | None = None,
    ) -> tuple[RollResult, int]:
        """Roll ``notation`` as the scene's next engine roll and emit it; the result and the
        ``seq`` of its ``dice_rolled`` event."""
        info = self.state.scene
        if info is None:
            raise RefusedError("no scene has started")
        result = self.draw(notation, modifiers, info, what=f"{purpose} roll {notation} by {roller}")
        event: DiceRolled = dice_rolled(result, roller=roller, purpose=purpose, for_seq=for_seq, label=label)
        return result, self.emit(event)

    def draw(self, notation: str, modifiers: Iterable[ModifierLike], info: SceneInfo, *, what: str) -> RollResult:
        """The faces of roll number ``info.rolls``, from the scene's seeded generator (the one
        place a test double may substitute)."""
        if self.seed is None:
            raise SeedUnavailableError("the scene's dice seed is not available (it is kept beside the log as LOG.seed)")
        gen = self._generators.get(info.salts)
        if gen is None:
            gen = FairGenerator(self.seed, info.scene, info.salts)
            self._generators[info.salts] = gen
        return roll(notation, gen, info.rolls, modifiers)


__all__ = ["Entrant", "Post", "Scribe", "Table", "check_responds_to", "playable", "table_for"]


class Table(Protocol):
    """What live play and scripted fights ask of a ruleset."""

    id: str
    option_type: type[Struct]
    """The ruleset's options (a frozen msgspec ``Struct`` of int, bool, str and ``Literal``
    fields with defaults): what a house-rules file may set (``fightlog.kit.house``)."""
    action_types: Mapping[str, str | None]
    """Every action type the ruleset plays, with the part of the turn it spends (an import's
    cast hints must name these)."""

    def options(self, overrides: Mapping[str, Any], *, where: str | None = None) -> dict[str, Json]:
        """Every option of the ruleset with ``overrides`` applied, validated, as recorded in
        ``scene_started.options``."""
        ...

    def roster(self, path: str) -> Sequence[Entrant]:
        """The combatants of a roster file, ready to join."""
        ...

    def join(self, scribe: Scribe, entrant: Entrant, *, arrival: bool = False, after: str | None = None,
             salt: str | None = None, reserve: bool = False) -> None:
        """Bring a combatant in (an arrival claims the slot after ``after``; a reserve waits
        off the posting order until called)."""
        ...

    def begin(self, scribe: Scribe) -> None:
        """Open the fight: the posting order, round 1, the first turn."""
        ...

    def post(self, scribe: Scribe, post: Post) -> None:
        """Resolve a declaration; ``RefusedError`` (and nothing emitted) if the rules refuse it."""
        ...

    def end_turn(self, scribe: Scribe) -> None:
        """Close the open turn and open the next (end-of-turn and start-of-turn effects)."""
        ...

    def end(self, scribe: Scribe, *, reveal: str | None, reason: str | None = None) -> None:
        """End the scene, revealing the seed."""
        ...


def table_for(ruleset: str) -> Table:
    """The table of a ruleset id (``Ruleset.table``); ``RefusedError`` for an id no installed
    ruleset plays."""
    table = ruleset_for(ruleset).table()
    if table is None:
        close = closest(ruleset, playable())
        hint = f": did you mean {close}?" if close else ""
        raise RefusedError(f"no installed ruleset {ruleset!r}{hint} (installed: {', '.join(playable())})")
    return table
