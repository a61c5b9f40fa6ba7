"""Words for a fight: each event, and the state changes it caused, as a player reads them.

``narrate(step, lookup)`` turns one replay step into lines: the event (one line) and, one
level deeper, the changes ``fightlog.reducers.diff.changes`` found between the states before
and after it. Combatants are named by their display name, effects by their name and target.
The phrases for effects, actions and rulings are shared with the state tables
(``fightlog.cli.state_text``). Nothing here reads files: ``lookup`` (``seq -> event``) is how a
ruling's target is described, and is given by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import msgspec

from fightlog.cli.wording import plural, value_text
from fightlog.errors import DiceError
from fightlog.events.model import (
    Action,
    AnyEvent,
    AttackResolved,
    CombatantJoined,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    HealingApplied,
    InitiativeRolled,
    InitiativeSet,
    Moved,
    ResourceSpent,
    RoundEnded,
    RoundStarted,
    RulingMade,
    SceneEnded,
    SceneStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
    WeaponReloaded,
)
from fightlog.reducers.diff import Change, changes
from fightlog.reducers.fold import Step
from fightlog.reducers.state import EMPTY, ActiveEffect, AppliedRuling, SceneState
from fightlog.dice import breakdown, read_roll
from fightlog.dice.render import dropped, tail

Lookup = Callable[[int], AnyEvent | None]
"""``seq -> the event recorded there`` (``None`` when it cannot be found)."""


class Line(NamedTuple):
    """One line of a replay: ``seq`` for an event line (``None`` for a change line) and its
    nesting: 0 outside rounds, 1 inside a round, 2 inside a turn (change lines one deeper)."""

    seq: int | None
    depth: int
    text: str


class Scene(NamedTuple):
    """What describing one event may look at: how to name combatants, the states around the
    event, the log's other events (to name a ruling's target), and whether rolls are
    rendered in Markdown (dropped dice struck through, for Discord) or plain text."""

    who: Callable[[str | None], str]
    before: SceneState = EMPTY
    after: SceneState = EMPTY
    lookup: Lookup | None = None
    markdown: bool = False


def namer(*states: SceneState) -> Callable[[str | None], str]:
    """``actor -> display name``, from the first of ``states`` that knows the actor (its id
    when none does)."""

    def who(actor: str | None) -> str:
        if actor is None:
            return "someone"
        for state in states:
            known = state.combatants.get(actor)
            if known is not None:
                return known.name
        return actor

    return who


def one_line(text: str) -> str:
    """``text`` on one line: line breaks (a multi-line post) become `` / ``."""
    if "\n" not in text and "\r" not in text:
        return text
    return " / ".join(part.strip() for part in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


def kind_of(event: AnyEvent) -> str:
    """The event's kind tag (``dice_rolled``...)."""
    return str(type(event).__struct_config__.tag)


def narrate(step: Step, lookup: Lookup | None = None, *, markdown: bool = False) -> list[Line]:
    """The event line of ``step`` and its change lines (``markdown``: rolls for Discord)."""
    scene = Scene(namer(step.after, step.before), step.before, step.after, lookup, markdown)
    depth = _depth(step)
    lines = [Line(step.event.seq, depth, describe(step.event, scene))]
    for change in changes(step.before, step.after):
        lines.append(Line(None, depth + 1, change_text(change, scene)))
    if step.before.turn.in_round and not step.after.turn.in_round:
        lines.append(Line(None, depth + 1, f"round {step.after.turn.round} over"))
    return lines


def _depth(step: Step) -> int:
    """Rounds and turns open at the event: a start is as deep as the state before it, an
    end as deep as the state after it, so both sit level with what they enclose."""
    state = step.after if isinstance(step.event, (RoundEnded, TurnEnded)) else step.before
    turn = state.turn
    if not turn.in_round:
        return 0
    return 1 if turn.current is None else 2


# --------------------------------------------------------------------------- events


def describe(event: AnyEvent, scene: Scene) -> str:
    """One line saying what ``event`` records."""
    handler = _DESCRIBE.get(type(event))
    if handler is None:
        return kind_of(event)
    return handler(event, scene)


def _scene_started(event: SceneStarted, scene: Scene) -> str:
    text = f"Scene {event.scene} ({event.ruleset})"
    extras = [f'"{event.title}"'] if event.title else []
    if event.gm:
        extras.append(f"GM {event.gm}")
    if event.dice is not None:
        extras.append("dice seed revealed" if event.dice.seed else "dice seed committed")
    return text + (": " + ", ".join(extras) if extras else "")


