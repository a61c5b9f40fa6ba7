"""The ``bleeding-sun`` finding codes and the section of the rulebook each finding rests on.
Light: ``BleedingSunRules`` answers ``findings`` and ``rule_section`` from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fightlog.kit.sections import Code, Sections

FINDINGS: Final[Mapping[str, Code]] = {
    "rules.sequence": Code("error", "a sequence score or order the rolls do not give (hits, then the tie-breaks "
                                    "and roll-offs), or an immediate action without its drop in the order",
                           "Sequence; Initiative; Drop in Initiative"),
    "rules.allowance": Code("error", "actions beyond the round's standard, two move, free and immediate actions "
                                   "(a full round action, a move action kind twice, a second grenade)",
                          "Actions; Combat Actions & Cost"),
    "rules.immediate": Code("error", "a second immediate action in a round, or one by a flat-footed fighter",
                            "Immediate Action; Flat-footed"),
    "rules.pool": Code("error", "an attack rolled with other dice than its pool (accuracy + perception + the "
                                "modifiers, its share of a split pool)", "Attacking; Attacker Modifier; Splitting an "
                                                                          "Attack Pool"),
    "rules.defense": Code("error", "a defense roll with other dice than Vigor (a dodge, block or resist) or the "
                                   "Agility or Body a total defense names, less a stagger; a total defense adding "
                                   "other than its roll's hits to the threshold", "Physical Defense; Total Defense"),
    "rules.recoil": Code("error", "an attack pool or split that leaves out the round's recoil",
                         "Recoil; Burst Mode Base"),
    "rules.threshold": Code("error", "a threshold other than the chart gives (range, stance, aim, size, targeted "
                                     "shot, defense hits; at least 1)", "Defenders Threshold"),
    "rules.outcome": Code("error", "hits other than the dice show, or a hit, miss or critical the hits and the "
                                   "threshold do not give", "Attacking; Critical Hits"),
    "rules.damage": Code("error", "a DV pool other than the weapon's, the burst's, the net hits and the critical, "
                                  "or damage other than its hits (a blast: less a hex beyond the first), or a hit "
                                  "left without damage, or a burning tick's fire and soak (without armour) other "
                                  "than the rules give",
                         "Damage; Critical Hits; Taking damage from explosives; Status Affect Saves (Burning)"),
    "rules.soak": Code("error", "a soak pool or reduction the rules do not give (fortitude + armour less AP up "
                                "to the armour; a spread 3/2/1 a hit by the threshold missed, met, exceeded)",
                       "Soak; Shotguns and Flamers; Taking damage from explosives"),
    "rules.bleeding": Code("error", "a fighter bleeding out whose bleed did not tick in a round, or who is not "
                                    "unconscious, bleeding or dead as their HP say", "Health and Dying"),
    "rules.effect-wrong": Code("error", "a status save rolled with other dice than the chart's attribute (less a "
                                        "stagger), an outcome other than its column (exceeds, equals, fails) gives, "
                                        "fleeing for other than 1 or net misses + 1 rounds, a stagger or stun "
                                        "outlasting its bearer's next turn, a hit's kicker save never "
                                        "rolled, a save for a kicker the weapon lacks",
                               "Status Effects; Status Affect Saves; Stagger"),
    "rules.tick-missing": Code("error", "burning on a fighter at their turn's start that did not tick in it",
                               "Status Affect Saves (Burning)"),
    "rules.jump": Code("error", "a grenade jumped on whose blast reaches anyone but the jumper, or whose damage "
                                "is not a critical counting 4-6, soaked without armour counting 6s",
                       "Jumping on a Grenade"),
    "rules.cook": Code("error", "cooking something not an explosive, a grenade with no delay left, or twice in a "
                                "round", "Cooking a grenade"),
    "rules.ready": Code("error", "readying more than two actions or one that cannot be readied, or taking an "
                                 "action one did not ready", "Readying and Delaying Actions"),
    "rules.fire-mode": Code("error", "a fire mode the weapon lacks", "Fire Type; Burst Mode Base"),
    "rules.rof": Code("error", "more attacks than the weapon's rate of fire", "Fire Type"),
    "rules.unresolved": Code("error", "a declared attack, or a target a spread or a grenade caught, never resolved by "
                                      "the turn's end", "Attacking; Shotguns and Flamers; Normal and Explosives Damage"),
    "rules.split": Code("error", "shares of a split pool that exceed it, or a split across weapons",
                        "Splitting an Attack Pool"),
    "rules.answer": Code("error", "an answer to no attack, or of the wrong kind; a defense roll for an attack no "
                         "answer answered (one immediate action, one attack), or none for one answered",
                         "Physical Defense"),
    "rules.aoo": Code("error", "an attack of opportunity nothing provoked, or a second on one action",
                      "Attacks of Opportunity"),
    "rules.gang-up": Code("error", "gang up by someone not an ally standing, or at range", "Gang Up"),
    "rules.range": Code("error", "a target beyond the weapon's reach or extreme range", "Defenders Threshold"),
    "rules.not-carried": Code("error", "a weapon the sheet does not have", "(the sheet's weapons)"),
    "rules.aim": Code("error", "holding or stopping an aim not taken", "Holding an Aim"),
    "rules.grappled": Code("error", "a pinned fighter attacking or moving, a weapon bigger than small in a grapple, "
                                   "grappling another while in one, escaping when not pinned", "Grapple"),
    "rules.coup": Code("error", "a coup de grace on a target not helpless", "Coup de Gras"),
    "rules.stabilize": Code("error", "stabilizing someone not bleeding out", "Health and Dying"),
    "rules.dying": Code("error", "a death before the negative HP exceed Body, or none past it; a stabilize check's "
                                 "pool other than Body (or the healer's Medic) less |HP|, or stable on a check that "
                                 "failed (still bleeding on one that passed)", "Health and Dying"),
}

SHARED: Final[Mapping[str, str]] = {
    "order.not-in-fight": "Sequence (who is in the fight)",
    "order.out-of-turn": "Sequence; Drop in Initiative (the order)",
    "order.double-post": "Actions (one turn a round)",
    "order.skipped": "Sequence (the order)",
    "order.cannot-act": "Health and Dying (unconscious at 0 HP)",
    "order.arrival-acted": "Sequence",
    "order.round-not-ended": "Actions (rounds)",
    "order.round-number": "Actions (rounds)",
    "rules.unknown-action": "Combat Actions & Cost",
    "rules.target": "Attacking (a target in the fight)",
    "rules.refused": "the declared action's section (docs/rulesets/bleeding-sun.md)",
}

SECTIONS: Final = Sections(FINDINGS, SHARED, "Bleeding Sun combat")
