"""Fixtures for the dice tests: face streams that give chosen faces instead of HMAC ones."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest


class ScriptedStream:
    """Gives the listed faces in order (each must fit the die asked for) and records the
    sides of every draw."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.pos = 0
        self.drawn = 0
        self.asked: list[int] = []

    def draw(self, sides: int) -> int:
        if self.pos >= len(self.faces):
            raise AssertionError(f"draw {self.pos + 1} not scripted (a d{sides})")
        face = self.faces[self.pos]
        assert 1 <= face <= sides, f"scripted face {face} does not fit a d{sides}"
        self.pos += 1
        self.drawn += 1
        self.asked.append(sides)
        return face

    def draw_many(self, sides: int, count: int) -> list[int]:
        return [self.draw(sides) for _ in range(count)]


class ModuloStream:
    """Faces ``raw % sides + 1`` from a list of raw numbers (the d20 oracle feeds d20 the
    same raw numbers); ``constant`` repeats one raw number for ever."""

    def __init__(self, raws: Iterable[int] = (), constant: int | None = None) -> None:
        self.raws = list(raws)
        self.constant = constant
        self.pos = 0
        self.drawn = 0

    def draw(self, sides: int) -> int:
        if self.constant is not None:
            raw = self.constant
        else:
            raw = self.raws[self.pos]
            self.pos += 1
        self.drawn += 1
        return raw % sides + 1

    def draw_many(self, sides: int, count: int) -> list[int]:
        return [self.draw(sides) for _ in range(count)]


@pytest.fixture
def scripted() -> Callable[[Iterable[int]], ScriptedStream]:
    return ScriptedStream


@pytest.fixture
def modulo() -> type[ModuloStream]:
    return ModuloStream
