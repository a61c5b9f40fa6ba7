"""Resolving attacks (Defenders Threshold; Attacking; Critical Hits; Damage; Soak; Shotguns
and Flamers; Taking damage from explosives; Knockdown; Trip; Coup de Gras).

An attack on a target who can defend waits (effect ``incoming``) for the target's answer
(``dodge``, ``block``, ``resist`` or ``take``), or for the end of the attacker's turn. Then:
the defense rolls (Vigor; hits add to the threshold), the attack pool rolls, each target's
threshold is worked out; a hit (a spread or a blast always lands) rolls its DV as a pool and
the target soaks (fortitude with armour, less the piercing), each soak hit taking 1 off (a
spread: 3, 2 or 1 by the threshold missed, met or exceeded; a blast: dodge hits 2 each);
then knockdown and kickers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec.structs import replace

from fightlog.events.model import AttackResolved, EffectApplied, EffectExpired, ResourceSpent
from fightlog.kit.fighters import Mods
from fightlog.kit.table import Scribe
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.bleedingsun import fuses, harm, statuses
from fightlog.rules.bleedingsun.arithmetic import (BURSTS, RANGES, SPREAD_KICKER, as_notes, critical, falloff,
                                                    net_base, pierce, soak_pool, soaked, spread_ratio, threshold)
from fightlog.rules.bleedingsun.ruleset import ANSWERS
from fightlog.rules.bleedingsun.fighters import INCOMING, Fighter, guard
from fightlog.rules.bleedingsun.options import BleedingSunOptions, options_of
from fightlog.rules.bleedingsun.planning import Plan, hexes, plan, spread_ap
from fightlog.rules.bleedingsun.post_params import cover_of
from fightlog.rules.bleedingsun.pools import Pool, roll_pool

SNEAK = {True: 6, False: 3}
"""Sneak attack DV: melee, ranged."""


def incoming_id(declaration: int, index: int, target: str) -> str:
    return f"{INCOMING}-{declaration}-{index}-{target}"


def can_defend(state: SceneState, target: str) -> bool:
    """Whether ``target`` may answer an attack: standing, aware (not flat-footed), with the
    immediate action unspent or on total defense."""
    who = Fighter(state, target)
    if who.out or who.flat_footed() or who.helpless():
        return False
    return who.defending() or not who.immediate_spent()


def declare(scribe: Scribe, actor: str, declaration: int, plans: tuple[Plan, ...], *, answered: bool = True) -> None:
    """Each planned attack waits for its targets' answers, or resolves at once (always, when
    not ``answered``: a readied attack interrupting another's turn)."""
    options = Fighter(scribe.state, actor).options
    for found in plans:
        fused = False
        if found.kind == "blast":
            scribe.emit(ResourceSpent(actor=actor, resource="grenade", cause=declaration))
            fused = fuses.delay_of(scribe.state, actor, found.weapon) > 0  # nobody answers: it waits
        waiting = [t for t, _ in found.caught if answered and answerable(found, options) and t != actor
                   and can_defend(scribe.state, t) and not fused]
        for target in waiting:
            scribe.emit(EffectApplied(effect=incoming_id(declaration, found.number, target), name=INCOMING,
                                      target=target, source=actor, cause=declaration,
                                      params={"declaration": declaration, "index": found.number, "kind": found.kind}))
        if not waiting:
            resolve(scribe, declaration, found.number)


def answerable(planned: Plan, options: BleedingSunOptions) -> bool:
    """Whether an attack of this kind waits for its targets' answers (a spread only under
    ``spread_answers``; a grenade with a fuse waits for nobody: ``fuses``)."""
    return planned.kind not in ("aoo", "coup_de_grace", "spread") or (
        planned.kind == "spread" and options.spread_answers)


