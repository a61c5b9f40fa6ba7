"""What the fold asks a ruleset, the generic answers, and where rulesets are found.

Event kinds are shared by all rulesets; what some of their fields *mean* differs (which
statuses take a combatant out of the posting order, how a declared action is counted against
the turn's allowance, when an arrival starts posting, what a sheet's weapons are, what firing
one does). The reducers ask these questions through ``FoldRules`` and never branch on a
ruleset id. The rest of what a ruleset answers (play, the audit, sheets) is the kit's
``fightlog.kit.ruleset.Ruleset``, which extends this protocol.

Rulesets are found by id through the ``fightlog.rulesets`` entry-point group
(``GROUP``), loaded the first time a log names one: folding a log of
one ruleset never loads the others, and ``verify`` loads none.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

from fightlog.errors import RulesetError
from fightlog.events.model import Action


class FoldRules(Protocol):
    """Questions the fold asks a ruleset."""

    id: str

    def out_of_order_statuses(self) -> frozenset[str]:
        """Statuses that take a combatant out of the posting order (they are skipped)."""
        ...

    def waiting_statuses(self) -> frozenset[str]:
        """Statuses of a combatant who keeps a place but is not expected to post now
        (delaying, holding a turn)."""
        ...

    def action_cost(self, action: Action) -> str | None:
        """The part of the turn ``action`` spends (``action``, ``move``, ``standard``...),
        or ``None`` for something free."""
        ...

    def arrival_delay(self) -> int:
        """Rounds after joining before an arrival takes its posting slot."""
        ...

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        """The weapon names a sheet snapshot carries."""
        ...

    def with_options(self, options: Mapping[str, Any]) -> FoldRules:
        """This ruleset under a scene's options (``scene_started.options``), which may change
        how its weapons read or reload. Called once per scene by the fold."""
        ...

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        """A weapon that had fired ``fired`` times since its last reload fires ``amount``
        more (``resource_spent`` of the weapon): its new ``(fired, needs_reload, cooldown)``.

        The cooldown counts down at the end of each of the owner's turns, the firing turn
        included: 2 means the weapon cannot fire again in the owner's next turn."""
        ...


class GenericFoldRules:
    """Defaults that suit a log whose ruleset fightlog does not know (or does not need)."""

    id = "generic"

    _OUT = frozenset({"defeated", "fled", "dead", "wounded", "mortally_wounded", "unconscious", "left"})
    _WAITING = frozenset({"delaying", "holding"})
    _FREE = frozenset({"speak", "talk", "free", "say"})
    _MOVES = frozenset({"move", "stance", "kneel", "prone", "stand"})

    def out_of_order_statuses(self) -> frozenset[str]:
        return self._OUT

    def waiting_statuses(self) -> frozenset[str]:
        return self._WAITING

    def action_cost(self, action: Action) -> str | None:
        if action.cost is not None:
            return action.cost
        if action.type in self._FREE:
            return None
        return "move" if action.type in self._MOVES else "action"

    def arrival_delay(self) -> int:
        return 1

    def weapons(self, sheet: Mapping[str, Any]) -> tuple[str, ...]:
        found = sheet.get("weapons", ())
        if not isinstance(found, (list, tuple)):
            return ()
        return tuple(str(w) for w in found if isinstance(w, str))

    def with_options(self, options: Mapping[str, Any]) -> FoldRules:
        return self

    def weapon_capacity(self, weapon: str) -> int | None:
        return None

    def weapon_cooldown(self, weapon: str) -> int:
        return 0

    def weapon_fired(self, weapon: str, fired: int, amount: int) -> tuple[int, bool, int]:
        fired += amount
        capacity = self.weapon_capacity(weapon)
        return fired, capacity is not None and fired >= capacity, self.weapon_cooldown(weapon)


GROUP = "fightlog.rulesets"
"""The entry-point group rulesets are found in: name = ruleset id, value = the module object
that is the ruleset (``fightlog.rules.roe7.ruleset:RULES``). The built-in ones use it too."""

_REGISTRY: dict[str, FoldRules] = {}
_GENERIC_FOLD = GenericFoldRules()


def register(rules: FoldRules) -> None:
    """Make ``rules`` the ones used for logs whose ``scene_started.ruleset`` is its id (for a
    ruleset not installed as a package: tests, notebooks)."""
    _REGISTRY[rules.id] = rules


_NAMES: list[tuple[object, frozenset[str]]] = []
"""The entry points' names, read once, with the ``entry_points`` they were read through (a
test that replaces it is read anew): a look reads every installed distribution's metadata
(about 20 ms here), and a log under a ruleset not installed asked at every fold (``state``,
``replay`` with rulings, the audit at every ``combatant_joined``)."""


def _point_names() -> frozenset[str]:
    source = entry_points
    if not _NAMES or _NAMES[0][0] is not source:
        _NAMES[:] = [(source, frozenset(point.name for point in source(group=GROUP)))]
    return _NAMES[0][1]


def installed() -> tuple[str, ...]:
    """The ids of the rulesets installed (entry points) or registered, sorted."""
    return tuple(sorted({*_REGISTRY, *_point_names()}))


def is_installed(ruleset_id: str) -> bool:
    """Whether ``installed()`` holds ``ruleset_id``."""
    return ruleset_id in _REGISTRY or ruleset_id in _point_names()


