"""A syrupy extension that stores fights as readable JSON, one file per snapshot.

``assert fight("duel.toml", seed=7).state == snapshot`` with this extension writes
``__snapshots__/<test file>/<test name>.json``: keys sorted, two-space indents, and every
multi-line string (the replay, the audit) stored as a list of its lines. A changed fight
therefore fails with a line-by-line diff that points at the HP, the roll or the replay line
that moved, not at one long escaped string. ``Fight`` objects and msgspec structs are stored
as their plain data.

Use it for every ``snapshot`` of a project (``pyproject.toml``)::

    [tool.pytest.ini_options]
    addopts = "--snapshot-default-extension=fightlog.testing.snapshot.FightSnapshotExtension"

or per test, through the ``fight_snapshot`` fixture of the fightlog plugin.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import msgspec
from syrupy.extensions.json import JSONSnapshotExtension

if TYPE_CHECKING:
    from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData


def plain(data: Any) -> Any:
    """``data`` as JSON-ready plain data, multi-line strings split into their lines."""
    if isinstance(data, str):
        return data.split("\n") if "\n" in data else data
    if isinstance(data, msgspec.Struct):
        return plain(msgspec.to_builtins(data))
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        as_data = getattr(data, "as_data", None)
        return plain(as_data() if callable(as_data) else dataclasses.asdict(data))
    if isinstance(data, dict):
        return {str(key): plain(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain(value) for value in data]
    return data


class FightSnapshotExtension(JSONSnapshotExtension):
    """syrupy's JSON extension, fed plain data (see the module docstring)."""

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> SerializedData:
        serialized: SerializedData = super().serialize(plain(data), exclude=exclude, include=include, matcher=matcher)
        return serialized

    def diff_lines(self, serialized_data: SerializedData, snapshot_data: SerializedData) -> Iterator[str]:
        """Every change, each with a line of context (``...`` between), a changed line's old
        and new one after the other: syrupy's own diff stops a few lines after the first
        change (a lowered cap showed the HP that moved, not the option that moved it)."""
        old, new = str(snapshot_data).splitlines(), str(serialized_data).splitlines()
        # matched by their text after the replay's seq column, whose width follows the log's
        # length: a fight that grew past 99 events changed its padding, not every line
        matched = difflib.SequenceMatcher(None, [_unpadded(line) for line in old], [_unpadded(line) for line in new])
        where_old, where_new = _paths(old), _paths(new)
        for group in matched.get_grouped_opcodes(1):
            if group[0][1] > 0:
                yield "  ..."
            changed = next(op for op in group if op[0] != "equal")
            path = where_new[changed[3]] if changed[3] < changed[4] else where_old[changed[1]]
            if path:  # whose HP it is: the keys the change sits under, however far up they are
                yield f"  @ {path}"
            for tag, a0, a1, b0, b1 in group:
                if tag == "equal":
                    yield from (f"  {line}" for line in new[b0:b1])
                    continue
                was, now = old[a0:a1], new[b0:b1]
                for k in range(max(len(was), len(now))):  # each old line beside the new one
                    if k < len(was):
                        yield f"- {was[k]}"
                    if k < len(now):
                        yield f"+ {now[k]}"


def _unpadded(line: str) -> str:
    """A snapshot line as the diff matches it: a string's leading spaces dropped (a replay
    line's seq column, right-aligned to the log's length)."""
    stripped = line.lstrip()
    return stripped[:1] + stripped[1:].lstrip() if stripped.startswith('"') else stripped


def _paths(lines: list[str]) -> list[str]:
    """For each line of a snapshot (JSON, two spaces an indent), the keys of the objects and
    the indices in the lists it sits in (``combatants.rook.pools``, ``[15].modifiers[0]``),
    its own key apart."""
    frames: dict[int, tuple[str, list[int] | None]] = {}  # depth -> (its label, its next index if a list)
    found: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        depth = (len(line) - len(stripped)) // 2
        found.append(_joined([frames[d][0] for d in range(1, depth) if d in frames]))
        opens = stripped.endswith(("{", "["))
        if depth == 0 or stripped.startswith(("}", "]")):
            if depth == 0 and opens:
                frames = {0: ("", [0] if stripped.endswith("[") else None)}
            continue
        parent = frames.get(depth - 1)
        key, colon, _ = stripped.partition('": ')
        if parent is not None and parent[1] is not None:  # an item of a list: its index
            label = f"[{parent[1][0]}]"
            parent[1][0] += 1
        else:
            label = key[1:] if colon and key.startswith('"') else ""
        if opens:
            frames[depth] = (label, [0] if stripped.endswith("[") else None)
    return found


def _joined(labels: list[str]) -> str:
    out = ""
    for label in labels:
        if label:
            out += label if label.startswith("[") or not out else f".{label}"
    return out
