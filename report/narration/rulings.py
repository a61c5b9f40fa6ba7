"""GM rulings in words: what a ruling voids, amends, accepts or withdraws, and what that was
(shared with the state tables)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from fightlog.events.model import AnyEvent, RulingMade
from fightlog.reducers.state import AppliedRuling
from fightlog.report.narration.lines import Scene, kind_of


def _ruled(event: RulingMade, scene: Scene) -> str:
    target = scene.lookup(event.target) if scene.lookup is not None else None
    return by_the_gm(event, target, scene)


DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {RulingMade: _ruled}
"""Event type -> its line."""


def by_the_gm(ruling: RulingMade | AppliedRuling, target: AnyEvent | None, scene: Scene) -> str:
    """``ruling_text`` as the GM's: ``GM Gemma voids seq 16 ...``, and ``GM voids ...`` for a
    ruling by someone called GM (``--by GM``), not ``GM GM voids``."""
    told = ruling_text(ruling, target, scene)
    said = ruling.by.split(maxsplit=1)
    return told if said and said[0].upper() == "GM" else f"GM {told}"


def ruling_text(ruling: RulingMade | AppliedRuling, target: AnyEvent | None, scene: Scene) -> str:
    """``Gemma voids seq 16 (what it was): reason``. ``target`` (the event ruled on, when
    known) lets the words say what it was and show an amendment as ``field old -> new``."""
    what = _ruling_verb(ruling, target, scene)
    return f"{ruling.by} {what}" + (f": {ruling.reason}" if ruling.reason else "")


def _ruling_verb(ruling: RulingMade | AppliedRuling, target: AnyEvent | None, scene: Scene) -> str:
    # Imported here: the table of every kind's line (kinds) holds this module's ``_ruled``.
    from fightlog.report.narration.kinds import describe

    about = f"seq {ruling.target}"
    if isinstance(target, RulingMade):
        about = f"the ruling at seq {ruling.target} ({target.action} of seq {target.target})"
        if ruling.action in ("withdraw", "void"):
            return f"withdraws {about}"
    if ruling.action == "withdraw":
        return f"withdraws the ruling at {about}"
    if ruling.action == "amend":
        kind = "" if target is None else f" ({kind_of(target)})"
        return f"amends {about}{kind}: {_amendment(ruling, target)}"
    if target is not None and not isinstance(target, RulingMade):
        about += f" ({describe(target, scene._replace(lookup=None))})"
    if ruling.action == "void":
        return f"voids {about}"
    finding = f" finding {ruling.finding}" if ruling.finding else ""
    return f"accepts{finding} on {about}"


def _amendment(ruling: RulingMade | AppliedRuling, target: AnyEvent | None) -> str:
    old: dict[str, Any] = {} if target is None else msgspec.to_builtins(target)
    parts = []
    for field in sorted(ruling.changes):
        new = _value_text(ruling.changes[field])
        parts.append(f"{field} {_value_text(old[field])} -> {new}" if field in old else f"{field} -> {new}")
    return "; ".join(parts) if parts else "no change"


def _value_text(value: Any) -> str:
    """A field's value as a player reads it: modifier lists as ``racial +5, cover +5``."""
    if isinstance(value, list) and value and all(_is_modifier(v) for v in value):
        return ", ".join(f"{v['source']} {v['value']:+d}" for v in value)
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    return msgspec.json.encode(value, order="sorted").decode()


def _is_modifier(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"value", "source"} and isinstance(value["value"], int)
