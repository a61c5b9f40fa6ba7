"""Each outcome answers the declaration it cites (``outcome.undeclared``), for every ruleset.

An ``attack_resolved`` names its ``declaration``: the post it resolves. When the poster
attacks, the target must be one the post names (``Ruleset.resolution_targets``: an action's
``target`` and ``targets``, and the parameters a ruleset reads more targets from; ``None``
for a post that does not decide its targets, such as a thrown grenade's blast or a counter
answering another post). An outcome by someone else is not judged: another's roll against
the poster (a watcher against a sneak, an attack of opportunity) is the ruleset's, and a
post by the wrong person is the posting order's (``order.*``), reported once there.

Engine-played declarations are not played again by the audit (``fightlog.kit.declared``:
the table checked them when they were posted), so a declaration edited afterwards and the
chain sealed again, or a hand-kept log whose GM resolved another attack than the one
posted, would show nothing else: the dice and the outcome still agree with each other.

The check reads only the outcome and the declaration it cites, never the folded state:
on one process it is one of the fold's checks (``checks``), looking the declaration up in
the audit's window of recent events; on two it runs in the child beside the dice
(``Beside``, in ``fightlog.audit.recorded``), with a window of its own that reaches exactly
as far (``Window``), so both report the same. A declaration out of reach, or an outcome that
cites none (or an event of another kind), is not judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from fightlog.audit.window import Window
from fightlog.events.model import AnyEvent, AttackResolved, DeclarationPosted, TurnStarted
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.ruleset import Ruleset
from fightlog.reducers.state import SceneState

CODE = "outcome.undeclared"


def problem(rules: Ruleset, event: AttackResolved, declared: AnyEvent | None) -> str | None:
    """What is wrong with ``event`` as an answer to ``declared`` (the event at its
    ``declaration``, ``None`` when out of reach), or ``None`` (see the module docstring). An
    outcome citing an event of another kind is not judged: the child's window holds only
    declarations."""
    if type(declared) is not DeclarationPosted:
        return None
    poster = declared.actor
    target = event.target
    if event.attacker != poster or target == poster:
        return None  # another's roll against the poster, or the posting order's to judge
    for action in declared.actions:
        if action.target == target:
            return None  # the usual case, without the ruleset's set of names
    named = rules.resolution_targets(declared)
    if named is None or target in named:
        return None
    return (f"{poster}'s attack on {target} cites the post at seq {event.declaration}, which declared "
            f"{_declared(declared)}, not {target}")


def _declared(declared: DeclarationPosted) -> str:
    """What a post's actions target, in words (``attack on rook, move``)."""
    parts = []
    for action in declared.actions:
        whom = sorted({*([action.target] if action.target else []), *action.targets})
        parts.append(f"{action.type} on {' and '.join(whom)}" if whom else action.type)
    return ", ".join(parts) if parts else "no action"


def checks(rules: Ruleset) -> Mapping[type, Check]:
    """The check as one of the fold's (the ``Auditor`` adds it for every ruleset when it
    runs the checks of events as recorded itself)."""

    def answered(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        resolved: AttackResolved = event  # type: ignore[assignment]
        if resolved.declaration is not None:
            found = problem(rules, resolved, view.event(resolved.declaration))
            if found is not None:
                view.report(CODE, resolved, found, actor=resolved.attacker)

    return {AttackResolved: answered}


class Beside:
    """The check in the audit's child (``RecordChecks``): it keeps the declarations in a
    ``Window`` moved on at each turn's opening, as the fold's window is, and checks each
    ``attack_resolved``, reporting to ``view``; ``readers`` maps the kinds it reads to what
    reads them."""

    def __init__(self, rules: Ruleset, view: AuditView) -> None:
        self._rules = rules
        self._view = view
        self._window = Window()
        self.readers: dict[type, Callable[[AnyEvent], None]] = {
            DeclarationPosted: self._posted,
            TurnStarted: self._turn_opened,
            AttackResolved: self._resolved,
        }

    def _posted(self, event: AnyEvent) -> None:
        self._window.held[event.seq] = event

    def _turn_opened(self, event: AnyEvent) -> None:
        self._window.turn_opened(event.seq)

    def _resolved(self, event: AnyEvent) -> None:
        resolved: AttackResolved = event  # type: ignore[assignment]
        if resolved.declaration is not None:
            found = problem(self._rules, resolved, self._window.get(resolved.declaration))
            if found is not None:
                self._view.report(CODE, resolved, found, actor=resolved.attacker)
