"""Posts: ``declaration_posted``, and the ``Action`` list it is read as."""

from msgspec import Struct

from fightlog.events.base import Event, Id, Scalar


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
