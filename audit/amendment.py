"""Amendments: a recorded event as changed by ``--set PATH=VALUE``, checked as hard as the
event itself.

One place for ``fightlog rule ... amend`` (a GM ruling) and ``fightlog dispute --set`` (a
fork), so both refuse the same changes with the same one-line messages (``InputError`` at
the event's ``seq``). ``amend`` checks, in this order:

- the path (``--set dice[0].facee: bad PATH: dice[0] has no facee``): every step a field of
  the event's type (or a key of a table), every index inside its list, and the top-level
  field one the caller lets change (``Reach``: a dispute changes facts, a ruling any field
  but where the rules and dice came from, ``RULING_FIXED``);
- the value (``--set: bad VALUE for total: Expected `int`, got `str```): the amended event
  must be a valid event of its kind (its msgspec Struct, constraints included);
- a roll whose dice, modifiers, notation or total change: every face on its die, the dice
  fitting the notation, the total what they add up to (recomputed when not set);
- a scene's options: options its ruleset accepts (``Table.options``, as ``play start``; the
  table found by the caller's ``table_for``);
- a combatant's sheet: one its ruleset can read (``Ruleset.sheet_problem``), if the sheet
  recorded was one;
- a damage or healing whose target or pool changes: a pool that target has, in the state
  before it (``fightlog.audit.pools``; when the caller gives the log's ``events``);
- any other change of who an event names (``actor``, ``attacker``, ``target``, a posting
  ``order``): combatants in the fight in the state before it (but the ``actor`` who joins).

``fightlog.audit.ruling_checks`` then checks a ruling against the whole log.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Final, Union, get_args, get_origin

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import DiceError, InputError, RefusedError
from fightlog.audit.pools import pool_problem
from fightlog.events.model import (AnyEvent, CombatantJoined, DamageApplied, DiceRolled, HealingApplied, RulingMade,
                                   SceneEnded, SceneStarted)
from fightlog.events.paths import parse_assignment, parse_path
from fightlog.dice import as_modifiers, read_roll
from fightlog.kit.actions import a_or_an
from fightlog.kit.ruleset import ruleset_for
from fightlog.kit.table import Table
from fightlog.reducers.fold import fold, plan_of
from fightlog.reducers.state import SceneState

TableFor = Callable[[str], Table]
"""How a ruleset id becomes its ``Table``, ``RefusedError`` for one without live play: the
caller's lookup (the CLI passes ``fightlog.kit.table.table_for``), so the audit never looks
a ruleset's table up itself."""


class Reach(Struct, frozen=True):
    """The top-level fields of one kind a change may set, examples of paths, and the
    fields it may not set with the reason (``fixed``)."""

    fields: frozenset[str]
    examples: str = ""
    fixed: Mapping[str, str] = {}


_BASE: Final = frozenset({"kind", "seq", "prev", "batch"})
"""No change reaches these: they place the event in the log."""

RULING_FIXED: Final[Mapping[type, Mapping[str, str]]] = {
    SceneStarted: {
        "ruleset": "the fight was played under it; start another scene for another ruleset",
        "format": "it says how the log is written, which a ruling does not change",
        "scene": "every engine roll was drawn with it",
        "dice": "it is the commitment every engine roll is checked against",
        "transcript": "it records the transcript the log was imported from",
    },
    SceneEnded: {"seed": "it reveals the seed every engine roll is checked against"},
    CombatantJoined: {"salt": "every engine roll after the join was drawn with it"},
    DiceRolled: {
        "generator": "it says where the roll came from",
        "index": "it places the roll in the seed's sequence",
    },
}
"""What a ruling may not amend, and why: where the fight's rules and dice came from."""

_RULING_EXAMPLES: Final[Mapping[type, str]] = {
    SceneStarted: "title, gm, options.modifier_cap",
    CombatantJoined: "name, pools.hp, sheet.weapons[0]",
    DiceRolled: "dice[0].face, modifiers[1].value, total",
}


