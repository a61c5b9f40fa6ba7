"""The audit's plans of logged attacks (``planning.plan`` on a declaration), kept by what they
are computed from: an attack's plan is worked out once for every distinct attack, not once a
declaration.

``planning.plan`` reads, of the state, only the attacker (their sheet, statuses and side; the
effects in ``PLAN_READS`` on them and a grapple either side of them), the scene's options,
which combatants there are, and the standing of the allies a gang-up names; of the post, its
actions and the attacker's earlier actions this turn. The cache's key is made of exactly those,
each by value, or by identity (a sheet, the options, an effect) with the object kept beside the
plan so its id is not reused while the entry lives; a plan, or a refusal (``None``), is reused
when all of them are the same (``tests/rules/bleedingsun/test_plan_cache.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from fightlog.errors import FightlogError, RefusedError
from fightlog.events.model import Action, DeclarationPosted
from fightlog.reducers.state import SceneState
from fightlog.kit.fighters import Mods
from fightlog.rules.bleedingsun.fighters import AIM, FROZEN, STAGGERED, guard
from fightlog.rules.bleedingsun.grapple import GRAPPLE
from fightlog.rules.bleedingsun.options import options_of
from fightlog.rules.bleedingsun.planning import Plan, Planned, plan
from fightlog.rules.bleedingsun.resolve import target_threshold

PLAN_READS: Final = frozenset({AIM, STAGGERED, FROZEN})
"""The effects on the attacker that ``planning.plan`` reads (an aim, a stagger, a freeze), as
well as any grapple they are in (``grapple.penalty``): a change to any of them makes the plan
be worked out again."""

PLANS_KEPT: Final = 4096
"""The most plans kept (all are dropped when it is reached)."""

_encode: Final = msgspec.json.Encoder().encode

_PLANS: dict[tuple[object, ...], tuple[object, Planned | None]] = {}
"""Plans (or ``None``: refused) by what they are computed from (the module docstring), with
the objects whose identity the key holds."""

class _Last:
    """The last plan asked for and what it was read from (``planned_post``'s fast path)."""

    def __init__(self, declared: DeclarationPosted, attacker: str, combatants: object, effects: object,
                 options: object, earlier: list[Action], planned: Planned | None) -> None:
        self.declared = declared
        self.attacker = attacker
        self.combatants = combatants
        self.effects = effects
        self.options = options
        self.earlier = earlier
        self.planned = planned


_LAST: list[_Last | None] = [None]
"""The last plan asked for: asked again for the same post while the combatants, the effects,
the options and the attacker's earlier actions are the same objects (its damage, its next
target), it is given at once."""


def planned_post(before: SceneState, attacker: str, declared: DeclarationPosted) -> Planned | None:
    """The plan of ``declared``'s attacks by ``attacker`` in ``before`` (as the table made it:
    after the attacker's earlier posts this turn, unless it answers one), or ``None`` when
    the rules refuse it or ``attacker`` is not in the fight."""
    earlier: list[Action] = []
    posts: list[bytes] = []
    """The earlier posts' actions, each encoded (the key's part for ``earlier``)."""
    if declared.responds_to is None:
        for p in before.pending:
            if p.actor == attacker and p.responds_to is None and p.seq < declared.seq:
                earlier.extend(p.actions)
                posts.append(_encoded(p.actions))
    options = options_of(before)
    last = _LAST[0]
    if last is not None and last.declared is declared and last.attacker == attacker \
            and last.combatants is before.combatants and last.effects is before.effects \
            and last.options is options and _same(last.earlier, earlier):
        return last.planned
    who = before.combatants.get(attacker)
    if who is None:
        return None
    marks: list[object] = []
    for e in before.effects.values():
        if (e.target == attacker and e.name in PLAN_READS) or (
                e.name == GRAPPLE and (e.target == attacker or e.source == attacker)):
            marks.append(e)
    actions = declared.actions
    standing: list[object] = []
    for action in actions:  # the allies a gang-up names: standing, and on the attacker's side
        gang = action.params.get("gang")
        if gang:
            for ally in str(gang).split(","):
                if ally:
                    found = before.combatants.get(ally)
                    standing.append(None if found is None else (ally, found.statuses, found.side))
    sheet = who.sheet
    key = (attacker, id(sheet), who.statuses, who.side, id(options), tuple([id(m) for m in marks]),
           tuple(standing), tuple(before.combatants), _encoded(actions), tuple(posts))
    known = _PLANS.get(key)
    if known is not None:
        planned = known[1]
    else:
        planned = _planned(before, attacker, actions, earlier)
        if len(_PLANS) >= PLANS_KEPT:
            _PLANS.clear()
        _PLANS[key] = ((sheet, options, marks), planned)
    if last is None:
        _LAST[0] = _Last(declared, attacker, before.combatants, before.effects, options, earlier, planned)
    else:  # (in place: no new object a call)
        last.declared, last.attacker, last.options = declared, attacker, options
        last.combatants, last.effects, last.earlier, last.planned = before.combatants, before.effects, earlier, planned
    return planned


_ENCODED: dict[int, tuple[Sequence[Action], bytes]] = {}
"""Actions encoded (the plan cache's key), by the post's list or tuple of them (kept, so its
id is not reused while the entry lives): a post is asked for at each of its attacks, its
targets and their damage, and as an earlier post of its maker's later ones."""


def _encoded(actions: Sequence[Action]) -> bytes:
    """``actions`` encoded, once a post (the same bytes object: its hash is kept too)."""
    known = _ENCODED.get(id(actions))
    if known is not None and known[0] is actions:
        return known[1]
    encoded = _encode(actions)
    if len(_ENCODED) >= PLANS_KEPT:
        _ENCODED.clear()
    _ENCODED[id(actions)] = (actions, encoded)
    return encoded


def _same(these: list[Action], those: list[Action]) -> bool:
    """Whether two lists hold the same objects."""
    if len(these) != len(those):
        return False
    for a, b in zip(these, those):
        if a is not b:
            return False
    return True


def _planned(before: SceneState, attacker: str, actions: Sequence[Action], earlier: Sequence[Action]) -> Planned | None:
    try:
        return plan(before, attacker, actions, earlier)
    except (RefusedError, FightlogError, ValueError, KeyError):
        return None


_THRESHOLDS: dict[tuple[object, ...], tuple[object, tuple[int, Mods]]] = {}
"""Thresholds by what ``resolve.target_threshold`` reads (``threshold_of``), with the plan and
the sheet whose identity the key holds."""


def threshold_of(before: SceneState, planned: Plan, at: int, target: str, defense_hits: int) -> tuple[int, Mods]:
    """``resolve.target_threshold``, kept by what it reads: the plan (its bands, kind, aimed
    target and targeted shot), the place ``at``, the target's statuses (a stance, grappled),
    sheet (size, perks), total defense plus ``defense_hits``, and whether they hold an aim;
    worked out only for a combination not seen before (most attacks repeat one)."""
    who = before.combatants.get(target)
    if who is None:
        return target_threshold(before, planned, at, target, defense_hits)  # (refused: not in the fight)
    extra, held = guard(before, target)
    sheet = who.sheet
    key = (id(planned), at, target, who.statuses, id(sheet), defense_hits + extra, held)
    known = _THRESHOLDS.get(key)
    if known is not None:
        return known[1]
    got = target_threshold(before, planned, at, target, defense_hits)
    if len(_THRESHOLDS) >= PLANS_KEPT:
        _THRESHOLDS.clear()
    _THRESHOLDS[key] = ((planned, sheet), got)
    return got
