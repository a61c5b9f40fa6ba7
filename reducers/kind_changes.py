"""Per event kind, the state slices it changes: where to look for what an event does.

``CHANGES`` names, for every kind of the event union, the ``SceneState`` fields whose slice
reducers handle it, in dispatch order; the module of each field's reducers is in
``SLICE_MODULES`` (``turn`` -> ``reducers/turns.py``). A kind that changes no slice has an
empty entry, and ``UNCHANGED`` says why.

The fold does not read this table (it dispatches through ``combine.DISPATCH``, built from the
slice modules' ``REDUCERS``); ``tests/reducers/test_kind_changes.py`` holds the two equal, and
``docs/events.md`` ("What each kind changes") to both.
"""

from __future__ import annotations

SLICE_MODULES: dict[str, str] = {
    "scene": "scene",
    "combatants": "combatants",
    "turn": "turns",
    "effects": "effects",
    "pending": "declarations",
    "rulings": "rulings",
}
"""``SceneState`` field -> the module under ``fightlog.reducers`` holding its reducers."""

CHANGES: dict[str, tuple[str, ...]] = {
    "scene_started": ("scene",),
    "scene_ended": ("scene",),
    "combatant_joined": ("scene", "combatants", "turn"),
    "initiative_rolled": ("turn",),
    "initiative_set": ("turn",),
    "round_started": ("turn", "pending"),
    "round_ended": ("turn", "pending"),
    "turn_started": ("combatants", "turn", "pending"),
    "turn_ended": ("combatants", "turn", "pending"),
    "declaration_posted": ("turn", "pending"),
    "dice_rolled": ("scene",),
    "attack_resolved": ("pending",),
    "damage_applied": ("combatants",),
    "healing_applied": ("combatants",),
    "resource_spent": ("combatants",),
    "weapon_reloaded": ("combatants",),
    "moved": ("combatants",),
    "effect_applied": ("effects",),
    "effect_ticked": ("effects",),
    "effect_counted_down": ("effects",),
    "effect_expired": ("effects",),
    "status_changed": ("combatants",),
    "ruling_made": ("rulings",),
}
"""Event kind -> the ``SceneState`` fields it changes, in dispatch order (empty: none)."""

UNCHANGED: dict[str, str] = {}
"""Event kind changing no slice -> why."""