def ruleset_for(ruleset_id: str | None) -> FoldRules | None:
    """The ruleset for an id, loaded from its entry point on first use; ``None`` for ``None``
    and for ids no installed ruleset claims (the caller's generic rules answer then).

    An id fightlog's own rulesets use stays theirs: another distribution's entry point of
    the same name is ignored (``clashes`` names it, for ``fightlog rulesets``). Two other
    distributions claiming one id make it unusable (``RulesetError``): which one decides a
    log's verdicts must not depend on the order they were installed in."""
    if ruleset_id is None:
        return None
    found = _REGISTRY.get(ruleset_id)
    if found is None and ruleset_id in _point_names():
        points = list(entry_points(group=GROUP, name=ruleset_id))
        if len(points) > 1:
            own = [point for point in points if _distribution(point) == OWN]
            if len(own) != 1:
                claims = ", ".join(f"{_distribution(point)} ({point.value})" for point in points)
                raise RulesetError(f"ruleset {ruleset_id!r} is claimed by {len(points)} installed distributions: "
                                   f"{claims}; uninstall all but one, or give each its own id")
            points = own
        for point in points:
            try:
                loaded = point.load()
            except Exception as exc:  # noqa: BLE001 - a plugin's import may fail in any way
                raise RulesetError(
                    f"ruleset {ruleset_id!r}: its entry point {GROUP}:{ruleset_id} ({point.value}) does not load: "
                    f"{type(exc).__name__}: {exc}"
                ) from None
            _check_loaded(ruleset_id, point.value, loaded)
            _REGISTRY[ruleset_id] = found = loaded
            break
    return found


OWN = "fightlog"
"""The distribution whose rulesets' ids no plugin may take."""

_ASKED = ("out_of_order_statuses", "waiting_statuses", "action_cost", "arrival_delay", "weapons", "with_options",
          "weapon_fired")
"""What the fold calls on a ruleset (``FoldRules``)."""


def _check_loaded(ruleset_id: str, value: str, loaded: object) -> None:
    """``RulesetError`` unless ``loaded`` is a ruleset object with id ``ruleset_id`` (not
    its class: the entry point names an instance)."""
    where = f"ruleset {ruleset_id!r}: its entry point {GROUP}:{ruleset_id} ({value})"
    if isinstance(loaded, type):
        raise RulesetError(f"{where} names the class {loaded.__name__}, not a ruleset: name an instance "
                           f"(RULES = {loaded.__name__}())")
    if getattr(loaded, "id", None) != ruleset_id:
        raise RulesetError(f"{where} is not a ruleset with id {ruleset_id!r}")
    missing = [name for name in _ASKED if not callable(getattr(loaded, name, None))]
    if missing:
        raise RulesetError(f"{where} is not a ruleset: it has no {', '.join(missing)}")


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    name = None if dist is None else dist.metadata["Name"]
    return str(name) if name else "an unnamed distribution"


def clashes(ruleset_id: str) -> tuple[str, ...]:
    """The entry points of other distributions that claim the id of one of fightlog's own
    rulesets, ignored (``ruleset_for``): each as ``DISTRIBUTION (MODULE:OBJECT)``."""
    points = list(entry_points(group=GROUP, name=ruleset_id))
    if len(points) < 2 or sum(1 for point in points if _distribution(point) == OWN) != 1:
        return ()
    return tuple(f"{_distribution(point)} ({point.value})" for point in points if _distribution(point) != OWN)


def plugin_at_fault(exc: BaseException) -> tuple[str, str, int] | None:
    """Where in a ruleset plugin ``exc`` was raised: the ruleset's id, the module and the
    line of the innermost frame of its traceback in a package of a loaded ruleset that is
    not fightlog's own (its class's, its table's or its policy's); ``None`` when no such
    frame is there (the bug is fightlog's)."""
    packages: dict[str, str] = {}  # the package of each module named, or the module itself
    for rules in _REGISTRY.values():
        for module in (type(rules).__module__, getattr(rules, "table_module", None), getattr(rules, "policy_module", None)):
            if isinstance(module, str) and module.split(".")[0] != OWN:
                packages.setdefault(module.rpartition(".")[0] or module, rules.id)
    found = None
    tb = exc.__traceback__
    while tb is not None and packages:
        name = str(tb.tb_frame.f_globals.get("__name__", ""))
        for package, ruleset in packages.items():
            if name == package or name.startswith(package + "."):
                found = (ruleset, name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def fold_rules_for(ruleset_id: str | None) -> FoldRules:
    """What the fold asks for a scene of ``ruleset_id``: its ruleset, or the generic rules."""
    found = ruleset_for(ruleset_id)
    return found if found is not None else _GENERIC_FOLD


def rules_for_scene(ruleset_id: str | None, options: Mapping[str, Any]) -> FoldRules:
    """The ruleset of a scene, under the options it was started with.

    Remembered by the options object (a scene keeps the same one while its other fields
    change), so a fold resumed one event at a time (``Folder.steps``, a replay) does not
    configure the ruleset again for every event.
    """
    rules = fold_rules_for(ruleset_id)
    if not options:
        return rules
    key = (ruleset_id, id(options))
    known = _CONFIGURED.get(key)
    if known is not None and known[0] is options and known[1] is rules:
        return known[2]
    configured = rules.with_options(options)
    if len(_CONFIGURED) >= _CONFIGURED_MAX:
        _CONFIGURED.clear()
    _CONFIGURED[key] = (options, rules, configured)  # holding ``options`` keeps its id unique
    return configured


_CONFIGURED: dict[tuple[str | None, int], tuple[Mapping[str, Any], FoldRules, FoldRules]] = {}
_CONFIGURED_MAX = 256
