"""Tables whose options no ruleset may have (``test_option_types.py``): a float, a default of
the wrong kind, a Literal's default outside its values."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct


class FloatOptions(Struct, frozen=True, kw_only=True):
    damage: int = 3
    ratio: float = 0.5


class WrongDefault(Struct, frozen=True, kw_only=True):
    damage: int = "three"  # type: ignore[assignment]


class OutsideLiteral(Struct, frozen=True, kw_only=True):
    mode: Literal["hot", "cold"] = "warm"  # type: ignore[assignment]


class _Table:
    def __init__(self, option_type: type[Struct]) -> None:
        self.option_type = option_type


TABLE = _Table(FloatOptions)
