"""Replaying a recorded request through the rules' table.

``ReplayScribe`` is the ``Scribe`` a request is re-derived with: the recorded external rolls
(a HUD's, a dice bot's) are reused, in order, for the rolls the rules ask of the same roller,
for the same purpose, with the same dice; one roll may be replaced by a changed one; in a log
with no seed, a roll the log does not record is a *stand-in*, drawn from a public seed and
marked so (keyed by the request it is drawn for, never by where the fork puts it). ``run_call`` runs a table call, turning a ruleset that breaks on data it was not
written for into a refusal. A roll the rules ask for that the log does not record is made by
``Scribe.roll`` itself (from the scene's seed, or the stand-ins' public one: ``draw``). Also
here: the fold with rulings honoured, and the small helpers the split, the fork and the
dispute share.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from fightlog.errors import FightlogError, FoldError, InputError, RefusedError
from fightlog.events.model import AnyEvent, DiceRolled, Modifier, Origin, kind_of
from fightlog.reducers.folder import Folder, Source, Step
from fightlog.reducers.state import EMPTY, SceneInfo, SceneState
from fightlog.dice import FairGenerator, ModifierLike, RollResult, as_modifiers, read_roll, roll
from fightlog.kit.table import Scribe

STAND_IN_SEED: Final = hashlib.sha256(b"fightlog dispute: a roll the log does not record").hexdigest()
"""The public seed of stand-in rolls (see ``ReplayScribe``): nothing is hidden in them."""

STAND_IN_TOOL: Final = "fightlog dispute (stand-in)"

DISPUTE_MEDIUM: Final = "dispute"
"""``origin.medium`` of what a dispute wrote: a fork's changed fact, a stand-in roll (a
changed engine roll is reused as recorded when the fork is disputed again: ``externals``)."""

UNSAID: Final = "other"
"""The purpose of a recorded roll that says none (``dice_rolled.purpose``'s default)."""


class ReplayScribe(Scribe):
    """A ``Scribe`` for re-deriving: external rolls of the original reused, in order, for
    the rolls of the same dice, roller and purpose (``unused``: those left over), one roll replaced by the changed one
    (``amended``: its ordinal in the request and the event), and the recorded ``at``/``origin``
    kept on the re-derived declaration or scene end (``stamp``). With no seed (every roll of
    the log made elsewhere), a roll the log does not record is a *stand-in*: drawn from a
    public seed for the request ``key`` names (``"seq N"``, N the original's) at the roll's
    ordinal in it, so the fork and the original re-derived draw the same faces for the same
    roll of the same request whatever else moved; recorded as an external roll of ``tool``
    ``fightlog dispute (stand-in)`` (``stand_ins``: their ``seq``). ``reused`` maps the ``seq`` of each recorded roll reused
    (or changed) to the ``seq`` it gets."""

    def __init__(
        self,
        state: SceneState,
        seed: str | None,
        *,
        externals: Iterable[DiceRolled] = (),
        amended: tuple[int, DiceRolled] | None = None,
        stamp: AnyEvent | None = None,
        key: str = "",
    ) -> None:
        super().__init__(state, seed)
        self._key = key
        self._externals = list(externals)
        self._amended = amended
        self._stamp = stamp
        self._rolled = 0
        self._ordinal = 0
        """The ordinal in the request of the roll being made (what a stand-in is drawn at)."""
        self._standing_in: str | None = None
        """The notation of the stand-in ``draw`` just drew, until ``emit`` records it."""
        self.hypothetical: int | None = None
        self.stand_ins: list[int] = []
        self.reused: dict[int, int] = {}

    @property
    def unused(self) -> list[DiceRolled]:
        """The recorded external rolls this request had no use for."""
        return list(self._externals)

    def emit(self, event: AnyEvent) -> int:
        stamp = self._stamp
        if stamp is not None and type(event) is type(stamp):
            event = replace(event, at=stamp.at, origin=stamp.origin)
            self._stamp = None
        notation = self._standing_in
        if notation is None:
            return super().emit(event)
        self._standing_in = None  # ``event`` is the roll ``draw`` just drew: a stand-in
        assert isinstance(event, DiceRolled)
        raw = f"{notation}: not in the log; drawn by the dispute"
        seq = super().emit(replace(event, generator="external", index=None, tool=STAND_IN_TOOL,
                                   origin=Origin(medium=DISPUTE_MEDIUM, ref="stand-in", raw=raw)))
        self.stand_ins.append(seq)
        return seq

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
        """The changed roll, a recorded external roll reused, or (``Scribe.roll``) a roll
        drawn from the seed, or a stand-in when there is none (``draw``, ``emit``)."""
        info = self.state.scene
        if info is None:
            raise RefusedError("no scene has started")
        ordinal = self._ordinal = self._rolled
        self._rolled += 1
        recorded = self._recorded(notation, roller, purpose)
        if self._amended is not None and self._stands_in(ordinal, recorded):
            return self._changed(recorded, for_seq, purpose, modifiers, label, rolls=info.rolls)
        if recorded is not None:
            return self._reused(recorded, modifiers, for_seq, label, purpose)
        try:
            return super().roll(notation, roller=roller, purpose=purpose, modifiers=modifiers, for_seq=for_seq,
                                label=label)
        finally:
            self._standing_in = None  # ``emit`` took it, unless the roll failed on the way

    def _changed(self, recorded: DiceRolled | None, for_seq: int | None, purpose: str,
                 modifiers: Iterable[ModifierLike], label: str | None, *, rolls: int) -> tuple[RollResult, int]:
        """The changed roll, in place of the one it changes (an engine roll at the scene's
        next roll index; an external one as the rules reuse the recorded roll: their
        modifiers and label, plus what the change adds to the recorded modifiers, and the
        purpose they roll it for when it said none)."""
        assert self._amended is not None
        changed = self._amended[1]
        if changed.generator == "engine":
            changed = replace(changed, index=rolls)
        elif recorded is not None:
            self._externals.remove(recorded)  # the recorded roll it stands for
            mods = list(as_modifiers(modifiers))
            added = sum(m.value for m in changed.modifiers) - sum(m.value for m in recorded.modifiers)
            if added:  # the change to its modifiers, on the rules' (as the unchanged roll gets them)
                mods.append(Modifier(value=added, source="the dispute's change"))
            changed = replace(changed, modifiers=mods, total=read_roll(replace(changed, modifiers=mods)).total,
                              purpose=purpose if changed.purpose == UNSAID else changed.purpose,
                              label=label if label is not None else recorded.label)
        self._amended = None
        seq = self.emit(replace(changed, seq=0, prev="", for_seq=for_seq))
        self.hypothetical = self.reused[changed.seq] = seq
        return read_roll(changed), seq

    def _reused(self, recorded: DiceRolled, modifiers: Iterable[ModifierLike], for_seq: int | None,
                label: str | None, purpose: str) -> tuple[RollResult, int]:
        """A recorded external roll, reused with the modifiers the rules give now (and the
        purpose they roll it for, when it said none)."""
        self._externals.remove(recorded)
        mods = list(as_modifiers(modifiers))
        result = read_roll(replace(recorded, modifiers=mods))
        event = replace(recorded, seq=0, prev="", modifiers=mods, total=result.total, for_seq=for_seq,
                        label=label if label is not None else recorded.label,
                        purpose=purpose if recorded.purpose == UNSAID else recorded.purpose)
        seq = self.reused[recorded.seq] = self.emit(event)
        return result, seq

    def draw(self, notation: str, modifiers: Iterable[ModifierLike], info: SceneInfo, *, what: str) -> RollResult:
        """A roll the log does not record, in a log with no seed, is a stand-in: drawn by the
        dispute (from a fixed public seed, for the request and the roll's ordinal in it: the
        same roll of the same request draws the same faces, wherever the fork puts it);
        ``emit`` records it as an external roll whose origin says so."""
        if self.seed is not None:
            return super().draw(notation, modifiers, info, what=what)
        generator = FairGenerator(STAND_IN_SEED, f"{info.scene}: {self._key}")
        result = roll(notation, generator, self._ordinal, modifiers)
        self._standing_in = notation
        return result

    def _recorded(self, notation: str, roller: str, purpose: str) -> DiceRolled | None:
        """The first recorded external roll left that this roll reuses: same notation, same
        roller, same purpose (a HUD may list a defender's dodge after the attacker's shots;
        the rules may ask for it first); else the first of the same roller and dice that says
        no purpose (``other``: a Discord bot's, a HUD's that does not say what it is for)."""
        unsaid = None
        for recorded in self._externals:
            if recorded.roller == roller and _same_dice(recorded, notation):
                if recorded.purpose == purpose:
                    return recorded
                if unsaid is None and recorded.purpose == UNSAID:
                    unsaid = recorded
        return unsaid

    def _stands_in(self, ordinal: int, recorded: DiceRolled | None) -> bool:
        """Whether this roll is the changed one: an engine roll by its ordinal in the request
        (the request replays identically up to it), an external one when it would reuse the
        recorded roll the change is to."""
        assert self._amended is not None
        changed = self._amended[1]
        if changed.generator == "engine":
            return ordinal == self._amended[0]
        return recorded is not None and recorded.seq == changed.seq


def _same_dice(recorded: DiceRolled, notation: str) -> bool:
    """Whether ``recorded`` rolled what ``notation`` rolls: the same notation, or the same
    dice written another way (a HUD's ``2d20`` for the rules' ``1d20 + 1d20``)."""
    if recorded.notation == notation:
        return True
    try:
        asked = roll(notation, FairGenerator(STAND_IN_SEED, "shape"), 0)
    except (FightlogError, ValueError):
        return False
    return sorted(d.sides for d in asked.dice) == sorted(d.sides for d in recorded.dice)


def run_call(action: Callable[[], None]) -> None:
    """Run a table call; a ruleset that breaks on data it was not written for (a sheet
    from elsewhere) is a refusal, never a traceback."""
    try:
        action()
    except FightlogError as exc:
        if isinstance(exc, RefusedError):
            raise
        if isinstance(exc, InputError) and exc.path is None and exc.message.startswith("sheet."):
            # a sheet the rules cannot read: a fight imported without --roster has none
            raise RefusedError(f"a sheet in the log does not read: {exc.message}; a fight imported without "
                               "--roster holds no sheets to play by") from None
        raise RefusedError(exc.message if isinstance(exc, InputError) and exc.path is None else str(exc)) from None
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        raise RefusedError(f"the ruleset cannot play this ({type(exc).__name__}: {_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else ""


# --------------------------------------------------------------------------- folding and small helpers


def refold(events: Sequence[AnyEvent], name: str) -> SceneState:
    """The state after ``events`` with every ruling among them honoured (``Folder``)."""
    try:
        return fold_all(events)
    except FoldError as exc:
        raise InputError(exc.message, path=name, line=exc.line) from None


def _source(events: Sequence[AnyEvent]) -> Source:
    """``events`` (a whole log in memory, ``seq`` N at index N - 1) as a ``Folder``'s source."""
    return lambda seq: iter(events[seq - 1 :])


def fold_all(events: Sequence[AnyEvent]) -> SceneState:
    return Folder(_source(events), keep_every=0).run()


class Refolding:
    """The states after ever longer beginnings of ``events``: ``at(i)`` is ``refold(events[:i],
    name)``, read off one replay of the events (``Folder.steps``, which honours each ruling as
    made) as far as asked, so asking at every request of a long log costs one fold, not one
    a request (asking for fewer events than the last time starts the replay again)."""

    def __init__(self, events: Sequence[AnyEvent], name: str) -> None:
        self._events = events
        self._name = name
        self._steps = self._replay()
        self._state = EMPTY
        self._done = 0

    def _replay(self) -> Iterator[Step]:
        return Folder(_source(self._events)).steps()

    def at(self, i: int) -> SceneState:
        if i < self._done:
            self._steps, self._state, self._done = self._replay(), EMPTY, 0
        try:
            while self._done < i:
                self._state = next(self._steps).after
                self._done += 1
        except FoldError as exc:
            self._steps, self._state, self._done = self._replay(), EMPTY, 0  # asked again: from the start
            raise InputError(exc.message, path=self._name, line=exc.line) from None
        except StopIteration:
            raise ValueError(f"asked for the state after {i} events of {len(self._events)}") from None
        return self._state




def externals(events: Iterable[AnyEvent]) -> list[DiceRolled]:
    """The rolls among ``events`` a re-derivation reuses as recorded, in order: the external
    ones (a dice bot's, a HUD's), and an engine roll a dispute changed (a fork disputed again
    keeps the first change: drawn again from the seed, it was undone)."""
    return [e for e in events if isinstance(e, DiceRolled)
            and (e.generator == "external" or (e.origin is not None and e.origin.medium == DISPUTE_MEDIUM))]


def event_kind(event: AnyEvent | None) -> str:
    return "nothing" if event is None else kind_of(event)


def as_json(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."
