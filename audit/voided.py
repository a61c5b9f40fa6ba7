"""What a void leaves behind: events that cite a voided event still stand.

A GM's ``void`` undoes exactly the event it names (``reducers/fold.py``): the damage an
attack's resolution caused, the resolution that read a roll, the rolls made for a post, stay
in the fight unless they are voided too. Each such event that still stands is
``outcome.voided-cause``, at the event, naming what it cites and the ruling: the GM who voided
"the hit" sees that its damage still counts, and what follows from that in turn. An event
cites another by ``cause``, ``for_seq``, ``declaration``, ``roll``, ``responds_to`` or ``rolls``,
and an effect's tick, countdown or end the ``effect_applied`` of that effect (by its id).

``VoidedCauses`` watches the fold's input (as recorded, in log order), and only when the
rulings void something. An event a ruling amends is the GM's to have settled (its damage
amended to 0, its cause to another event): it is not named.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final, NamedTuple

from fightlog.events.model import FOLLOWS_FROM, AnyEvent, EffectApplied, RulingMade, kind_of
from fightlog.reducers.fold import Plan

CODE: Final = "outcome.voided-cause"


class Orphan(NamedTuple):
    """An event standing on a voided one: ``seq``, the message, who it is about."""

    seq: int
    message: str
    actor: str | None
    ref: str | None
    """Where it came from (``origin.ref``: an imported fight's transcript line)."""


class VoidedCauses:
    """The voids in ``plan``, and the events that still cite a voided event (``found``)."""

    def __init__(self, plan: Plan) -> None:
        self.voids: dict[int, RulingMade] = {seq: r for seq, r in plan.items() if r.action == "void"}
        self.amended = frozenset(seq for seq, r in plan.items() if r.action == "amend")
        """Events a ruling amends: the GM has ruled on what they say, whatever they cite."""
        self.found: list[Orphan] = []

    def watch(self, events: Iterable[AnyEvent]) -> Iterator[AnyEvent]:
        """``events`` passed on, noting each that stands and cites a voided one."""
        voids = self.voids
        gone: dict[int, tuple[str, int]] = {}  # voided, or standing on a voided one: its kind, the void
        effects: dict[str, int] = {}  # the effects those applied: id -> the seq that applied it
        for event in events:
            ruling = voids.get(event.seq)
            if ruling is not None:
                gone[event.seq] = (kind_of(event), event.seq)
                _applied(event, effects)
            elif gone and type(event) is not RulingMade and event.seq not in self.amended:
                for cited in _cited(event, effects):
                    if cited in gone:
                        kind, root = gone[cited]
                        by = voids[root].seq
                        how = (f"voided by the ruling at seq {by}" if cited == root else
                               f"which follows from seq {root}, voided by the ruling at seq {by}")
                        self.found.append(Orphan(
                            event.seq,
                            f"this {kind_of(event)} follows from the {kind} at seq {cited}, {how}, and still "
                            "stands (void or amend it too)",
                            _about(event),
                            None if event.origin is None else event.origin.ref,
                        ))
                        gone[event.seq] = (kind_of(event), root)
                        _applied(event, effects)
                        break
            yield event


def consequences(events: Sequence[AnyEvent], seq: int, plan: Plan) -> list[int]:
    """The events that stand on the one at ``seq`` (cite it, or cite one that does), in log
    order, as ``VoidedCauses`` would name them once it is voided: not those ``plan`` voids
    already, nor those it amends (the GM has ruled on them), nor what stands only on those
    amended (``fightlog rule ... void SEQ --with-consequences``). An imported post's rolls
    cite nothing (a HUD's, a bot's): those its turn pairs with it go too
    (``fightlog.audit.imported.paired_rolls``)."""
    from fightlog.audit.imported import paired_rolls

    gone = {seq}
    paired = paired_rolls(events, seq)
    effects: dict[str, int] = {}
    out: list[int] = []
    for event in events:
        if event.seq == seq:
            _applied(event, effects)
        if event.seq <= seq or type(event) is RulingMade:
            continue
        if event.seq not in paired and not any(c in gone for c in _cited(event, effects)):
            continue
        ruling = plan.get(event.seq)
        if ruling is not None and ruling.action == "amend":
            continue
        gone.add(event.seq)
        _applied(event, effects)
        if ruling is None:
            out.append(event.seq)
    return out


def _applied(event: AnyEvent, effects: dict[str, int]) -> None:
    """Note the effect ``event`` applied, if it is an ``effect_applied`` gone with a void."""
    if type(event) is EffectApplied:
        effects[event.effect] = event.seq


def _cited(event: AnyEvent, effects: dict[str, int] | None = None) -> list[int]:
    """The events ``event`` follows from (``FOLLOWS_FROM``: its cause, the post a roll is
    for, the declaration an outcome answers, the roll an initiative came from, the post an
    answer responds to; and the rolls it read); with ``effects``, the ``effect_applied`` of
    the effect it ticks, counts down or ends, if that is one of them (a voided bleed's ticks
    and the damage they dealt stand on it)."""
    out: list[int] = []
    if effects and type(event) is not EffectApplied:
        effect = getattr(event, "effect", None)
        if isinstance(effect, str) and effect in effects:
            out.append(effects[effect])
    for name in FOLLOWS_FROM:
        value = getattr(event, name, None)
        if isinstance(value, int):
            out.append(value)
    rolls = getattr(event, "rolls", None)
    if isinstance(rolls, list):
        out.extend(r for r in rolls if isinstance(r, int))
    return out


def _about(event: AnyEvent) -> str | None:
    """Whom ``event`` is about: its actor, roller, target or attacker."""
    for name in ("actor", "roller", "target", "attacker"):
        value = getattr(event, name, None)
        if isinstance(value, str):
            return value
    return None
