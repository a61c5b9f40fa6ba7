"""The ruleset interface: what play, amendments and the audit ask a ruleset, and the
generic default.

``Ruleset`` extends what the fold asks (``fightlog.reducers.fold_rules.FoldRules``) with
sheets, the audit's checks, the finding codes a ruleset declares and the rulebook sections
of findings, and the table that plays it. Shared code asks these questions and never
branches on a ruleset id; a ruleset overrides what differs from ``GenericRules``. Rulesets
are found through the ``fightlog.rulesets`` entry points (``fold_rules.GROUP``); ``register``
adds one that is not installed. ``docs/rulesets/HOWTO.md`` says how to write one.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from fightlog.errors import InputError, RulesetError
from fightlog.events.base import Scalar
from fightlog.reducers import fold_rules
from fightlog.reducers.fold_rules import FoldRules, GenericFoldRules
from fightlog.kit.checks import Check, RecordSplit
from fightlog.kit.options import option_type_problem
from fightlog.kit.sections import AUDIT_SECTION, DICE_SECTION, OUTCOME_SECTION, Code, Sections

if TYPE_CHECKING:  # the table imports the fold; the fold asks this module's rulesets
    from fightlog.kit.policy import Policy
    from fightlog.kit.table import Table
    from fightlog.reducers.state import SceneState


_CHECKED_TABLES: set[int] = set()
"""The tables whose options were found fit (``option_type_problem``), by ``id``."""


class Aimed(Protocol):
    """What ``Ruleset.resolution_targets`` reads of an action: an ``Action``, or the audit
    child's lean reading of one (``fightlog.audit.answers``)."""

    @property
    def type(self) -> str: ...

    @property
    def target(self) -> str | None: ...

    @property
    def targets(self) -> list[str]: ...

    @property
    def params(self) -> Mapping[str, Scalar]: ...


class Posted(Protocol):
    """What ``Ruleset.resolution_targets`` reads of a post: a ``DeclarationPosted``, or the
    audit child's lean reading of one."""

    @property
    def actor(self) -> str: ...

    @property
    def actions(self) -> Sequence[Aimed]: ...

    @property
    def responds_to(self) -> int | None: ...


class Ruleset(FoldRules, Protocol):
    """Questions shared code asks a ruleset: the fold's (``FoldRules``), and those of play,
    amendments and the audit."""

    @property
    def table_module(self) -> str | None:
        """The module whose ``TABLE`` plays this ruleset (``fightlog.rules.roe7.table``),
        imported by ``table()`` on first use so that folding stays light; ``None`` for a
        ruleset that folds and audits but does not play."""
        ...

    def table(self) -> Table | None:
        """The ``Table`` that plays this ruleset (``fightlog.kit.table``), or ``None``."""
        ...

    @property
    def policy_module(self) -> str | None:
        """The module whose ``POLICY`` is this ruleset's default policy for simulated fights
        (``fightlog.kit.policy``; ``fightlog sim``), imported by ``policy()`` on first use;
        ``None`` for a ruleset without one."""
        ...

    def policy(self) -> Policy | None:
        """The default ``Policy`` of simulated fights (``fightlog.kit.policy``), or ``None``."""
        ...

    @property
    def answer_actions(self) -> frozenset[str]:
        """Action types a fighter posts in another's turn to answer a post of it (a
        Traveller dodge, an en5.1 counter): an imported post with one answers the turn's post
        (``responds_to``) instead of opening the poster's turn. Empty for a ruleset without."""
        ...

    @property
    def distance_unit(self) -> str:
        """What this ruleset counts a distance in (an action's ``distance``, a ``moved``'s
        ``metres``), as narration writes it after a number: ``"m"``, or ``"hex"`` (written
        ``1 hex``, ``3 hexes``)."""
        ...

    @property
    def spent_words(self) -> Mapping[str, tuple[str, str]]:
        """How ``state`` tells a part of the turn ``turn_spent`` names, one and many, where
        ``N PART action(s)`` does not fit (d20-evasion's ``both``: ``1 use of both actions``)."""
        ...

    def harm_period(self, effect: str, params: Mapping[str, Any]) -> str | None:
        """How often an effect named ``effect`` (with ``params``) deals its ``magnitude`` or
        ``dice`` as damage: ``"turn"``, ``"round"``, or ``None`` when its magnitude is no
        damage over time (an aim's bonus, a penalty), as narration words it."""
        ...

    def turn_spent(self, state: SceneState, actor: str) -> Mapping[str, int]:
        """What ``actor`` has spent of their open turn (``state``'s posts), by the part of
        the turn each action spends, as ``state`` shows it: their own posts only (an answer
        another posted in their turn is the answerer's)."""
        ...

    def findings(self) -> Mapping[str, Code]:
        """The finding codes this ruleset's checks report beyond the shared ones
        (``fightlog.audit.findings.CODES``): severity, meaning, rulebook section."""
        ...

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset under a scene's options (``scene_started.options``)."""
        ...

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        """Why the rules cannot read a sheet snapshot (``combatant_joined.sheet``), naming
        the field (``sheet.race: ...``), or ``None`` when they can. Not for the fold: a GM's
        amendment of a sheet is checked with it."""
        ...

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        """The pools a combatant with this sheet snapshot joins with (as its roster's join
        makes them: HP, a wounds track, characteristics...), or ``None`` when the rules do
        not say or cannot read it. The audit holds a ``combatant_joined``'s pools to it."""
        ...

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        """Why the rules refuse a scene's options (``scene_started.options``), naming the
        option and what it accepts, or ``None`` when they read them. Not for the fold, which
        reads what it can: the audit reports it (``scene.bad-options``)."""
        ...

    def audit_checks(self) -> Mapping[type, Check]:
        """The audit's checks of this ruleset by event type (``fightlog.kit.checks``):
        what each declaration, roll, outcome and effect should have been."""
        ...

    def audit_record_checks(self) -> RecordSplit:
        """``audit_checks`` split for a big log without rulings, which the audit checks on
        two processes (``fightlog.audit.two_process``): the checks that need the folded state,
        those that read only the event as recorded, the scene's options and recent events,
        and tests standing for part of a state check (``fightlog.kit.checks.RecordSplit``).
        The second and third share run in the second process, beside the dice."""
        ...

    def rule_section(self, code: str) -> str:
        """The rulebook section a finding ``code`` rests on, as the audit prints it."""
        ...

    def resolution_targets(self, declaration: Posted) -> frozenset[str] | None:
        """Whom the poster's attacks resolving ``declaration`` may target: the names its
        actions give (``target``, ``targets``, and the parameters the ruleset reads more
        targets from), or ``None`` when the post does not decide them (a blast, a counter
        answering another post, no target named). The audit's ``outcome.undeclared``
        (``fightlog.audit.answers``)."""
        ...


