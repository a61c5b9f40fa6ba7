"""The ``en51`` finding codes and the section of the rulebook each finding rests on. Light:
``En51Rules`` answers ``findings`` and ``rule_section`` from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fightlog.kit.sections import Code, Sections

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.outcome": Code("error", "an attack outcome the black and white dice do not give",
                          "Melee attack; Ranged attack (a Success higher than the Defense or the distance)"),
    "rules.damage": Code("error", "Damage not read from the die that missed plus the weapon's Damage, Damage from a "
                         "miss, or a hit without Damage",
                         "Damage (the last digit of the die that missed; both hit: the black die)"),
    "rules.armour": Code("error", "armour applied that the white die bypassed, or skipped when struck",
                         "Armor (Coverage against the white die; Protection off the Damage)"),
    "rules.wound": Code("error", "a Wound marked at the wrong circle", "Marking Wounds"),
    "rules.condition": Code("error", "incapacitated or dead without the Wound that gives it (or incapacitated "
                            "with one that gives death), or a Wound above Toughness and still in the fight when a "
                            "turn ends", "The Immediate Effects"),
    "rules.ammo": Code("error", "a shot from an empty weapon", "Ammunition (type C capacity; Auto's ammo check)"),
    "rules.counter": Code("error", "a counterattack by someone who already acted this turn", "Melee attack"),
    "rules.combined": Code("error", "a move with an action it cannot be combined with, or too far", "Movement"),
    "rules.not-carried": Code("error", "a weapon the fighter does not carry", "Melee attack; Ranged attack (the sheet's weapons)"),
    "rules.allowance": Code("error", "more than one combat action in a turn", "Combat (one combat action each turn)"),
    "rules.range": Code("error", "a shot beyond five steps above the weapon's Range, or a melee attack beyond "
                                 "reach", "Ranged attack; Melee attack (reach)"),
    "rules.care": Code("error", "a Medicine or Recovery roll's Success other than its faces give under the skill, or "
                                "Medicine's bonus other than its Success", "Using Medicine; Recovery"),
    "rules.unused-roll": Code("warning", "an attack roll that decides no attack by the round's end (rolled again?)",
                              "Combat actions (one roll decides an attack)"),
}

SHARED: Final[Mapping[str, str]] = {
    "order.not-in-fight": "Combat (who is in the fight)",
    "order.out-of-turn": "Combat (one combat action each turn); Waiting",
    "order.double-post": "Combat (one combat action each turn)",
    "order.skipped": "Combat; Surprise (the order of acting)",
    "order.cannot-act": "The Immediate Effects (incapacitated); Roll with it (the next action lost)",
    "order.round-not-ended": "Combat (turns)",
    "order.round-number": "Combat (turns)",
    "rules.unknown-action": "Combat actions",
    "rules.target": "Melee attack; Ranged attack; Hiding and Cover (a target in sight)",
    "rules.refused": "the declared action's section (docs/rulesets/en51.md)",
}

SECTIONS: Final = Sections(FINDINGS, SHARED, "en5.1 combat")
