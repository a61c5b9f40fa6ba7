"""The winner a scene's end names (``outcome.winner``), for every ruleset.

``scene_ended.winner`` is what the table wrote when it ended the fight: the one side (or
lone fighter) still standing, none when several stand or nobody does, the ruleset's out of
order statuses (defeated, fled, dead...) deciding who stands (``reducers.derive.standing_sides``,
which the table's ``end`` asks too). The last line of a log is the
one edit ``verify`` cannot see without a published head, and a forged winner changes the
fight's result: the audit works the winner out again from the folded statuses and names an
end whose winner differs. An end naming no winner claims nothing, and is not checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, cast

from fightlog.events.model import SceneEnded
from fightlog.kit.checks import AuditView, Check
from fightlog.kit.ruleset import GENERIC, Ruleset
from fightlog.reducers.derive import standing_sides
from fightlog.reducers.state import SceneState

CODE: Final = "outcome.winner"


def checks(rules: Ruleset) -> Mapping[type, Check]:
    """The check of the end's winner under ``rules`` (the audited scene's ruleset; none for
    a ruleset not installed: who is out is its own, and only the order and the dice are
    checked then)."""
    if rules.id == GENERIC.id:
        return {}
    out = frozenset(rules.out_of_order_statuses())

    def ended(before: SceneState, event: SceneEnded, after: SceneState, view: AuditView) -> None:
        winner = event.winner
        if winner is None:
            return
        up = standing_sides(before, out)
        if up == [winner]:
            return
        if not up:
            stand = "nobody stands"
        elif len(up) == 1:
            stand = f"{up[0]} alone stands"
        else:
            stand = f"{', '.join(up)} still stand"
        sides = {c.side or c.actor for c in before.combatants.values()}
        whose = "" if winner in sides or winner in before.combatants else f" ({winner} is no side in the fight)"
        view.report(CODE, event, f"the scene's end names {winner} the winner{whose}, but by the fighters' "
                                 f"statuses {stand}")

    return {SceneEnded: cast(Check, ended)}