def weapon_names(sheet: Mapping[str, Any]) -> tuple[str, ...]:
    """The weapon names of a sheet snapshot that lists each weapon as a table with a
    ``name`` (what such a ruleset's ``Ruleset.weapons`` answers); a malformed list gives
    none."""
    found = sheet.get("weapons", ())
    if not isinstance(found, (list, tuple)):
        return ()
    return tuple(str(w["name"]) for w in found if isinstance(w, dict) and isinstance(w.get("name"), str))


def read_problem(read: Callable[[Mapping[str, Any]], object], data: Mapping[str, Any]) -> str | None:
    """Why ``read`` refuses ``data`` (its ``InputError``'s message), or ``None``: a ruleset's
    ``sheet_problem`` over its reader of sheet snapshots, its ``options_problem`` over its
    ``read_options``."""
    try:
        read(data)
    except InputError as exc:
        return exc.message
    return None


def read_pools(read: Callable[[Mapping[str, Any]], object], pools: Callable[[Any], Mapping[str, int]],
               data: Mapping[str, Any]) -> Mapping[str, int] | None:
    """``pools`` of what ``read`` makes of a sheet snapshot, or ``None`` when it refuses it: a
    ruleset's ``sheet_pools`` over its reader and its join's pools."""
    try:
        return pools(read(data))
    except InputError:
        return None


