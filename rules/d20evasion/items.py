"""Items used in combat (Items): two actions unless the item says otherwise
(``item_use_actions``), on oneself or someone within reach (``item_reach``). A med kit or
potion heals HP (and so treats a mortal wound), an ether restores MP."""

from __future__ import annotations

from fightlog.events.model import Action, ResourceSpent
from fightlog.rules.d20evasion import harm
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.kit.table import Scribe


def use_item(scribe: Scribe, actor: str, action: Action, declaration: int) -> None:
    who = Fighter(scribe.state, actor)
    item = who.item(action.item)
    target = action.target or actor
    scribe.emit(ResourceSpent(actor=actor, resource=item.name, amount=1, cause=declaration))
    if item.heal:
        harm.heal(scribe, target, item.heal, pool="hp", source=item.name, cause=declaration)
    if item.mp:
        harm.heal(scribe, target, item.mp, pool="mp", source=item.name, cause=declaration)
