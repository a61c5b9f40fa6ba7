"""``kit.fighters.absent``: the refusal for naming someone who is not there to be named."""

from __future__ import annotations

import msgspec

from fightlog.events.model import FORMAT_VERSION, CombatantJoined, SceneStarted, StatusChanged
from fightlog.kit.fighters import absent
from fightlog.reducers.fold import fold


def test_someone_not_joined_and_someone_out_of_the_fight() -> None:
    events = [SceneStarted(scene="s", ruleset="generic", format=FORMAT_VERSION),
              CombatantJoined(actor="ash", name="Ash", pools={"hp": 1}),
              CombatantJoined(actor="cinder", name="Cinder", pools={"hp": 1}),
              StatusChanged(actor="ash", status="defeated")]
    state = fold(msgspec.structs.replace(e, seq=i) for i, e in enumerate(events, start=1))
    assert absent(state, "zed").message == "'zed' is not in the fight (combatants: ash, cinder)"
    # it said "'ash' is not in the fight (combatants: ash, cinder)" of one defeated
    assert absent(state, "ash").message == "'ash' is out of the fight (defeated)"
    assert absent(state, "ash").code == "rules.target"
