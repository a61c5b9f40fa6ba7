"""The named options of ``traveller``: every choice made where the combat sheet is silent or
ambiguous, and every number a house rule may want to change.

``TravellerOptions`` is what ``scene_started.options`` records (defaults included), so a log
replays under the rules it was played with. The comment above each group names the sheet
section it fills in; ``docs/rulesets/traveller.md`` gives the reason for each default.
msgspec only: the fold reads these, and the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from msgspec import Meta, Struct

from fightlog.kit.options import Bonus, NonNegative, Positive, read_options as read_ruleset_options

Dm = Annotated[int, Meta(ge=-12, le=12)]
Metres = Annotated[int, Meta(ge=1, le=100_000)]

RULESET_ID: Final = "traveller"


class TravellerOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every named option of ``traveller`` with its default."""

    # Pre-combat (Ambush; Initiative; Tactics): the ambushing side (none by default), the
    # characteristic DM initiative adds ("DEX or INT": the better of the two unless a house
    # rule fixes one), the ambush DM, whether Tactics is rolled, and combatants still tied
    # after DEX ("simultaneous": they post in the order joined, and one taken out by a
    # slot-mate still acts before falling; "joined": one after the other, no more).
    ambush: str = ""
    ambush_dm: Bonus = 6
    initiative_characteristic: Literal["better", "DEX", "INT"] = "better"
    tactics: bool = True
    simultaneous: Literal["together", "joined"] = "together"
    # Checks: the target number, the DM of a check without the skill (unskilled).
    target: Positive = 8
    unskilled_dm: Dm = -3
    # Combat (the actions of a turn): minor actions beside the significant one (which may
    # be traded for one more), movement, aiming.
    minor_actions: Positive = 1
    movement_m: Metres = 6
    movement_min_m: NonNegative = 1
    aim_max: Positive = 6
    # Melee: the characteristic of a melee attack ("STR or DEX DM": the better by default),
    # how near a melee attack reaches, a prone attacker's and a prone target's DMs.
    melee_characteristic: Literal["better", "STR", "DEX"] = "better"
    melee_reach_m: Metres = 2
    prone_melee_dm: Dm = -2
    prone_target_melee_dm: Dm = 1
    # Ranged (Weapon Range; Hiding): a prone target is harder to hit (the dive's DM-1 "from
    # prone"); band edges (the sheet writes "<"); unscoped weapons; shooting into cover.
    prone_target_ranged_dm: Dm = -1
    # ...and whether it adds to the cover's DM for a prone target in cover (the dive's row
    # gives DM-2 with cover and DM-1 "if no cover (from prone)": not, by default).
    prone_in_cover_stacks: bool = False
    band_edges_inclusive: bool = False
    unscoped_extreme_m: Metres = 100
    cover_dm: Dm = -2
    # Reactions: the DM each reaction adds to the reactor's next set of actions, how far a
    # dive for cover goes (1.5 m, one tile, in whole metres), the dive's DM with cover.
    reaction_dm: Dm = -1
    # ...paid in the next turn one acts in ("next_actions": a turn lost to a dive is no set
    # of actions), or in the next turn, taken or lost ("next_turn").
    reaction_dm_on: Literal["next_actions", "next_turn"] = "next_actions"
    dive_m: NonNegative = 1
    dive_cover_dm: Dm = -2
    # ...and whether the cover dived into protects (as armour) against the attack dived from.
    dive_cover_armour: bool = True
    # Damage (Unconsciousness): where damage goes once END is 0 ("STR or DEX": the higher
    # by default), and whether all three at zero is death.
    after_end: Literal["higher", "STR", "DEX"] = "higher"
    dead_at_three_zero: bool = True
    # Leadership: what a failed check gives ("Other side gets effect").
    leadership_failure: Literal["other-side", "none"] = "other-side"
    # Grappling: the choice of a defender who wins the opposed check (``picks``: they post
    # it, as the sheet's "the winner picks"; or a fixed one, a house rule); whom a grappled
    # combatant may attack (the partner only, by default); how far a drag goes (up to 3 m).
    grapple_defender_choice: Literal["picks", "prone", "disarm", "throw", "damage", "escape", "continue"] = "picks"
    grappled_attacks: Literal["partner", "any"] = "partner"
    drag_m: Metres = 3
    # Healing: first aid within so many rounds of the injury, once; needs a medikit;
    # regaining consciousness once per so many rounds.
    first_aid_rounds: Positive = 10
    first_aid_needs_kit: bool = True
    wake_rounds: Positive = 10


DEFAULTS: Final = TravellerOptions()


BEFORE: Final[Mapping[str, Any]] = {"prone_in_cover_stacks": True, "reaction_dm_on": "next_turn"}
"""Options added with a default other than what the rules did before them, and what they
did: a scene's options recorded by an earlier fightlog (which records every option it had)
that lack one were played, and are read, so (``scene_options``)."""


def scene_options(data: Mapping[str, Any]) -> TravellerOptions:
    """A scene's options (``scene_started.options``) as ``read_options`` reads them, an
    option recorded before it existed taken as the rules were then (``BEFORE``); a scene
    that records no options at all has the defaults."""
    return read_options({**BEFORE, **data} if data else data)


def read_options(data: Mapping[str, Any], *, where: str | None = None) -> TravellerOptions:
    """Options from ``scene_started.options`` or a house-rules file (unknown names and
    values of the wrong kind refused, ``InputError`` at ``where``)."""
    return read_ruleset_options(TravellerOptions, data, ruleset=RULESET_ID, where=where)
