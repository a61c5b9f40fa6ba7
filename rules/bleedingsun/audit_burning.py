"""The ``bleeding-sun`` audit of a burning tick's damage (Status Affect Saves, Burning): the
fire's DV pool (option ``burning_dv``), the soak without armour (fortitude, less a stagger:
``statuses.burn_pools``, as the table rolls them) and the damage their hits give
(``rules.damage``). That a burn ticked at all is ``rules.tick-missing``'s.
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import DamageApplied, DiceRolled, EffectTicked
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.audit_attacks import dice_text, hits
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.statuses import burn_pools

CODE = "rules.damage"


def damaged(before: SceneState, event: DamageApplied, view: AuditView) -> None:
    """Damage whose cause is a burning tick: its pools and its arithmetic."""
    tick = view.event(event.cause or 0)
    if type(tick) is not EffectTicked:
        return
    found = before.effects.get(tick.effect)
    if found is None or found.name != "burning":
        return
    rolls: dict[str, DiceRolled] = {}
    for seq in range(tick.seq + 1, event.seq):
        roll = view.event(seq)
        if type(roll) is DiceRolled and roll.for_seq == tick.seq and roll.purpose in ("damage", "soak"):
            rolls.setdefault(roll.purpose, roll)
    try:
        who = Fighter(before, event.target)
        dv, soak_dice = burn_pools(who)
        face = who.options.hit_face
    except FightlogError:
        return
    problems = []
    fire, soak = rolls.get("damage"), rolls.get("soak")
    if fire is not None and len(fire.dice) != dv:
        problems.append(f"the fire rolled {dice_text(len(fire.dice))}, the rules give {dv} DV (option burning_dv)")
    want = max(0, soak_dice)
    if (len(soak.dice) if soak is not None else 0) != want:
        problems.append(f"the soak rolled {dice_text(len(soak.dice)) if soak is not None else 'no dice'}; fortitude "
                        f"without armour{' less a stagger' if who.stagger() else ''} gives {dice_text(want)}")
    raw = hits(fire, face) if fire is not None else event.raw
    off = min(raw, hits(soak, face) if soak is not None else 0)
    if (event.raw, event.reduced_by, event.taken) != (raw, off, raw - off):
        problems.append(f"{event.raw} damage, {event.reduced_by} soaked, {event.taken} taken recorded; the dice give "
                        f"{raw}, {off} and {raw - off}")
    if problems:
        view.report(CODE, event, f"{event.target}'s burning (seq {tick.seq}): " + "; ".join(problems),
                    actor=event.target)
