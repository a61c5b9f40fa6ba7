"""What a turn's attack resolutions cited, for the checks that ask at a turn's end which
declared attacks went unresolved (Bleeding Sun's ``rules.unresolved``, en5.1's counterattacks).

``TurnResolutions`` is told of each ``attack_resolved`` (``resolved``) and of each post the
table refuses (``refused``: it owes nothing); ``closed`` hands over what the turn gathered and
starts the next turn empty. A turn with a resolution citing no post (``declaration``) is one a
hand-kept log wrote so: it says nothing of which attack each resolved, and is not judged.
"""

from __future__ import annotations

from typing import NamedTuple

from fightlog.events.model import AttackResolved


class Closed(NamedTuple):
    """A turn's resolutions: the posts refused, the resolutions by (post, target), and whether
    one cited no post."""

    refused: set[int]
    done: dict[tuple[int, str], int]
    uncited: bool


class TurnResolutions:
    """See the module docstring."""

    def __init__(self) -> None:
        self._refused: set[int] = set()
        self._done: dict[tuple[int, str], int] = {}
        self._uncited = False

    def refused(self, seq: int) -> None:
        self._refused.add(seq)

    def resolved(self, event: AttackResolved) -> None:
        if event.declaration is None:
            self._uncited = True
            return
        key = (event.declaration, event.target)
        self._done[key] = self._done.get(key, 0) + 1

    def closed(self) -> Closed:
        """The turn's resolutions, the next turn's starting empty (no new objects when the
        turn gathered nothing: most turns' ends)."""
        found = Closed(self._refused, self._done, self._uncited)
        if self._refused:
            self._refused = set()
        if self._done:
            self._done = {}
        self._uncited = False
        return found
