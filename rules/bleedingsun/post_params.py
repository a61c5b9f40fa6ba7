"""What a post may say: the params each action reads (``check_said``), and for an attack
(Attacking; Attacker Modifier; Splitting an Attack Pool; Shotguns and Flamers; Taking damage
from explosives; Lobbing a Grenade) the fighters it may name. A post that writes something
its action would not read, or would read in a way that changes nothing, is refused, so that
nobody believes a modifier was counted that was not (``rules.incomplete``); naming a fighter
twice or oneself is ``rules.target``. ``planning.plan`` checks attacks, ``declared`` and
``immediate`` every other action; the audit plans with the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.actions import a_or_an, value_written
from fightlog.kit.declared import unread_param
from fightlog.rules.bleedingsun.card import WeaponCard

COVER: Final = {"light": 2, "medium": 4, "heavy": 6, "total": 8}
"""Cover -> the dice it takes off an attack (or adds to a spread's or blast's soak)."""

FLAGS: Final = ("high", "threatened", "into_melee", "bystanders", "lob")
"""An attack's yes-or-no params: ``true`` or ``false``, nothing else."""
RANGED_ONLY: Final = ("threatened", "into_melee")
"""Params that only a ranged attack reads (a melee attacker in reach; firing into melee)."""
_ANY: Final = ("light", "gang", "dice", "targeted", "high", "threatened", "into_melee", "bystanders")
_READ: Final[dict[str, tuple[str, ...]]] = {"attack": ("cover", *_ANY), "spread": (*_ANY, "cover_ID", "d_ID"),
                                            "blast": (*_ANY, "cover_ID", "lob", "caught")}
"""The params a plan reads, by kind of attack (``ID``: a target's name)."""


def _refuse(action: Action, what: str, code: str = "rules.incomplete") -> RefusedError:
    return RefusedError(f"{action.type}: {what}", code=code)


READ_BY: Final[dict[str, tuple[str, ...]]] = {
    "stance": ("to", "from"), "move": ("hexes", "terrain", "cautious", "frozen"), "sprint": ("hexes",),
    "draw": ("holstered",), "total_defense": ("with",), "extinguish": ("effort",), "break_free": ("effort",),
    "jump": ("grenade",), "ready": ("actions",), "say": ("text",),
}
"""The params an action other than an attack reads; one not here reads none."""

FIELDS_BY: Final[dict[str, tuple[str, ...]]] = {
    "stabilize": ("target",), "grapple": ("target",), "move": ("distance",), "sprint": ("distance",),
    "jump": ("distance",), "aim": ("weapon",), "reload": ("weapon",), "draw": ("weapon",), "cook": ("weapon",),
    "setting": ("weapon", "mode"),
    "pick_up": ("weapon", "item"), "drop": ("weapon", "item"), "perceive": ("target",),  # the declaration is all
}
"""The ``Action`` fields an action other than an attack reads (``kit.declared.FIELD_KEYS``);
one not here reads none, and none reads ``cost`` (the part of the round is the action type's)."""


def check_said(actions: Sequence[Action], attacks: frozenset[str]) -> None:
    """Refuse a param or field an action other than an attack (``attacks``: planned, checked
    there) does not read: a name misspelt (``stance too=crouched``) or a key it has no use for
    (``reload weapon=Rifle target=vex``)."""
    others = [action for action in actions if action.type not in attacks]
    unread_param(others, READ_BY, FIELDS_BY)
    for action in others:
        hexes = action.params.get("hexes")
        if hexes is not None and action.distance is not None:  # one was read, the other shown
            raise _refuse(action, f"hexes={value_written(hexes)} and distance={action.distance}: say how far once")
        for key in ("cautious", "holstered"):
            value = action.params.get(key)
            if value is not None and not isinstance(value, bool):
                raise _refuse(action, f"{key}={value_written(value)}: write {key}=true or {key}=false")


