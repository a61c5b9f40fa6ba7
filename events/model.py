"""The event kinds: one tagged union of frozen msgspec Structs.

A log is a sequence of these, one JSON object per line, tagged by ``kind``. The Struct
definitions *are* the format: ``fightlog schema`` prints the JSON Schema generated from them
and ``docs/events.md`` explains each kind with a real line.

Compatibility policy (``FORMAT_VERSION``): fields are only ever added, always with a default;
an existing field never changes type or meaning; a kind is never removed. Old logs therefore
keep loading. Unknown fields are ignored on read so a newer writer's extra fields do not stop
an older reader.

Fields whose meaning differs between rulesets (a roll's ``purpose``, an effect's ``name``,
a status) are open strings with documented common values; rulesets interpret them.
"""

from datetime import datetime
from typing import Annotated, Any, Literal, TypeAlias, Union

from msgspec import Meta, Struct

FORMAT_VERSION = 1
"""Version of the log format written by this release (recorded in ``scene_started``)."""

GENESIS = "0" * 64
"""The ``prev`` of the first line of every log."""

Id = Annotated[str, Meta(min_length=1, max_length=200)]
"""A combatant, effect or scene identifier."""

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
"""A lower-case hex SHA-256 digest."""

Scalar: TypeAlias = Union[str, int, bool, None]
"""Values allowed in free-form parameter maps (no floats: game arithmetic is integral)."""

Json: TypeAlias = Any
"""Any JSON value (sheet snapshots, ruleset options). Rulesets validate what they read;
by convention game numbers are integers, never floats."""


