"""The narration's table (``fightlog.report.narration``): every event kind of the log format
has its line, said by exactly one event family's module."""

from __future__ import annotations

import typing
from collections import Counter

from fightlog.events.model import AnyEvent
from fightlog.report.narration import combat, course, effects, rolls, rulings
from fightlog.report.narration.kinds import _DESCRIBE

FAMILIES = (course, rolls, combat, effects, rulings)


def test_every_kind_has_its_line_in_one_family() -> None:
    said = Counter(kind for family in FAMILIES for kind in family.DESCRIBE)
    assert [kind.__name__ for kind, n in said.items() if n > 1] == []
    assert set(said) == set(typing.get_args(AnyEvent))
    assert _DESCRIBE == {kind: line for family in FAMILIES for kind, line in family.DESCRIBE.items()}
