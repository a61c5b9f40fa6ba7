"""The kit's table skeleton (``fightlog.kit.table_base``), the same in every playable ruleset:
a refused ``begin``, ``post`` or ``end_turn`` leaves the scribe as it was (``begin`` was not
undone in roe7 before the kit), and the shared refusals come first, worded alike."""

from __future__ import annotations

import pytest

from fightlog.dice import dice_commitment
from fightlog.errors import RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, DeclarationPosted, InitiativeSet, SceneStarted
from fightlog.kit.table import Post, Scribe, playable, table_for
from fightlog.kit.table_base import TableBase
from fightlog.reducers.state import EMPTY
from tests.conftest import FIXTURES

ROSTERS = {"roe7": FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml",
           "d20-evasion": FIXTURES / "d20-evasion" / "rosters" / "john.toml",
           "en51": FIXTURES / "en51" / "rosters" / "tavern.toml",
           "bleeding-sun": FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml"}
SEED = "5eed" * 16


def opened(ruleset: str, joining: int) -> Scribe:
    table = table_for(ruleset)
    scribe = Scribe(EMPTY, SEED)
    scribe.emit(SceneStarted(scene="s", ruleset=ruleset, format=FORMAT_VERSION, options=table.options({}),
                             dice=dice_commitment(SEED)))
    for entrant in list(table.roster(str(ROSTERS[ruleset])))[:joining]:
        table.join(scribe, entrant)
    return scribe


def refused(scribe: Scribe, step: object) -> RefusedError:
    before, count = scribe.state, len(scribe.events)
    with pytest.raises(RefusedError) as caught:
        step()  # type: ignore[operator]
    assert scribe.state == before and len(scribe.events) == count
    return caught.value


@pytest.mark.parametrize("ruleset", ["roe7", "d20-evasion", "en51", "bleeding-sun"])
def test_every_table_is_the_kits_skeleton(ruleset: str) -> None:
    assert ruleset in playable()
    table = table_for(ruleset)
    assert isinstance(table, TableBase)
    alone = opened(ruleset, 1)
    assert refused(alone, lambda: table.begin(alone)).message == "a fight needs at least two combatants in it"
    actor = next(iter(alone.state.combatants))
    error = refused(alone, lambda: table.post(alone, Post(actor=actor, actions=(Action(type="teleport"),))))
    assert error.code == "rules.unknown-action"
    error = refused(alone, lambda: table.post(alone, Post(actor=actor, text="hello")))
    assert (error.message, error.code) == ("the fight has not begun (begin it first)", "order.out-of-turn")
    error = refused(alone, lambda: table.post(alone, Post(actor="nobody")))
    assert error.code == "order.not-in-fight" and "'nobody' is not in the fight" in error.message
    assert refused(alone, lambda: table.end_turn(alone)).message == "no turn is open (begin the fight first)"
    table.post(alone, Post(actor=actor, text="(brb)", ooc=True))
    said = alone.events[-1]
    assert isinstance(said, DeclarationPosted) and said.ooc and said.actor == actor


def test_a_begin_refused_part_way_leaves_no_trace() -> None:
    """What the drift between the two tables hid: ``begin`` refused after it emitted keeps
    nothing, in every ruleset (the skeleton's), as ``post`` and ``end_turn``."""

    class Halting(TableBase):
        id = "roe7"

        def open_fight(self, scribe: Scribe) -> None:
            scribe.emit(InitiativeSet(order=sorted(scribe.state.combatants), reason="order joined"))
            raise RefusedError("halted after the order was set")

    scribe = opened("roe7", 2)
    assert refused(scribe, lambda: Halting().begin(scribe)).message == "halted after the order was set"
