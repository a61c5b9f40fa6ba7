"""A duel's defensive turns (Defensive Turns; Dodge; Counterattack; Parry).

After an attacker states their actions, the defender answers the post (``responds_to``) with
one response per attack on them, in order or by ``attack=N``: ``dodge`` (a DEX/LVL roll that
must beat the attack roll), ``counter`` (a standard attack roll at the attacker, which lands
whatever happens to the defender, and lowers the defender's Evasion by 1), ``parry`` (both
fighting in melee at close range: a DEX/LVL roll with the melee weapon's bonuses that must
beat the attack roll; a parried attacker cannot counter on their next defensive turn) or
``take``. Then everything is rolled: each attack, then its defences; a critical failure (a
natural 1) costs a dodger their next movement, a parrier 1 on their next attack roll, and
gives the attacker 50% more damage on the attack a fumbled counter answered. Attacks nobody
answered are rolled without a defence when the turn ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.reducers.state import PendingDeclaration, SceneState
from fightlog.rules.d20evasion import conditions
from fightlog.rules.d20evasion.attack import Defence, Gear, attack_roll, defended, defended_by, fumbled, gear_of, land
from fightlog.rules.d20evasion.bands import within
from fightlog.rules.d20evasion.card import UNARMED_CARD, WeaponCard
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options
from fightlog.rules.d20evasion.ruleset import DEFENSIVE
from fightlog.kit.declared import hand_kept
from fightlog.kit.table import Scribe


def awaiting(post: PendingDeclaration, defender: str) -> list[Action]:
    """The attacks of ``post`` waiting for ``defender``'s defensive turn, in order."""
    return [a for a in post.actions if a.params.get("defensive_turn") is True and a.target == defender]


def awaiting_in(state: SceneState, post: PendingDeclaration, defender: str) -> list[Action]:
    """``awaiting`` of a post in ``state``; in a log the table did not play (an import, a
    hand-kept log: no dice commitment), whose attacks no table marked as waiting, the
    post's attacks and spells on ``defender`` where defensive turns are played (a duel)."""
    found = awaiting(post, defender)
    if found or not hand_kept(state) or defender not in state.combatants:
        return found
    if not defended(state, Fighter(state, defender)):
        return []
    return [a for a in post.actions if a.type in ("attack", "cast") and a.target == defender]


def answered(state: SceneState, post: int, defender: str) -> bool:
    return any(p.actor == defender and p.responds_to == post for p in state.pending)


def lapsed(state: SceneState, post: PendingDeclaration, defender: str) -> str | None:
    """Why the attacks of ``post`` on ``defender`` waiting for a defensive turn will never be
    rolled (``resolve`` stops at them): their attacker was taken out of the fight before they
    were answered (a counter to an earlier post), or the defender is dead. ``None`` while both
    stand."""
    attacker = state.combatants.get(post.actor)
    if attacker is not None:
        gone = [s for s in attacker.statuses if s in Fighter.out_statuses]
        if gone:
            return f"{post.actor} is out of the fight ({', '.join(gone)}): their attacks of seq {post.seq} lapse"
    target = state.combatants.get(defender)
    if target is not None and "dead" in target.statuses:
        return f"{defender} is dead: the attacks of seq {post.seq} on them lapse"
    return None


def unanswered(state: SceneState) -> list[tuple[PendingDeclaration, str]]:
    """Posts of the open turn with attacks still waiting for a defender, and that defender
    (not answered, and not resolved: an answer a GM voided leaves them resolved; not lapsed)."""
    out: list[tuple[PendingDeclaration, str]] = []
    for post in state.pending:
        defenders: list[str] = []
        for action in post.actions:
            target = action.target
            if action.params.get("defensive_turn") is True and target is not None and target not in defenders:
                defenders.append(target)
        out.extend((post, d) for d in defenders
                   if d not in post.resolved and not answered(state, post.seq, d) and lapsed(state, post, d) is None)
    return out


def assign(actions: Sequence[Action], count: int, one_each: bool) -> dict[int, list[Action]]:
    """Attack number (from 1) -> the responses to it: each response names its attack with
    ``attack=N`` or answers the next one in order. One response per attack (or one of each
    kind, when ``one_each`` is off)."""
    out: dict[int, list[Action]] = {n: [] for n in range(1, count + 1)}
    for action, number in numbered(actions, count, one_each):
        out[number].append(action)
    return out


