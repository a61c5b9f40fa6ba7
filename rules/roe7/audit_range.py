"""The RoE audit of the attack die a shot's range gives (``rules.range-die``; Close, Medium and
Long Range): 1d100 at close range, 1d20 at medium (a sniper's 1d70), 1d10 at long (1d60), as
``attack_shots.aim_shots`` picks it, from the positions kept in the log, else the distance or
the band the post declares (an imported fight's cast gives them).

Judged for external rolls only (a HUD's, a bot's, a hand-typed one: a HUD that always rolls
1d100 is the usual mistake), against the post the roll cites, else (an imported fight's
rolls cite none) its roller's latest post of the turn; an engine roll's die is the table's
own, and its faces are the seed's. Only a post making one attack, with one weapon at one
target: not an interrupt's strike, dual wielding or several attacks in a post.
"""

from __future__ import annotations

from collections.abc import Callable

from fightlog.events.model import Action, DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.attack_rolls import attack_die
from fightlog.rules.roe7.attack_shots import metres_of, within_reach
from fightlog.rules.roe7.audit_turn_rolls import attack_in, post_of
from fightlog.rules.roe7.geometry import Band, band
from fightlog.rules.roe7.tokens import WeaponToken

CODE = "rules.range-die"


def attack_die_at(state: SceneState, attacker: str, target: str, action: Action,
                  token: WeaponToken) -> tuple[int, int, Band] | None:
    """The sides of the die the table rolls for ``action`` on ``target``, the metres and the
    band (``attack_shots.metres_of``, ``within_reach``, as ``aim_shots`` measures); ``None``
    where the log does not say how far."""
    mine, theirs = state.combatants.get(attacker), state.combatants.get(target)
    if mine is None or theirs is None:
        return None
    found = metres_of(mine.position, theirs.position, action)
    if found is None:
        return None
    metres = within_reach(found[0], found[1], token)
    where = band(metres)
    return attack_die(token, where), metres, where


def check_range_die(before: SceneState, roll: DiceRolled, view: AuditView,
                    token_of: Callable[[str | None], WeaponToken | None]) -> None:
    """An external attack roll's die against the one its post's range gives."""
    roller = roll.roller
    if roller is None or not roll.dice:
        return
    post = post_of(before, roll, view)
    action = None if post is None or post.actor != roller else attack_in(post)
    if action is None:
        return
    token = token_of(action.weapon)
    if token is None:
        return
    found = attack_die_at(before, roller, action.target or "", action, token)
    if found is None:
        return
    sides, metres, where = found
    rolled = roll.dice[0].sides
    if rolled != sides:
        view.report(CODE, roll, f"{roller}'s attack on {action.target} at {metres} m ({where} range) rolls "
                    f"1d{rolled}; the rules give 1d{sides} there{' (sniper)' if token.sniper else ''}",
                    actor=roller)
