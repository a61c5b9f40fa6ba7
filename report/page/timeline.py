"""The fight's timeline: each event told as the replay tells it (``fightlog.report.narration``),
grouped into rounds with the posting order of each, rolls and posts in detail, the findings
and the rulings in force pinned to their events, and the pools sampled for the chart.

One fold of a log held in memory (``Folder.steps``), the same steps ``fightlog replay``
narrates; nothing here reads files.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from msgspec.structs import replace

from fightlog.events.model import AnyEvent, DeclarationPosted, DiceRolled, RoundStarted, RulingMade
from fightlog.reducers.folder import Folder, Step
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.report.narration import Lookup, Namer, actions_text, kind_of, namer, narrate, unit_of
from fightlog.report.page.model import (
    DieView,
    FindingView,
    Item,
    Level,
    Modifier,
    OrderView,
    PostView,
    RollView,
    RoundView,
    RuledNote,
)

OPEN_EVENTS = 1500
"""A fight of more events than this shows its rounds folded (a click unfolds one)."""

ORDER_CODES = {"order.skipped": "skipped", "order.out-of-turn": "out_of_turn", "order.double-post": "twice"}
"""The shared posting-order findings, and the part of a round's order view each fills."""

RANK: Mapping[Level, int] = {"ok": 0, "info": 1, "warning": 2, "error": 3}

Samples = dict[str, dict[str, list[tuple[int, int]]]]
"""pool -> actor -> ``(seq, value)`` each time the value changed (the first at the join)."""


class Told(NamedTuple):
    """The timeline, the state after its last event, the pools sampled, and where each
    round started (``(seq, round)``)."""

    rounds: list[RoundView]
    state: SceneState
    samples: Samples
    starts: list[tuple[int, int]]


class _Part:
    """A round being gathered (or the part before round 1)."""

    def __init__(self, key: str, title: str, first: int, order: list[str] | None) -> None:
        self.key, self.title, self.first = key, title, first
        self.order = order
        self.posted: list[tuple[int, str]] = []
        """The posts of the round, by seq (one a ruling voids is left out of its summary)."""
        self.items: list[Item] = []


def tell(events: Sequence[AnyEvent]) -> Told:
    """The timeline of ``events`` (a whole log from seq 1, held in memory); ``pin`` puts
    the audit's findings on it."""

    def lookup(seq: int) -> AnyEvent | None:
        return events[seq - 1] if 0 < seq <= len(events) else None

    parts = [_Part("start", "Before round 1", 1, None)]
    samples: Samples = {}
    starts: list[tuple[int, int]] = []
    state = EMPTY
    for step in Folder(lambda seq: events[seq - 1 :]).steps():
        event, before, after = step
        who = namer(after, before) if type(event) in _NAMED else _unnamed
        if type(event) is RoundStarted:
            parts.append(_Part(f"r{event.seq}", f"Round {event.round}", event.seq, [who(a) for a in after.turn.order]))
            starts.append((event.seq, event.round))
        part = parts[-1]
        if type(event) is DeclarationPosted and not event.ooc:
            part.posted.append((event.seq, who(event.actor)))
        part.items.append(_item(step, lookup, who))
        _sample(step, samples)
        state = after
    ruled = _ruled(state)
    rounds = [_round(part, ruled) for part in parts if part.items]
    return Told(rounds, state, samples, starts)


_NAMED = frozenset((RoundStarted, DeclarationPosted, DiceRolled))
"""The kinds whose item names someone beyond the replay's line (a namer is made for them)."""


def _unnamed(actor: str | None) -> str:
    raise AssertionError("no name is asked for this kind")  # pragma: no cover


def pin(rounds: Sequence[RoundView], findings: Sequence[FindingView], events: int) -> list[RoundView]:
    """``rounds`` with each finding on its event (the event marked by the worst unaccepted
    one), the posting-order findings in their round's order view, and each round's count
    of findings that fail the audit; rounds unfold when the fight has at most
    ``OPEN_EVENTS`` events, or when they hold such a finding."""
    pinned: dict[int, list[FindingView]] = {}
    for finding in findings:
        pinned.setdefault(finding.seq, []).append(finding)
    out = []
    for r in rounds:
        items = [_pinned(item, pinned[item.seq]) if item.seq in pinned else item for item in r.items]
        inside = [f for seq in range(r.first, r.last + 1) for f in pinned.get(seq, ())]
        order = r.order
        if order is not None:
            flags: dict[str, list[str]] = {"skipped": [], "out_of_turn": [], "twice": []}
            counting: set[str] = set()
            for f in inside:
                slot = ORDER_CODES.get(f.code)
                name = None if f.actor is None else f.actor + (" (accepted by ruling)" if f.accepted else "")
                if slot is not None and name is not None and name not in flags[slot]:
                    flags[slot].append(name)
                if slot is not None and not f.accepted:
                    counting.add(slot)
            settled = [slot for slot, names in flags.items() if names and slot not in counting]
            order = replace(order, **flags, settled=settled)
        counted = sum(1 for f in inside if not f.accepted and f.level in ("warning", "error"))
        out.append(replace(r, items=items, order=order, findings=counted, open=events <= OPEN_EVENTS or counted > 0))
    return out


