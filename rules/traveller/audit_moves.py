"""The ``traveller`` audit of a move as made against the move its post declared (Movement: 6 m
a minor action, half in difficult terrain, a quarter prone): a ``moved`` that its post's
``move`` causes goes the metres the post asked (to ``x``, ``y`` from where the mover stood, or
``distance=``) and no further than ``minor.limit`` allows (``rules.allowance``). What a post
may ask is judged at the post; this judges a move recorded, or ruled, apart from it."""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import DeclarationPosted, Moved
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.fighters import Fighter
from fightlog.rules.traveller.minor import far, limit, limit_why

CODE = "rules.allowance"


def moved(before: SceneState, event: Moved, after: SceneState, view: AuditView) -> None:
    """A move its post declared: the metres asked, within the limit."""
    post = view.event(event.cause or 0)
    if type(post) is not DeclarationPosted or post.actor != event.actor or event.metres is None:
        return
    moves = [a for a in post.actions if a.type == "move"]
    if len(moves) != 1:  # none (a dive, a grapple's drag, an escape) or two: not told apart here
        return
    action = moves[0]
    try:
        who = Fighter(before, event.actor)
        most = limit(who, action)
        at = who.position
    except FightlogError:
        return
    x, y = action.params.get("x"), action.params.get("y")
    asked = far(at, (x, y)) if at is not None and isinstance(x, int) and isinstance(y, int) else action.distance
    problems = []
    if asked is not None and event.metres != asked:
        problems.append(f"the post (seq {post.seq}) asked {asked} m")
    if event.metres > most:
        problems.append(f"a minor action moves at most {most} m ({limit_why(who, action)})")
    if problems:
        view.report(CODE, event, f"{event.actor} moves {event.metres} m; " + "; ".join(problems), actor=event.actor)
