"""Helpers of the kit's tests."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from fightlog.reducers import fold_rules


def with_points(monkeypatch: pytest.MonkeyPatch, *extra: EntryPoint) -> None:
    """The installed entry points and ``extra`` (a plugin installed badly)."""
    real = fold_rules.entry_points

    def points(*, group: str, name: str | None = None) -> list[EntryPoint]:
        found = [*real(group=group), *extra] if group == fold_rules.GROUP else list(real(group=group))
        return [p for p in found if name is None or p.name == name]

    monkeypatch.setattr(fold_rules, "entry_points", points)
    monkeypatch.setattr(fold_rules, "_REGISTRY", dict(fold_rules._REGISTRY))  # what loads here is forgotten after
