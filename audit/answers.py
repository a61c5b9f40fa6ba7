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
the audit's window of recent events. On two processes it runs in the child beside the dice
(``Beside``, in ``fightlog.audit.recorded``), with a window of its own that reaches exactly
as far (``Window``), so both report the same; unless the ruleset gives the child a share of
its own checks, or the fight is imported, when it stays in the fold (``in_fold``). A
declaration out of reach, or an outcome that cites none (or an event of another kind), is
not judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from fightlog.audit.dice_checks import DiceFinding
from fightlog.audit.lean_kinds import LeanOutcome, LeanPost, LeanTurn
from fightlog.audit.window import Window
from fightlog.events.model import AnyEvent, AttackResolved, DeclarationPosted, TurnStarted
from fightlog.kit.checks import AuditView, Check, RecordSplit
from fightlog.kit.ruleset import Aimed, Posted, Ruleset
from fightlog.reducers.state import SceneState

CODE = "outcome.undeclared"


def problem(rules: Ruleset, attacker: str, target: str, cited: int, declared: Posted) -> str | None:
    """What is wrong with ``attacker``'s attack on ``target`` as an answer to ``declared``,
    the post at ``cited`` its outcome cites, or ``None`` (see the module docstring)."""
    poster = declared.actor
    if attacker != poster or target == poster:
        return None  # another's roll against the poster, or the posting order's to judge
    for action in declared.actions:
        if action.target == target:
            return None  # the usual case, without the ruleset's set of names
    named = rules.resolution_targets(declared)
    if named is None or target in named:
        return None
    return (f"{poster}'s attack on {target} cites the post at seq {cited}, which declared "
            f"{_declared(declared.actions)}, not {target}")


def _declared(actions: Sequence[Aimed]) -> str:
    """What a post's actions target, in words (``attack on rook, move``)."""
    parts = []
    for action in actions:
        whom = sorted({*([action.target] if action.target else []), *action.targets})
        parts.append(f"{action.type} on {' and '.join(whom)}" if whom else action.type)
    return ", ".join(parts) if parts else "no action"


def checks(rules: Ruleset) -> Mapping[type, Check]:
    """The check as one of the fold's (see the module docstring for where it runs). An
    outcome citing an event of another kind is not judged: the child's window holds only
    posts."""

    def answered(before: SceneState, event: AnyEvent, after: SceneState, view: AuditView) -> None:
        resolved: AttackResolved = event  # type: ignore[assignment]
        cited = resolved.declaration
        if cited is None:
            return
        declared = view.event(cited)
        if type(declared) is not DeclarationPosted:
            return
        target = resolved.target
        for action in declared.actions:  # ``problem``'s usual case, inline: the fold's hot path
            if action.target == target:
                return
        found = problem(rules, resolved.attacker, target, cited, declared)
        if found is not None:
            view.report(CODE, resolved, found, actor=resolved.attacker)

    return {AttackResolved: answered}


def in_fold(rules: Ruleset, split: RecordSplit | None, imported: bool) -> bool:
    """Whether the audit on two processes runs the check in the fold rather than in the
    child: when the ruleset gives the child a share of its own checks (``split``, see
    ``fightlog.audit.recorded.record_split``), and for an imported fight (``imported``: its
    findings cite the transcript message of the outcome, which the child's lean reading of
    an outcome leaves out). A ruleset that splits
    checks off balanced the two processes with that share, and the child would have to decode
    every post for this check alone; a ruleset that splits nothing off leaves the child only
    the chain and the dice, with time to spare."""
    return split is not None or imported


class Beside:
    """The check in the audit's child (``RecordChecks``): it keeps the posts in a ``Window``
    moved on at each turn's opening, as the fold's window is, checks each ``attack_resolved``
    and adds what it finds to ``found``. ``readers`` maps the kinds it reads to what reads
    them: the lean kinds, which ``link_decoder`` decodes instead of the full ones (only the
    fields read), and the full kinds, for lines the child's reader decodes in full (after an
    unusual line, ``fightlog.audit.reading.checked``). Only the child of a ruleset that
    splits nothing off runs it (``in_fold``), so no other check there reads these kinds."""

    def __init__(self, rules: Ruleset, found: list[DiceFinding]) -> None:
        self._rules = rules
        self._found = found
        self._window: Window[Posted] = Window()
        self.readers: dict[type, Callable[[AnyEvent], None]] = {
            LeanPost: self._posted, DeclarationPosted: self._posted,
            LeanTurn: self._turn_opened, TurnStarted: self._turn_opened,
            LeanOutcome: self._resolved, AttackResolved: self._resolved,
        }

    def _posted(self, event: object) -> None:
        post: LeanPost | DeclarationPosted = event  # type: ignore[assignment]
        self._window.held[post.seq] = post

    def _turn_opened(self, event: object) -> None:
        self._window.turn_opened(event.seq)  # type: ignore[attr-defined]

    def _resolved(self, event: object) -> None:
        resolved: LeanOutcome | AttackResolved = event  # type: ignore[assignment]
        cited = resolved.declaration
        if cited is not None:
            declared = self._window.get(cited)
            if declared is not None:
                found = problem(self._rules, resolved.attacker, resolved.target, cited, declared)
                if found is not None:
                    self._found.append(DiceFinding(CODE, resolved.seq, found, resolved.attacker))
