"""The RoE audit of the attack die a shot's range gives (``rules.range-die``; Close, Medium and
Long Range): 1d100 at close range, 1d20 at medium (a sniper's 1d70), 1d10 at long (1d60), as
``attack_shots.aim_shots`` picks it, from the positions kept in the log, else the distance or
the band the post declares (an imported fight's cast gives them).

Judged for external rolls only (a HUD's, a bot's, a hand-typed one: a HUD that always rolls
1d100 is the usual mistake); an engine roll's die is the table's own, and its faces are the
seed's. Not for an interrupt's strike, a dual-wielded second weapon or a stray shot at a
bystander: the post names another target than the one hit, or two weapons.
"""

from __future__ import annotations

from fightlog.events.model import Action, AttackResolved, DeclarationPosted, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.attack_rolls import attack_die
from fightlog.rules.roe7.attack_shots import NAMED_M, NEAREST_M
from fightlog.rules.roe7.geometry import Band, band, distance
from fightlog.rules.roe7.tokens import WeaponToken

CODE = "rules.range-die"


def attack_die_at(state: SceneState, attacker: str, target: str, action: Action,
                  token: WeaponToken) -> tuple[int, int, Band] | None:
    """The sides of the die the table rolls for ``action`` on ``target``, the metres and the
    band (``attack_shots.measure`` and ``aim_shots``); ``None`` where the log does not say
    how far."""
    mine, theirs = state.combatants.get(attacker), state.combatants.get(target)
    if mine is None or theirs is None:
        return None
    nearest: int | None = None
    if mine.position is not None and theirs.position is not None:
        metres = distance(mine.position, theirs.position)
    elif action.distance is not None:
        metres = action.distance
    else:
        named = NAMED_M.get(action.range or "")
        if named is None:
            return None
        metres, nearest = named, NEAREST_M.get(action.range or "")
    if nearest is not None and token.max_range_m is not None and nearest <= token.max_range_m < metres:
        metres = token.max_range_m  # a named band the weapon can reach: within its reach
    where = band(metres)
    return attack_die(token, where), metres, where


def declared_attack(view: AuditView, event: AttackResolved) -> Action | None:
    """The post's single-weapon attack on ``event``'s target with its weapon, if it has one."""
    post = view.event(event.declaration) if event.declaration is not None else None
    if type(post) is not DeclarationPosted:
        return None
    for action in post.actions:
        if (action.type == "attack" and action.target == event.target and "offhand" not in action.params
                and action.weapon in (None, event.weapon)):
            return action
    return None


def check_range_die(before: SceneState, event: AttackResolved, roll: DiceRolled, token: WeaponToken | None,
                    view: AuditView) -> None:
    """An external attack roll's die against the one its range gives."""
    if token is None:
        return
    action = declared_attack(view, event)
    if action is None:
        return
    found = attack_die_at(before, event.attacker, event.target, action, token)
    if found is None:
        return
    sides, metres, where = found
    rolled = roll.dice[0].sides
    if rolled != sides:
        view.report(CODE, roll, f"{event.attacker}'s attack on {event.target} at {metres} m ({where} range) rolls "
                    f"1d{rolled}; the rules give 1d{sides} there{' (sniper)' if token.sniper else ''}",
                    actor=event.attacker)
