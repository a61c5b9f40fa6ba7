"""The ``bleeding-sun`` audit of where a waiting grenade lies (``rules.threshold``; Missing
with an explosive): the scatter its ``grenade`` effect keeps (``shift``, the hexes off the
aimed one) and the aimed target's threshold at the throw (``threshold``, ``net_from``), which
its blast is judged on when it goes off, against what the throw's hits and the state at the
throw give. Judged at the ``effect_applied``, on the state just before it: the throw's.
Without it a hand-kept log could lay a missed grenade on its target and the blast, read from
what the effect keeps, audit clean.
"""

from __future__ import annotations

from fightlog.errors import FightlogError
from fightlog.events.model import EffectApplied
from fightlog.kit.checks import AuditView
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.fuses import GRENADE, kept_threshold, plan_of
from fightlog.rules.bleedingsun.resolve import aimed_kept, aimed_threshold, scatter


def lies(before: SceneState, event: EffectApplied, after: SceneState, view: AuditView) -> None:
    """A grenade's kept scatter and threshold are those its throw gives."""
    if event.name != GRENADE or "shift" not in event.params or event.effect not in after.effects:
        return
    try:
        planned, rolled, _ = plan_of(after, event.effect)
        shift = scatter(rolled.hits, aimed_threshold(before, planned))
        aimed = aimed_kept(before, planned)
    except (FightlogError, ValueError, KeyError):
        return  # a sheet or params that do not read: judged where they are read
    who = event.source or event.target
    kept = event.params.get("shift")
    if kept != shift:
        view.report("rules.threshold", event, f"{who}'s grenade is recorded lying {kept} hexes off; its {rolled.hits} "
                    f"hits put it {shift} off", actor=who)
    said = kept_threshold(event.params)
    if said != aimed and aimed is not None:
        view.report("rules.threshold", event, f"{who}'s grenade keeps {planned.target}'s threshold as "
                    f"{None if said is None else said[0]}; at the throw the chart gives {aimed[0]}", actor=who)