def answers(state: SceneState, declaration: int, index: int, plans: Sequence[Plan],
            options: BleedingSunOptions) -> Mapping[str, str]:
    """Target -> its answer to attack ``index`` of ``declaration`` (``plans``, the post's
    attacks). An answer is one immediate action, and it answers one attack (Physical Defense:
    "vs that attack"): a target's answers to the post, in the order posted, answer the
    post's attacks on them that wait for one, in the post's order."""
    said: dict[str, list[str]] = {}
    for post in state.pending:
        if post.responds_to == declaration:
            kinds = [action.type for action in post.actions if action.type in ANSWERS]
            if kinds:
                said.setdefault(post.actor, []).append(kinds[-1])
    if not said:
        return {}
    out: dict[str, str] = {}
    for target, posted in said.items():
        before = sum(1 for p in plans if p.number < index and answerable(p, options)
                     and any(t == target for t, _ in p.caught)
                     and not fuses.lies_waiting(state, declaration, p.number))
        if before < len(posted):
            out[target] = posted[before]
    return out


def declaration_of(state: SceneState, seq: int) -> PendingDeclaration | None:
    return next((p for p in state.pending if p.seq == seq), None)


def resolve(scribe: Scribe, declaration: int, index: int) -> None:
    """Resolve attack ``index`` of the post at ``declaration`` (see the module docstring)."""
    state = scribe.state
    post = declaration_of(state, declaration)
    if post is None:
        return
    for found in sorted(state.effects.values(), key=lambda e: e.effect):
        if found.name == INCOMING and found.params.get("declaration") == declaration \
                and found.params.get("index") == index:
            scribe.emit(EffectExpired(cause=declaration, effect=found.effect, target=found.target, reason="resolved"))
    attacker = Fighter(scribe.state, post.actor)
    if attacker.out:
        return
    earlier = [a for p in scribe.state.pending if p.actor == post.actor and p.responds_to is None
               and p.seq < declaration for a in p.actions]
    plans = plan(scribe.state, post.actor, post.actions, earlier).plans
    planned = plans[index]
    said = answers(scribe.state, declaration, index, plans, Fighter(scribe.state, post.actor).options)
    defense: dict[str, Pool] = {}
    for target, _ in planned.caught:
        answer = said.get(target)
        if answer in ("dodge", "block", "resist"):
            who = Fighter(scribe.state, target)
            defense[target] = roll_pool(scribe, who.check_pool("vigor"), who.options, roller=target,
                                        purpose="defense", label=f"{answer}: vigor {who.attr('vigor')}",
                                        for_seq=declaration)
    options = attacker.options
    if planned.kind == "coup_de_grace":
        _coup(scribe, attacker, planned, declaration)
        return
    rolled = roll_pool(scribe, planned.dice, options, roller=post.actor, purpose="attack",
                       label=f"{planned.weapon.name} at {planned.target or 'a hex'}", for_seq=declaration)
    shift = 0
    if planned.kind == "blast":
        delay = fuses.delay_of(scribe.state, post.actor, planned.weapon)
        shift = scatter(rolled.hits, aimed_threshold(scribe.state, planned))
        if shift:
            scribe.roll("1d6", roller=post.actor, purpose="scatter", for_seq=declaration,
                        label=f"missed: lands {_hexes(shift)} off, 1 the hex nearest the thrower, clockwise")
        if delay > 0:
            fuses.wait(scribe, post.actor, declaration, planned, rolled, delay, shift, aimed_kept(scribe.state, planned))
            return
        fuses.thrown(scribe, post.actor, planned.weapon.name, "thrown and went off")
    for at, (target, hexes) in enumerate(planned.caught):
        _one(scribe, attacker, planned, at, target, hexes + shift, rolled, defense.get(target), said.get(target),
             declaration)


