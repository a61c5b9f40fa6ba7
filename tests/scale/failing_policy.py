"""Users' policies that fail while a fight is played (``sim --policy``): ``POLICY`` raises,
``GARBAGE`` answers with what is not a post."""

from __future__ import annotations

from typing import Any


class Raising:
    def choices(self, state: Any, actor: str, choice: Any) -> list[Any]:
        raise RuntimeError("policy exploded")

    def answers(self, state: Any, poster: str, choice: Any) -> list[Any]:
        return []


class Garbage:
    def choices(self, state: Any, actor: str, choice: Any) -> list[Any]:
        return ["not a post", 42]

    def answers(self, state: Any, poster: str, choice: Any) -> list[Any]:
        return []


POLICY = Raising()
GARBAGE = Garbage()