def _scene_ended(event: SceneEnded, scene: Scene) -> str:
    parts = []
    if event.winner:
        parts.append(f"winner {scene.who(event.winner)}")
    if event.reason:
        parts.append(event.reason)
    if event.seed:
        parts.append("dice seed revealed")
    return "Scene ends" + (": " + "; ".join(parts) if parts else "")


def _joined(event: CombatantJoined, scene: Scene) -> str:
    text = event.name + " joins"
    if event.side:
        text += f" (side {event.side})"
    if event.role != "pc":
        text += f" as {event.role}"
    if event.owner:
        text += f", with {scene.who(event.owner)}"
    if event.arrival:
        text += ", arriving" + (f" after {scene.who(event.after)}" if event.after else "")
    details = [pools_text(event.pools, event.pool_max)] if event.pools else []
    joined = scene.after.combatants.get(event.actor)
    if joined is not None and joined.weapons:
        details.append("armed with " + ", ".join(sorted(joined.weapons)))
    return text + (": " + "; ".join(details) if details else "")


def _initiative(event: InitiativeRolled, scene: Scene) -> str:
    who = ", ".join(scene.who(a) for a in event.group) if event.group else scene.who(event.actor)
    text = f"{who}: initiative {event.score}"
    if event.tiebreak:
        text += " (tie-breakers " + ", ".join(str(t) for t in event.tiebreak) + ")"
    if event.roll is not None:
        text += f", from the roll at seq {event.roll}"
    return text


def _order(event: InitiativeSet, scene: Scene) -> str:
    why = event.reason + (f", by {event.by}" if event.by else "")
    return f"Posting order ({why}): " + ", ".join(scene.who(a) for a in event.order)


def _round_started(event: RoundStarted, scene: Scene) -> str:
    return f"Round {event.round}"


def _round_ended(event: RoundEnded, scene: Scene) -> str:
    return f"End of round {event.round}"


def _turn_started(event: TurnStarted, scene: Scene) -> str:
    return f"{scene.who(event.actor)}'s turn"


def _turn_ended(event: TurnEnded, scene: Scene) -> str:
    return f"End of {scene.who(event.actor)}'s turn"


def _posted(event: DeclarationPosted, scene: Scene) -> str:
    who = scene.who(event.actor)
    if who == event.actor and event.origin is not None and event.origin.author:
        who = event.origin.author  # not (yet) in the scene: the name the source showed
    who += " (ooc)" if event.ooc else ""
    text = f'{who}: "{event.text}"' if event.text else f"{who} posts"
    if event.actions:
        text += " [" + actions_text(event.actions, scene.who) + "]"
    if event.responds_to is not None:
        text += f" (answering seq {event.responds_to})"
    return text


def _rolled(event: DiceRolled, scene: Scene) -> str:
    if event.generator == "external":
        source = f"external: {event.tool}" if event.tool else "external"
    else:
        source = "engine" + (f" #{event.index}" if event.index is not None else "")
    return f"{scene.who(event.roller)} rolls {event.purpose} [{source}]: {roll_text(event, markdown=scene.markdown)}"


def roll_text(event: DiceRolled, *, markdown: bool = False) -> str:
    """The roll's breakdown (``1d100 (57) + 15 [scope +10, racial +5] = 72``), from the
    dice engine when it reads the notation, else from the recorded faces; a recorded total
    that the dice do not add up to is shown as recorded, with what they add up to.
    Dropped dice show as ``[4]``, or ``~~4~~`` with ``markdown``.

    Remembered by what the text depends on (notation, label, total, dice, modifiers): a
    long fight repeats the same rolls, and reading one back through the dice engine costs
    more than the rest of its replay line."""
    key = (event.notation, event.label, event.total, markdown, _ROLL_KEY((event.dice, event.modifiers)))
    text = _ROLL_TEXTS.get(key)
    if text is not None:
        return text
    try:
        result = read_roll(event)
    except DiceError:
        text = _faces_text(event, markdown)
    else:
        text = breakdown(result, markdown=markdown)
        if result.total != event.total:
            text += f" (recorded total {event.total})"
    if len(_ROLL_TEXTS) >= _ROLL_TEXTS_MAX:
        _ROLL_TEXTS.clear()
    _ROLL_TEXTS[key] = text
    return text


