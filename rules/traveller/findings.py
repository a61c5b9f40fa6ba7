"""The ``traveller`` finding codes, and the section of the combat sheet each finding rests on.

``FINDINGS``: the codes the Traveller checks report beyond the shared ones
(``fightlog.audit.findings``); ``SHARED``: the section the shared codes rest on in a
Traveller scene. Light: ``TravellerRules`` answers ``findings`` and ``rule_section`` from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fightlog.kit.sections import Code, Sections

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.outcome": Code("error", "an attack or check outcome the rolls do not give",
                          "Combat (a check succeeds on 8+; Effect = total - 8)"),
    "rules.attack-dm": Code("error", "an attack roll whose DMs are not the rules' (aim, range, cover, stance, "
                                     "reactions, the DM-1 of earlier reactions)",
                            "Combat; Minor Action (Aiming); Reaction; Weapon Range; Hiding"),
    "rules.damage": Code("error", "wrong damage arithmetic (dice + STR DM in melee + Effect - armour - cover, "
                                  "END first)",
                         "Combat (damage); Hiding; Unconsciousness"),
    "rules.aim": Code("error", "an aim beyond the cap (DM+6) or kept after doing something else",
                      "Minor Action (Aiming)"),
    "rules.allowance": Code("error", "actions beyond a turn's significant and minor actions",
                            "Combat (a significant action and minor actions)"),
    "rules.not-carried": Code("error", "a weapon or skill the sheet does not have", "Combat (the sheet's weapons)"),
    "rules.range": Code("error", "a target beyond the weapon's reach (four times its range, melee reach)",
                        "Weapon Range"),
    "rules.reaction": Code("error", "a reaction that answers no attack, or not one of its kind, or that costs "
                                    "other than DM-1 on the next actions",
                           "Reaction (Dodge; Dive for cover: ranged; Parry: melee)"),
    "rules.initiative": Code("error", "an initiative or posting order the rolls do not give (the DEX or INT DM, "
                                      "Tactics, the ambush in the first round only, DEX on a tie)",
                             "Pre-combat (Ambush; Initiative; Tactics)"),
    "rules.grappled": Code("error", "a combatant in a grapple moving or diving away (other than by the escape "
                                    "choice), or attacking someone other than the grapple partner",
                           "Unarmed Combat or Grappling"),
    "rules.condition": Code("error", "a status the characteristics do not give: unconscious with fewer than two at "
                            "zero, dead with fewer than three (or under dead_at_three_zero = false), or two at "
                            "zero and still standing when a turn ends", "Unconsciousness"),
    "rules.healing": Code("error", "first aid healing more than max(Effect, 1), or anything on a failure",
                          "Healing: First Aid"),
}
"""The codes the Traveller checks report beyond the shared ones."""

SHARED: Final[Mapping[str, str]] = {
    "order.not-in-fight": "Initiative (who is in the fight)",
    "order.out-of-turn": "Initiative (order by initiative, then DEX)",
    "order.double-post": "Combat (one turn a round)",
    "order.skipped": "Initiative (order by initiative, then DEX)",
    "order.cannot-act": "Unconsciousness (two characteristics at zero)",
    "order.arrival-acted": "Initiative",
    "order.round-not-ended": "Combat (rounds)",
    "order.round-number": "Combat (rounds)",
    "rules.unknown-action": "Combat (Significant Action; Minor Action; Reaction)",
    "rules.target": "Combat (a target in the fight)",
    "rules.refused": "the declared action's section (docs/rulesets/traveller.md)",
}
"""The section of the combat sheet each shared code rests on."""

SECTIONS: Final = Sections(FINDINGS, SHARED, "Traveller 2D6 combat sheet")
