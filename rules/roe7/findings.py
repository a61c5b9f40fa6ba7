"""The ``roe7`` finding codes, and the RoE 7th Edition section each finding rests on.

``FINDINGS``: the codes roe7's checks report beyond the shared ones
(``fightlog.audit.findings``); ``SHARED``: the section the shared codes rest on in a roe7
scene. Light: ``Roe7Rules`` answers ``findings`` and ``rule_section`` from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fightlog.kit.sections import Code, Sections

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.modifier-cap": Code("error", "modifiers beyond the cap", "Modifiers (+30 cap)"),
    "rules.dr-cap": Code("error", "damage reduction beyond the cap", "Armor (DR caps at 30)"),
    "rules.damage": Code("error", "wrong damage arithmetic, an attack's damage after a miss, or a hit left without "
                         "damage", "Steps of a Combat Turn; Armor"),
    "rules.armour": Code("error", "an attack's damage reduced by other than the target's DR against its type", "Armor"),
    "rules.critical": Code("error", "a critical rule misapplied", "Critical Success or Failure"),
    "rules.tie-to-attacker": Code("error", "a tie given to the attacker", "Basic Contested Roll (ties to the defender)"),
    "rules.outcome": Code("error", "an attack outcome the rolls do not give", "Basic Contested Roll"),
    "rules.condition": Code("error", "defeated with HP left, or at 0 HP or below and still in the fight when a turn "
                            "ends", "Wounded"),
    "rules.tick-missing": Code("error", "an effect tick that should have happened and did not",
                               "Steps of a Combat Turn; Debuffs"),
    "rules.tick-extra": Code("error", "an effect tick the rules do not give", "Steps of a Combat Turn; Debuffs"),
    "rules.tick-wrong": Code("error", "an effect tick with the wrong amount or timing", "Debuffs; Bleed; Chemical Burn"),
    "rules.effect-wrong": Code("error", "a bleed, stun or suppression applied with another strength or duration than "
                               "the options give, a weapon's effect its hit did not earn, or a lost action or turn "
                               "lasting more than one", "Debuffs; Bleed; Stun; Suppressive Fire; Weapon Special Rules; "
                               "Critical Success or Failure"),
    "rules.expired-effect": Code("error", "an effect applied after it expired", "Buffs; Debuffs (durations)"),
    "rules.allowance": Code("error", "actions beyond the turn's allowance",
                            "Parts of a Turn (one movement phase, one action)"),
    "rules.reload": Code("error", "firing a weapon that needs a reload",
                         "Weapon Special Rules; Multiple/Automatic Shots (reloading)"),
    "rules.flee-limit": Code("error", "a flee attempt beyond the limit", "Fleeing (two attempts per combat)"),
    "rules.not-carried": Code("error", "a weapon, spell or item the fighter does not have",
                              "Changing Weapons; Throwing Weapons (what a character carries)"),
    "rules.range-die": Code("error", "an attack die other than the range gives (1d100 close, 1d20 medium, 1d10 "
                                     "long; a sniper's 1d70 and 1d60)", "Close, Medium and Long Range"),
    "rules.initiative": Code("error", "a posting order said to be by initiative that puts someone after one who "
                                      "scored lower", "Parts of a Turn (posting order): an order set by the "
                                      "initiative rolled (the rulebook sets none; option initiative)"),
    "rules.range": Code("error", "a target out of the action's range",
                        "Ranges; Weapon Special Rules (reach); Throwing Weapons"),
}
"""The codes roe7's checks report beyond the shared ones, by severity, meaning and section."""

SHARED: Final[Mapping[str, str]] = {
    "order.not-in-fight": "Entering a Combat in Progress",
    "order.out-of-turn": "Parts of a Turn (posting order)",
    "order.double-post": "Parts of a Turn (one post a round)",
    "order.skipped": "Parts of a Turn (posting order)",
    "order.cannot-act": "Stun; Critical Success or Failure; Wounded",
    "order.arrival-acted": "Entering a Combat in Progress",
    "order.round-not-ended": "Parts of a Turn (rounds)",
    "order.round-number": "Parts of a Turn (rounds)",
    "rules.unknown-action": "Parts of a Turn (the actions there are)",
    "rules.target": "Basic Contested Roll (a target in the fight)",
    "rules.refused": "the declared action's section (docs/rulesets/roe7.md)",
}
"""The RoE 7th Edition section each shared code rests on (the ``dice.*`` codes rest on
fightlog's dice, not the rulebook)."""

SECTIONS: Final = Sections(FINDINGS, SHARED, "RoE 7th Edition Dice Operations")