def go_off(scribe: Scribe, effect: str, cause: int) -> None:
    """The waiting grenade ``effect`` goes off: its blast on each fighter caught, from where
    its throw put it (the scatter the throw said, from the aimed hex's threshold then: a total
    defense lapsed since, or a stance changed, does not move a grenade lying on the ground; a
    grenade of a log from before the scatter was kept is judged from the threshold now)."""
    found = scribe.state.effects[effect]
    planned, rolled, declaration = fuses.plan_of(scribe.state, effect)
    attacker = Fighter(scribe.state, found.source or found.target)
    jumper = found.params.get("jumped")
    if isinstance(jumper, str) and jumper in scribe.state.combatants:
        _smothered(scribe, attacker, planned, jumper, rolled, declaration)
        return
    kept = found.params.get("shift")
    shift = kept if type(kept) is int else scatter(rolled.hits, aimed_threshold(scribe.state, planned))
    aimed = fuses.kept_threshold(found.params)
    for at, (target, hexes) in enumerate(planned.caught):
        if target in scribe.state.combatants:
            _one(scribe, attacker, planned, at, target, hexes + shift, rolled, None, None, declaration, aimed)


def aimed_kept(state: SceneState, planned: Plan) -> tuple[int, int] | None:
    """The aimed target's threshold now and what net hits count from (a waiting grenade keeps
    them: ``fuses.wait``); ``None`` for a lob (at a hex)."""
    if not planned.target or _lobbed(planned):
        return None
    th, parts = target_threshold(state, planned, 0, planned.target, 0)
    return th, net_base(th, parts, options_of(state).net_hits_from)


JUMP_FACE = 4
"""Jumping on a Grenade: the blast's damage pool counts 4, 5 and 6 as hits; the jumper's
soak only 6s."""


def _smothered(scribe: Scribe, attacker: Fighter, planned: Plan, jumper: str, rolled: Pool, declaration: int) -> None:
    """Jumping on a Grenade: the jumper alone takes the whole blast: a critical (with the
    thrower's bonuses), 4-6 hits on the DV pool, soaked by fortitude without armour, 6s only."""
    who = Fighter(scribe.state, jumper)
    options = attacker.options
    dv, parts = dv_of(attacker, who, planned, rolled.hits, 0, True)
    seq = scribe.emit(AttackResolved(attacker=attacker.actor, target=jumper, hit=True, score=rolled.hits, against=0,
                                     critical="success", weapon=planned.weapon.name, declaration=declaration,
                                     notes=[f"{JUMPED}: the whole blast, critical, DV " + ", ".join(as_notes(parts))]))
    dealt = roll_pool(scribe, dv, replace(options, hit_face=JUMP_FACE), roller=attacker.actor, purpose="damage",
                      label=f"damage: DV {dv}, 4-6 hit (jumped on)", for_seq=seq)
    dice = jump_soak(Fighter(scribe.state, jumper))
    soak = roll_pool(scribe, dice, replace(options, hit_face=6), roller=jumper, purpose="soak",
                     label="soak: fortitude (no armour), 6s only (jumped on)", for_seq=seq)
    harm.hurt(scribe, jumper, dealt.hits, soaked(dealt.hits, soak.hits, 1, 0), source=planned.weapon.name, cause=seq)


JUMPED = "jumped on the grenade"


def jump_soak(who: Fighter) -> int:
    """The soak pool of one who jumped on a grenade: fortitude without armour (counting 6s)."""
    card = who.card
    return soak_pool(card.fortitude, card.armour, 0, ignore_armour=True) + card.perk_sum("soak") - who.stagger()


def _lobbed(planned: Plan) -> bool:
    return planned.action.params.get("lob") is True


def _hexes(count: int) -> str:
    return hexes(count)


def scatter(hits: int, aimed: int) -> int:
    """Hexes a missed explosive lands off (Missing with an explosive): the net misses + 1."""
    return 0 if hits >= aimed else aimed - hits + 1


def aimed_threshold(state: SceneState, planned: Plan) -> int:
    """The threshold of the hex an explosive is thrown at: its target's, or a lobbed one's
    range alone (a hex, not a target)."""
    if planned.target and planned.action.params.get("lob") is not True:
        return target_threshold(state, planned, 0, planned.target, 0)[0]
    return RANGES[planned.bands[0]] if planned.bands else RANGES[planned.action.range or "short"]


