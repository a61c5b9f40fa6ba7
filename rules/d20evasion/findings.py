"""The ``d20-evasion`` finding codes, and the section of the d20 evasion rulebook each
finding rests on.

``FINDINGS``: the codes the d20-evasion checks report beyond the shared ones
(``fightlog.audit.findings``); ``SHARED``: the section the shared codes rest on in a
d20-evasion scene. Light: ``D20Rules`` answers ``findings`` and ``rule_section`` from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fightlog.kit.sections import Code, Sections

_TICKS: Final = "Damage (ongoing damage at the start of the target's turn)"

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.outcome": Code("error", "an attack outcome the rolls do not give",
                          "Attacking; Evasion; Defensive Turns; Disarming"),
    "rules.damage": Code("error", "wrong damage arithmetic",
                         "Damage (armour first, piercing, altered damage to the nearest 5)"),
    "rules.tick-missing": Code("error", "an effect tick that should have happened and did not", _TICKS),
    "rules.tick-extra": Code("error", "an effect tick the rules do not give", _TICKS),
    "rules.tick-wrong": Code("error", "an effect tick with the wrong amount or timing",
                             "Damage (ongoing damage); Status Effects"),
    "rules.expired-effect": Code("error", "an effect applied after it expired", "Status Effects (durations)"),
    "rules.initiative": Code("error", "an initiative score other than its roll's total, a bonus other than the "
                             "roller's Dex + level, a party's roll by other than its best", "Initiative"),
    "rules.bonus": Code("error", "an attack, counterattack, disarm or dodge roll whose bonus is not the sheet's (stat, "
                        "class, skill and gear, STR/LVL, or DEX/LVL and the dodge skill, less the penalties in force, "
                        "a fumbled parry's once)", "Bonuses; Attacking; Dodge; Parry; Disarming"),
    "rules.effect-missing": Code("error", "an effect a duel's rolls leave that the log never records: a fumbled "
                                 "dodge's lost movement, a fumbled parry's penalty, a held parry's bar on the next "
                                 "counterattack, a successful disarm", "Dodge; Parry; Disarming"),
    "rules.effect-wrong": Code("error", "an effect of another size or length than the weapon or spell that left it",
                               "Damage (ongoing damage); Casting Spells"),
    "rules.allowance": Code("error", "actions beyond the turn's allowance",
                            "Actions (a move and two actions); Movement; Sprinting; Items; Casting Spells"),
    "rules.not-carried": Code("error", "a weapon, spell or item the fighter does not have",
                              "Weapons; Casting Spells; Items (what a character carries and knows)"),
    "rules.range": Code("error", "a target out of the action's range", "Ranges"),
    "rules.condition": Code("error", "mortally wounded with HP left, at 0 HP or below and still in the fight when a "
                            "turn ends, or at -75 HP or below and not dead", "Mortally Wounded"),
}
"""The codes the d20-evasion checks report beyond the shared ones."""

SHARED: Final[Mapping[str, str]] = {
    "order.not-in-fight": "Initiative (who is in the fight)",
    "order.out-of-turn": "Actions (posting order); Defensive Turns; Holding a Turn",
    "order.double-post": "Actions (one turn a round)",
    "order.skipped": "Initiative (posting order)",
    "order.cannot-act": "Mortally Wounded (no actions)",
    "order.arrival-acted": "Minions (from the turn after summoning)",
    "order.round-not-ended": "Actions (rounds)",
    "order.round-number": "Actions (rounds)",
    "rules.unknown-action": "Actions (the actions there are)",
    "rules.target": "Attacking (a target in the fight)",
    "rules.refused": "the declared action's section (docs/rulesets/d20-evasion.md)",
}
"""The section of the d20 evasion rulebook each shared code rests on."""

SECTIONS: Final = Sections(FINDINGS, SHARED, "d20 evasion: Quests and Duels")
