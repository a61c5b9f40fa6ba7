"""The ``traveller`` audit of first aid (Healing: First Aid): what a first aid roll heals.

Success (8+) heals max(Effect, 1) points of STR, DEX and END together, a failure nothing;
each ``healing_applied`` of a first aid names the roll as its cause, so the check adds up
the healing of that roll so far.
"""

from __future__ import annotations

from fightlog.events.model import DeclarationPosted, DiceRolled, HealingApplied
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import options_of


def healed(before: SceneState, event: HealingApplied, after: SceneState, view: AuditView) -> None:
    """A first aid's healing, at most max(Effect, 1) in all, none on a failure. The healing
    cites the roll; one citing the first aid's post (a hand-kept log's way) is judged by the
    post's first aid roll."""
    cause = view.event(event.cause or 0)
    roll = _roll_of_post(cause, event.seq, view) if isinstance(cause, DeclarationPosted) else cause
    if not isinstance(roll, DiceRolled) or roll.purpose != "first_aid":
        return
    margin = effect(roll.total, options_of(before))
    allowed = max(margin, 1) if margin >= 0 else 0
    so_far = event.amount
    for seq in range(roll.seq + 1, event.seq):
        earlier = view.event(seq)
        if isinstance(earlier, HealingApplied) and earlier.cause in (roll.seq, roll.for_seq):
            so_far += earlier.amount
    if so_far > allowed:
        view.report("rules.healing", event, f"first aid of {roll.total} (Effect {margin}) heals {so_far} points; "
                    f"the rules give {allowed} (max(Effect, 1) on a success, none on a failure)",
                    actor=roll.roller)


def _roll_of_post(post: DeclarationPosted, before: int, view: AuditView) -> DiceRolled | None:
    """The first aid roll made for ``post`` (``for_seq``), before seq ``before``."""
    for seq in range(post.seq + 1, before):
        found = view.event(seq)
        if isinstance(found, DiceRolled) and found.purpose == "first_aid" and found.for_seq == post.seq:
            return found
    return None