def target_threshold(state: SceneState, planned: Plan, at: int, target: str, defense_hits: int) -> tuple[int, Mods]:
    """The threshold to hit ``target`` with ``planned`` (the chart; the defense hits and total
    defense added). A targeted shot raises the aimed target's alone: a spread's is on the
    first opponent it hits (Shotguns and Flamers), the others it catches are not aimed at."""
    who = Fighter(state, target)
    card = who.card
    extra, held = guard(state, target)
    return threshold(planned.bands[at] if planned.kind != "blast" else planned.bands[0], melee=planned.melee,
                     stance=who.stance, aim_held=held, size=card.size,
                     targeted=planned.targeted if target == planned.target else None,
                     defense=defense_hits + extra, grappled=who.has("grappled"), perk=card.perk_sum("threshold"))


def _one(scribe: Scribe, attacker: Fighter, planned: Plan, at: int, target: str, hexes: int, rolled: Pool,
         defense: Pool | None, answer: str | None, declaration: int, aimed: tuple[int, int] | None = None) -> None:
    state = scribe.state
    options = attacker.options
    blast = planned.kind == "blast"
    dodge_hits = defense.hits if defense is not None else 0
    if aimed is not None and target == planned.target:  # a waiting grenade: its target as it stood at the throw
        th, base = aimed
        parts: Mods = [(th, "at the throw")]
    else:
        th, parts = target_threshold(state, planned, at, target, 0 if blast else dodge_hits)
        base = net_base(th, parts, options.net_hits_from)
    hits = rolled.hits
    lands = planned.kind == "spread" or (blast and (target != planned.target or _lobbed(planned))) or hits >= th
    harmed = lands or blast
    crit = critical_of(attacker, planned, target, hits, rolled.sixes, rolled.dice, th)
    notes = [*planned.notes, f"threshold {th}: " + ", ".join(as_notes(parts))]
    if base != th and hits >= th:
        notes.append(f"net hits from the chart's {base}")
    else:
        base = th  # a miss falls short of the 1 a hit takes: no net hits to count
    if planned.kind == "spread":
        notes.append(f"spread ({planned.weapon.spread}, {planned.bands[at]} range): soak x{spread_ratio(hits, th)}")
    if blast:
        notes.append(f"blast: {_hexes(hexes)} from the centre")
    if crit:
        notes.append(f"critical +{options.critical_dv} DV")
    rolls = [s for s in (rolled.seq, defense.seq if defense is not None else None) if s is not None]
    if not harmed and planned.action.params.get("bystanders") is True and not planned.melee:
        notes += _stray(scribe, attacker, planned, rolled, declaration)
    seq = scribe.emit(AttackResolved(attacker=attacker.actor, target=target, hit=lands, score=hits, against=th,
                                     margin=hits - base, critical="success" if crit else None, rolls=rolls,
                                     weapon=planned.weapon.name, declaration=declaration, notes=notes))
    if not harmed:
        return
    if planned.kind == "trip":
        statuses.apply(scribe, target, "prone" if hits > th else "staggered", "trip", seq)
        return
    damage(scribe, attacker, planned, at, target, hexes, hits, th, crit, dodge_hits if blast else 0, seq, base)