_ROLL_KEY = msgspec.json.Encoder().encode
_ROLL_TEXTS: dict[tuple[str, str | None, int, bool, bytes], str] = {}
_ROLL_TEXTS_MAX = 1 << 11


def _faces_text(event: DiceRolled, markdown: bool) -> str:
    """A rendering from the recorded dice alone, for notation the engine does not read."""
    faces = []
    for die in event.dice:
        face = str(die.face)
        if die.rerolled:
            face = "->".join(str(f) for f in (*die.rerolled, die.face))
        if die.exploded:
            face = "+" + face
        if die.label:
            face = f"{die.label} {face}"
        faces.append(face if die.kept else dropped(face, markdown=markdown))
    shift = sum(m.value for m in event.modifiers)
    return f"{event.notation} ({', '.join(faces)})" + tail(event.modifiers, shift, event.total, event.label)


def _resolved(event: AttackResolved, scene: Scene) -> str:
    verb = "hits" if event.hit else "misses"
    text = f"{scene.who(event.attacker)} {verb} {scene.who(event.target)}"
    if event.weapon:
        text += f" with {event.weapon}"
    parts = [f"{event.score} vs {event.against}"]
    if event.margin is not None:
        parts.append(f"margin {event.margin}")
    if event.critical:
        parts.append(f"critical {event.critical}")
    parts.extend(event.notes)
    return text + ": " + "; ".join(parts)


def _damaged(event: DamageApplied, scene: Scene) -> str:
    kind = f"{event.damage_type} damage" if event.damage_type else "damage"
    text = f"{scene.who(event.target)} takes {event.taken} {kind}"
    if event.pool != "hp":
        text += f" to {event.pool}"
    if event.source:
        text += f" from {scene.who(event.source)}"
    if event.reduced_by or event.raw != event.taken:
        text += f" ({event.raw} raw, {event.reduced_by} reduced)"
    return text


def _healed(event: HealingApplied, scene: Scene) -> str:
    text = f"{scene.who(event.target)} recovers {event.amount} {pool_name(event.pool)}"
    if event.source and event.source != event.target:
        text += f" from {scene.who(event.source)}"
    return text


def _spent(event: ResourceSpent, scene: Scene) -> str:
    who = scene.before.combatants.get(event.actor)
    if who is not None and event.resource in who.weapons:
        times = "" if event.amount == 1 else f" ({event.amount} rounds)"
        return f"{scene.who(event.actor)} fires {event.resource}{times}"
    return f"{scene.who(event.actor)} spends {event.amount} {event.resource}"


def _reloaded(event: WeaponReloaded, scene: Scene) -> str:
    return f"{scene.who(event.actor)} reloads {event.weapon}"


def _moved(event: Moved, scene: Scene) -> str:
    if event.metres is None and event.x is not None and event.y is not None:
        return f"{scene.who(event.actor)} stands at ({event.x}, {event.y})"
    text = f"{scene.who(event.actor)} moves"
    if event.metres is not None:
        text += f" {event.metres} m"
    if event.x is not None and event.y is not None:
        text += f" to ({event.x}, {event.y})"
    if event.band is not None:
        text += f", to {event.band} range"
        if event.relative_to is not None:
            text += f" of {scene.who(event.relative_to)}"
    elif event.relative_to is not None:
        text += f", relative to {scene.who(event.relative_to)}"
    if event.points is not None:
        text += f" ({plural(event.points, 'movement point')})"
    return text


def _effect_applied(event: EffectApplied, scene: Scene) -> str:
    by = f"{scene.who(event.source)} puts " if event.source else ""
    text = f"{by}{event.name} on {scene.who(event.target)}"
    parts = ["until removed" if event.duration is None else _turns(event.duration)]
    parts += _effect_details(event.magnitude, event.dice, event.stacks, event.counts_on, event.target, scene.who)
    if event.refreshes is not None:
        parts.append(f"replacing {event.refreshes}")
    return text + ": " + ", ".join(parts)


def _ticked(event: EffectTicked, scene: Scene) -> str:
    text = f"{_effect_name(event.effect, scene)} on {scene.who(event.target)} takes hold"
    if event.remaining is not None:
        text += f" ({_turns(event.remaining)} left)"
    return text


