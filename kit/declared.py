"""A logged declaration checked with the table's own rules: what ``play post`` refuses.

A hand-run or imported log was never put to the table, so nothing refused what its posts
declare. The audit asks the functions the table decides with (``docs/architecture.md``:
checks are rules, not a second engine):

- ``unknown_action``: an action type the ruleset does not have, the table's first question
  of a post;
- ``refusal``: the table's action handlers run on the logged declaration, on a scribe
  (``DryScribe``) that stops at the first die. Every handler checks its action before it
  rolls (the target, the weapon carried, the range, the reload...), so what the table would
  refuse before any roll is the refusal; after the first die the log's own rolls decide
  what follows, and the rest of the post is not judged here. Nothing is written: the
  scribe's events are thrown away.

What the table refuses about whose turn it is, who may act and how much (the posting order
and the allowance) is not asked here: the audit's posting-order and allowance checks report
those, once each.

A refusal coded ``rules.incomplete`` (``INCOMPLETE``) is no finding: the post says too little
for the rules to decide it (how far, which of two weapons) or would change nothing (a reload
not needed, a stance already taken). At the table the player says more; a log written
without the table's notation is not shown wrong by it.

Declarations the table made are not asked again (``by_table``): the table checked them when
they were posted, and playing a post's checks again costs about as much as folding it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Final, NoReturn

from fightlog.errors import FightlogError, RefusedError
from fightlog.kit.checks import AuditView
from fightlog.events.model import Action, DeclarationPosted, Event
from fightlog.reducers.state import SceneInfo, SceneState
from fightlog.dice import ModifierLike
from fightlog.kit.table import Post, Scribe
from fightlog.kit.actions import a_or_an, value_written
from fightlog.kit.geometry import Point, metres_between
from fightlog.kit.spelling import closest


INCOMPLETE = "rules.incomplete"
"""The code of a refusal that shows the post too vague or idle, not against the rules."""


def hand_kept(state: SceneState) -> bool:
    """Whether ``state``'s scene is one the table did not play: begun with no dice
    commitment (an import, a hand-kept log), so no attack in it was marked as waiting for an
    answer as the table marks it (a ruleset reads its answers from the posts instead)."""
    scene = state.scene
    return scene is not None and scene.commitment is None


def voided(state: SceneState, seq: int) -> bool:
    """Whether a GM's ruling in force in ``state`` voids the event at ``seq`` (a table must
    not play out a post so voided: en5.1's moves waiting for the turn's end)."""
    return any(r.action == "void" and r.target == seq for r in state.rulings)


def by_table(state: SceneState, declaration: DeclarationPosted) -> bool:
    """Whether the table made ``declaration``: it has no ``origin`` (the table writes none;
    a transcript, a chat bot, an import or a hand-kept log gives one), in a scene committed
    to a dice seed (``state``: before it), as every scene the table plays is. A log without
    a commitment was not played by the table: all its posts are checked."""
    scene = state.scene
    return declaration.origin is None and scene is not None and scene.commitment is not None


def unknown_action(actions: Iterable[Action], known: Collection[str]) -> RefusedError | None:
    """The refusal of the first action whose type is not in ``known`` (the ruleset's action
    types), or ``None``."""
    for action in actions:
        if action.type not in known:
            close = closest(action.type, known)
            hint = f"did you mean {close!r}? " if close else ""
            return RefusedError(
                f"unknown action {action.type!r} ({hint}actions: {', '.join(sorted(known))})", code="rules.unknown-action"
            )
    return None


class _Rolled(Exception):
    """The dry run reached its first die."""


class DryScribe(Scribe):
    """A scribe over a state, for checking: it folds what the handlers emit, and stops them
    at the first die (``draw``), where the checks before rolling are over."""

    def __init__(self, state: SceneState) -> None:
        super().__init__(state, None)

    def draw(self, notation: str, modifiers: Iterable[ModifierLike], info: SceneInfo, *, what: str) -> NoReturn:
        raise _Rolled


def refusal(resolve: Callable[[Scribe], None], state: SceneState) -> RefusedError | None:
    """What the table refuses when ``resolve`` plays a logged declaration on ``state`` (the
    state before it), up to the first die; ``None`` when nothing is refused before it, when
    the refusal is ``INCOMPLETE``, or when the log's facts cannot be read by the rules at all
    (a sheet in another format: nothing to judge)."""
    try:
        resolve(DryScribe(state))
    except RefusedError as refused:
        return None if refused.code == INCOMPLETE else refused
    except _Rolled:
        return None
    except (FightlogError, ValueError):
        return None
    return None


def judged(state: SceneState, declaration: DeclarationPosted, check: Callable[[], None]) -> RefusedError | None:
    """The refusal ``check`` raises (a pure check of the table's, on ``declaration`` in
    ``state``), or ``None``: also for an ``INCOMPLETE`` one, and when the rules cannot read
    the log's facts."""
    try:
        check()
    except RefusedError as refused:
        return None if refused.code == INCOMPLETE else refused
    except (FightlogError, ValueError):
        return None
    return None


