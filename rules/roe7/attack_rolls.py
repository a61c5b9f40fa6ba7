"""An attack roll (Basic Contested Roll; Critical Success or Failure; Close, Medium and Long
Range; Modifiers): its die by range band, its modifiers, whether it crits, and its outcome
against a defence. Pure rules the attack, the escape rules, the skill rolls and the audit
share."""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.actions import value_written
from fightlog.rules.roe7.fighters import Fighter, Mods, capped
from fightlog.rules.roe7.geometry import Band
from fightlog.rules.roe7.options import Roe7Options
from fightlog.rules.roe7.sheet import Weapon
from fightlog.rules.roe7.tokens import WeaponToken

BANDS: Final[tuple[Band, ...]] = ("close", "medium", "long")


class Outcome(NamedTuple):
    """One attack roll against one defence: hit, critical success, critical failure."""

    hit: bool
    crit: bool
    fumble: bool
    notes: tuple[str, ...]

    @property
    def critical(self) -> Literal["success", "failure"] | None:
        """What ``attack_resolved.critical`` records: a fumble, or a critical that hit."""
        if self.fumble:
            return "failure"
        return "success" if self.crit and self.hit else None


def attack_die(token: WeaponToken, where: Band) -> int:
    """Close 1d100; medium 1d20 (sniper 1d70); long 1d10 (sniper 1d60)."""
    if where == "close":
        return 100
    if where == "medium":
        return 70 if token.sniper else 20
    return 60 if token.sniper else 10


def can_crit(token: WeaponToken, where: Band) -> bool:
    """Only sniper-class weapons crit at medium or long range."""
    return where == "close" or token.sniper


def band_of_die(token: WeaponToken, sides: int) -> Band | None:
    """The range band an attack die of ``sides`` was rolled at with ``token`` (``attack_die``
    read backwards), or ``None`` when no band gives that die."""
    for where in BANDS:
        if attack_die(token, where) == sides:
            return where
    return None


def stray_hit(score: int, dodge_total: int, dodge_face: int) -> bool:
    """Firing into Melee: a shot hits an ally in the way, or someone caught in automatic
    fire, when it beats their dodge (a tie to the one dodging) and the dodge is not a
    natural 100."""
    return score > dodge_total and dodge_face != 100


_HIT: Final = Outcome(True, False, False, ())
_MISS: Final = Outcome(False, False, False, ())
_TIE: Final = Outcome(False, False, False, ("tie: the defender wins",))
"""``outcome``'s answers when no natural face decides (built once: it runs for every attack)."""


def outcome(natural: int, total: int, sides: int, crit_allowed: bool, defence: tuple[int, int], opts: Roe7Options) -> Outcome:
    """Basic Contested Roll and Critical Success or Failure: the higher wins, a tie goes to
    the defender; a natural 1 misses; the defender's natural 1 is hit; the attacker's natural
    maximum (where a crit is allowed) hits unless the defender rolls a natural 100, which
    dodges anything else too. ``defence`` is the dodge's (total, natural die)."""
    against, natural_def = defence
    if 1 < natural < sides and 1 < natural_def < 100:  # no natural face decides: the common case
        return _HIT if total > against else _TIE if total == against else _MISS
    crit = natural == sides and crit_allowed
    notes: list[str] = []
    if natural == 1 and not (natural_def == 1 and opts.both_natural_ones == "hit"):
        return Outcome(False, False, True, ("natural 1: the attack fails and the next action is lost",))
    if natural == sides and not crit:
        notes.append(f"natural {natural} is no critical at this range without a sniper weapon")
    if natural_def == 100:
        return Outcome(False, False, natural == 1, (*notes, "critical dodge: natural 100"))
    if crit:
        note = f"critical: natural {natural}, only a critical dodge stops it"
        return Outcome(True, True, False, (*notes, note))
    if natural_def == 1:
        return Outcome(True, False, natural == 1, (*notes, "defender's natural 1: hit"))
    if total == against:
        notes.append("tie: the defender wins")
    return Outcome(total > against, False, False, tuple(notes))


def accuracy(a: Fighter, token: WeaponToken, weapon: Weapon | None, dual: int, action: Action) -> Mods:
    """Attack modifiers, capped: the sheet's for the weapon's family (and attachments),
    magika surge, stance (ranged only), suppression, dual wielding, Adaptability's -5 with
    guns, a GM circumstance modifier (within +/-5)."""
    opts = a.options
    if token.family == "melee":
        mods = a.mods("melee_accuracy", weapon)
    elif token.family == "magika":
        mods = a.mods("magika_accuracy", weapon)
        if a.effect("magika_surge") is not None:
            mods.append((10, "magika surge"))
    else:
        mods = a.mods("ranged_accuracy", weapon) + a.racial_tech_mods()
        if a.has("prone"):
            mods.append((opts.prone_accuracy_bonus, "prone"))
        elif a.has("kneeling"):
            mods.append((opts.kneel_bonus, "kneeling"))
    if a.effect("suppressed") is not None:
        mods.append((-opts.suppression_penalty, "suppressed"))
    if dual:
        mods.append((-dual, "dual wielding"))
    return capped(mods + gm_modifier(action, opts), opts.modifier_cap)


def gm_modifier(action: Action, opts: Roe7Options) -> Mods:
    """A GM's circumstance modifier (``gm=N``): a whole number within +/-5 (Skill Rolls).
    Anything else written as ``gm=`` (``abc``, ``5.5``, ``true``) is refused, naming it,
    rather than rolled without it (``rules.incomplete``: the post cannot be read, as a
    position that is not whole metres)."""
    if "gm" not in action.params:
        return []
    gm = action.params["gm"]
    if not isinstance(gm, int) or isinstance(gm, bool):
        raise RefusedError(
            f"gm={value_written(gm)}: a GM circumstance modifier is a whole number within "
            f"+/-{opts.gm_modifier_limit} (gm=-3, gm=2)",
            code="rules.incomplete",
        )
    if abs(gm) > opts.gm_modifier_limit:
        raise RefusedError(f"a GM circumstance modifier is within +/-{opts.gm_modifier_limit}, not {gm}")
    return [(gm, "GM circumstance")] if gm else []

