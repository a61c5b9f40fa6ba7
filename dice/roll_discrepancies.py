"""What does not add up in an external roll, as ``Discrepancy`` records (the codes are listed
in ``dice/external.py``): a face out of range, and the dice the dialect gives compared with
the dice recorded (rerolls, explosions, the dice kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fightlog.events.model import Die
from fightlog.dice.ast import DiceTerm
from fightlog.dice.expression import Expression
from fightlog.dice.render import breakdown
from fightlog.dice.result import RollResult, TermRoll


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One thing about an external roll that does not add up (``code`` as listed above)."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


def out_of_range(expr: Expression, groups: list[list[Die]]) -> list[Discrepancy]:
    """The first face (or replaced face) a die of its term cannot show."""
    i = 0
    for term, group in zip(expr.terms, groups):
        low, high = term.face_range
        for die in group:
            i += 1
            for face in (*die.rerolled, die.face):
                if not low <= face <= high:
                    of = f"a d{die.sides}" if term.faces == "plain" else f"a die of {term.text}"
                    return [Discrepancy("roll-range", f"die {i} shows {face}, outside {low}..{high} of {of}")]
                if term.faces == "tens" and face % 10:
                    return [Discrepancy("roll-range", f"die {i} shows {face}, not a face of a die of "
                                        f"{term.text} (0, 10, ..., 90)")]
    return []


def compare(
    expr: Expression,
    groups: list[list[Die]],
    result: RollResult,
    what: str,
    extra: int,
    hidden: bool = False,
) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    for term, group, roll in zip(expr.terms, groups, result.terms):
        if _same(group, roll, hidden):
            continue
        expected = roll.dice(term)
        why = _rerolls(term, group, expected, what, hidden)
        if why is not None:
            out.append(Discrepancy(*why))
            continue
        kept = [d.face for d in expected if d.kept]
        got = [d.face for d in group if d.kept]
        if [d.kept for d in expected] != [d.kept for d in group]:
            if sorted(kept) != sorted(got) or len(expected) != len(group):
                out.append(
                    Discrepancy(
                        "roll-kept",
                        f"{term.text} keeps {_faces(kept)} but the {what} kept {_faces(got)}",
                    )
                )
    if extra > 0 and not out:
        out.append(
            Discrepancy(
                "roll-reroll",
                f"{extra} recorded {'face' if extra == 1 else 'faces'} the {expr.notation} "
                "rolls do not draw",
            )
        )
    return out


def _same(group: list[Die], roll: TermRoll, hidden: bool = False) -> bool:
    """Whether the recorded dice are exactly the dice the dialect gives (the common case;
    ``hidden``: replaced faces are not compared)."""
    faces = roll.faces
    if len(faces) != len(group):
        return False
    kept, rerolled = roll.kept, roll.rerolled
    for i, die in enumerate(group):
        if die.face != faces[i] or die.kept != (kept is None or kept[i]):
            return False
        if rerolled is None or hidden:
            if die.rerolled:
                return False
        elif tuple(die.rerolled) != rerolled[i]:
            return False
    return True


def _rerolls(term: DiceTerm, group: Sequence[Die], expected: list[Die], what: str,
             hidden: bool = False) -> tuple[str, str] | None:
    """The first reroll or explosion the dialect and the roll disagree on: its code and
    words."""
    for i, (r, e) in enumerate(zip(group, () if hidden else expected), 1):
        if r.rerolled != e.rerolled:
            if not e.rerolled:
                return "roll-reroll", f"the {what} rerolled die {i} ({_faces(r.rerolled)} -> {r.face}) but {term.text} does not reroll it"
            if not r.rerolled:
                return "roll-reroll", f"{term.text} rerolls die {i} ({_faces(e.rerolled)}) but the {what} kept it"
            shown, made = [*r.rerolled, r.face], [*e.rerolled, e.face]
            if made[: len(shown)] == shown:  # the dialect goes on rerolling where the roll stopped
                return "roll-reroll", (f"die {i} ({_chain(shown)}): {term.text} rerolls its {r.face} again "
                                       f"but the {what} kept it")
            if shown[: len(made)] == made:  # the roll went on rerolling where the dialect stops
                return "roll-reroll", (f"die {i} ({_chain(shown)}): the {what} rerolled its {e.face} "
                                       f"but {term.text} does not reroll it")
            return "roll-reroll", f"die {i}: {term.text} rerolls {_faces(e.rerolled[:_SHOWN])}, the {what} rerolled {_faces(r.rerolled)}"
    added_e = sum(1 for d in expected if d.exploded)
    added_r = sum(1 for d in group if d.exploded)
    if added_e != added_r:
        return "roll-explode", (
            f"{term.text} explodes into {added_e} added {'die' if added_e == 1 else 'dice'} "
            f"but the {what} shows {added_r}"
        )
    if len(group) != len(expected):
        return "roll-reroll", f"{term.text} rolls {len(expected)} dice but the {what} shows {len(group)}"
    return None


def spelled_out(result: RollResult) -> str:
    """The roll's breakdown (``1d20 (14) + 5 = 19``); for a tree the renderer does not draw
    yet, the notation, the faces and the total."""
    try:
        return breakdown(result)
    except (AssertionError, TypeError, ValueError):
        faces = ", ".join(str(f) for t in result.terms for f in t.faces)
        return f"{result.notation} ({faces}) = {result.total}"


def _faces(faces: Sequence[int]) -> str:
    return ", ".join(str(f) for f in faces) or "none"


def _chain(faces: Sequence[int]) -> str:
    return " -> ".join(str(f) for f in faces)


_SHOWN = 20
"""Most faces a message lists of the rerolls the dialect makes (past the faces recorded, a
replay draws fillers that are no die's faces)."""
