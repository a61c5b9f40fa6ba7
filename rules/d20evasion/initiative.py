"""Initiative (Initiative).

In a quest each side rolls once, 1d20 plus the highest Dex + level bonus among its members,
and the higher side goes first; a GM may roll for each combatant instead
(``initiative = "individual"``); a duel's two sides are one combatant each. An ambushing side
wins without a roll (``ambush``); a side with a first-strike skill wins too, unless more than
one side has one, when initiative is rolled as normal. Within a side, members post by their
initiative bonus (then as they joined), or as joined (``side_order``).

``Group``, ``groups`` and ``rank`` are pure; ``roll`` decides through the ``Scribe``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import InitiativeRolled
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.options import D20Options
from fightlog.kit.table import Scribe


class Member(NamedTuple):
    actor: str
    side: str
    bonus: int
    first_strike: bool


class Group(NamedTuple):
    """Those who share one initiative: a side (party initiative) or one combatant."""

    name: str
    members: tuple[Member, ...]

    @property
    def roller(self) -> Member:
        """Who rolls for the group: the highest bonus (the first joined among equals)."""
        best = max(m.bonus for m in self.members)
        return next(m for m in self.members if m.bonus == best)

    @property
    def first_strike(self) -> bool:
        return any(m.first_strike for m in self.members)


def groups(members: Sequence[Member], options: D20Options) -> list[Group]:
    """The groups that roll, in joined order of their first member."""
    if options.initiative == "individual":
        return [Group(m.actor, (m,)) for m in members]
    out: dict[str, list[Member]] = {}
    for member in members:
        out.setdefault(member.side, []).append(member)
    return [Group(name, tuple(found)) for name, found in out.items()]


def within(group: Group, options: D20Options) -> list[str]:
    """The posting order inside a group."""
    members = list(group.members)
    if options.side_order == "bonus":
        members.sort(key=lambda m: -m.bonus)  # stable: joined order among equals
    return [m.actor for m in members]


def rank(scores: Sequence[tuple[Group, tuple[int, ...]]]) -> list[Group]:
    """Groups by score (and tie-breakers) from the highest, joined order among equals."""
    placed = sorted(enumerate(scores), key=lambda p: (tuple(-v for v in p[1][1]), p[0]))
    return [group for _, (group, _) in placed]


def decide(scribe: Scribe, members: Sequence[Member], options: D20Options) -> tuple[list[str], str]:
    """Roll initiative for ``members`` (in joined order): the posting order and its reason."""
    found = groups(members, options)
    sides = sorted({m.side for m in members})
    if options.ambush and options.ambush not in sides:  # as traveller: a side nobody is on ambushes nobody
        raise RefusedError(f"option ambush = {options.ambush!r}: nobody in the fight is on that side "
                           f"(sides: {', '.join(sides) or 'none'})")
    ambushers = [g for g in found if options.ambush and any(m.side == options.ambush for m in g.members)]
    if ambushers:
        rest = [g for g in found if g not in ambushers]
        return _flatten([*ambushers, *rest], options), "ambush"
    striking = [g for g in found if g.first_strike]
    if len(striking) == 1 and len(found) > 1:
        rest = [g for g in found if g is not striking[0]]
        if len(rest) > 1:
            rest = roll(scribe, rest, options)
        return _flatten([striking[0], *rest], options), "first strike"
    return _flatten(roll(scribe, found, options), options), "initiative"


def roll(scribe: Scribe, found: Sequence[Group], options: D20Options) -> list[Group]:
    """Each group rolls 1d20 + its roller's bonus; ties by the higher bonus (or a reroll of
    the tied, ``initiative_tie``), then joined order."""
    scores: list[tuple[Group, tuple[int, ...]]] = []
    for group in found:
        roller = group.roller
        rolled, seq = scribe.roll("1d20", roller=roller.actor, purpose="initiative",
                                  modifiers=[(roller.bonus, "Dex + level")] if roller.bonus else [])
        tiebreak = [roller.bonus] if options.initiative_tie == "bonus" else []
        scribe.emit(InitiativeRolled(actor=roller.actor, score=rolled.total, roll=seq, tiebreak=tiebreak,
                                     group=[m.actor for m in group.members] if len(group.members) > 1 else []))
        scores.append((group, (rolled.total, *tiebreak)))
    if options.initiative_tie == "reroll":
        scores = _reroll(scribe, scores)
    return rank(scores)


def _reroll(scribe: Scribe, scores: list[tuple[Group, tuple[int, ...]]]) -> list[tuple[Group, tuple[int, ...]]]:
    """Tied groups roll again (the new roll as a tie-breaker) until no tie is left, at most
    ten times (then joined order decides)."""
    for _ in range(10):
        keys = [s for _, s in scores]
        tied = [i for i, (_, s) in enumerate(scores) if keys.count(s) > 1]
        if not tied:
            break
        for i in tied:
            group, score = scores[i]
            roller = group.roller
            rolled, seq = scribe.roll("1d20", roller=roller.actor, purpose="initiative", label="tie reroll")
            score = (*score, rolled.total)
            scribe.emit(InitiativeRolled(actor=roller.actor, score=score[0], roll=seq, tiebreak=list(score[1:]),
                                         group=[m.actor for m in group.members] if len(group.members) > 1 else []))
            scores[i] = (group, score)
    return scores


def _flatten(ordered: Sequence[Group], options: D20Options) -> list[str]:
    return [actor for group in ordered for actor in within(group, options)]


def member(fighter: Fighter) -> Member:
    return Member(fighter.actor, fighter.side, fighter.initiative_bonus, fighter.card.first_strike)