class Origin(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where an event came from, when it was not produced by the engine itself.

    Lets a post from a chat transcript or a roll from a dice bot enter the log without loss:
    ``medium`` names the source (``sl-chat``, ``discord``, ``forum``, ``bot``, ``hud``, ``manual``),
    ``ref`` locates it there (a message id, ``file:line``), ``author`` is the name the source
    showed (a webhook proxy, an SL object) and ``raw`` is the original text verbatim.
    """

    medium: str
    ref: str | None = None
    author: str | None = None
    raw: str | None = None
    edited: datetime | None = None
    """When the source says the message was edited (Discord's ``timestampEdited``)."""


class Event(Struct, frozen=True, omit_defaults=True, tag_field="kind", gc=False):
    """Fields every event carries.

    ``seq`` counts lines from 1 with no gaps; ``prev`` is the hex SHA-256 of the previous
    line's bytes (without its line terminator), ``GENESIS`` on line 1. Both are assigned by the
    store under its lock: code that creates events leaves them at their defaults (0 and "") and
    the store seals them. ``at`` is the time the source gives (live play, transcripts); scripted
    fights leave it out so their logs are byte-for-byte reproducible.

    ``batch`` is ``[i, n]`` on the i-th of the n events of one multi-event append to a log
    that has events already (also set by the store; a single-event append, and the batch that
    starts a log, which the store creates whole, carry none): the reader knows a batch whose
    last event is missing (a crash during the append) and ``verify --repair`` moves it aside.

    These base fields come first on every line (``kind``, ``seq``, ``prev``...); every subclass
    declares ``kw_only=True`` so its own fields are keyword-only.
    """

    seq: Annotated[int, Meta(ge=0)] = 0
    prev: str = ""
    at: datetime | None = None
    origin: Origin | None = None
    batch: tuple[Annotated[int, Meta(ge=1)], Annotated[int, Meta(ge=2)]] | None = None


# --------------------------------------------------------------------------- scene lifecycle


class DiceCommitment(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The scene's commitment to its secret dice seed (see ``docs/dice.md``).

    ``commitment`` is the hex SHA-256 of the seed bytes. ``seed`` is present only for a scene
    created in open mode (the seed is revealed at once); otherwise it is revealed in
    ``scene_ended``.
    """

    scheme: str = "hmac-sha256-v1"
    commitment: Hex64
    seed: str | None = None


class Transcript(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The chat transcript a log was imported from (``fightlog import``): its format, file
    name, the hex SHA-256 of its bytes and the importer's version."""

    format: str
    file: str
    sha256: Hex64
    importer: str


class SceneStarted(Event, tag="scene_started", kw_only=True, frozen=True):
    """First line of every log: which ruleset and options govern it, and the dice commitment.

    ``format`` is the log format version the writer used (``FORMAT_VERSION``); it is required,
    never defaulted, so that a reader always knows which rules of the format a log follows.
    ``transcript`` is set on a log imported from a chat transcript.
    """

    scene: Id
    ruleset: Id
    format: Annotated[int, Meta(ge=1)]
    options: dict[str, Json] = {}
    dice: DiceCommitment | None = None
    title: str | None = None
    gm: str | None = None
    transcript: Transcript | None = None


class SceneEnded(Event, tag="scene_ended", kw_only=True, frozen=True):
    """The scene is over. ``seed`` reveals the dice seed (hex) so anyone can verify the rolls."""

    seed: str | None = None
    winner: str | None = None
    reason: str | None = None


# --------------------------------------------------------------------------- combatants


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

    ``order`` lists every combatant who posts, first to last; ``reason`` says why it changed.
    """

    order: list[Id]
    reason: str = "initiative"
    by: str | None = None


# --------------------------------------------------------------------------- rounds and turns


class RoundStarted(Event, tag="round_started", kw_only=True, frozen=True):
    round: Annotated[int, Meta(ge=1)]


class RoundEnded(Event, tag="round_ended", kw_only=True, frozen=True):
    round: Annotated[int, Meta(ge=1)]


class TurnStarted(Event, tag="turn_started", kw_only=True, frozen=True):
    actor: Id
    round: Annotated[int, Meta(ge=1)]


class TurnEnded(Event, tag="turn_ended", kw_only=True, frozen=True):
    actor: Id
    round: Annotated[int, Meta(ge=1)]


# --------------------------------------------------------------------------- declarations


class Action(Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """One intended action inside a declaration.

    ``type`` is open (``attack``, ``move``, ``sprint``, ``reload``, ``aim``, ``draw``,
    ``flee``, ``com_call``, ``throw``, ``use_item``, ``cast``, ``dodge``, ``parry``,
    ``counter``, ``hold``, ``wait``, ``stance``, ``extinguish``, ``interrupt``, ``other``).
    ``mode`` qualifies an attack (``single``, ``auto``, ``suppressive``, ``multi``, ``dual``,
    ``aimed``, ``sneak``). ``cost`` names the part of the turn it spends, in the ruleset's terms
    (``action``, ``move``, ``standard``, ``minor``, ``immediate``, ``full``).
    """

    type: str
    target: str | None = None
    targets: list[str] = []
    weapon: str | None = None
    mode: str | None = None
    range: str | None = None
    distance: int | None = None
    item: str | None = None
    cost: str | None = None
    params: dict[str, Scalar] = {}


class DeclarationPosted(Event, tag="declaration_posted", kw_only=True, frozen=True):
    """A post: what the actor says they do. ``text`` is the post as written.

    ``actions`` is its structured reading (empty for pure role-play or out-of-character posts).
    ``responds_to`` is the ``seq`` of the post this one answers (a duel's defensive turn, an
    interrupt). ``ooc`` marks an out-of-character post, such as claiming a posting slot.
    """

    actor: Id
    text: str = ""
    actions: list[Action] = []
    responds_to: int | None = None
    ooc: bool = False


# --------------------------------------------------------------------------- dice


class Die(Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """One die as rolled. ``kept`` is false for a die a keep/drop removed; ``rerolled`` lists
    the faces this die replaced (oldest first); ``exploded`` marks a die added by an explosion;
    ``label`` distinguishes dice of one roll (en5.1's ``black`` and ``white``)."""

    sides: Annotated[int, Meta(ge=1)]
    face: int
    kept: bool = True
    rerolled: list[int] = []
    exploded: bool = False
    label: str | None = None


class Modifier(Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """A number added to a roll and where it came from (``scope``, ``racial``, ``gm``...)."""

    value: int
    source: str


class DiceRolled(Event, tag="dice_rolled", kw_only=True, frozen=True):
    """A roll: every die, every modifier with its source, and the total.

    ``generator`` is ``engine`` for a roll drawn from the scene's seeded generator (``index`` is
    its roll number, so anyone holding the revealed seed can recompute its faces) or
    ``external`` for a roll made elsewhere (``tool`` names the bot or HUD); external rolls are
    checked for arithmetic and face ranges only. ``purpose`` is open (``attack``, ``defense``,
    ``dodge``, ``damage``, ``initiative``, ``flee``, ``save``, ``skill``, ``soak``...).
    ``for_seq`` links the roll to the declaration it resolves. ``dialect`` names the notation
    an external roll's ``notation`` is written in (``avrae``, ``dice-maiden``...; None:
    fightlog's own); the audit re-evaluates the roll under it.
    """

    roller: Id
    notation: str
    dice: list[Die]
    total: int
    purpose: str = "other"
    modifiers: list[Modifier] = []
    generator: Literal["engine", "external"] = "engine"
    index: Annotated[int, Meta(ge=0)] | None = None
    tool: str | None = None
    for_seq: int | None = None
    label: str | None = None
    dialect: str | None = None


# --------------------------------------------------------------------------- outcomes


class AttackResolved(Event, tag="attack_resolved", kw_only=True, frozen=True):
    """The outcome of an attack (or any opposed or target-number check against someone).

    ``score`` is the attacker's final result, ``against`` what it had to beat (the opposing
    roll, Evasion, a threshold, a target number); ``margin`` is the ruleset's measure of the
    difference (Traveller's Effect, net hits). ``rolls`` are the ``seq`` of the dice events used.
    ``critical`` is ``success`` or ``failure`` when one applies.
    """

    attacker: Id
    target: Id
    hit: bool
    score: int
    against: int
    margin: int | None = None
    critical: Literal["success", "failure"] | None = None
    rolls: list[int] = []
    weapon: str | None = None
    declaration: int | None = None
    notes: list[str] = []


class DamageApplied(Event, tag="damage_applied", kw_only=True, frozen=True):
    """Damage taken from one pool: ``raw`` before reduction, ``reduced_by`` (DR, armour, soak),
    ``taken`` what left the pool. ``cause`` is the ``seq`` of the attack, tick or explosion."""

    target: Id
    raw: Annotated[int, Meta(ge=0)]
    taken: Annotated[int, Meta(ge=0)]
    reduced_by: Annotated[int, Meta(ge=0)] = 0
    pool: str = "hp"
    damage_type: str | None = None
    source: str | None = None
    cause: int | None = None


class HealingApplied(Event, tag="healing_applied", kw_only=True, frozen=True):
    """A pool restored (HP healed, armour repaired, MP regained)."""

    target: Id
    amount: Annotated[int, Meta(ge=0)]
    pool: str = "hp"
    source: str | None = None
    cause: int | None = None


class ResourceSpent(Event, tag="resource_spent", kw_only=True, frozen=True):
    """Something used up: MP for a spell, a round of ammunition, a flee attempt, a grenade."""

    actor: Id
    resource: str
    amount: Annotated[int, Meta(ge=0)] = 1
    cause: int | None = None


class WeaponReloaded(Event, tag="weapon_reloaded", kw_only=True, frozen=True):
    """A weapon is ready to fire again (reload, bolt worked, shell racked)."""

    actor: Id
    weapon: str
    cause: int | None = None


class Moved(Event, tag="moved", kw_only=True, frozen=True):
    """A movement: metres covered and/or the range band reached relative to someone, and
    where it ended (``x``, ``y`` in whole metres on the scene's map) when positions are kept."""

    actor: Id
    metres: int | None = None
    band: str | None = None
    relative_to: str | None = None
    points: int | None = None
    cause: int | None = None
    x: int | None = None
    y: int | None = None


# --------------------------------------------------------------------------- effects


class EffectApplied(Event, tag="effect_applied", kw_only=True, frozen=True):
    """An effect placed on a target: bleed, stun, burn, a buff, a zone's hold on someone.

    ``effect`` is a scene-unique id so ticks and expiry can name it. ``duration`` is in turns
    (absent: until removed); ``counts_on`` says whose turns count it down (the victim's for a
    debuff, the source's for one's own effects); ``magnitude`` or ``dice`` give the per-tick
    impact; ``refreshes`` names an earlier effect this one resets instead of stacking with;
    ``params`` holds what else the ruleset needs (a grenade's spot and blast, an aim's target).
    """

    effect: Id
    name: str
    target: Id
    source: str | None = None
    stacks: Annotated[int, Meta(ge=1)] = 1
    duration: Annotated[int, Meta(ge=0)] | None = None
    counts_on: str | None = None
    magnitude: int | None = None
    dice: str | None = None
    refreshes: str | None = None
    cause: int | None = None
    params: dict[str, Scalar] = {}


class EffectTicked(Event, tag="effect_ticked", kw_only=True, frozen=True):
    """An effect took hold for a turn (a bleed or burn firing at the start of the victim's
    turn). Damage it deals follows as ``damage_applied`` with ``cause`` set to this ``seq``."""

    effect: Id
    target: Id
    remaining: int | None = None


class EffectCountedDown(Event, tag="effect_counted_down", kw_only=True, frozen=True):
    """An effect's duration went down by one at the end of the counting turn.
    ``remaining`` is the number of turns left afterwards."""

    effect: Id
    target: Id
    remaining: Annotated[int, Meta(ge=0)]


class EffectExpired(Event, tag="effect_expired", kw_only=True, frozen=True):
    """An effect ended: its duration ran out, or it was removed (extinguished, cured,
    replaced by a refresh)."""

    effect: Id
    target: Id
    reason: str = "duration"


class StatusChanged(Event, tag="status_changed", kw_only=True, frozen=True):
    """A status gained (``on``) or lost: ``stunned``, ``prone``, ``kneeling``, ``held``,
    ``hidden``, ``disarmed``, ``wounded``, ``mortally_wounded``, ``defeated``, ``fled``,
    ``arrived``, ``unconscious``, ``delaying``, ``holding``, ``immune_stun``..."""

    actor: Id
    status: str
    on: bool = True
    cause: int | None = None
    note: str | None = None


# --------------------------------------------------------------------------- rulings


class RulingMade(Event, tag="ruling_made", kw_only=True, frozen=True):
    """A GM ruling on an earlier event, which stays in the log untouched.

    ``action`` is ``void`` (treat the event as not having happened), ``amend`` (treat it as if
    ``changes`` had been its fields) or ``accept`` (let a finding stand, naming its ``finding``
    code) or ``withdraw`` (``target`` is an earlier ruling, which stops applying).
    """

    by: str
    action: Literal["void", "amend", "accept", "withdraw"]
    target: Annotated[int, Meta(ge=1)]
    reason: str = ""
    changes: dict[str, Json] = {}
    finding: str | None = None


AnyEvent: TypeAlias = Union[
    SceneStarted,
    SceneEnded,
    CombatantJoined,
    InitiativeRolled,
    InitiativeSet,
    RoundStarted,
    RoundEnded,
    TurnStarted,
    TurnEnded,
    DeclarationPosted,
    DiceRolled,
    AttackResolved,
    DamageApplied,
    HealingApplied,
    ResourceSpent,
    WeaponReloaded,
    Moved,
    EffectApplied,
    EffectTicked,
    EffectCountedDown,
    EffectExpired,
    StatusChanged,
    RulingMade,
]
"""Every kind of event, as one tagged union."""

EVENT_TYPES: tuple[type[Event], ...] = AnyEvent.__args__  # type: ignore[attr-defined]

KINDS: dict[str, type[Event]] = {str(t.__struct_config__.tag): t for t in EVENT_TYPES}
"""Kind tag -> event class."""
