"""The ``d20-evasion`` audit of an effect's size and length (``rules.effect-wrong``; Damage:
ongoing damage; Casting Spells): a hit's damage over time as its weapon's (or spell's) effect
gives its damage and rounds; a spell's change to the damage taken, for its rounds; a spell's
cooldown."""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DeclarationPosted, EffectApplied
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.d20evasion.attack import gear_of
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options


def sized(before: SceneState, event: EffectApplied, opts: D20Options, view: AuditView) -> None:
    """An effect a hit or a spell leaves, as its sheet says."""
    cause = view.event(event.cause) if event.cause is not None else None
    try:
        if type(cause) is AttackResolved and event.params.get("dot") is True:
            gear = gear_of(Fighter(before, cause.attacker, opts), cause.weapon)
            over = gear.effect
            want = None if over is None or over.name != event.name else (over.damage, over.rounds)
            _sized(event, (event.magnitude, event.duration), want, f"{gear.name}'s {event.name}", view)
        elif type(cause) is DeclarationPosted and (event.name == "cooldown" or "damage_percent" in event.params):
            spell_name = str(event.params.get("spell", event.name))
            caster = cause.actor
            spell = Fighter(before, caster, opts).spell(spell_name)
            if event.name == "cooldown":
                _sized(event, (None, event.duration), (None, spell.cooldown), f"{spell.name}'s cooldown", view)
            else:
                _sized(event, (event.params.get("damage_percent"), event.duration),
                   (spell.damage_taken_percent, spell.rounds), spell.name, view)
    except FightlogError:
        return  # a sheet that does not read, or a weapon or spell it does not have: judged elsewhere


def _sized(event: EffectApplied, got: tuple[object, int | None], want: tuple[object, int] | None, what: str,
           view: AuditView) -> None:
    if want is not None and got != want:
        said = f"{got[1]} rounds" if want[0] is None else f"{got[0]} for {got[1]} rounds"
        given = f"{want[1]}" if want[0] is None else f"{want[0]} for {want[1]}"
        view.report("rules.effect-wrong", event, f"{event.target}'s {what} is recorded as {said}; the sheet gives "
                    f"{given}", actor=event.target)
