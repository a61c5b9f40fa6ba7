"""Who fights, and in what order: ``combatant_joined``, ``initiative_rolled``, ``initiative_set``."""

from fightlog.events.base import Event, Id, Json


class CombatantJoined(Event, tag="combatant_joined", kw_only=True, frozen=True):
    """A combatant enters the scene, with a snapshot of their sheet as it was then.

    ``pools`` are the starting values of numeric pools the ruleset tracks (``hp``, ``armour``,
    ``mp``, ``wounds``...), ``pool_max`` their maxima where they differ. ``sheet`` is the
    ruleset-specific sheet snapshot. ``salt`` is the participant's dice salt (hex), mixed into
    every later roll. ``arrival`` marks someone entering a fight in progress; ``after`` names the
    combatant whose posting slot they follow; ``owner`` links a pet, minion or summon.
    """

    actor: Id
    name: str
    side: str | None = None
    controller: str | None = None
    role: str = "pc"
    pools: dict[str, int] = {}
    pool_max: dict[str, int] = {}
    sheet: dict[str, Json] = {}
    salt: str | None = None
    arrival: bool = False
    after: str | None = None
    owner: str | None = None


class InitiativeRolled(Event, tag="initiative_rolled", kw_only=True, frozen=True):
    """An initiative score for one combatant, or for a group rolling as one (a party roll).

    ``roll`` is the ``seq`` of the ``dice_rolled`` event it came from (absent for a score
    computed without dice); ``tiebreak`` holds the ruleset's tie-breakers in order (DEX, savvy...).
    """

    actor: Id
    score: int
    roll: int | None = None
    tiebreak: list[int] = []
    group: list[str] = []


class InitiativeSet(Event, tag="initiative_set", kw_only=True, frozen=True):
    """The posting order, as decided by initiative, a GM, an ambush, a delay or a drop.

    ``order`` lists every combatant who posts, first to last; ``reason`` says why it changed;
    ``cause`` the post that changed it, when one did (an immediate action's drop).
    """

    order: list[Id]
    reason: str = "initiative"
    by: str | None = None
    cause: int | None = None
