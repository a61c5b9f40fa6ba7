"""A dispute of a long log, or of one with many rulings, folds it once: the split reads its
states off one replay (``Refolding``) and the fork refolds a ruling from its recent states
(``fork_history.ForkHistory``). Both are held to refolding from the start, which they replace."""

from __future__ import annotations

from unittest import mock

import pytest

from fightlog.audit import fork as fork_module
from fightlog.audit import fork_history
from fightlog.audit.replay_request import Refolding, fold_all, refold
from fightlog.events.model import AnyEvent, RulingMade
from tests.audit.test_dispute import ALLEY, fork, log, plain, ruled_duel
from tests.conftest import FIXTURES

DISPUTED = FIXTURES / "roe7" / "disputed-duel.jsonl"


@pytest.mark.parametrize("path", [ALLEY, DISPUTED], ids=["alley", "disputed"])
def test_the_states_read_off_one_replay_are_the_refolded_ones(path: object) -> None:
    events = list(log(path))  # type: ignore[arg-type]
    refolding = Refolding(events, "fight.jsonl")
    for i in range(1, len(events) + 1):
        assert refolding.at(i) == refold(events[:i], "fight.jsonl")
    for i in (len(events), 5, 1, len(events) // 2):  # asked for fewer: the replay again
        assert refolding.at(i) == refold(events[:i], "fight.jsonl")


def many_rulings() -> list[AnyEvent]:
    """The ruled alley duel with a ruling after its end accepting a finding on each post."""
    events = list(ruled_duel())
    for event in list(events):
        if type(event).__name__ == "DeclarationPosted":
            events.append(RulingMade(seq=len(events) + 1, by="Gemma", action="accept", target=event.seq,
                                     reason="fine"))
    return events


def last_of_a_post_voided() -> list[AnyEvent]:
    """The alley duel with a ruling voiding the last event of a post (a shot's
    ``resource_spent``, seq 68): a fork keeps a state after exactly that event."""
    events = list(log(ALLEY))
    assert type(events[67]).__name__ == "ResourceSpent" and type(events[68]).__name__ == "TurnEnded"
    return [*events, RulingMade(seq=len(events) + 1, by="Gemma", action="void", target=68, reason="free")]


@pytest.mark.parametrize(("events", "seq", "sets"), [
    (last_of_a_post_voided, 58, (("dice[0].face", 50),)),
    (ruled_duel, 40, (("dice[0].face", 20),)),
    (many_rulings, 41, (("dice[0].face", 10),)),
    (lambda: list(log(DISPUTED)), 32, (("dice[0].face", 20), ("dice[1].face", 20))),
], ids=["last-of-a-post", "kept", "many", "disputed"])
def test_a_fork_with_few_recent_states_is_the_fork_with_many(events: object, seq: int,
                                                            sets: tuple[tuple[str, object], ...]) -> None:
    """The fork's state after each ruling it appends is its events refolded from the start,
    whether it has a recent state to fold on from (1,024 kept) or not (1)."""
    logged = events()  # type: ignore[operator]
    appended = fork_module.Forker._append_ruling
    checked: list[int] = []

    def append_and_check(self: fork_module.Forker, ruling: RulingMade, target: int) -> str | None:
        reason = appended(self, ruling, target)
        if reason is None:
            assert self.state == fold_all(self.fork)
            checked.append(ruling.seq)
        return reason

    with mock.patch.object(fork_module.Forker, "_append_ruling", append_and_check):
        usual = fork(logged, seq, *sets)
        with mock.patch.object(fork_history, "RECENT", 1):
            short = fork(logged, seq, *sets)
    assert checked
    assert plain(short.fork) == plain(usual.fork)
    assert short.dropped == usual.dropped and short.ending == usual.ending


def test_a_ruling_behind_an_earlier_one_refolds_from_a_state_that_still_holds() -> None:
    """Void 21 at 48, amend 44 at 49: the fork folded the amend on from its state after the
    post that ends at 45, kept from before the void, and lost the void (a changeless
    dispute then differed from seq 82 on, and the winner was lost; a review)."""
    from fightlog.events.model import DeclarationPosted, DiceRolled, SceneEnded
    from fightlog.kit.table import Post, Scribe, table_for
    from fightlog.reducers.folder import Folder

    events = log(ALLEY)
    end = events[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    kept = [*events[:47], RulingMade(seq=48, by="Gemma", action="void", target=21, reason="r1"),
            RulingMade(seq=49, by="Gemma", action="amend", target=44, reason="r2", changes={"taken": 59})]
    table, scribe = table_for("roe7"), Scribe(Folder(lambda seq: iter(kept[seq - 1:])).run(), end.seed)
    for posted in (e for e in events[47:] if isinstance(e, DeclarationPosted)):
        table.post(scribe, Post(actor=posted.actor, text=posted.text, actions=tuple(posted.actions)))
        table.end_turn(scribe)
    table.end(scribe, reveal=end.seed)
    full = [*kept, *scribe.events]
    roll = [e for e in full if isinstance(e, DiceRolled)][1]
    same = fork(full, roll.seq, ("dice[0].face", roll.dice[0].face))
    assert same.difference is None and same.dropped == () and same.departures == ()
    assert same.ending.winner[0] == same.ending.winner[1] is not None