def _counted_down(event: EffectCountedDown, scene: Scene) -> str:
    name = _effect_name(event.effect, scene)
    return f"{name} on {scene.who(event.target)} counts down: {_turns(event.remaining)} left"


def _expired(event: EffectExpired, scene: Scene) -> str:
    name = _effect_name(event.effect, scene)
    why = "runs out" if event.reason == "duration" else f"ends ({event.reason})"
    return f"{name} on {scene.who(event.target)} {why}"


def _status(event: StatusChanged, scene: Scene) -> str:
    verb = "gains" if event.on else "loses"
    text = f"{scene.who(event.actor)} {verb} status {event.status}"
    return text + (f" ({event.note})" if event.note else "")


def _ruled(event: RulingMade, scene: Scene) -> str:
    target = scene.lookup(event.target) if scene.lookup is not None else None
    return f"GM {ruling_text(event, target, scene)}"


_DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {
    SceneStarted: _scene_started,
    SceneEnded: _scene_ended,
    CombatantJoined: _joined,
    InitiativeRolled: _initiative,
    InitiativeSet: _order,
    RoundStarted: _round_started,
    RoundEnded: _round_ended,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    DeclarationPosted: _posted,
    DiceRolled: _rolled,
    AttackResolved: _resolved,
    DamageApplied: _damaged,
    HealingApplied: _healed,
    ResourceSpent: _spent,
    WeaponReloaded: _reloaded,
    Moved: _moved,
    EffectApplied: _effect_applied,
    EffectTicked: _ticked,
    EffectCountedDown: _counted_down,
    EffectExpired: _expired,
    StatusChanged: _status,
    RulingMade: _ruled,
}


# --------------------------------------------------------------------------- shared phrases


def pool_name(pool: str) -> str:
    return "HP" if pool == "hp" else pool


def pools_text(pools: Mapping[str, int], maxima: Mapping[str, int]) -> str:
    """``hp 84/100, armour 20/20``: HP first, then the other pools by name."""
    shown = []
    for pool in sorted(pools, key=lambda p: (p != "hp", p)):
        ceiling = maxima.get(pool)
        shown.append(f"{pool} {pools[pool]}" + ("" if ceiling is None else f"/{ceiling}"))
    return ", ".join(shown)


def _turns(n: int) -> str:
    return plural(n, "turn")


def _effect_details(
    magnitude: int | None,
    dice: str | None,
    stacks: int,
    counts_on: str | None,
    target: str,
    who: Callable[[str | None], str],
) -> list[str]:
    """The per-tick impact, stacks and whose turns count an effect, as phrases."""
    parts: list[str] = []
    if dice:
        parts.append(f"{dice}/turn")
    elif magnitude is not None:
        parts.append(f"{magnitude}/turn")
    if stacks != 1:
        parts.append(plural(stacks, "stack"))
    if counts_on is not None and counts_on != target:
        parts.append(f"counted on {who(counts_on)}'s turns")
    return parts


def _effect_name(effect: str, scene: Scene) -> str:
    active = scene.before.effects.get(effect) or scene.after.effects.get(effect)
    return effect if active is None else active.name


def effect_text(effect: ActiveEffect, who: Callable[[str | None], str]) -> str:
    """``bleed on Alice from Bob: 3 turns left, 5/turn``."""
    text = f"{effect.name} on {who(effect.target)}"
    if effect.source:
        text += f" from {who(effect.source)}"
    parts = ["until removed" if effect.remaining is None else f"{_turns(effect.remaining)} left"]
    parts += _effect_details(effect.magnitude, effect.dice, effect.stacks, effect.counts_on, effect.target, who)
    return text + ": " + ", ".join(parts)


def actions_text(actions: Iterable[Action], who: Callable[[str | None], str]) -> str:
    """The structured reading of a post: ``move 8 m; attack Bob with X, single, close``."""
    return "; ".join(_action(a, who) for a in actions)


def _action(action: Action, who: Callable[[str | None], str]) -> str:
    targets = [action.target] if action.target else []
    targets += [t for t in action.targets if t not in targets]
    text = action.type
    if targets:
        text += " " + ", ".join(who(t) for t in targets)
    if action.weapon:
        text += f" with {action.weapon}"
    if action.item:
        text += f" ({action.item})"
    if action.distance is not None:
        text += f" {action.distance} m"
    qualifiers = [q for q in (action.mode, action.range) if q]
    qualifiers += [_param(k, v) for k, v in sorted(action.params.items())]
    return ", ".join([text, *qualifiers])


