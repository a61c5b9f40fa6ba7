"""The RoE audit's checks of ``dice_rolled`` (``audit.Roe7Audit``): the +30 cap on a roll's
modifiers (``fighters.capped``; Modifiers), and a modifier from an effect that is no longer
on the roller (suppressed, magika surge: Buffs; Debuffs)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from fightlog.events.model import DiceRolled
from fightlog.kit.checks import AuditView
from fightlog.rules.roe7.audit_range import check_range_die
from fightlog.reducers.state import SceneState
from fightlog.rules.roe7.audit_scene import SceneFacts

EFFECT_MODIFIERS: Final[Mapping[str, str]] = {"suppressed": "suppressed", "magika surge": "magika_surge"}
"""Modifier source -> the effect on the roller that grants it (``attack_rolls.accuracy``,
``Fighter.damage_mods``)."""


_FLAT: Final = re.compile(r"\s*[0-9]*[dD][0-9]+((?:\s*[+-]\s*[0-9]+)+)\s*")
"""One dice term and the numbers added to it or taken from it (``1d100+20+15``)."""
_NUMBER: Final = re.compile(r"[+-]\s*[0-9]+")


class RollChecks(SceneFacts):
    """The checks of ``dice_rolled`` (``rolled``; split in two for the audit on two
    processes: ``granted`` beside the state, ``capped`` beside the fold)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept_effects: set[tuple[str, str]] = set()
        """(target, effect name) the log has applied (``EffectChecks.applied``): a modifier
        from an effect the log never kept on its roller (an imported fight keeps none) is not
        judged as one that has ended."""
        self.flee_rolls: dict[str, int] = {}
        """Flee rolls made elsewhere, by roller: the attempts a hand-kept log rolled, whether
        or not it spends them (``resource_spent``) as the engine does (``PostChecks._flee``)."""

    def rolled(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """Modifiers beyond the cap (Modifiers); a modifier an effect no longer grants; an
        external attack roll's die against its range (``audit_range``)."""
        if event.generator == "external":
            self._external(before, event, view)
        mods = event.modifiers
        if not mods:
            if event.generator == "external":
                self._notation_cap(before, event, view)
            return
        if len(mods) == 1:  # the most common case with modifiers
            only = mods[0]
            total = only.value
            granted = only.source in EFFECT_MODIFIERS
        else:
            total = 0
            granted = False
            sources = EFFECT_MODIFIERS
            for m in mods:
                total += m.value
                if m.source in sources:
                    granted = True
        if granted:
            self._granted(before, event, view)
        if total <= 0:
            return
        scene = before.scene
        cap = (self._opts if scene is not None and scene.options is self._raw else self.options(before)).modifier_cap
        if total > cap:
            self._over_cap(event, total, cap, view)

    def granted(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """``rolled`` without the modifier cap (``split_checks``): a modifier an effect no
        longer grants; an external attack roll's die."""
        if event.generator == "external":
            self._external(before, event, view)
        mods = event.modifiers
        if not mods:
            return
        sources = EFFECT_MODIFIERS
        for m in mods:
            if m.source in sources:
                self._granted(before, event, view)
                return

    def capped(self, before: SceneState, event: DiceRolled, after: SceneState, view: AuditView) -> None:
        """``rolled``'s modifier cap alone (``split_checks``): it reads only ``event`` and the
        scene's options."""
        mods = event.modifiers
        if not mods:
            if event.generator == "external":
                self._notation_cap(before, event, view)
            return
        total = 0
        for m in mods:
            total += m.value
        if total <= 0:
            return
        scene = before.scene
        cap = (self._opts if scene is not None and scene.options is self._raw else self.options(before)).modifier_cap
        if total > cap:
            self._over_cap(event, total, cap, view)

    def _external(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        """A roll made elsewhere (a HUD's, a bot's): an attack's die against its range; a
        damage roll after the attack it follows missed (``damage_rolled``)."""
        if event.purpose == "attack":
            opts = self.options(before)
            check_range_die(before, event, view, lambda text: self.weapon(text, opts, before, event.roller))
        elif event.purpose == "damage" and event.for_seq is None:
            self.damage_rolled(before, event, view)
        elif event.purpose == "flee" and event.roller is not None:
            self.flee_rolls[event.roller] = self.flee_rolls.get(event.roller, 0) + 1

    def damage_rolled(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        """A damage roll citing nothing (an imported fight's): judged by ``AttackChecks``."""

    def _notation_cap(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        """A bot's roll carries its modifiers in the notation (Dice Maiden's ``1d100+35``,
        Avrae's ``1d20 + 20 + 15``): one dice term plus or minus numbers, the numbers summed."""
        found = _FLAT.fullmatch(event.notation)
        if found is None:
            return
        total = sum(int(n.replace(" ", "")) for n in _NUMBER.findall(found.group(1)))
        if total <= 0:
            return
        cap = self.options(before).modifier_cap
        if total > cap:
            what = "" if event.purpose in (None, "other") else f"{event.purpose} "
            view.report("rules.modifier-cap", event, f"{event.roller}'s {what}roll {event.notation} carries "
                        f"{total:+d} in modifiers: the cap is +{cap}", actor=event.roller)

    def _over_cap(self, event: DiceRolled, total: int, cap: int, view: AuditView) -> None:
        parts = ", ".join(f"{m.source} {m.value:+d}" for m in event.modifiers)
        view.report(
            "rules.modifier-cap", event,
            f"{event.roller}'s {event.purpose} roll carries {total:+d} in modifiers ({parts}): the cap is +{cap}",
            actor=event.roller,
        )

    def _granted(self, before: SceneState, event: DiceRolled, view: AuditView) -> None:
        roller = event.roller
        for m in event.modifiers:
            name = EFFECT_MODIFIERS.get(m.source)
            if name is None or (roller, name) not in self.kept_effects:
                continue
            if any(e.target == roller and e.name == name for e in before.effects.values()):
                continue
            view.report(
                "rules.expired-effect", event,
                f"{roller}'s {event.purpose} roll counts {m.source} {m.value:+d}, but no {name.replace('_', ' ')} "
                f"effect is on {roller} any more",
                actor=roller,
            )
