"""What an attack had to beat, recomputed for the audit from the log's facts (Melee attack;
Ranged attack): the distance step of a shot; for a melee attack 0 when unaware or ignored,
the Defense of the counterattack's weapon, the Defense of a melee attack the defender made
this turn or is about to make (``declared``), else Unarmed Defense; for a counterattack, the
Defense of the attack it answers. ``None`` when the log does not say enough (a declaration
out of the audit's window). ``shot_problem``: the parts of a shot's skill the log's facts
decide (``aiming.ranged_aim``): Defense after a move or a turn, the penalty beyond Range."""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import Action, AttackResolved, DeclarationPosted, EffectExpired
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.en51.aiming import param
from fightlog.rules.en51.card import Card, WeaponCard, read_card
from fightlog.rules.en51.declared import about_to_strike
from fightlog.rules.en51.options import En51Options
from fightlog.rules.en51.ranges import range_penalty, step
from fightlog.rules.en51.ruleset import ANSWERS


def card_of(state: SceneState, actor: str) -> Card | None:
    who = state.combatants.get(actor)
    if who is None:
        return None
    try:
        return read_card(who.sheet)
    except FightlogError:
        return None


def weapon_of(state: SceneState, actor: str, name: str | None) -> WeaponCard | None:
    card = card_of(state, actor)
    return None if card is None else card.weapon(name)


def _attack(post: DeclarationPosted, target: str | None = None) -> Action | None:
    return next((a for a in post.actions if a.type == "attack" and (target is None or a.target == target)), None)


def _countered(before: SceneState, posted: DeclarationPosted, view: AuditView) -> int | None:
    """A counterattack must beat the Defense of the attack it answers."""
    answered = view.event(posted.responds_to) if posted.responds_to is not None else None
    if not isinstance(answered, DeclarationPosted):
        return None
    action = _attack(answered)
    weapon = weapon_of(before, answered.actor, action.weapon) if action is not None else None
    return None if weapon is None else weapon.defense


def _melee(before: SceneState, event: AttackResolved, action: Action, options: En51Options) -> int | None:
    card = card_of(before, event.target)
    target = before.combatants.get(event.target)
    if card is None or target is None:
        return None
    if action.params.get("unaware") is True or (options.ambush_unaware and "surprised" in target.statuses):
        return 0
    for post in before.pending:
        if post.responds_to == event.declaration and post.actor == event.target:
            reply = next((a for a in post.actions if a.type in ANSWERS), None)
            if reply is not None and reply.type == "ignore":
                return 0
            if reply is not None and reply.type == "counter":
                weapon = card.weapon(reply.weapon)
                return None if weapon is None else weapon.defense
    guard = next((e for e in before.effects.values() if e.name == "guard" and e.target == event.target), None)
    if guard is not None:
        return guard.magnitude or 0
    coming = about_to_strike(before, event.target, card)
    return card.unarmed_defense if coming is None else coming.defense


def expected_against(before: SceneState, event: AttackResolved, posted: DeclarationPosted | None,
                     weapon: WeaponCard | None, options: En51Options, view: AuditView) -> int | None:
    """What ``event`` had to beat (``posted``: its declaration, ``weapon``: the attacker's,
    ``options``: the scene's), or ``None`` when the log does not say."""
    if posted is None or weapon is None:
        return None
    action = None
    moved = False
    for one in posted.actions:  # one pass: a counterattack, the attack on the target, a move
        kind = one.type
        if kind == "counter":
            return _countered(before, posted, view)
        if kind == "move":
            moved = True
        elif action is None and kind == "attack" and one.target == event.target:
            action = one
    if action is None or (moved and weapon.kind != "ranged"):  # a charge's answer waits on the mover, gone by now
        return None
    if weapon.kind == "ranged":
        return None if action.distance is None else step(action.distance, options.range_scale)
    return _melee(before, event, action, options)