class Noting:
    """An ``AuditView`` that notes the codes reported through it: what a ruleset's own
    checks said of a post, so the table's refusal is not reported again for that reason."""

    def __init__(self, view: AuditView) -> None:
        self._view = view
        self.codes: set[str] = set()
        self.event = view.event
        self.cleared = view.cleared

    @property
    def turn_start(self) -> SceneState:
        return self._view.turn_start

    def report(self, code: str, event: Event, message: str, *, actor: str | None = None) -> None:
        self.codes.add(code)
        self._view.report(code, event, message, actor=actor)


def report_refusal(before: SceneState, event: DeclarationPosted, view: AuditView,
                   check: Callable[[SceneState, DeclarationPosted], RefusedError | None]) -> RefusedError | None:
    """The audit of a post the table did not make: ``check`` (the ruleset's
    ``check_declaration``) plays the table's checks on it, and its refusal is reported (and
    returned)."""
    if by_table(before, event):
        return None
    noting = Noting(view)
    found = check(before, event)
    if found is not None and found.code not in noting.codes:
        view.report(found.code, event, f"the rules refuse {event.actor}'s post: {found.message}", actor=event.actor)
    return found


FIELD_KEYS: Final = ("target", "targets", "weapon", "mode", "range", "distance", "item", "cost")
"""The keys of a post's action that fill an ``Action`` field (``kit.actions``), in written order."""


def unread_param(actions: Sequence[Action], read: Mapping[str, tuple[str, ...]],
                 fields: Mapping[str, tuple[str, ...]] | None = None) -> None:
    """Refuse the first key an action of ``actions`` writes that its type does not read: a
    param not in ``read`` (by type), and, with ``fields`` (by type, of ``FIELD_KEYS``), a field
    not in it (``reload weapon=Rifle target=bob``). ``rules.incomplete``: it changes nothing,
    so no audit finding; but ``cost=``, which no ruleset lets a player write (what an action
    spends is the rules' to say), is ``rules.allowance``."""
    for action in actions:
        params = read.get(action.type, ())
        used = () if fields is None else fields.get(action.type, ())
        written = [] if fields is None else [
            (key, getattr(action, key)) for key in FIELD_KEYS if key not in used and getattr(action, key) not in (None, [])
        ]
        written += [(key, action.params[key]) for key in sorted(action.params) if key not in params]
        if written:
            key, value = written[0]
            known = [*used, *params] if fields is not None else params
            reads = f"it reads {', '.join(known)}" if known else "it reads none"
            shown = ",".join(value) if isinstance(value, list) else value_written(value)
            if key == "cost":
                raise RefusedError(f"cost={shown}: what {a_or_an(action.type)} spends of the turn is the rules' to say "
                                   "(leave cost out)", code="rules.allowance")
            raise RefusedError(f"{key}={shown} is not read by {action.type} ({reads})", code="rules.incomplete")


def placed(state: SceneState, post: Post) -> Iterator[tuple[Action, Point | None]]:
    """Each action of ``post`` with where its poster stands when it comes: where they stand
    now, then where the post's moves to ``x=`` ``y=`` take them; ``None`` when unknown (no
    position kept, or after a move toward, away or so many metres: the rules place them)."""
    mine = state.combatants.get(post.actor)
    here = None if mine is None else mine.position
    for action in post.actions:
        yield action, here
        if action.type == "move":
            x, y = action.params.get("x"), action.params.get("y")
            here = (x, y) if here is not None and isinstance(x, int) and isinstance(y, int) else None


def off_the_map(state: SceneState, post: Post) -> None:
    """Refuse a length the map contradicts, when the positions are kept (straight-line
    metres, rounded up): the rules measure on the map, and the post would show the other
    (``TableBase.distance_from_map``). An action's ``distance=`` to its target, and a
    ``move`` to ``x=`` ``y=`` that also says how far (``distance=``, or roe7's ``m=``), each
    measured from where the post's moves before it left the actor."""
    for action, here in placed(state, post):
        if here is None:
            return  # no position, or a move this check cannot follow: where the actor is, unknown
        if action.type == "move":
            x, y = action.params.get("x"), action.params.get("y")
            if not (isinstance(x, int) and isinstance(y, int)):
                continue
            said = action.params.get("m", action.distance)
            metres = metres_between(here, (x, y))
            if said is not None and said != metres:
                key = "m" if "m" in action.params else "distance"
                raise RefusedError(f"{key}={value_written(said)}: ({x}, {y}) is {metres} m from {post.actor} on the "
                                   f"map (the rules measure it there: leave {key}= out)", code="rules.range")
            continue
        theirs = state.combatants.get(action.target or "")
        there = None if theirs is None else theirs.position
        if action.distance is None or theirs is None or there is None:
            continue
        metres = metres_between(here, there)
        if metres != action.distance:
            raise RefusedError(f"distance={action.distance}: {theirs.actor} is {metres} m away on the map (the rules "
                               "measure it there: leave distance= out)", code="rules.range")
