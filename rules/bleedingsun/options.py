"""The named options of ``bleeding-sun``: every choice the rulebook leaves open.

``BleedingSunOptions`` is what ``scene_started.options`` records (all fields, defaults
included). The comment above each names the rulebook section it fills in;
``docs/rulesets/bleeding-sun.md`` gives the reason for each default. msgspec only: the fold
reads these, and the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from msgspec import Meta, Struct

from fightlog.kit.options import SceneOptions
from fightlog.kit.options import read_options as read_ruleset_options

RULESET_ID: Final = "bleeding-sun"

Face = Annotated[int, Meta(ge=2, le=6)]
Small = Annotated[int, Meta(ge=0, le=20)]


class BleedingSunOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every named option of ``bleeding-sun`` with its default."""

    # (the whole chapter) which d6 faces count as hits: this face and above (5: 5 and 6).
    hit_face: Face = 5
    # Attacking (a pool below 1 after penalties): "no_roll" refuses the attack (nothing to
    # roll); "minimum" rolls ``pool_minimum`` dice instead.
    low_pool: Literal["no_roll", "minimum"] = "no_roll"
    pool_minimum: Annotated[int, Meta(ge=1, le=6)] = 1
    # Attacking ("accuracy + perception"): the attribute added to a melee weapon's accuracy.
    melee_attribute: Literal["perception", "agility", "strength"] = "perception"
    # Sequence / Initiative: the tie-breaks after the hits. "sequence": the Savvy + Agility
    # pool, then Savvy, then Agility (Sequence); "initiative": Perception, then Agility
    # (Initiative); a d6 roll-off after either.
    tiebreak: Literal["sequence", "initiative"] = "sequence"
    # Drop in Initiative: places an immediate action drops (the rulebook's 1).
    immediate_drop: Small = 1
    # Gang Up: the most it adds.
    gang_up_max: Small = 4
    # Critical Hits: the DV added, the margin over the threshold, the fewest 6s.
    critical_dv: Small = 4
    critical_margin: Annotated[int, Meta(ge=1, le=20)] = 5
    critical_sixes: Annotated[int, Meta(ge=1, le=20)] = 2
    # Shotguns and Flamers; Normal and Explosives Damage (spreads and blasts "automatically
    # hit" and get half dice criticals): "landed" lets a half-dice critical count on every
    # target a spread or blast damages; "threshold_met" only where its hits meet the threshold.
    area_criticals: Literal["landed", "threshold_met"] = "landed"
    # (Defenders Threshold) net hits when the chart gives a threshold below 1: counted from
    # the chart's value (it still takes a hit to hit: "count all net hits as bonus damage as
    # normal"), or from the 1 a hit takes.
    net_hits_from: Literal["chart", "one"] = "chart"
    # ...and whether a spread's targets may answer it (Physical Defense's hits raise the
    # threshold its soak ratio reads): not by default, as it "automatically hits".
    spread_answers: bool = False
    # Splitting an Attack Pool: "attacker" applies modifiers of the attacker's state
    # (stance, aim, sprinting, light) once to the whole pool and those of a target (cover,
    # gang up, firing into melee) to that target's share; "each" applies all to each share.
    split_modifiers: Literal["attacker", "each"] = "attacker"
    # Health and Dying: the bleed a fighter below 0 HP takes each round.
    bleed_out: Annotated[int, Meta(ge=0, le=20)] = 1
    # Combat actions & Cost ("Most Combat Maneuvers: Standard + Free"; the Trip text says a
    # free action): what a trip costs.
    maneuver_cost: Literal["standard", "free"] = "standard"
    # Status effects: the DV of burning each round, and the threshold to put it out or
    # break free from frozen.
    burning_dv: Small = 7
    break_free: Small = 3
    # Soak (armour piercing): whether a positive AP (a spread at long range) adds to soak.
    positive_ap_soaks: bool = False
    # Cooking a grenade (a delay "in rounds", the moment not said): when a waiting grenade
    # counts down: at the start of its thrower's turn, or at the start of each round.
    fuse_countdown: Literal["thrower_turn", "round_start"] = "thrower_turn"


DEFAULTS: Final = BleedingSunOptions()


def read_options(overrides: Mapping[str, Any], *, where: str | None = None) -> BleedingSunOptions:
    """``overrides`` read as ``BleedingSunOptions`` (one line naming the option at fault)."""
    return read_ruleset_options(BleedingSunOptions, overrides, ruleset=RULESET_ID, where=where)


def read_recorded(recorded: Mapping[str, Any]) -> BleedingSunOptions:
    """A scene's options as ``scene_started`` recorded them. Every option is recorded when a
    scene starts, so one missing was not there yet when the log was written: such a log
    counts net hits from one, as fightlog did then (``net_hits_from``)."""
    return read_options(recorded if "net_hits_from" in recorded else {**recorded, "net_hits_from": "one"})


options_of: Final = SceneOptions(read_recorded, fallback=DEFAULTS)
"""The options the scene was started with (the defaults for a log whose options do not read)."""
