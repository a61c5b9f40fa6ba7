"""The RoE audit of a weapon's effect earned by its hit (``rules.effect-wrong``; Weapon Special
Rules): a bleed, a stun, a knock prone or a magika surge citing an attack needs that attack
to have hit with a melee weapon dealing that kind (slash, blunt, whip, magika) and an
unmodified die at the size's threshold (70, 75, 80: ``Roe7Options.effect_threshold``); a
chemical burn, a chemical weapon's hit at ``burn_threshold`` (the natural die, or the total
with ``burn_threshold_natural`` off), as ``attack_hits.trigger`` gives them.

An effect that cites its post rather than the attack (a hand-kept log) is not judged here:
which of the post's shots earned it cannot be told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from fightlog.events.model import AttackResolved, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.rules.roe7.attack_hits import EFFECT_OF, earned_kinds
from fightlog.rules.roe7.options import Roe7Options
from fightlog.rules.roe7.tokens import WeaponToken

KIND_OF: Final = {effect: kind for kind, effect in EFFECT_OF.items()}
"""The kind of hit an effect (or status) comes from: ``attack_hits.EFFECT_OF`` read backwards."""


def unearned(name: str, attack: AttackResolved, view: AuditView, opts: Roe7Options,
             weapon: Callable[[str | None], WeaponToken | None]) -> str | None:
    """Why the hit ``attack`` does not give ``name`` (``None``: it does, by
    ``attack_hits.earned_kinds``, or the log does not say enough to judge)."""
    kind = KIND_OF.get(name)
    if kind is None:
        return None
    token = weapon(attack.weapon)
    roll = view.event(attack.rolls[0]) if attack.rolls else None
    if token is None or type(roll) is not DiceRolled or roll.purpose != "attack" or not roll.dice:
        return None
    what = f"{name.replace('_', ' ')} from {attack.attacker}'s attack at seq {attack.seq} ({token.text})"
    if not attack.hit:
        return f"{what}: the attack missed"
    natural, total = roll.dice[0].face, roll.total
    if kind in earned_kinds(token, natural, total, opts):
        return None
    if kind == "burn":
        if not token.chemical:
            return f"{what}: not a chemical weapon"
        shown = "an unmodified die" if opts.burn_threshold_natural else "a total"
        reached = natural if opts.burn_threshold_natural else total
        return f"{what}: a burn needs {shown} of {opts.burn_threshold} or more; it rolled {reached}"
    if token.family == "firearm" or kind not in token.damage_kinds:
        return f"{what}: the weapon deals no {kind} damage"
    return (f"{what}: a {kind} effect needs an unmodified {opts.effect_threshold(token.size)} or more "
            f"(size {token.size}); it rolled {natural}")