def ruling_reach(kind: type) -> Reach:
    """What ``fightlog rule ... amend`` may set on an event of ``kind``: every field but
    ``kind``, ``seq``, ``prev`` and ``RULING_FIXED``."""
    fixed = RULING_FIXED.get(kind, {})
    names = frozenset(kind.__struct_fields__) - _BASE - fixed.keys()  # type: ignore[attr-defined]
    return Reach(names, _RULING_EXAMPLES.get(kind, ""), fixed)


def parse_sets(texts: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """``PATH=VALUE`` texts as ``(PATH, VALUE)`` pairs (the value JSON if it parses, else
    text); ``InputError`` for a text without ``=``."""
    out: list[tuple[str, Any]] = []
    for text in texts:
        _, value = parse_assignment(text)
        out.append((text.partition("=")[0].strip(), value))
    return tuple(out)


def changed_fields(event: AnyEvent, amended: AnyEvent) -> dict[str, Any]:
    """The fields ``amended`` changes of ``event``, with their values as amended (what a
    ruling's ``changes`` records; a field set back to its default is named too)."""
    before, after = msgspec.to_builtins(event), msgspec.to_builtins(amended)
    return {k: msgspec.to_builtins(getattr(amended, k)) for k in type(amended).__struct_fields__
            if before.get(k) != after.get(k)}


def amend(
    event: AnyEvent,
    sets: Sequence[tuple[str, Any]],
    reach: Reach,
    *,
    scene: AnyEvent | None,
    name: str,
    table_for: TableFor,
    events: Sequence[AnyEvent] = (),
) -> AnyEvent:
    """``event`` with ``sets`` (``(PATH, VALUE)`` pairs) applied and checked (see the module
    docstring); ``scene`` is the log's ``scene_started`` (its ruleset reads options and
    sheets; ``table_for`` finds its table); ``events``, the log, for what needs the state
    before the event. ``InputError`` at the event's ``seq`` when the change is refused."""
    seq, kind = event.seq, type(event)
    data = msgspec.to_builtins(event)
    for path, value in sets:
        _set(data, kind, path, value, reach, name, seq)
    try:
        amended: AnyEvent = msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        raise InputError(f"--set: bad VALUE {_validation(exc, sets)}", path=name, line=seq) from None
    tops = {_top(path): path for path, _ in sets}
    if isinstance(amended, DiceRolled) and tops.keys() & {"dice", "modifiers", "notation", "total"}:
        amended = _checked_roll(amended, tops.get("total"), name, seq)
    if isinstance(amended, SceneStarted) and "options" in tops:
        _check_options(amended, tops["options"], name, seq, table_for)
    if isinstance(amended, CombatantJoined) and isinstance(event, CombatantJoined) and "sheet" in tops:
        _check_sheet(event, amended, scene, tops["sheet"], name, seq)
    if isinstance(amended, (DamageApplied, HealingApplied)) and events and tops.keys() & {"pool", "target"}:
        _check_pool(amended, events, tops.get("pool") or tops["target"], name)
    elif events and tops.keys() & _NAMING:
        _check_named(amended, events, tops, name)
    return amended


# --------------------------------------------------------------------------- the path


def _set(data: dict[str, Any], kind: type, path: str, value: Any, reach: Reach, name: str, seq: int) -> None:
    """Put ``value`` at ``path`` in ``data`` (an event as plain data), checking the path
    against the event's type: every name a field (or a key of a table), every index inside
    its list."""
    where = f"--set {path}"
    try:
        tokens: list[str | int] = list(parse_path(path))
    except InputError as exc:
        raise InputError(f"{where}: bad PATH: {exc.message}", path=name, line=seq) from None
    top = tokens[0]
    assert isinstance(top, str)
    if top not in reach.fields:
        raise InputError(f"{where}: bad PATH: {_not_reached(kind, top, reach)}", path=name, line=seq)
    node: Any = data
    hint: Any = kind
    for depth, token in enumerate(tokens):
        shown = _shown(tokens[:depth]) or _tag(kind)
        hint = _step_type(hint, token)
        if hint is _NO_SUCH:
            raise InputError(f"{where}: bad PATH: {shown} has no {_shown([token]).lstrip('.')}", path=name, line=seq)
        last = depth == len(tokens) - 1
        if isinstance(token, int):
            if not isinstance(node, list) or token >= len(node):
                count = len(node) if isinstance(node, list) else 0
                raise InputError(f"{where}: bad PATH: {shown} has {count} item{'s' if count != 1 else ''}",
                                 path=name, line=seq)
        else:
            if not isinstance(node, dict):
                raise InputError(f"{where}: bad PATH: {shown} is not a table", path=name, line=seq)
            if token not in node and not last:
                node[token] = [] if _is_list(hint) else {}
        if last:
            node[token] = value
        else:
            node = node[token]


def _not_reached(kind: type, top: str, reach: Reach) -> str:
    """Why ``top`` cannot be set, with the fields that can."""
    allowed = f"fields: {', '.join(sorted(reach.fields))}"
    if reach.examples:
        allowed += f"; e.g. {reach.examples}"
    why = reach.fixed.get(top)
    if why is not None:
        return f"a ruling cannot change a {_tag(kind)}'s {top}: {why} ({allowed})"
    if top in _BASE:
        return f"the {top} of an event cannot be changed ({allowed})"
    if top not in kind.__struct_fields__:  # type: ignore[attr-defined]
        return f"{a_or_an(_tag(kind))} event has no field {top!r} ({allowed})"
    return f"a {_tag(kind)}'s {top} is not a fact to change ({allowed})"


_NO_SUCH: Final = object()


def _step_type(hint: Any, token: str | int) -> Any:
    """The type one step below ``hint`` along ``token`` (``Any`` when not known,
    ``_NO_SUCH`` when there is no such field or the step does not fit the type)."""
    hint = _bare(hint)
    if hint is Any:
        return Any
    if isinstance(token, int):
        return get_args(hint)[0] if get_origin(hint) is list else _NO_SUCH
    if isinstance(hint, type) and issubclass(hint, Struct):
        for field in msgspec.structs.fields(hint):
            if field.name == token and token not in _BASE:
                return field.type
        return _NO_SUCH
    if get_origin(hint) is dict:
        return get_args(hint)[1]
    return _NO_SUCH


def _bare(hint: Any) -> Any:
    """``hint`` without ``Annotated`` and ``None`` alternatives (``Any`` for other unions)."""
    for _ in range(8):
        origin = get_origin(hint)
        if origin is Annotated:
            hint = get_args(hint)[0]
        elif origin is Union or origin is types.UnionType:
            rest = [a for a in get_args(hint) if a is not type(None)]
            if len(rest) != 1:
                return Any
            hint = rest[0]
        else:
            break
    return hint


def _is_list(hint: Any) -> bool:
    return get_origin(_bare(hint)) is list


def _shown(tokens: Sequence[str | int]) -> str:
    return "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens).lstrip(".")


def _top(path: str) -> str:
    return path.partition("[")[0].partition(".")[0].strip()


def _tag(kind: type) -> str:
    return str(kind.__struct_config__.tag)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- the value


def _validation(exc: msgspec.ValidationError, sets: Sequence[tuple[str, Any]]) -> str:
    """``for PATH: what msgspec says`` (a key of a table, which msgspec shows as ``[...]``,
    named as the ``--set`` path into it)."""
    text = str(exc)
    message, _, where = text.rpartition(" - at `$")
    if not message:
        return f": {text}"
    where = where.rstrip("`").lstrip(".")
    if "[...]" in where:
        where = next((path for path, _ in sets if _top(path) == _top(where)), where)
    return f"for {where}: {message}"


def _checked_roll(roll: DiceRolled, total_path: str | None, name: str, seq: int) -> DiceRolled:
    """A changed roll whose faces fit its dice and its dice the notation; the total
    recomputed, or, when the change sets it (``total_path``), what they add up to."""
    for i, die in enumerate(roll.dice):
        for face in (*die.rerolled, die.face):
            if not 1 <= face <= die.sides:
                raise InputError(f"--set: bad VALUE: dice[{i}] shows {face} on a d{die.sides}, which has faces "
                                 f"1 to {die.sides}", path=name, line=seq)
    try:
        result = read_roll(roll)
        as_modifiers(roll.modifiers)
    except DiceError as exc:
        raise InputError(f"--set: bad VALUE: {exc}", path=name, line=seq) from None
    if total_path is not None and roll.total != result.total:
        raise InputError(f"--set {total_path}: bad VALUE: a total of {roll.total} is not what the dice and "
                         f"modifiers add up to ({result.total})", path=name, line=seq)
    return replace(roll, total=result.total)


def _state_before(seq: int, events: Sequence[AnyEvent]) -> SceneState:
    """The fight before event ``seq``, the rulings in force then applied."""
    before = [e for e in events if e.seq < seq]
    return fold(before, plan=plan_of(e for e in before if isinstance(e, RulingMade)))


def _check_pool(amended: DamageApplied | HealingApplied, events: Sequence[AnyEvent], path: str, name: str) -> None:
    """The pool an amended damage or healing names is one its target has, in the state before
    it (the rulings in force then applied)."""
    state = _state_before(amended.seq, events)
    problem = pool_problem(state, amended)
    if problem is not None:
        raise InputError(f"--set {path}: {problem}", path=name, line=amended.seq)


_NAMING: Final = frozenset({"actor", "attacker", "target", "order"})
"""The fields that name combatants (``_check_named``)."""


def _check_named(amended: AnyEvent, events: Sequence[AnyEvent], tops: Mapping[str, str], name: str) -> None:
    """Whoever an amended ``actor``, ``attacker``, ``target`` or ``order`` names is in the
    fight in the state before the event (the rulings in force then applied): a made-up id
    would leave a turn nobody can end, or an outcome about nobody."""
    state = _state_before(amended.seq, events)
    for field in sorted(tops.keys() & _NAMING):
        if field == "actor" and isinstance(amended, CombatantJoined):
            continue
        value = getattr(amended, field, None)
        named = value if isinstance(value, list) else [value]
        for who in named:
            if isinstance(who, str) and who not in state.combatants:
                known = ", ".join(sorted(state.combatants)) or "nobody yet"
                raise InputError(f"--set {tops[field]}: {who!r} is not in the fight (in it: {known})",
                                 path=name, line=amended.seq)


def _check_options(scene: SceneStarted, path: str, name: str, seq: int, table_for: TableFor) -> None:
    """Options the scene's ruleset accepts (a ruleset without a table takes any)."""
    try:
        table = table_for(scene.ruleset)
    except RefusedError:
        return
    try:
        table.options(scene.options)
    except InputError as exc:
        raise InputError(f"--set {path}: bad VALUE: {exc.message}", path=name, line=seq) from None


def _check_sheet(
    joined: CombatantJoined, amended: CombatantJoined, scene: AnyEvent | None, path: str, name: str, seq: int
) -> None:
    """A sheet the scene's rules can read, if they could read the one recorded."""
    rules = ruleset_for(scene.ruleset if isinstance(scene, SceneStarted) else None)
    if rules.sheet_problem(joined.sheet) is not None:
        return  # a sheet the rules never read: the GM's to keep (the audit says so: ``scene.bad-sheet``)
    problem = rules.sheet_problem(amended.sheet)
    if problem is not None:
        raise InputError(f"--set {path}: bad VALUE: the {rules.id} rules cannot read this sheet: {problem}",
                         path=name, line=seq)