def _stray(scribe: Scribe, attacker: Fighter, planned: Plan, rolled: Pool, cause: int) -> list[str]:
    """Innocent Bystander (when the GM calls for it: ``bystanders=true``): a miss's 1s, plus 1
    for every 3 bullets of a burst, is the threshold of the attacker's Savvy roll: under it a
    bystander takes full damage, at it half, over it nobody is hit."""
    burst = BURSTS.get(planned.mode)
    stray = rolled.ones + (burst.bullets // 3 if burst is not None and planned.weapon.kind == "ranged" else 0)
    if stray < 1:
        return []
    savvy = roll_pool(scribe, attacker.attr("savvy") - attacker.stagger(), attacker.options, roller=attacker.actor,
                      purpose="bystander", label=f"stray shot: savvy {attacker.attr('savvy')} vs {stray}", for_seq=cause)
    outcome = ("a bystander is hit for full damage" if savvy.hits < stray else
               "a bystander is hit for half damage" if savvy.hits == stray else "no bystander is hit")
    return [f"stray shot: {outcome} (savvy {savvy.hits} against {stray})"]


def direct_hit(attacker: Fighter, planned: Plan, target: str, hits: int, th: int) -> bool:
    """Whether ``target`` takes a blast's impact damage with it (Normal and Explosives Damage):
    the one aimed at and hit (not a lob, which aims at a hex), by a weapon with a DV of its
    own, going off as it lands (cooked to 0, no fuse: a missile), not a grenade that waited."""
    return planned.kind == "blast" and planned.weapon.dv > 0 and hits >= th and target == planned.target \
        and not _lobbed(planned) and not fuses.going_off(attacker.state, attacker.actor, planned)


def critical_of(attacker: Fighter, planned: Plan, target: str, hits: int, sixes: int, dice: int, th: int) -> bool:
    """Critical Hits for one target of ``planned``: half the dice 6s or the threshold beaten by
    the margin (the threshold to hit: the chart's value below 1 counts net hits as bonus
    damage only, ``net_base``). A spread or a blast gets no threshold critical, but the direct hit's impact
    damage does (Normal and Explosives Damage; the critical is taken once); where a spread
    or blast lands below the threshold, a half-dice critical counts under option
    ``area_criticals = "landed"`` (they hit automatically), not under ``"threshold_met"``."""
    options = attacker.options
    area = planned.kind in ("spread", "blast")
    if hits < th and not (area and options.area_criticals == "landed"):
        return False
    return critical(hits, sixes, dice, th, margin=options.critical_margin, min_sixes=options.critical_sixes,
                    threshold_crit=not area or direct_hit(attacker, planned, target, hits, th))


def dv_of(attacker: Fighter, target: Fighter, planned: Plan, hits: int, th: int, crit: bool,
          base: int | None = None) -> tuple[int, Mods]:
    """The DV pool of a hit: the weapon's (a blast's, and a direct hit's impact), the burst's,
    each net hit (over ``base``, ``net_base``'s, else the threshold; not a blast's but for its
    impact), a critical, perks, a sneak attack on one flat-footed."""
    over = th if base is None else base
    options = attacker.options
    weapon = planned.weapon
    blast = planned.kind == "blast"
    parts = [(weapon.blast if blast else weapon.dv, "blast DV" if blast else "weapon DV")]
    burst = BURSTS.get(planned.mode)
    if burst is not None and burst.dv and weapon.kind == "ranged":
        parts.append((burst.dv, f"{planned.mode} burst"))
    impact = blast and direct_hit(attacker, planned, target.actor, hits, th)
    if impact:
        parts.append((weapon.dv, "impact DV (the direct hit, with the blast)"))
    if hits > over and (impact or not blast):  # (the impact is normal damage: net hits count)
        parts.append((hits - over, "net hits"))
    if crit:
        parts.append((options.critical_dv, "critical"))
    perks = attacker.card.perk_sum("dv")
    if perks:
        parts.append((perks, "perks"))
    if target.flat_footed() and planned.kind != "blast":
        parts.append((SNEAK[planned.melee], "sneak attack (flat-footed)"))
    total = 0  # ``kit.fighters.sum_mods``, written out: compiled here, interpreted there (+2% compiled)
    for value, _ in parts:
        total += value
    return max(0, total), parts


def ap_of(planned: Plan, at: int) -> int:
    burst = BURSTS.get(planned.mode)
    return planned.weapon.ap + (burst.ap if burst is not None and planned.weapon.kind == "ranged" else 0) \
        + spread_ap(planned, at)


def soak_of(target: Fighter, planned: Plan, at: int, ignore_armour: bool = False) -> tuple[int, str]:
    """The soak pool: fortitude + armour less piercing (spreads and blasts: + cover)."""
    card = target.card
    ap = ap_of(planned, at)
    cover = 0
    if planned.kind in ("spread", "blast"):
        cover = cover_of(planned.action, target.actor)
    dice = soak_pool(card.fortitude, card.armour, ap, positive_ap_soaks=target.options.positive_ap_soaks,
                     cover=cover, ignore_armour=ignore_armour) + card.perk_sum("soak") - target.stagger()
    label = f"soak: fortitude {card.fortitude}"
    if not ignore_armour:
        label += f" + armour {card.armour} - pierce {pierce(ap, card.armour)}"
    if cover:
        label += f" + cover {cover}"
    return dice, label


def damage(scribe: Scribe, attacker: Fighter, planned: Plan, at: int, target: str, hexes: int, hits: int, th: int,
           crit: bool, dodge_hits: int, cause: int, base: int | None = None) -> None:
    """Roll the DV, soak it, apply it; then knockdown and kickers."""
    who = Fighter(scribe.state, target)
    options = attacker.options
    dv, _ = dv_of(attacker, who, planned, hits, th, crit, base)
    dealt = roll_pool(scribe, dv, options, roller=attacker.actor, purpose="damage",
                      label=f"damage: DV {dv}", for_seq=cause)
    raw = falloff(dealt.hits, hexes) if planned.kind == "blast" else dealt.hits
    dice, label = soak_of(who, planned, at)
    soak = roll_pool(scribe, dice, options, roller=target, purpose="soak", label=label, for_seq=cause)
    ratio = spread_ratio(hits, th) if planned.kind == "spread" else 1
    harm.hurt(scribe, target, raw, soaked(raw, soak.hits, ratio, dodge_hits), source=planned.weapon.name, cause=cause)
    kick(scribe, planned, at, target, hexes, dodge_hits, cause)


def kick(scribe: Scribe, planned: Plan, at: int, target: str, hexes: int, dodge_hits: int, cause: int) -> None:
    weapon = planned.weapon
    if Fighter(scribe.state, target).out:
        return
    step = SPREAD_KICKER[planned.bands[at]] if planned.kind == "spread" else 0
    bonus, why = 0, ""
    if planned.kind == "blast":  # a step from the blast, a point of cover, a dodge hit: a die each
        cover = cover_of(planned.action, target)
        bonus, why = hexes + cover + dodge_hits, "blast distance, cover and dodge" if cover else "blast distance and dodge"
    if weapon.knockdown:
        statuses.save(scribe, target, "knockdown", max(1, weapon.knockdown + step), cause, bonus=bonus, bonus_why=why)
    for kicker in weapon.kickers:
        if Fighter(scribe.state, target).out:
            return
        statuses.save(scribe, target, kicker.status, max(1, kicker.rating + step), cause, bonus=bonus, bonus_why=why)


def _coup(scribe: Scribe, attacker: Fighter, planned: Plan, declaration: int) -> None:
    """Coup de Gras: an automatic hit, a sneak attack and a critical, soaked without armour;
    then a Grit save against the damage taken or die."""
    target = planned.target
    who = Fighter(scribe.state, target)
    options = attacker.options
    notes = ["coup de grace: automatic hit, critical and sneak attack, armour ignored"]
    seq = scribe.emit(AttackResolved(attacker=attacker.actor, target=target, hit=True, score=0, against=0,
                                     critical="success", weapon=planned.weapon.name, declaration=declaration,
                                     notes=notes))
    dv = planned.weapon.dv + options.critical_dv + SNEAK[planned.melee] + attacker.card.perk_sum("dv")
    dealt = roll_pool(scribe, dv, options, roller=attacker.actor, purpose="damage", label=f"damage: DV {dv}",
                      for_seq=seq)
    dice, label = soak_of(who, planned, 0, ignore_armour=True)
    soak = roll_pool(scribe, dice, options, roller=target, purpose="soak", label=label, for_seq=seq)
    taken = max(0, dealt.hits - soak.hits)
    harm.hurt(scribe, target, dealt.hits, soak.hits, source=planned.weapon.name, cause=seq)
    now = Fighter(scribe.state, target)
    if now.has("dead"):
        return
    grit = roll_pool(scribe, now.attr("grit"), options, roller=target, purpose="save",
                     label=f"coup de grace: grit {now.attr('grit')} vs {taken}", for_seq=seq)
    if grit.hits < taken:
        harm.die(scribe, target, grit.seq or seq, f"coup de grace: grit {grit.hits} under the {taken} taken")
