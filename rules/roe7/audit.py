"""The audit's ``roe7`` checks: what each logged event should have been under the RoE rules.

``Roe7Rules.audit_checks`` builds one ``Roe7Audit`` per audited scene (imported lazily: this
module reads sheets, so it loads pydantic, which the fold must not). Each check recomputes,
with the engine's own rule functions, what an event should say from the logged inputs (the
rolls an outcome cites, the folded state before it) and reports where the log differs:

- ``dice_rolled``: the +30 cap on modifiers (``fighters.capped``); a modifier from an effect
  that is no longer on the roller (suppressed, magika surge).
- ``attack_resolved``: hit or miss and the critical from the cited rolls (``attack_rolls.outcome``,
  ``attack_rolls.stray_hit``, ``harm.blast_dodged``, ``tactics.skill_won``); a tie given to the
  attacker; the lost action a natural 1 costs (checked when the turn ends); a weapon fired
  while it needs a reload or is cooling down.
- ``damage_applied``: ``taken`` from ``raw`` and ``reduced_by`` (``harm.reduce_damage``), the
  DR cap, ``raw`` against the damage roll it cites, a tick's damage (``harm.bleed_damage``,
  ``harm.burn_notation``).
- ``effect_ticked`` / ``effect_counted_down``: ticks only for damaging debuffs
  (``harm.DAMAGING``), once, at the start of the victim's turn, of an effect still active;
  a tick missed is reported when the start-of-turn phase ends (the turn's first post, or its
  end).
- ``declaration_posted``: the turn's allowance (``table.breach``), interrupts
  (``escape.interrupt_breach``), a poster out of the fight, the flee limit
  (``escape.flees_left``).

Checks run for every event of their kind, so each returns at once when there is nothing to
check, and the most common paths (a post in one's own turn, a rolled damage) are written
out rather than split into helpers: the audit's throughput rests on them
(``bench/bench_audit.py``). On a big log the commonest outcome, an attack against a dodge, is
checked beside the fold, in the audit's second process (``split_checks``), and so is a
rolled hit's damage. Options are read once per scene, sheets only when a check
needs them (a DR once per sheet snapshot), and messages are written only for findings. The
few facts a check needs from earlier events that the state does not keep (when an effect
ended, the lost actions applied, whether the start-of-turn phase is over) are remembered
here, bounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, cast

from fightlog.kit.chained import merged
from fightlog.kit.checks import Check, Clear, RecordSplit
from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    InitiativeSet,
    StatusChanged,
    TurnEnded,
)
from fightlog.kit.hp_condition import HpCondition
from fightlog.kit.initiative_order import initiative_set
from fightlog.rules.roe7.audit_posts import PostChecks
from fightlog.rules.roe7.ruleset import OUT


def checks() -> Mapping[type, Check]:
    """A fresh set of checks for one audited scene (``Roe7Rules.audit_checks``)."""
    return Roe7Audit().checks()


def split_checks() -> RecordSplit:
    """``checks()`` split for the audit on two processes (``Roe7Rules.audit_record_checks``):
    the modifier cap reads only the roll and the scene's options, so it moves beside the fold
    whole; an attack's outcome against the dodge it cites needs only the two rolls and the
    options, so ``attack_clear`` runs there for it (keeping the recent rolls), and the state
    check of an attack the test clears is left with the weapon's readiness; damage from a
    rolled hit needs only its own numbers, the roll and the outcome the roll is for, so
    ``damage_clear`` runs there for it, and a damage the test clears is not checked again.
    Together they report what ``checks()`` reports."""
    beside = Roe7Audit()
    return RecordSplit(
        state=Roe7Audit(split=True).checks(),
        record={DiceRolled: cast(Check, beside.capped)},
        kept=frozenset({DiceRolled, AttackResolved}),
        clears={AttackResolved: cast(Clear, beside.attack_clear), DamageApplied: cast(Clear, beside.damage_clear)},
    )


class Roe7Audit(PostChecks):
    """The checks of one audited scene, with the little they remember (see the module
    docstring). One class written in layers, a module per family of checks (each class adds
    its family to the one it extends; ``audit_scene`` says why a chain):

    - ``audit_scene.SceneFacts``: the scene's options and weapon tokens, read once;
    - ``audit_rolls.RollChecks``: ``dice_rolled`` (the modifier cap, expired modifiers);
    - ``audit_effects.EffectChecks``: effects applied, ticked, counted down, expired; the
      start-of-turn phase; the lost actions natural 1s owe;
    - ``audit_damage.DamageChecks``: ``damage_applied``;
    - ``audit_attacks.AttackChecks``: ``attack_resolved``;
    - ``audit_posts.PostChecks``: ``declaration_posted`` and ``turn_ended``.
    """

    def __init__(self, *, split: bool = False) -> None:
        super().__init__()
        self._split = split
        """``dice_rolled``'s modifier cap is checked elsewhere (``split_checks``)."""

    def checks(self) -> Mapping[type, Check]:
        # and the defeats against the HP (Wounded: ``fightlog.kit.hp_condition``)
        return merged(self._own(), HpCondition(OUT, "defeated", "defeated").checks())

    def _own(self) -> dict[type, Check]:
        return {
            DiceRolled: cast(Check, self.granted if self._split else self.rolled),
            AttackResolved: cast(Check, self.resolved),
            DamageApplied: cast(Check, self.damaged),
            EffectApplied: cast(Check, self.applied),
            StatusChanged: cast(Check, self.status),
            EffectTicked: cast(Check, self.ticked),
            EffectCountedDown: cast(Check, self.counted_down),
            EffectExpired: cast(Check, self.expired),
            DeclarationPosted: cast(Check, self.posted),
            TurnEnded: cast(Check, self.turn_ended),
            InitiativeSet: cast(Check, initiative_set),
        }