def _param(key: str, value: object) -> str:
    """An action's parameter: ``m 8``; a flag as ``cover`` (true) or ``not cover`` (false)."""
    if isinstance(value, bool):
        return key if value else f"not {key}"
    return f"{key} {value_text(value)}"


def ruling_text(ruling: RulingMade | AppliedRuling, target: AnyEvent | None, scene: Scene) -> str:
    """``Gemma voids seq 16 (what it was): reason``. ``target`` (the event ruled on, when
    known) lets the words say what it was and show an amendment as ``field old -> new``."""
    what = _ruling_verb(ruling, target, scene)
    return f"{ruling.by} {what}" + (f": {ruling.reason}" if ruling.reason else "")


def _ruling_verb(ruling: RulingMade | AppliedRuling, target: AnyEvent | None, scene: Scene) -> str:
    about = f"seq {ruling.target}"
    if isinstance(target, RulingMade):
        about = f"the ruling at seq {ruling.target} ({target.action} of seq {target.target})"
        if ruling.action in ("withdraw", "void"):
            return f"withdraws {about}"
    if ruling.action == "withdraw":
        return f"withdraws the ruling at {about}"
    if ruling.action == "amend":
        kind = "" if target is None else f" ({kind_of(target)})"
        return f"amends {about}{kind}: {_amendment(ruling, target)}"
    if target is not None and not isinstance(target, RulingMade):
        about += f" ({describe(target, scene._replace(lookup=None))})"
    if ruling.action == "void":
        return f"voids {about}"
    finding = f" finding {ruling.finding}" if ruling.finding else ""
    return f"accepts{finding} on {about}"


def _amendment(ruling: RulingMade | AppliedRuling, target: AnyEvent | None) -> str:
    old: dict[str, Any] = {} if target is None else msgspec.to_builtins(target)
    parts = []
    for field in sorted(ruling.changes):
        new = _value_text(ruling.changes[field])
        parts.append(f"{field} {_value_text(old[field])} -> {new}" if field in old else f"{field} -> {new}")
    return "; ".join(parts) if parts else "no change"


def _value_text(value: Any) -> str:
    """A field's value as a player reads it: modifier lists as ``racial +5, cover +5``."""
    if isinstance(value, list) and value and all(_is_modifier(v) for v in value):
        return ", ".join(f"{v['source']} {v['value']:+d}" for v in value)
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    return msgspec.json.encode(value, order="sorted").decode()


def _is_modifier(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"value", "source"} and isinstance(value["value"], int)


# --------------------------------------------------------------------------- changes


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
            return effect_text(active, scene.who)
        gone = scene.before.effects[subject]
        return f"{gone.name} on {scene.who(gone.target)}: gone"
    active = scene.after.effects.get(subject) or scene.before.effects[subject]
    name = f"{active.name} on {scene.who(active.target)}"
    if change.field == "stacks":
        return f"{name}: {plural(change.after, 'stack')}"
    left = "until removed" if change.after is None else f"{_turns(change.after)} left"
    return f"{name}: {left}"


def _combatant_change(change: Change, scene: Scene) -> str:
    actor, field = change.subject, change.field
    name = scene.who(actor)
    who = scene.after.combatants.get(actor) or scene.before.combatants.get(actor)
    weapons = {} if who is None else who.weapons
    if field == "present":
        return f"{name} enters the scene" if change.after else f"{name} leaves the scene"
    if field == "status":
        return f"{name}: {change.after}" if change.after else f"{name}: no longer {change.before}"
    if field == "band":
        return f"{name}: " + _band(change.after, None if who is None else who.relative_to, scene)
    weapon, _, what = field.rpartition(" ")
    if weapon in weapons and what == "reload":
        return f"{name}: {weapon} " + ("needs reloading" if change.after else "ready")
    if weapon in weapons and what == "cooldown":
        return f"{name}: {weapon} cooldown {change.before} -> {change.after}"
    if what == "spent" and weapon:
        return f"{name}: {weapon} spent {change.before} -> {change.after}"
    return f"{name} {pool_name(field)} {value_text(change.before)} -> {value_text(change.after)}"


def _band(band: str | None, relative_to: str | None, scene: Scene) -> str:
    if band is None:
        return "no range band"
    return f"{band} range" + (f" of {scene.who(relative_to)}" if relative_to else "")

