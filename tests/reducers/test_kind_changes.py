"""The table of what each event kind changes (``reducers/kind_changes.py``) holds to the
dispatch the fold runs, to the event union and to ``docs/events.md``."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from fightlog.events.model import KINDS
from fightlog.reducers.combine import DISPATCH, SLICES
from fightlog.reducers.kind_changes import CHANGES, SLICE_MODULES, UNCHANGED
from fightlog.reducers.state import SceneState

DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def test_every_kind_of_the_union_is_listed_once() -> None:
    assert list(CHANGES) == list(KINDS)


def test_each_kind_lists_the_slices_whose_reducers_handle_it() -> None:
    for tag, kind in KINDS.items():
        assert CHANGES[tag] == tuple(name for name, _ in DISPATCH[kind]), tag


def test_the_slice_modules_are_the_ones_dispatch_combines() -> None:
    assert list(SLICE_MODULES) == list(SLICES)
    assert set(SLICES) <= set(SceneState.__struct_fields__)
    for field, module in SLICE_MODULES.items():
        assert importlib.import_module(f"fightlog.reducers.{module}").REDUCERS is SLICES[field], field


def test_every_handled_kind_is_listed_under_its_slice() -> None:
    handled = {(field, kind) for field, by_type in SLICES.items() for kind in by_type}
    listed = {(field, KINDS[tag]) for tag, fields in CHANGES.items() for field in fields}
    assert listed == handled


def test_a_kind_changing_nothing_says_why() -> None:
    assert set(UNCHANGED) == {tag for tag, fields in CHANGES.items() if not fields}
    assert all(why.strip() for why in UNCHANGED.values())


def test_the_docs_list_the_same_changes() -> None:
    section = DOCS.read_text(encoding="utf-8").split("## What each kind changes", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, flags=re.MULTILINE)
    documented = {tag: tuple(re.findall(r"`([a-z]+)`", cell)) for tag, cell in rows}
    assert documented == {tag: fields for tag, fields in CHANGES.items()}
