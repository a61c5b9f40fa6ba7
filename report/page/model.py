"""The report page as plain data: what ``fightlog report`` shows, before any HTML.

Every field is text or numbers taken from the log, the fold, the narration, the audit and the
verdicts on the chain and the dice; the templates only lay it out. So the page of a fight is
snapshot-tested as data (``msgspec.to_builtins``), and every text a player wrote reaches the
HTML through one place that escapes it (the templates' autoescaping).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

Level = Literal["ok", "info", "warning", "error"]
"""How a verdict or a finding reads: fine, worth knowing, doubtful, wrong."""


class Pair(Struct, frozen=True):
    """A name and its value, as text (an option, a pool)."""

    name: str
    value: str


class Verdict(Struct, frozen=True):
    """One check's verdict in words (the chain, the dice), and how it reads."""

    level: Level
    text: str


class PoolView(Struct, frozen=True):
    """A pool (HP, armour, a wound, a characteristic) at the end of what the page shows; a
    track of numbered pools (``w1..w20``) as its total, ``note`` naming the members below
    their maximum."""

    name: str
    value: int
    max: int | None = None
    note: str = ""


class Fighter(Struct, frozen=True):
    """A combatant as the page lists them: name, side, role, pools and statuses."""

    actor: str
    name: str
    side: str | None
    role: str
    pools: list[PoolView]
    statuses: list[str]


class Header(Struct, frozen=True, kw_only=True):
    """The scene: its ruleset and options, who fought, the winner, the log's head and the
    verdicts on its chain and dice. ``notes`` say what the reader must know first (a damaged
    log, a ruleset this fightlog does not have, a page cut at ``--at``)."""

    log: str
    scene: str
    title: str | None
    ruleset: str
    ruleset_known: bool
    options: list[Pair]
    gm: str | None
    fighters: list[str]
    ended: bool
    winner: str | None
    end_reason: str | None
    head: str | None
    events: int
    at: int | None
    chain: Verdict
    dice: Verdict
    audit: Verdict
    notes: list[Verdict]


class Modifier(Struct, frozen=True):
    """A roll's modifier and where it came from."""

    source: str
    value: str


class DieView(Struct, frozen=True):
    """One die: its face, whether it was kept, and what happened to it (rerolls,
    explosions, its label)."""

    face: int
    sides: int
    kept: bool
    note: str = ""
    hit: bool = False
    """A die a success count counts (``5d6>=5``: a 5 or a 6), shown filled."""


class RollView(Struct, frozen=True):
    """A roll: the notation, every die kept or dropped, each modifier with its source, the
    total, and who made the dice (the engine, or a bot or HUD: external)."""

    notation: str
    dice: list[DieView]
    modifiers: list[Modifier]
    total: int
    source: str
    external: bool
    label: str = ""
    """What the roll was for, as the table or the reader wrote it (``shot 1``, ``damage: DV 10``)."""


class PostView(Struct, frozen=True):
    """A post: the words the player wrote and the actions read from it."""

    text: str
    actions: str
    ooc: bool


class RuledNote(Struct, frozen=True):
    """A GM ruling in force on an event: it voids, amends or accepts it."""

    ruling: int
    action: str
    by: str
    reason: str


class Item(Struct, frozen=True, kw_only=True):
    """One event of the timeline: its line (the replay's), the state changes it caused, its
    post or roll in detail, the findings pinned to it (indexes into ``Page.findings``), the
    rulings in force on it (``voided``: one of them voids it), and (for a ruling) the event
    it is about."""

    seq: int
    kind: str
    depth: int
    text: str
    changes: list[str] = []
    post: PostView | None = None
    roll: RollView | None = None
    findings: list[int] = []
    level: Level | None = None
    ruled: list[RuledNote] = []
    voided: bool = False
    about: int | None = None


class OrderView(Struct, frozen=True, kw_only=True):
    """A round's posting order: the order set for it, who posted (in the order they did),
    and who was skipped, posted out of turn or posted twice (the audit's findings)."""

    order: list[str]
    posted: list[str]
    skipped: list[str] = []
    out_of_turn: list[str] = []
    twice: list[str] = []
    settled: list[str] = []
    """The slots above whose every finding a GM's ruling accepted (shown as settled, not red)."""


class RoundView(Struct, frozen=True, kw_only=True):
    """A part of the timeline: before round 1, or a round and what follows it until the
    next one starts. ``open``: shown unfolded."""

    key: str
    title: str
    first: int
    last: int
    items: list[Item]
    order: OrderView | None = None
    findings: int = 0
    open: bool = True


class FindingView(Struct, frozen=True, kw_only=True):
    """An audit finding, pinned to its event (``seq``), the actor named."""

    id: int
    seq: int
    code: str
    level: Level
    accepted: bool
    actor: str | None
    message: str
    rule: str
    accepted_by: str | None = None
    accepted_reason: str = ""
    accepted_at: int | None = None
    ref: str | None = None
    """An imported fight's finding: the transcript line or message it cites (``FILE:LINE``, a
    message id), as ``audit`` prints it."""


class Series(Struct, frozen=True):
    """One fighter's pool over the fight: ``(seq, value)`` where the value changed (a step
    line), decimated on a long fight (the page's data keeps every event)."""

    name: str
    points: list[tuple[int, int]]


class Marker(Struct, frozen=True):
    """A finding on the chart's axis, linking to its event."""

    seq: int
    level: Level
    label: str


class ChartView(Struct, frozen=True, kw_only=True):
    """One pool (HP, armour...) of every fighter over the fight: rounds on the axis
    (``(seq, label)`` of each round's start), the findings as markers."""

    pool: str
    title: str
    top: int
    bottom: int
    first: int
    last: int
    series: list[Series]
    rounds: list[tuple[int, str]]
    markers: list[Marker]


class Page(Struct, frozen=True, kw_only=True):
    """The whole report of one fight."""

    header: Header
    fighters: list[Fighter]
    rounds: list[RoundView]
    findings: list[FindingView]
    charts: list[ChartView]
    summary: str