class GenericRules(GenericFoldRules):
    """Defaults that suit a log whose ruleset fightlog does not know (or does not need).

    A ruleset subclasses it and fills in what it has: ``sections`` (its finding codes and
    the sections findings rest on, ``fightlog.kit.sections``), ``table_module``."""

    sections: Sections | None = None
    table_module: str | None = None
    policy_module: str | None = None
    area_actions: frozenset[str] = frozenset()
    """Action types whose outcomes may hit anyone (a grenade's blast): ``resolution_targets``."""
    target_params: frozenset[str] = frozenset()
    """Action parameters naming more targets (comma-separated names)."""
    answer_actions: frozenset[str] = frozenset()
    """Action types that answer a post in another's turn (``Ruleset.answer_actions``)."""
    distance_unit: str = "m"
    spent_words: Mapping[str, tuple[str, str]] = {}

    def table(self) -> Table | None:
        if self.table_module is None:
            return None
        table: Table = self._loaded(self.table_module, "TABLE", "table")
        if id(table) not in _CHECKED_TABLES:
            problem = option_type_problem(getattr(table, "option_type", None))
            if problem is not None:
                raise RulesetError(f"ruleset {self.id!r}: its table's options ({self.table_module}.TABLE.option_type) "
                                   f"cannot be a ruleset's: {problem}")
            _CHECKED_TABLES.add(id(table))
        return table

    def policy(self) -> Policy | None:
        if self.policy_module is None:
            return None
        policy: Policy = self._loaded(self.policy_module, "POLICY", "policy")
        return policy

    def _loaded(self, module: str, name: str, what: str) -> Any:
        """``module.name``, imported on first use; ``RulesetError`` naming the ruleset and
        its ``what`` when it does not load."""
        try:
            return getattr(importlib.import_module(module), name)
        except Exception as exc:  # noqa: BLE001 - a plugin's import may fail in any way
            raise RulesetError(
                f"ruleset {self.id!r}: its {what} ({module}.{name}) does not load: {type(exc).__name__}: {exc}"
            ) from None

    def harm_period(self, effect: str, params: Mapping[str, Any]) -> str | None:
        return None

    def turn_spent(self, state: SceneState, actor: str) -> Mapping[str, int]:
        pending = state.pending
        if not pending or all(post.actor == actor for post in pending):
            return state.turn.spent  # the fold's count, of the turn's posts: all theirs
        spent: dict[str, int] = {}
        for post in pending:
            if post.actor == actor:
                for action in post.actions:
                    cost = self.action_cost(action)
                    if cost is not None:
                        spent[cost] = spent.get(cost, 0) + 1
        return spent

    def findings(self) -> Mapping[str, Code]:
        return {} if self.sections is None else self.sections.findings

    def sheet_problem(self, sheet: Mapping[str, Any]) -> str | None:
        return None

    def sheet_pools(self, sheet: Mapping[str, Any]) -> Mapping[str, int] | None:
        return None

    def options_problem(self, options: Mapping[str, Any]) -> str | None:
        return None

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        return self

    def audit_checks(self) -> Mapping[type, Check]:
        return {}

    def resolution_targets(self, declaration: Posted) -> frozenset[str] | None:
        if declaration.responds_to is not None:
            return None
        named: set[str] = set()
        for action in declaration.actions:
            if action.type in self.area_actions:
                return None
            if action.target:
                named.add(action.target)
            named.update(action.targets)
            for param in self.target_params:
                more = action.params.get(param)
                if isinstance(more, str):
                    named.update(name.strip() for name in more.split(","))
        return frozenset(named) if named else None

    def audit_record_checks(self) -> RecordSplit:
        return RecordSplit(self.audit_checks(), {}, frozenset(), {})

    def rule_section(self, code: str) -> str:
        if self.sections is not None:
            return self.sections.section(code)
        if code.startswith("order."):
            return "posting order (no ruleset: initiative order, the out skipped)"
        if code.startswith("dice."):
            return DICE_SECTION
        if code.startswith("outcome."):
            return OUTCOME_SECTION
        if code.startswith("scene."):
            return AUDIT_SECTION
        return "no ruleset section (generic log)"


GENERIC = GenericRules()


def installed() -> tuple[str, ...]:
    """The ruleset ids this fightlog knows, sorted (``generic`` among them)."""
    return tuple(sorted({GENERIC.id, *fold_rules.installed()}))


def is_installed(ruleset_id: str) -> bool:
    """Whether ``installed()`` holds ``ruleset_id`` (cheaper: ``fold_rules.is_installed``)."""
    return ruleset_id == GENERIC.id or fold_rules.is_installed(ruleset_id)


def playable() -> tuple[str, ...]:
    """The ids of the installed rulesets that have a table, sorted (loading each ruleset's
    light module, none of their tables)."""
    return tuple(r for r in installed() if _has_table(r))


def _has_table(ruleset_id: str) -> bool:
    """Whether a ruleset names a table; ``False`` for one whose entry point does not load
    (``fightlog rulesets`` says why: a hint or a completion must not fail for it)."""
    try:
        module = getattr(ruleset_for(ruleset_id), "table_module", None)
    except RulesetError:
        return False
    if module is None:
        return False
    try:  # found, not imported (a table loads the rules, and pydantic): a misspelt module is no table
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def policy_for(ruleset_id: str) -> Policy | None:
    """The default policy of a ruleset id, or ``None`` when it has none (a plugin ruleset
    written before policies existed answers ``None`` too)."""
    ask = getattr(ruleset_for(ruleset_id), "policy", None)
    return None if ask is None else cast("Policy | None", ask())


def register(ruleset: Ruleset) -> None:
    """Make ``ruleset`` the one used for logs whose ``scene_started.ruleset`` is its id (a
    ruleset not installed as a package: tests, notebooks)."""
    fold_rules.register(ruleset)


def ruleset_for(ruleset_id: str | None) -> Ruleset:
    """The ruleset for an id; ``GENERIC`` for ``None`` and ids no installed ruleset claims."""
    found = fold_rules.ruleset_for(ruleset_id)
    return GENERIC if found is None else cast(Ruleset, found)


def rules_for_scene(ruleset_id: str | None, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a scene under the options it was started with (the same object the fold
    asks, ``fightlog.reducers.fold_rules.rules_for_scene``)."""
    if fold_rules.ruleset_for(ruleset_id) is None:
        return GENERIC
    return cast(Ruleset, fold_rules.rules_for_scene(ruleset_id, options))
