"""State changes in words: the lines under an event in a replay (``Bob HP 100 -> 81``,
``bleed on Alice: 4 turns left``, ``Bob: stunned``, ``round 2``)."""

from __future__ import annotations

from fightlog.reducers.diff import Change
from fightlog.report.narration.effects import effect_text, turns
from fightlog.report.narration.lines import Scene
from fightlog.report.narration.phrases import pool_name
from fightlog.report.wording import plural, spoken, value_text


def change_text(change: Change, scene: Scene) -> str:
    """One state change as a short phrase: ``Bob HP 100 -> 81``, ``bleed on Alice: 4 turns
    left``, ``Bob: stunned``, ``round 2``."""
    part, field = change.part, change.field
    if part == "turn" and field == "round":
        return f"round {change.after}"
    if part == "turn" and field == "order":
        return "posting order: " + (", ".join(scene.who(a) for a in change.after) or "none")
    if part == "scene" and field == "ended":
        return "scene over" if change.after else "scene reopened"
    if part == "rulings":
        seq = change.before if change.after is None else change.after
        return f"ruling at seq {seq} " + ("withdrawn" if change.after is None else "in force")
    if part == "effect":
        return _effect_change(change, scene)
    return _combatant_change(change, scene)


def _effect_change(change: Change, scene: Scene) -> str:
    subject = change.subject
    if change.field == "effect":
        active = scene.after.effects.get(subject)
        if active is not None:
            return effect_text(active, scene.who, scene.after)
        gone = scene.before.effects[subject]
        return f"{spoken(gone.name)} on {scene.who(gone.target)}: gone"
    active = scene.after.effects.get(subject) or scene.before.effects[subject]
    name = f"{spoken(active.name)} on {scene.who(active.target)}"
    if change.field == "stacks":
        return f"{name}: {plural(change.after, 'stack')}"
    left = "until removed" if change.after is None else f"{turns(change.after)} left"
    return f"{name}: {left}"


def _combatant_change(change: Change, scene: Scene) -> str:
    actor, field = change.subject, change.field
    name = scene.who(actor)
    who = scene.after.combatants.get(actor) or scene.before.combatants.get(actor)
    weapons = {} if who is None else who.weapons
    if field == "present":
        return f"{name} enters the scene" if change.after else f"{name} leaves the scene"
    if field == "status":
        return f"{name}: {spoken(change.after)}" if change.after else f"{name}: no longer {spoken(change.before)}"
    if field == "band":
        return f"{name}: " + _band(change.after, None if who is None else who.relative_to, scene)
    weapon, _, what = field.rpartition(" ")
    if weapon in weapons and what == "reload":
        return f"{name}: {weapon} " + ("needs reloading" if change.after else "ready")
    if weapon in weapons and what == "cooldown":
        return f"{name}: {weapon} cooldown {change.before} -> {change.after}"
    if what == "spent" and weapon:
        return f"{name}: {spoken(weapon)} spent {change.before} -> {change.after}"
    if what == "max" and weapon:  # a pool's maximum (a join amended: another sheet)
        return f"{name} {pool_name(weapon)} max {value_text(change.before)} -> {value_text(change.after)}"
    return f"{name} {pool_name(field)} {value_text(change.before)} -> {value_text(change.after)}"


def _band(band: str | None, relative_to: str | None, scene: Scene) -> str:
    if band is None:
        return "no range band"
    return f"{band} range" + (f" of {scene.who(relative_to)}" if relative_to else "")
