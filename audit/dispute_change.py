"""The change a dispute makes: the fact at ``--at``, set by ``--set PATH=VALUE``, voided
(``--void``) or withdrawn (``--withdraw``), and checked.

A dispute changes *facts* (``FACTS``): a roll's dice or modifiers, a declaration, a GM
ruling. What the rules derive from them (an attack resolved, damage applied) is refused,
with the facts behind it named. ``--set`` paths and values are checked as hard as
``fightlog rule ... amend`` checks them (``fightlog.audit.amendment``), with the same
messages. See ``docs/dispute.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from fightlog.audit.amendment import Reach, TableFor, amend, changed_fields, ruling_reach
from fightlog.audit.replay_request import DISPUTE_MEDIUM, as_json, event_kind
from fightlog.errors import InputError
from fightlog.events.model import (
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Origin,
    RulingMade,
    SceneEnded,
    SceneStarted,
    TurnStarted,
)
from fightlog.events.seals import opened, seals_the_dice


class Change(Struct, frozen=True, kw_only=True):
    """The fact changed: the event at ``seq``, with ``sets`` (``(PATH, VALUE)`` pairs:
    ``dice[0].face``, 55), or ``void`` (as if it had not happened: a declaration or a
    ruling), or ``withdraw`` (a ruling, as if it had not been made)."""

    seq: int
    sets: tuple[tuple[str, Any], ...] = ()
    void: bool = False
    withdraw: bool = False

    def text(self) -> str:
        """The change as written on the command line."""
        if self.void:
            return "--void"
        if self.withdraw:
            return "--withdraw"
        return " ".join(f"{path}={as_json(value)}" for path, value in self.sets)


FACTS: Final[Mapping[type, frozenset[str]]] = {
    DiceRolled: frozenset({"dice", "modifiers"}),
    DeclarationPosted: frozenset({"actor", "text", "actions", "responds_to", "ooc"}),
    RulingMade: frozenset({"by", "action", "target", "reason", "changes", "finding"}),
}
"""The kinds of event a dispute can change, and the fields ``--set`` may reach."""

_EXAMPLES: Final[Mapping[type, str]] = {
    DiceRolled: "dice[0].face, modifiers[1].value",
    DeclarationPosted: "actions[0].target, actions[0].weapon, text",
    RulingMade: "action, target, changes",
}


def amended_fact(events: Sequence[AnyEvent], target: AnyEvent, change: Change, name: str,
                 table_for: TableFor) -> AnyEvent | None:
    """The event at ``change.seq`` as changed (``None``: voided or withdrawn), or the
    ``InputError`` that says why it cannot be."""
    seq, kind = change.seq, event_kind(target)
    modes = sum((bool(change.sets), change.void, change.withdraw))
    if modes != 1:
        raise InputError("give exactly one change: --set PATH=VALUE (repeatable), --void or --withdraw", path=name)
    if type(target) not in FACTS:
        raise InputError(f"--at {seq}: {_not_a_fact(events, target)}", path=name, line=seq)
    if change.withdraw and type(target) is not RulingMade:
        raise InputError(f"--at {seq}: --withdraw takes a ruling (seq {seq} is {kind}); use --set or --void",
                         path=name, line=seq)
    if change.void and type(target) is DiceRolled:
        raise InputError(f"--at {seq}: a roll cannot be voided (the rules need it): change its dice with "
                         "--set dice[0].face=N", path=name, line=seq)
    if change.void or change.withdraw:
        return None
    reach = Reach(FACTS[type(target)], _EXAMPLES[type(target)])
    amended = amend(target, change.sets, reach, scene=events[0], name=name, table_for=table_for)
    if isinstance(amended, RulingMade):
        amended = _check_ruling(events, amended, name, table_for)
    if fact_data(amended) != fact_data(target):
        amended = replace(amended, origin=Origin(medium=DISPUTE_MEDIUM, ref=f"seq {seq}", raw=change.text()))
    return amended


def _check_ruling(events: Sequence[AnyEvent], ruling: RulingMade, name: str, table_for: TableFor) -> RulingMade:
    """A ruling as changed, held to what ``fightlog rule`` records: an earlier target;
    ``changes`` for an amend only, each a change ``rule ... amend --set`` would make of the
    event ruled on, recorded as it would record them (a roll's dice changed: its total
    recomputed); a ``finding`` for an accept only."""
    seq = ruling.seq
    if ruling.target >= seq:
        raise InputError(f"--set: bad VALUE: target {ruling.target}: a ruling targets an earlier event "
                         f"(before seq {seq})", path=name, line=seq)
    for field, said in (("by", ruling.by), ("reason", ruling.reason)):
        if not said.strip():  # as rule refuses a blank --by or --reason
            raise InputError(f"--set {field}: give it in words, not blank", path=name, line=seq)
    if ruling.changes and ruling.action != "amend":
        raise InputError(f"--set: changes are for an amend ruling (this one is {ruling.action})", path=name, line=seq)
    if ruling.finding is not None and ruling.action != "accept":
        raise InputError(f"--set: a finding is for an accept ruling (this one is {ruling.action})", path=name, line=seq)
    ruled = events[ruling.target - 1]
    if ruling.action == "withdraw" and type(ruled) is not RulingMade:
        raise InputError(f"--set: a withdraw takes a ruling (seq {ruling.target} is {event_kind(ruled)})",
                         path=name, line=seq)
    if ruling.action != "withdraw" and type(ruled) is RulingMade:
        raise InputError(f"--set: seq {ruling.target} is a ruling: a ruling is withdrawn, not {ruling.action}ed",
                         path=name, line=seq)
    if ruling.action == "void" and (type(ruled) is SceneStarted or seals_the_dice(ruled, opened(events[0]))):
        raise InputError(f"--set: seq {ruling.target} is the {event_kind(ruled)}, which cannot be voided (as "
                         "`fightlog rule` refuses it)", path=name, line=seq)
    if ruling.action != "amend":
        return ruling
    if not ruling.changes:
        raise InputError("--set: an amend ruling changes at least one field (changes={...})", path=name, line=seq)
    try:
        done = amend(ruled, tuple(ruling.changes.items()), ruling_reach(type(ruled)), scene=events[0], name=name,
                     table_for=table_for, events=events[: seq - 1])
    except InputError as exc:
        raise InputError(f"--set changes: {exc.message.removeprefix('--set ').removeprefix('--set: ')} (seq {ruling.target})", path=name,
                         line=seq) from None
    return replace(ruling, changes=changed_fields(ruled, done) or ruling.changes)


def fact_data(event: AnyEvent | None) -> dict[str, Any]:
    """``event`` as plain data, without what places it in a log (``seq``, ``prev``,
    ``batch``) or says where it came from (``origin``): what a change changes."""
    data: dict[str, Any] = msgspec.to_builtins(event) if event is not None else {}
    for name in ("seq", "prev", "origin", "batch"):
        data.pop(name, None)
    return data


def _not_a_fact(events: Sequence[AnyEvent], target: AnyEvent) -> str:
    kind = event_kind(target)
    if type(target) in (SceneStarted, SceneEnded, CombatantJoined):
        return f"seq {target.seq} is {kind}, not a fact a dispute can change (a roll, a declaration or a ruling)"
    facts = _facts_behind(events, target.seq)
    behind = f" ({', '.join(f'{k} at seq {s}' for s, k in facts)})" if facts else ""
    return (f"seq {target.seq} is {kind}, which the rules derive: change the roll or the declaration that "
            f"produced it{behind}")


def _facts_behind(events: Sequence[AnyEvent], seq: int) -> list[tuple[int, str]]:
    """The declaration before ``seq`` in its turn and the (last three) rolls after it."""
    rolls: list[tuple[int, str]] = []
    post: list[tuple[int, str]] = []
    for event in reversed(events[: seq - 1]):
        if type(event) is DiceRolled:
            rolls.append((event.seq, "dice_rolled"))
        elif type(event) is DeclarationPosted:
            post.append((event.seq, "declaration_posted"))
            break
        elif type(event) is TurnStarted:
            break
    return post + sorted(rolls[:3])