def numbered(actions: Sequence[Action], count: int, one_each: bool) -> list[tuple[Action, int]]:
    """The responses among ``actions``, in order, each with the number of the attack it
    answers (``assign``'s rules). By position, not by object: a caller may pass one
    ``Action`` twice (a policy's ``(Action(type="dodge"),) * 2``), and each answers its own
    attack."""
    out: list[tuple[Action, int]] = []
    taken: dict[int, list[str]] = {}
    nxt = 1
    for action in actions:
        if action.type not in DEFENSIVE:
            continue
        wanted = action.params.get("attack")
        number = wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else nxt
        if not 1 <= number <= count:
            raise RefusedError(f"{action.type}: there is no attack {number} to answer (attacks: 1-{count})")
        kinds = taken.setdefault(number, [])
        if one_each and kinds:
            raise RefusedError(f"attack {number} is answered already ({kinds[0]}): one response per attack")
        if action.type in kinds:
            raise RefusedError(f"attack {number} is answered with {action.type} already")
        kinds.append(action.type)
        out.append((action, number))
        nxt = number + 1
    return out


def check_response(state: SceneState, defender: Fighter, post: PendingDeclaration, actions: Sequence[Action]) -> list[Action]:
    """The responses as they will be logged (weapon and ``attack=N`` filled in), or
    ``RefusedError``: a counter needs a weapon at hand whose range reaches the attacker and
    no parry against the defender since their last defensive turn; a parry needs both in
    melee at close range."""
    attacks = awaiting_in(state, post, defender.actor)
    if not attacks:
        raise RefusedError(f"{defender.actor} is not attacked in that post (seq {post.seq})")
    attacker = Fighter(state, post.actor, defender.options)
    numbers = iter(numbered(actions, len(attacks), defender.options.one_defence_per_attack))
    out: list[Action] = []
    for action in actions:
        if action.type not in DEFENSIVE:
            out.append(action)
            continue
        _, number = next(numbers)
        attack = attacks[number - 1]
        params = {**action.params, "attack": number}
        weapon: str | None = action.weapon
        if action.type == "counter":
            weapon = _counter_weapon(defender, attack, action).name
        elif action.type == "parry":
            weapon = _parry_weapon(defender, attacker, attack, action).name
        out.append(replace(action, weapon=weapon, params=params))
    return out


def _counter_weapon(defender: Fighter, attack: Action, action: Action) -> WeaponCard:
    if defender.effect("no_counter") is not None:
        raise RefusedError(f"{defender.actor} was parried: no counterattack on this defensive turn")
    weapon = defender.weapon(action.weapon)
    if not defender.wields(weapon):
        raise RefusedError(f"{defender.actor} was disarmed: no time to draw or pick up a weapon for a counterattack")
    band = attack.range
    if band is not None and band not in weapon.ranges:
        raise RefusedError(
            f"a counterattack needs the attacker within range: {weapon.name} reaches {', '.join(weapon.ranges)}, "
            f"the attacker is at {band}", code="rules.range",
        )
    return weapon


def _parry_weapon(defender: Fighter, attacker: Fighter, attack: Action, action: Action) -> WeaponCard:
    gear = gear_of(attacker, attack.weapon)
    if not isinstance(gear, WeaponCard) or gear.kind != "melee":
        raise RefusedError(f"a parry needs a melee attack ({gear.name} is not a melee weapon)")
    if action.weapon is None:
        melee = [w for w in defender.card.weapons if w.kind == "melee" and defender.wields(w)]
        weapon = melee[0] if len(melee) == 1 else UNARMED_CARD if not melee else None
        if weapon is None:
            raise RefusedError(f"{defender.actor} carries several melee weapons: name the one to parry with",
                                   code="rules.incomplete")
    else:
        weapon = defender.weapon(action.weapon)
    if weapon.kind != "melee" or not defender.wields(weapon):
        raise RefusedError(f"a parry needs a melee weapon at hand ({weapon.name} is not)")
    band = attack.range
    if band is not None and not within(band, defender.options.melee_reach):  # type: ignore[arg-type]
        raise RefusedError(f"a parry needs both at close range (they are at {band})", code="rules.range")
    return weapon


