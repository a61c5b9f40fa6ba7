"""What a fork keeps of its own history to fold a ruling on cheaply (``fightlog.audit.fork``).

``ForkHistory`` holds the fork's recent states, each with how many of its events it is after
(``RECENT``), and the fork's rulings read so far. A ruling appended to the fork changes the
events its plan changes: the state after the fork and the ruling is folded on from the last
state kept before the first of them (from the fork's start when none is kept so far back), and
the states from that event on are dropped, since they no longer hold. Without them a long
fork with many rulings was folded from its start at each ruling.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Final

from fightlog.audit.replay_request import fold_all
from fightlog.events.model import AnyEvent, RulingMade
from fightlog.reducers.fold import Plan, fold
from fightlog.reducers.state import SceneState

RECENT: Final = 1024
"""Recent states a fork keeps."""


class ForkHistory:
    """The recent states and the rulings of one fork (see the module docstring)."""

    def __init__(self) -> None:
        self._states: deque[tuple[int, SceneState]] = deque(maxlen=RECENT)
        self._rulings: list[RulingMade] = []
        self._read = 0
        """The fork's rulings are those of its first ``_read`` events."""

    def clear(self) -> None:
        self._states.clear()
        self._rulings, self._read = [], 0

    def kept(self, length: int, state: SceneState) -> None:
        """``state`` is the state after the fork's first ``length`` events."""
        self._states.append((length, state))

    def rulings(self, fork: Sequence[AnyEvent]) -> list[RulingMade]:
        """The fork's rulings, in order (read on from where the last call stopped)."""
        for event in fork[self._read :]:
            if type(event) is RulingMade:
                self._rulings.append(event)
        self._read = len(fork)
        return self._rulings

    def folded_with(self, fork: Sequence[AnyEvent], moved: RulingMade, before: Plan, after: Plan) -> SceneState:
        """The state after ``fork`` and ``moved``, a ruling that makes the plan ``after`` of
        ``before`` (``FoldError`` when it does not fold); the states from the first event it
        changes on are dropped."""
        changed = [t for t in before.keys() | after.keys() if before.get(t) != after.get(t)]
        first = min(changed, default=len(fork) + 1)
        for length, state in reversed(self._states):
            if length < first:
                folded = fold([*fork[length:], moved], start=state, plan=after)
                break
        else:
            folded = fold_all([*fork, moved])
        states = self._states
        while states and states[-1][0] >= first:  # what the ruling changed: those states no longer hold
            states.pop()
        return folded
