"""The melee attack a defender is about to make this turn (Melee attack: one who has made, or
is about to make, a melee attack this turn defends with that attack's Defense). Read from the
state alone, so the table and the audit agree: an attack the defender has posted in the open
fightlog turn and that is not resolved yet, or one combined with a move still waiting for the
end of the turn (effect ``move``). A melee attack already made leaves an effect ``guard``."""

from __future__ import annotations

from fightlog.reducers.state import SceneState
from fightlog.rules.en51.card import Card, WeaponCard


def _melee(card: Card, name: object) -> WeaponCard | None:
    weapon = card.weapon(name) if isinstance(name, str) else (card.weapons[0] if card.weapons else None)
    return weapon if weapon is not None and weapon.kind == "melee" else None


def about_to_strike(state: SceneState, actor: str, card: Card) -> WeaponCard | None:
    """The weapon of the first melee attack ``actor`` has declared this turn and not made yet,
    or ``None``."""
    for post in state.pending:
        if post.actor != actor or any(a.type == "move" for a in post.actions):
            continue  # a move's attack waits in its effect (below)
        for action in post.actions:
            if action.type == "attack" and action.target is not None and action.target not in post.resolved:
                weapon = _melee(card, action.weapon)
                if weapon is not None:
                    return weapon
    for effect in sorted(state.effects.values(), key=lambda e: e.applied):
        if effect.name == "move" and effect.target == actor and effect.params.get("then") == "attack":
            weapon = _melee(card, effect.params.get("weapon"))
            if weapon is not None:
                return weapon
    return None
