"""The ``bleeding-sun`` audit of attacks and damage: the attack roll's dice against the pool
the rules give (recoil and the split included), the hits the faces show, the threshold the
chart gives, the hit, margin and critical; a hit's DV pool, its damage (a blast's fall-off),
the soak pool and what soak takes off (a spread's 3/2/1 a hit, a blast's dodge).
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectTicked
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.arithmetic import as_notes, falloff, net_base, soaked, spread_ratio
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.fuses import GRENADE, going_off, kept_threshold, plan_of
from fightlog.rules.bleedingsun.options import options_of
from fightlog.rules.bleedingsun.audit_plans import planned_post, threshold_of
from fightlog.rules.bleedingsun.planning import Plan, Planned
from fightlog.rules.bleedingsun.resolve import (JUMP_FACE, JUMPED, SNEAK, aimed_threshold, answerable, answers,
                                                critical_of, dv_of, jump_soak, scatter, soak_of)

COUP = "coup de grace"


def hits(roll: DiceRolled, face: int) -> int:
    """The hits the faces of ``roll`` show (each kept die at ``face`` or above)."""
    return len([d for d in roll.dice if d.kept and d.face >= face])


def noted(event: AttackResolved, prefix: str) -> bool:
    """Whether a note of ``event`` starts with ``prefix`` (a coup de grace, a grenade jumped on)."""
    for note in event.notes:
        if note.startswith(prefix):
            return True
    return False


def roll_of(view: AuditView, seq: int, purpose: str) -> DiceRolled | None:
    """The roll at ``seq``, if it is one for ``purpose``."""
    found = view.event(seq)
    return found if isinstance(found, DiceRolled) and found.purpose == purpose else None


def dice_text(count: int) -> str:
    """``1 die``, ``3 dice``."""
    return f"{count} {'die' if count == 1 else 'dice'}"


_SCATTERS: dict[int, tuple[object, int]] = {}
"""A blast's scatter by declaration (with the declaration, so another log's is never reused):
the table reads it once, from the state the attack roll leaves, for every target caught, so
it is read once here too, at the first target's damage; an earlier target's damage may have
changed the aimed target's threshold (a status, a stance) before a later target's."""


def _scatter(before: SceneState, cause: AttackResolved, one: Plan, view: AuditView) -> int:
    effect = _grenade(before, cause)
    kept = before.effects[effect].params.get("shift") if effect is not None else None
    if type(kept) is int:
        return kept  # a waiting grenade lies where its throw put it (``resolve.go_off``)
    declared = view.event(cause.declaration or 0)
    known = _SCATTERS.get(cause.declaration or 0)
    if known is not None and known[0] is declared:
        return known[1]
    shift = scatter(cause.score, aimed_threshold(before, one))
    if len(_SCATTERS) > 64:
        _SCATTERS.clear()
    _SCATTERS[cause.declaration or 0] = (declared, shift)
    return shift


def planned_for(before: SceneState, event: AttackResolved, view: AuditView) -> tuple[Planned, Plan, int] | None:
    """The plan of the attack ``event`` resolves, recomputed from its declaration, and the
    place of ``event.target`` among its targets; ``None`` when it cannot be read."""
    declared = view.event(event.declaration or 0)
    if not isinstance(declared, DeclarationPosted) or not declared.actions:
        return _went_off(before, event)
    planned = planned_post(before, event.attacker, declared)
    if planned is None:
        return None
    get = view.event
    post, target = declared.seq, event.target
    already = 0  # the attacks on this target resolved before it for the same post
    if not _unresolved(before, post, target):  # (most attacks: none, and no look back)
        for seq in range(post + 1, event.seq):
            other = get(seq)  # (``type() is``: compiled, ``isinstance`` of an event class is a slow generic call)
            if type(other) is AttackResolved and other.declaration == post and other.target == target:
                already += 1
    found = [(p, at) for p in planned.plans for at, (t, _) in enumerate(p.caught)
             if t == event.target and p.weapon.name == event.weapon]
    if len(found) <= already:
        return None
    one, at = found[already]
    return planned, one, at


def _unresolved(before: SceneState, post: int, target: str) -> bool:
    """Whether the post at ``post`` is open and none of its attacks on ``target`` has been
    resolved (``PendingDeclaration.resolved``): then no earlier ``attack_resolved`` of it on
    ``target`` is in the window either (each one folded while it was open names its target
    there; a voided one is neither folded nor in the window)."""
    for found in before.pending:
        if found.seq == post:
            return target not in found.resolved
    return False


def _judged_before(event: AttackResolved, view: AuditView) -> bool:
    """Whether an earlier resolution cites the same attack roll (a blast's later targets): its
    pool was judged there, from the state it was rolled in; the state may have changed since
    (the first target's damage ended a grapple the thrower was in)."""
    roll = event.rolls[0]
    get = view.event
    for seq in range(roll + 1, event.seq):
        other = get(seq)
        if type(other) is AttackResolved and other.rolls and other.rolls[0] == roll:
            return True
    return False


def _grenade(before: SceneState, event: AttackResolved) -> str | None:
    """The waiting grenade ``event`` is the blast of, going off (its throw is out of view)."""
    for e in before.effects.values():
        if e.name == GRENADE and e.source == event.attacker and e.params.get("declaration") == event.declaration \
                and e.params.get("weapon") == event.weapon:
            return e.effect
    return None


def _went_off(before: SceneState, event: AttackResolved) -> tuple[Planned, Plan, int] | None:
    """The plan of a waiting grenade going off, as its effect keeps it."""
    effect = _grenade(before, event)
    if effect is None:
        return None
    try:
        one, _, _ = plan_of(before, effect)
    except (FightlogError, ValueError, KeyError):
        return None
    at = next((i for i, (t, _) in enumerate(one.caught) if t == event.target), None)
    return None if at is None else (Planned((one,), 0, one.dice), one, at)


def _jumped(before: SceneState, event: AttackResolved, effect: str | None, view: AuditView) -> bool:
    """A blast of a grenade jumped on (Jumping on a Grenade): on the jumper alone. Whether it
    is one (``effect``: the waiting grenade ``event`` is the blast of, ``_grenade``)."""
    jumper = before.effects[effect].params.get("jumped") if effect is not None else None
    if jumper is None:
        return False
    if event.target != jumper:
        view.report("rules.jump", event, f"{event.attacker}'s grenade reaches {event.target}; {jumper} jumped on it "
                    "and takes the whole blast alone", actor=event.attacker)
    return True


def _jump_damage(before: SceneState, event: DamageApplied, cause: AttackResolved, effect: str,
                 view: AuditView) -> None:
    """The jumper's damage: a critical DV pool counting 4-6, fortitude without armour counting
    6s (the table's ``dv_of`` and ``jump_soak``, on the plan the grenade ``effect`` keeps)."""
    damage, soak = _dice_for(view, event, cause.seq)
    try:
        attacker, who = Fighter(before, cause.attacker), Fighter(before, event.target)
        one, _, _ = plan_of(before, effect)
        want, _ = dv_of(attacker, who, one, cause.score, 0, True)
        soak_dice = jump_soak(who)
    except (FightlogError, ValueError, KeyError):
        return
    problems = []
    if damage is not None and (len(damage.dice) != want or event.raw != hits(damage, JUMP_FACE)):
        problems.append(f"a DV pool of {len(damage.dice)} for {event.raw}, the rules give {want} "
                        f"(blast, critical, perks) counting 4-6: {hits(damage, JUMP_FACE)}")
    if soak is not None and (len(soak.dice) != max(0, soak_dice) or event.reduced_by != min(event.raw, hits(soak, 6))):
        problems.append(f"soak {event.reduced_by} off {len(soak.dice)} dice, the rules give fortitude without armour "
                        f"({soak_dice} dice) counting 6s")
    if problems:
        view.report("rules.jump", event, f"{event.target} jumped on the grenade: " + "; ".join(problems),
                    actor=event.target)


def resolved(before: SceneState, event: AttackResolved, after: SceneState, view: AuditView) -> bool:
    """Check an attack's outcome; whether it owes damage: judged as the rules give it, a hit
    (or a blast, which harms whom it catches) that is not a trip, so its DV is rolled, soaked
    and applied (Attacking; Damage)."""
    effect = _grenade(before, event)
    if _jumped(before, event, effect, view):
        return False
    if event.declaration is None or noted(event, COUP):
        return False
    got = planned_for(before, event, view)
    if got is None or not event.rolls:
        return False
    planned, one, at = got
    roll = roll_of(view, event.rolls[0], "attack")
    kept = before.effects[effect].params if effect is not None else None
    if roll is None and kept is None:
        return False
    try:
        options = options_of(before)  # the attacker stands: ``planned_for`` planned their attack
        face = options.hit_face
        defense = roll_of(view, event.rolls[1], "defense") if len(event.rolls) > 1 else None
        if kept is None and event.declaration is not None:
            _answered(before, event, planned, one, defense, view)
        dodge = hits(defense, face) if defense is not None else 0
        aimed = kept_threshold(kept) if kept is not None and event.target == one.target else None
        th, parts = threshold_of(before, one, at, event.target, 0 if one.kind == "blast" else dodge) \
            if aimed is None else (aimed[0], [(aimed[0], "at the throw")])  # a waiting grenade: as thrown at
    except FightlogError:
        return False
    who = event.attacker
    dice = len(roll.dice) if roll is not None else int(kept["dice"] or 0) if kept is not None else 0
    if dice != one.dice and not going_off(before, who, one) and not _judged_before(event, view):
        # (a waiting grenade's pool: the throw's state; a blast's later target: the roll's, judged at the first)
        code = "rules.recoil" if planned.recoil and one.dice < dice <= one.dice + planned.recoil else "rules.pool"
        view.report(code, event, f"{who}'s attack on {event.target} rolled {dice} dice; the rules give {one.dice} "
                    f"({', '.join(n for n in one.notes if not n.startswith('pool'))})", actor=who)
    shown = hits(roll, face) if roll is not None else int(kept["hits"] or 0) if kept is not None else 0
    sixes = len([d for d in roll.dice if d.kept and d.face == 6]) if roll is not None else \
        int(kept["sixes"] or 0) if kept is not None else 0
    if event.against != th:
        view.report("rules.threshold", event, f"{who}'s attack on {event.target} is recorded against {event.against}; "
                    f"the chart gives {th} ({', '.join(as_notes(parts))})", actor=who)
    lobbed = one.action.params.get("lob") is True
    lands = one.kind == "spread" or (one.kind == "blast" and (event.target != one.target or lobbed)) or shown >= th
    try:
        base = th if shown < th else aimed[1] if aimed is not None else net_base(th, parts, options.net_hits_from)
        crit = critical_of(Fighter(before, who), one, event.target, shown, sixes, dice, th)
    except FightlogError:
        return False
    problems = []
    if event.score != shown:
        problems.append(f"{event.score} hits recorded, the dice show {shown}")
    if event.hit != lands:
        problems.append(f"recorded as a {'hit' if event.hit else 'miss'}, {shown} hits against {th} "
                        f"{'lands' if lands else 'misses'}")
    if event.margin is not None and event.margin != shown - base:
        problems.append(f"net hits {event.margin}, the rules give {shown - base}")
    if (event.critical == "success") != crit:
        problems.append("a critical the dice do not give" if not crit else "a critical (half the dice 6s, or the "
                        "threshold beaten by " f"{options.critical_margin}) not recorded")
    if problems:
        view.report("rules.outcome", event, f"{who}'s attack on {event.target}: " + "; ".join(problems), actor=who)
        return False
    return (lands or one.kind == "blast") and one.kind != "trip"


def _answered(before: SceneState, event: AttackResolved, planned: Planned, one: Plan, defense: DiceRolled | None,
              view: AuditView) -> None:
    """A defense roll for this attack exactly when its target answered it: one answer, one
    attack (``resolve.answers``: a target's answers to a post go to its attacks on them in
    order)."""
    declaration = event.declaration or 0
    if defense is None:
        for post in before.pending:
            if post.responds_to == declaration:
                break
        else:
            return  # no defense roll, and nothing posted in answer: nothing to pair
    options = options_of(before)
    said = answers(before, declaration, one.number, planned.plans, options).get(event.target) \
        if answerable(one, options) else None
    if said not in ("dodge", "block", "resist"):  # ``take``: no roll
        said = None
    if defense is not None and said is None:
        view.report("rules.answer", event, f"{event.target}'s defense roll (seq {defense.seq}) counts against "
                    f"{event.attacker}'s attack, which no dodge, block or resist of theirs answered (one answers "
                    "one attack)", actor=event.target)
    elif defense is None and said is not None:
        view.report("rules.answer", event, f"{event.target} answered {event.attacker}'s attack ({said}) but it "
                    "cites no defense roll", actor=event.target)


def _dice_for(view: AuditView, event: DamageApplied, cause: int) -> tuple[DiceRolled | None, DiceRolled | None]:
    """The damage and soak rolls of a hit (between the hit and its damage)."""
    damage = soak = None
    for seq in range(event.seq - 1, cause, -1):
        found = view.event(seq)
        if isinstance(found, DiceRolled) and found.for_seq == cause:
            if found.purpose == "soak" and soak is None:
                soak = found
            elif found.purpose == "damage" and damage is None:
                damage = found
        elif isinstance(found, DamageApplied):
            break
    return damage, soak


def damaged(before: SceneState, event: DamageApplied, after: SceneState, view: AuditView) -> None:
    cause = view.event(event.cause or 0)
    if isinstance(cause, EffectTicked):
        found = before.effects.get(cause.effect)
        if found is not None and found.name == "bleeding" and event.raw != (found.magnitude or 0):
            view.report("rules.bleeding", event, f"{event.target} bled {event.raw}; the bleed is {found.magnitude}",
                        actor=event.target)
        return
    if not isinstance(cause, AttackResolved):
        return
    if noted(cause, COUP):
        _coup(before, event, cause, view)
        return
    covered = _grenade(before, cause) if noted(cause, JUMPED) else None
    if covered is not None:
        _jump_damage(before, event, cause, covered, view)
        return
    got = planned_for(before, cause, view)
    if got is None:
        return
    _, one, at = got
    if not cause.hit and one.kind != "blast":  # Attacking: a miss deals nothing (a blast harms whom it catches)
        view.report("rules.damage", event, f"{event.target} takes damage from {cause.attacker}'s attack at seq "
                    f"{cause.seq}, which missed", actor=cause.attacker)
        return
    damage, soak = _dice_for(view, event, cause.seq)
    try:
        attacker, target = Fighter(before, cause.attacker), Fighter(before, event.target)
        face = attacker.options.hit_face
        # net hits from what the outcome recorded, judged there (``resolved``: the margin)
        base = min(cause.against, cause.score - cause.margin) if cause.margin is not None \
            and attacker.options.net_hits_from == "chart" else cause.against
        dv, parts = dv_of(attacker, target, one, cause.score, cause.against, cause.critical == "success", base)
        soak_dice, label = soak_of(target, one, at)
    except FightlogError:
        return
    hexes = one.caught[at][1]
    if one.kind == "blast":
        try:
            hexes += _scatter(before, cause, one, view)
        except FightlogError:
            return
    who = cause.attacker
    dealt = hits(damage, face) if damage is not None else 0
    raw = falloff(dealt, hexes) if one.kind == "blast" else dealt
    problems = []
    if (len(damage.dice) if damage is not None else 0) != max(0, dv):
        problems.append(f"a DV pool of {len(damage.dice) if damage else 0}, the rules give {dv} "
                        f"({', '.join(as_notes(parts))})")
    if event.raw != raw:
        problems.append(f"{event.raw} damage recorded, the DV dice show {raw}"
                        + (f" ({dealt} less {dealt - raw} for {hexes} hexes)" if one.kind == "blast" else ""))
    if event.taken != max(0, event.raw - event.reduced_by):
        problems.append(f"{event.taken} taken of {event.raw} less {event.reduced_by}")
    if problems:
        view.report("rules.damage", event, f"{who}'s hit on {event.target}: " + "; ".join(problems), actor=who)
    ratio = spread_ratio(cause.score, cause.against) if one.kind == "spread" else 1
    dodge_hits = _blast_dodge(view, cause, face) if one.kind == "blast" else 0
    soak_hits = hits(soak, face) if soak is not None else 0
    want = soaked(event.raw, soak_hits, ratio, dodge_hits)
    problems = []
    if (len(soak.dice) if soak is not None else 0) != max(0, soak_dice):
        problems.append(f"a soak pool of {len(soak.dice) if soak else 0}, the rules give {soak_dice} ({label})")
    if event.reduced_by != want:
        how = f"x{ratio} a hit: the spread's {cause.score} hits against {cause.against}" if ratio != 1 else "1 a hit"
        problems.append(f"soak took {event.reduced_by} off; {soak_hits} soak hits take {want} ({how}"
                        + (f"; dodge {dodge_hits} hits, 2 each" if dodge_hits else "") + ")")
    if problems:
        view.report("rules.soak", event, f"{event.target}'s soak of {who}'s hit: " + "; ".join(problems),
                    actor=event.target)


def _coup(before: SceneState, event: DamageApplied, cause: AttackResolved, view: AuditView) -> None:
    """A coup de grace's damage: the weapon's DV, the critical and the sneak attack; soaked
    without armour."""
    damage, soak = _dice_for(view, event, cause.seq)
    try:
        attacker, target = Fighter(before, cause.attacker), Fighter(before, event.target)
        weapon = attacker.card.weapon(cause.weapon)
        if weapon is None:
            return
        options = attacker.options
        dv = weapon.dv + options.critical_dv + SNEAK[weapon.kind == "melee"] + attacker.card.perk_sum("dv")
        soak_dice = target.card.fortitude + target.card.perk_sum("soak") - target.stagger()
    except FightlogError:
        return
    face = options.hit_face
    dealt = hits(damage, face) if damage is not None else 0
    soaked_hits = hits(soak, face) if soak is not None else 0
    problems = []
    if (len(damage.dice) if damage is not None else 0) != max(0, dv) or event.raw != dealt:
        problems.append(f"a coup de grace rolls DV {dv} (weapon, +{options.critical_dv} critical, sneak attack): "
                        f"{event.raw} recorded")
    if (len(soak.dice) if soak is not None else 0) != max(0, soak_dice) or event.reduced_by != min(event.raw,
                                                                                                   soaked_hits):
        problems.append(f"soaked without armour ({max(0, soak_dice)} dice): {event.reduced_by} taken off")
    if problems:
        view.report("rules.damage", event, f"{cause.attacker}'s coup de grace on {event.target}: "
                    + "; ".join(problems), actor=cause.attacker)


def _blast_dodge(view: AuditView, cause: AttackResolved, face: int) -> int:
    if len(cause.rolls) < 2:
        return 0
    roll = roll_of(view, cause.rolls[1], "defense")
    return hits(roll, face) if roll is not None else 0