def shot_problem(event: AttackResolved, posted: DeclarationPosted | None, weapon: WeaponCard | None,
                 note: tuple[str, dict[str, int]] | None, options: En51Options) -> str | None:
    """What is wrong with the skill a shot's note records (``note``: its base, ``Attack`` or
    ``Defense``, and its modifiers by source), in the parts the declaration decides: a shot
    combined with a move, or turning more than 90 degrees, uses the weapon's Defense (Ranged
    attack; Movement), and each step beyond Range costs 2 (to -10). ``None`` when right, or
    when the log does not say (no note, no declaration). Aiming, cover, a moving target, a
    readied weapon and the GM's modifier are read from the note as recorded."""
    if posted is None or weapon is None or note is None or weapon.kind != "ranged":
        return None
    action = None
    moved = False
    for one in posted.actions:
        if one.type == "move":
            moved = True
        elif action is None and one.type == "attack" and one.target == event.target:
            action = one
    if action is None:
        return None
    base, mods = note
    turned = action.params.get("turn") is True
    if base == "Attack" and (moved or turned):
        why = "after moving" if moved else "turning more than 90 degrees"
        return (f"{event.attacker}'s shot at {event.target} is rolled under {weapon.name}'s Attack {weapon.attack}; "
                f"{why}, a shot uses its Defense {weapon.defense}")
    if action.distance is None:
        return None
    at = step(action.distance, options.range_scale)
    due, got = range_penalty(at, weapon.range), mods.get("beyond Range", 0)
    if got != due:
        return (f"{event.attacker}'s shot at {event.target} at {action.distance} m (step {at}) against {weapon.name}'s "
                f"Range {weapon.range} is rolled with {got:+d} beyond Range; the rules give {due:+d} (-2 a step)")
    return None


def weapon_used(before: SceneState, event: AttackResolved, weapon: WeaponCard | None,
                 posted: DeclarationPosted | None, view: AuditView) -> None:
    """An attack is made with a weapon its attacker carries (``rules.not-carried``) and the
    one its post declared (``rules.outcome``)."""
    card = card_of(before, event.attacker)
    if weapon is None and card is not None:
        carried = ", ".join(w.name for w in card.weapons) or "none"
        view.report("rules.not-carried", event, f"{event.attacker}'s attack on {event.target} is resolved with "
                    f"{event.weapon}, which they do not carry (carried: {carried})", actor=event.attacker)
        return
    declared = next((a.weapon for a in posted.actions if a.type in ("attack", "counter") and a.weapon is not None
                     and a.target in (event.target, None)), None) if posted is not None else None
    if declared is not None and declared != event.weapon:
        view.report("rules.outcome", event, f"{event.attacker}'s attack on {event.target} is resolved with "
                    f"{event.weapon}; the post at seq {posted.seq if posted else '?'} declared {declared}",
                    actor=event.attacker)


def noted_problem(before: SceneState, event: AttackResolved, posted: DeclarationPosted | None,
                  note: tuple[str, dict[str, int]] | None, view: AuditView) -> str | None:
    """What is wrong with the modifiers an attack's note records that the log can show: the
    GM's modifier is the one its declaration gives (``gm=N``, none when it gives none), and
    an aim's +2 (Ranged attack) is an aim of the attacker's in force, or used by this shot.
    ``None`` when right, or when the log does not say (no note, no declaration)."""
    if note is None or posted is None:
        return None
    action = _attack(posted, event.target)
    if action is None:
        return None
    mods = note[1]
    declared = param(action, "gm")
    noted = mods.get("GM circumstance", 0)
    if noted != declared:
        said = f"gm={declared}" if declared else "no gm="
        return (f"{event.attacker}'s attack on {event.target} is rolled with a GM circumstance of {noted:+d}; its "
                f"declaration (seq {posted.seq}) gives {said}")
    if mods.get("aimed") and not _aimed(before, event, posted.seq, view):
        return (f"{event.attacker}'s shot at {event.target} is rolled aimed ({mods['aimed']:+d}); {event.attacker} "
                "had no aim in force (an aim action in an earlier turn)")
    return None


def _aimed(before: SceneState, event: AttackResolved, declaration: int, view: AuditView) -> bool:
    """Whether the attacker had an aim in force: still in ``before``, or used by this shot
    (ended between its declaration and its resolution)."""
    if any(e.name == "aim" and e.target == event.attacker for e in before.effects.values()):
        return True
    for seq in range(declaration + 1, event.seq):
        ended = view.event(seq)
        if type(ended) is EffectExpired and ended.target == event.attacker and ended.effect.startswith("aim-"):
            return True
    return False
