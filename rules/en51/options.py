"""The named options of ``en51``: the two things the rulebook assumes the reader knows (the
core roll, the character sheet's range scale) and every choice made where it is silent or
ambiguous.

``En51Options`` is what ``scene_started.options`` records (all fields, defaults included).
The comment above each group names the rulebook section it fills in;
``docs/rulesets/en51.md`` gives the reason for each default. msgspec only: the fold reads
these, and the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Final, Literal

from msgspec import Meta, Struct

from fightlog.errors import InputError
from fightlog.kit.options import NUMBER_CAP, NonNegative, SceneOptions, read_options as read_ruleset_options

Penalty = Annotated[int, Meta(ge=0, le=20)]

RANGE_SCALE: Final = "5,8,15,25,40,60,100,150,250,400,600,1000,1500,2500,4000,6000,10000,15000,25000,40000"
"""The range scale of the sheet as assumed (not printed in the rulebook): the metres at which
each step begins; step 7 begins at 100 m ("about 100 m: a success higher than 7"), and
under the first mark (5 m) is step 0, where every success hits."""


class En51Options(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every named option of ``en51`` with its default."""

    # The core roll (assumed by Combat actions; Melee attack): a die succeeds when it is at
    # most the skill ("at_most") or below it ("below"); the Success is the highest
    # succeeding die.
    die_succeeds: Literal["at_most", "below"] = "at_most"
    # The sheet's range scale (assumed by Ranged attack): comma-separated metres, one mark
    # per step, increasing.
    range_scale: str = RANGE_SCALE
    # Surprise: who acts first. "none": the order joined (the rulebook has no initiative
    # roll); "side": ``surprising_side`` acts first; "roll": one d20 per side plus its
    # members' surprise traits, the highest first, a draw to the players.
    surprise: Literal["none", "side", "roll"] = "none"
    surprising_side: str = ""
    # Melee attack ("unaware ... the Defense is 0"): in the first turn of a surprise, a
    # defender of a side that acts later and has not acted yet is unaware.
    ambush_unaware: bool = True
    # Ranged attack ("targets that are harder to hit ... incur penalties"): the penalty for
    # shooting at someone who declared a move this turn (silent on the number: 0).
    moving_target_penalty: Penalty = 0
    # The aftermath: a wound more than 5 above Toughness kills ("some groups prefer to play
    # without": false).
    irreversible_death: bool = True
    # Recovery ("the result, whether success or failure"): on a failed roll, which die is
    # compared with the marked wounds.
    failed_recovery_reads: Literal["either", "black"] = "either"
    # Recovery ("between fights"): whether a Recovery roll may be made while anyone of another
    # side still stands (false: only once the fight is over).
    recovery_in_fight: bool = False
    # Roll with it: the Damage it takes off.
    roll_with_it: NonNegative = 2
    # Melee attack (silent on reach): the farthest a melee attack reaches, in metres; an attack
    # naming a longer distance (beyond what a move combined with it closes) is refused.
    melee_reach: NonNegative = 2


DEFAULTS: Final = En51Options()


MOST_MARKS: Final = 20
"""The most marks a range scale may have (the rulebook's has five)."""


@lru_cache(maxsize=16)
def scale_marks(text: str) -> tuple[int, ...]:
    """The range scale's marks; ``ValueError`` unless 1 to ``MOST_MARKS`` increasing whole
    numbers of metres from 1 to ``NUMBER_CAP``, saying which part is wrong."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > MOST_MARKS:
        raise ValueError(f"{len(parts)} marks: at most {MOST_MARKS}")
    marks = []
    for part in parts:
        if not part.isdigit() or not part.isascii() or len(part.lstrip("0")) > 10 or not 1 <= int(part) <= NUMBER_CAP:
            raise ValueError(f"{part!r} is not a whole number of metres from 1 to {NUMBER_CAP}")
        marks.append(int(part))
    if any(b <= a for a, b in zip(marks, marks[1:])):
        raise ValueError("the marks must increase")
    return tuple(marks)


def read_options(overrides: Mapping[str, Any], *, where: str | None = None) -> En51Options:
    """``overrides`` read as ``En51Options``, the range scale and the surprising side checked."""
    options = read_ruleset_options(En51Options, overrides, ruleset="en51", where=where)
    try:
        scale_marks(options.range_scale)
    except ValueError as exc:
        raise InputError(f"en51 option 'range_scale': expected increasing metres, comma-separated "
                         f"(\"5,8,15,25,...\"): {exc}", path=where) from None
    if options.surprise == "side" and not options.surprising_side:
        raise InputError("en51 option 'surprising_side': required when surprise is 'side'", path=where)
    return options


options_of: Final = SceneOptions(read_options, fallback=DEFAULTS)
"""The options the scene was started with (the defaults for a log whose options do not read:
it still folds and audits)."""