def resolve(scribe: Scribe, post: PendingDeclaration, defender: str, response: PendingDeclaration | None) -> None:
    """Roll and resolve the attacks of ``post`` on ``defender`` with their answers
    (``response``; ``None``: no defence): each attack roll, then its defences
    (``_defend``), then the attack lands (a successful parry stops the attacker's next
    counter), then each counter lands on the attacker."""
    attacks = awaiting_in(scribe.state, post, defender)  # a log the table did not play marks none as waiting
    guard = Fighter(scribe.state, defender)
    opts = guard.options
    answers = response.actions if response is not None else ()
    assignment = assign(answers, len(attacks), opts.one_defence_per_attack)
    countering = any(a.type == "counter" for a in answers)
    no_counter = guard.effect("no_counter")
    for number, action in enumerate(attacks, 1):
        attacker = Fighter(scribe.state, post.actor)
        if attacker.out or Fighter(scribe.state, defender).has("dead"):
            break
        gear: Gear = gear_of(attacker, action.weapon)
        face, total, roll = attack_roll(scribe, attacker, gear, purpose="attack", for_seq=post.seq)
        answering, now = assignment.get(number, ()), Fighter(scribe.state, defender)
        silenced = bool(answering) and now.out  # an earlier attack of the post took them out: no answer to this one
        answered = _defend(scribe, defender, () if silenced else answering, response, roll, opts)
        if silenced:
            out = ", ".join(s for s in now.who.statuses if s in now.out_statuses)
            answered.notes.append(f"{now.who.name} cannot answer it ({out})")
        lowered = 0
        if countering and (opts.counter_penalty_scope == "defensive-turn" or answered.counters):
            lowered = opts.counter_evasion_penalty
        resolved, hit = land(
            scribe, Fighter(scribe.state, post.actor), defender, gear, face=face, total=total, rolls=answered.rolls,
            declaration=post.seq, defences=answered.defences, lowered=lowered, extra=answered.extra,
            notes=answered.notes,
        )
        if any(d.kind == "parry" and defended_by(d, total, opts) for d in answered.defences):
            conditions.apply(scribe, "no_counter", post.actor, source=f"{guard.who.name}'s parry", cause=resolved)
        for c_face, c_total, c_seq, weapon in answered.counters:
            counter_by = Fighter(scribe.state, defender)
            land(scribe, counter_by, post.actor, weapon, face=c_face, total=c_total, rolls=[c_seq],
                 declaration=None if response is None else response.seq, notes=["counterattack"])
    if no_counter is not None and no_counter.effect in scribe.state.effects:
        conditions.expire(scribe, no_counter, "defensive turn over")


@dataclass
class _Answered:
    """What a defender's answers to one attack rolled (``_defend``)."""

    rolls: list[int]
    """The attack roll's seq, then each defence's and counter's."""
    defences: list[Defence] = field(default_factory=list)
    counters: list[tuple[int, int, int, WeaponCard]] = field(default_factory=list)
    """Each counterattack's natural face, total, seq and weapon, to land after the attack."""
    extra: list[int] = field(default_factory=list)
    """Damage percents the attack gains (a fumbled counter)."""
    notes: list[str] = field(default_factory=list)


def _defend(
    scribe: Scribe, defender: str, answers: Sequence[Action], response: PendingDeclaration | None, roll: int,
    opts: D20Options,
) -> _Answered:
    """Roll ``defender``'s answers to the attack rolled at ``roll``: a counter's attack roll
    (a fumble: the attack deals more), a dodge's or a parry's DEX/LVL roll (a fumble: the
    next movement lost, or a penalty on the next attack roll); ``take`` rolls nothing."""
    out = _Answered(rolls=[roll])
    for answer in answers:
        kind = answer.type
        if kind == "take":
            continue
        guard = Fighter(scribe.state, defender)
        for_seq = None if response is None else response.seq
        if kind == "counter":
            weapon = guard.weapon(answer.weapon)
            c_face, c_total, c_seq = attack_roll(scribe, guard, weapon, purpose="counter", for_seq=for_seq)
            out.rolls.append(c_seq)
            out.counters.append((c_face, c_total, c_seq, weapon))
            if fumbled(c_face, opts):
                out.extra.append(opts.counter_fumble_damage_percent)
                out.notes.append(f"fumbled counterattack: {opts.counter_fumble_damage_percent}% damage")
            continue
        weapon = guard.weapon(answer.weapon) if kind == "parry" else UNARMED_CARD
        mods = guard.parry_mods(weapon) if kind == "parry" else guard.dex_level_mods("dodge")
        rolled, seq = scribe.roll("1d20", roller=defender, purpose=kind, modifiers=mods, for_seq=for_seq)
        out.rolls.append(seq)
        d_face = rolled.dice[0].face
        out.defences.append(Defence(kind, d_face, rolled.total))
        if fumbled(d_face, opts):
            if kind == "dodge":
                conditions.apply(scribe, "lost_move", defender, source="fumbled dodge", duration=1, cause=seq)
            else:
                conditions.apply(scribe, "parry_fumble", defender, source="fumbled parry",
                                 cause=seq, params={"penalty": opts.parry_fumble_penalty})
    return out
