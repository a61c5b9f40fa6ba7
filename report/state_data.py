"""The state of a scene as plain data (``fightlog state --format json``, ``Fight.state``)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from fightlog.events.model import AnyEvent
from fightlog.reducers.derive import next_to_post, posting_order
from fightlog.reducers.folder import Folder
from fightlog.reducers.state import SceneState


def state_data(scene: SceneState) -> dict[str, object]:
    """The state as plain data, with the facts derived from it under ``derived``."""
    doc: dict[str, object] = msgspec.to_builtins(scene)
    doc["derived"] = {"next": next_to_post(scene), "order": msgspec.to_builtins(posting_order(scene))}
    return doc


def fold_events(events: Sequence[AnyEvent]) -> SceneState:
    """The state after the last of ``events`` (a whole log, from seq 1, held in memory), with
    every ruling among them applied."""
    return Folder(lambda seq: events[seq - 1 :]).run()