def _pinned(item: Item, found: Sequence[FindingView]) -> Item:
    level = max((f.level for f in found if not f.accepted), key=RANK.__getitem__, default="ok")
    return replace(item, findings=[f.id for f in found], level=level)


def _item(step: Step, lookup: Lookup, who: Namer) -> Item:
    event = step.event
    lines = narrate(step, lookup)
    text = lines[0].text
    post = roll = None
    about = None
    if type(event) is DeclarationPosted:
        post = PostView(event.text, actions_text(event.actions, who, unit_of(step.before)), event.ooc)
        text = _poster(event, who)
    elif type(event) is DiceRolled:
        roll = _roll(event)
        text = f"{who(event.roller)} rolls {event.purpose}"
    elif type(event) is RulingMade:
        about = event.target
    return Item(
        seq=event.seq,
        kind=kind_of(event),
        depth=lines[0].depth,
        text=text,
        changes=[line.text for line in lines[1:]],
        post=post,
        roll=roll,
        about=about,
    )


def _poster(event: DeclarationPosted, who: Namer) -> str:
    name = who(event.actor)
    if name == event.actor and event.origin is not None and event.origin.author:
        name = event.origin.author  # not (yet) in the scene: the name the source showed
    text = name + (" (ooc)" if event.ooc else "") + " posts"
    if event.responds_to is not None:
        text += f", answering seq {event.responds_to}"
    return text


_COUNTS = re.compile(r"(>=|>)\s*([0-9]+)")
"""A success count's target in a notation (``7d6>=5``): the faces it counts."""


def _roll(event: DiceRolled) -> RollView:
    dice = []
    counts = _COUNTS.search(event.notation)
    least = None if counts is None else int(counts.group(2)) + (counts.group(1) == ">")
    for die in event.dice:
        notes = []
        if die.label:
            notes.append(die.label)
        if die.rerolled:
            notes.append("rerolled " + " -> ".join(str(f) for f in (*die.rerolled, die.face)))
        if die.exploded:
            notes.append("exploded")
        hit = least is not None and die.kept and die.face >= least
        if hit:
            notes.append("counts")
        dice.append(DieView(die.face, die.sides, die.kept, ", ".join(notes), hit))
    if event.generator == "external":
        source = "external: " + (event.tool or "a roll made elsewhere")
    else:
        source = "engine" + (f" roll #{event.index}" if event.index is not None else "")
    modifiers = [Modifier(m.source, f"{m.value:+d}") for m in event.modifiers]
    return RollView(event.notation, dice, modifiers, event.total, source, event.generator == "external",
                    event.label or "")


def _sample(step: Step, samples: Samples) -> None:
    """Record each pool whose value the step changed."""
    before, after = step.before.combatants, step.after.combatants
    if before is after:
        return
    seq = step.event.seq
    for actor, fighter in after.items():
        old = before.get(actor)
        if old is fighter:
            continue
        for pool, value in fighter.pools.items():
            if old is None or old.pools.get(pool) != value:
                samples.setdefault(pool, {}).setdefault(actor, []).append((seq, value))


def _ruled(state: SceneState) -> dict[int, list[RuledNote]]:
    """The rulings in force, by the event each is about."""
    ruled: dict[int, list[RuledNote]] = {}
    for r in state.rulings:
        ruled.setdefault(r.target, []).append(RuledNote(r.seq, r.action, r.by, r.reason))
    return ruled


def _round(part: _Part, ruled: Mapping[int, list[RuledNote]]) -> RoundView:
    items = [_ruled_item(item, ruled[item.seq]) if item.seq in ruled else item for item in part.items]
    posted = [name for seq, name in part.posted if not any(note.action == "void" for note in ruled.get(seq, ()))]
    order = None if part.order is None else OrderView(order=part.order, posted=posted)
    return RoundView(key=part.key, title=part.title, first=items[0].seq, last=items[-1].seq, items=items, order=order)


def _ruled_item(item: Item, notes: list[RuledNote]) -> Item:
    return replace(item, ruled=notes, voided=any(note.action == "void" for note in notes))
