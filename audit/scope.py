"""What the audit can judge: a log under a ruleset this fightlog does not have.

A scene whose ``scene_started.ruleset`` names no installed ruleset is folded and audited
under the generic rules (``rules_for_scene``): the posting order and the dice are checked,
the rules are not. That is said once, as a warning at ``scene_started`` naming the ruleset,
the installed ones and the nearest of them (``fightlog.kit.spelling``), and in the summary
(``ruleset_label``), so a clean audit of such a log is never read as a clean fight.

A scene whose options its (installed) ruleset refuses, as ``play start`` would (a log edited
by hand, or written by another tool), is folded and audited under the ruleset's default
options: that is said as an error at ``scene_started`` (``scene.bad-options``), naming the
option and what it accepts.

A combatant whose sheet its ruleset cannot read (``Ruleset.sheet_problem``: a log edited by
hand, a field past the roster's bounds) is folded as it stands, and the checks that read
that sheet (its weapons, its DMs, its armour) are not made: that is said as an error at its
``combatant_joined`` (``scene.bad-sheet``), naming the field, so a clean audit is never read
as sheets checked. A combatant who joined with no sheet at all (an imported fight) is not
reported: nothing was claimed. One whose sheet reads joins with the pools it gives
(``Ruleset.sheet_pools``: HP, a wounds track, characteristics...) or less (one who joins
hurt, as a GM carries a fight on): more is an error at its ``combatant_joined``
(``scene.joined-pools``): a log that starts someone at 500 HP on a 100 HP sheet is not a
fight the sheet describes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fightlog.errors import FightlogError
from fightlog.kit.checks import AuditView, Check
from fightlog.events.model import CombatantJoined, SceneStarted
from fightlog.reducers.state import SceneState
from fightlog.kit.ruleset import GENERIC, Ruleset, installed, is_installed, rules_for_scene
from fightlog.kit.spelling import closest


def unknown(ruleset: str) -> bool:
    """Whether ``ruleset`` is an id this fightlog does not have."""
    return not is_installed(ruleset)


def ruleset_label(ruleset: str) -> str:
    """The summary's name for the rules a scene was checked under: the id, or for an
    unknown id what was and was not checked."""
    if not unknown(ruleset):
        return ruleset
    return f"no ruleset ({ruleset!r} is not installed: posting order and dice checked, no rules)"


def scene_opened(before: SceneState, event: SceneStarted, after: SceneState, view: AuditView) -> None:
    ruleset = event.ruleset
    if not unknown(ruleset):
        _options(event, view)
        return
    known = [name for name in installed() if name != GENERIC.id]  # generic has no rules to offer
    near = closest(ruleset, known)
    hint = f"; did you mean {near!r}?" if near else ""
    view.report(
        "scene.unknown-ruleset", event,
        f"the scene's ruleset {ruleset!r} is not installed (installed: {', '.join(known)}{hint}): "
        "its rules were not checked, only the posting order and the dice",
    )


def checks() -> Mapping[type, Check]:
    """The checks of the audit's scope, as the audit calls them."""
    hooks: dict[type, Any] = {SceneStarted: scene_opened, CombatantJoined: joined}
    return hooks


def joined(before: SceneState, event: CombatantJoined, after: SceneState, view: AuditView) -> None:
    """A sheet the scene's ruleset refuses (``Ruleset.sheet_problem``, as ``play`` and a
    ruling's amendment refuse it): the checks that read it were not made."""
    scene = after.scene
    if not event.sheet or scene is None or unknown(scene.ruleset):
        return
    problem = _problem(scene.ruleset, lambda rules: rules.sheet_problem(event.sheet))
    if problem is not None:
        view.report(
            "scene.bad-sheet", event,
            f"{event.actor}'s sheet does not read under {scene.ruleset}: {problem}; "
            "the checks that read it were not made",
            actor=event.actor,
        )
        return
    try:
        want = rules_for_scene(scene.ruleset, {}).sheet_pools(event.sheet)
    except FightlogError:
        return
    if want is None:
        return
    more = {name: value for name, value in event.pools.items() if name in want and value > want[name]}
    if more:  # (less: one who joins hurt, as a GM carries a fight on)
        view.report(POOLS, event, f"{event.actor} joins with {_shown(more)}, more than the sheet gives "
                    f"({_shown({name: want[name] for name in more})})", actor=event.actor)


POOLS = "scene.joined-pools"


def _shown(pools: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in sorted(pools.items())) or "no pools"


def _options(event: SceneStarted, view: AuditView) -> None:
    """Options the scene's ruleset refuses (``Ruleset.options_problem``, as ``play start`` and
    a ruling refuse them): the checks ran under the defaults (the rulesets' ``options_of``)."""
    if not event.options:
        return
    problem = _problem(event.ruleset, lambda rules: rules.options_problem(event.options))
    if problem is not None:
        view.report(
            "scene.bad-options", event,
            f"the scene's options do not read under {event.ruleset}: {problem}; "
            "its rules were checked under the default options",
        )


def _problem(ruleset: str, ask: Callable[[Ruleset], str | None]) -> str | None:
    """What ``ask`` finds wrong under ``ruleset``'s rules (``None`` when nothing, or when
    they cannot tell)."""
    try:
        return ask(rules_for_scene(ruleset, {}))
    except FightlogError:
        return None