def check_params(action: Action, weapon: WeaponCard, kind: str, *, single: bool, names: bool = True) -> None:
    """Refuse what an attack would silently ignore: a param it does not read (a name
    misspelt: only with ``names``, for a post asked for now), a yes-or-no written otherwise, ``cover=`` on a spread or blast (cover is each
    target's, added to soak: ``cover_ID=``), a share (``dice=``) with nothing to split, a
    ranged attack's situation on a melee one, ``targets=`` on what is not a spread, a lob at
    a fighter, an item or cost, a fire mode on a weapon that fires none."""
    known = _READ.get(kind, _READ["attack"])
    for key in sorted(action.params):
        value = value_written(action.params[key])
        if key == "cover" and kind in ("spread", "blast"):
            raise _refuse(action, f"cover={value}: a {kind}'s cover is each target's own, added to soak: "
                                  f"write cover_ID={value} for each target behind it")
        prefix = key.partition("_")[0] + "_ID"
        if names and key not in known and (prefix not in known or key == prefix[:-2]):
            raise _refuse(action, f"{key}={value} is not read by {a_or_an(kind)} (it reads {', '.join(known)})")
        if key in FLAGS and not isinstance(action.params[key], bool):
            raise _refuse(action, f"{key}={value}: write {key}=true or {key}=false")
        if key in RANGED_ONLY and weapon.kind == "melee":
            raise _refuse(action, f"{key}={value}: a ranged attack's situation, not a melee one's")
        if key == "dice" and single:
            raise _refuse(action, f"dice={value}: a share of a split pool; an attack alone in its pool rolls the "
                                  "whole of it (a grenade thrown, not lobbed, is a pool of its own)", code="rules.split")
    if action.targets and kind != "spread":
        named = ",".join(action.targets)
        if kind == "blast":
            raise _refuse(action, f"targets={named}: a blast names those it catches as caught=ID:HEXES")
        raise _refuse(action, f"targets={named}: only a spread hits more than its target (the {weapon.name} is not "
                              "a spread weapon)")
    if kind == "blast" and action.params.get("lob") is True and action.target:
        raise _refuse(action, f"lob=true aims at a hex, not at a fighter: drop target={action.target} "
                              "(name who the blast catches with caught=ID:HEXES)")
    for field, written in (("item", action.item), ("cost", action.cost)):
        if written is not None:
            raise _refuse(action, f"{field}={written} is not read by an attack")
    check_fires(action, weapon)


def check_fires(action: Action, weapon: WeaponCard) -> None:
    """Refuse a fire mode (``mode=``) on a weapon that fires none: an attack's or a
    ``setting``'s (``rules.fire-mode``)."""
    if action.mode is not None and weapon.kind != "ranged":
        prefix = "setting " if action.type == "setting" else ""
        raise RefusedError(f"{prefix}mode={action.mode}: the {weapon.name} fires no modes ({a_or_an(weapon.kind)} weapon)",
                           code="rules.fire-mode")


def cover_of(action: Action, target: str) -> int:
    """The cover points ``target`` has against a spread or blast (``cover_ID=``): added to
    their soak and to their kicker saves."""
    return COVER.get(value_written(action.params.get(f"cover_{target}", "none")), 0)


def check_caught(action: Action, actor: str, kind: str, caught: Sequence[tuple[str, int]]) -> None:
    """Refuse a fighter named twice among those an attack hits (each is hit once), an attack
    on oneself (a blast may catch its thrower, not aim at them), and a ``cover_ID=`` or
    ``d_ID=`` naming nobody the attack hits, or a cover not on the chart."""
    names = [name for name, _ in caught]
    if kind == "blast" and action.target and names.count(action.target) > 1:
        raise _refuse(action, f"{action.target} is the blast's target, at its centre: caught= names the others",
                      code="rules.target")
    if len(names) > 1 and len(set(names)) < len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise _refuse(action, f"{', '.join(twice)} named twice: {a_or_an(kind)} hits each fighter once",
                      code="rules.target")
    if action.target == actor or (kind != "blast" and actor in names):
        raise _refuse(action, f"{actor} cannot attack themselves", code="rules.target")
    if kind not in ("spread", "blast"):
        return
    for key in sorted(action.params):
        prefix, _, who = key.partition("_")
        if prefix == "cover" and who:
            if who not in names:
                hit = ", ".join(names) or "nobody"
                raise _refuse(action, f"{key}: {who} is not among those the {kind} hits ({hit})")
            value = value_written(action.params[key])
            if value != "none" and value not in COVER:
                raise _refuse(action, f"{key}={value}: one of none, {', '.join(COVER)}")
        if prefix == "d" and who and kind == "spread":
            if who == action.target:
                raise _refuse(action, f"{key}: the target's own hexes are distance=")
            if who not in action.targets:
                raise _refuse(action, f"{key}: {who} is not among the spread's targets= ({', '.join(action.targets)})")


ATTACK_FIELDS: Final = ("target", "targets", "weapon", "mode", "range", "distance")
"""The ``Action`` fields an attack reads (``check_params`` refuses an item or a cost)."""


def reads(action_types: Iterable[str], attacks: frozenset[str]) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each action type's fields and params (``TableBase.reads``): an attack's, of every kind it
    may be (an ``attack`` with a spread weapon reads a spread's, a ``throw`` a blast's)."""
    found: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for kind in action_types:
        if kind in attacks:
            kinds = ("attack", "spread") if kind == "attack" else ("blast",) if kind == "throw" else ("attack",)
            alone = kind in ("aoo", "coup_de_grace")  # never split: no share to give
            params = tuple(dict.fromkeys(p for k in kinds for p in _READ[k] if not (alone and p == "dice")))
            found[kind] = (ATTACK_FIELDS, params)
        else:  # (a stance's from= and a move's frozen= are the table's to write, as the post's record)
            found[kind] = (FIELDS_BY.get(kind, ()), tuple(p for p in READ_BY.get(kind, ()) if p not in ("from", "frozen")))
    return found
