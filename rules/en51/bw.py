"""The black and white roll: two d20s read together (the core roll the rulebook assumes, and
its Melee attack, Ranged attack, Damage and Armour sections).

A die succeeds when it is at most the skill (``die_succeeds``: or below it); the Success is
the highest succeeding die. A die *hits* when it succeeds and is higher than what the attack
must beat (the Defense, or the distance step); the attack hits when its Success does. Pure
functions of the faces: the table decides with them and the audit checks with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from fightlog.events.model import Die

NOTATION: Final = "BW"
"""The dice notation of the pair (fightlog's dice: two d20s labelled black and white)."""


class Faces(NamedTuple):
    black: int
    white: int


def succeeds(face: int, skill: int, rule: str) -> bool:
    """Whether one die succeeds against ``skill`` (``rule``: ``at_most`` or ``below``)."""
    return face <= skill if rule == "at_most" else face < skill


def success(faces: Faces, skill: int, rule: str) -> int | None:
    """The Success: the highest succeeding die, ``None`` when neither succeeds."""
    black, white = faces
    if rule == "at_most":
        black_ok, white_ok = black <= skill, white <= skill
    else:
        black_ok, white_ok = black < skill, white < skill
    if black_ok and white_ok:
        return max(black, white)
    return black if black_ok else white if white_ok else None


def die_hits(face: int, skill: int, against: int, rule: str) -> bool:
    return succeeds(face, skill, rule) and face > against


def hits(faces: Faces, skill: int, against: int, rule: str) -> bool:
    """Whether the attack hits: a Success higher than ``against``."""
    best = success(faces, skill, rule)
    return best is not None and best > against


def last_digit(face: int) -> int:
    """The Damage a die gives: its last digit, 10 and 20 counting as 10."""
    return face % 10 or 10


def damage_die(faces: Faces, skill: int, against: int, rule: str) -> str:
    """Which die the Damage is read from: the one that missed; the black one when both hit."""
    if die_hits(faces.black, skill, against, rule) and not die_hits(faces.white, skill, against, rule):
        return "white"
    return "black"


def damage(faces: Faces, skill: int, against: int, rule: str, weapon_damage: int) -> int:
    """The Damage of a hit before armour: the last digit of the die that missed plus the
    weapon's Damage."""
    face = faces.white if damage_die(faces, skill, against, rule) == "white" else faces.black
    return last_digit(face) + weapon_damage


def armour_struck(white: int, coverage: int) -> bool:
    """Whether a layer of armour is struck: Coverage 20 always; otherwise unless the white die
    is higher than the Coverage (successful or not)."""
    return coverage >= 20 or white <= coverage


def faces_of(dice: Sequence[Die]) -> Faces:
    """The black and white faces of a ``BW`` roll's dice (by label; black first otherwise)."""
    if len(dice) == 2 and dice[0].label == "black" and dice[1].label == "white":
        return Faces(dice[0].face, dice[1].face)
    black = next((d.face for d in dice if d.label == "black"), dice[0].face if dice else 0)
    white = next((d.face for d in dice if d.label == "white"), dice[1].face if len(dice) > 1 else 0)
    return Faces(black, white)
