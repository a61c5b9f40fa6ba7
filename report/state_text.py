"""The state of a scene as compact, aligned text (``fightlog state``).

A header line, one row per combatant, the effects in force, the posting order with each
slot's standing and who posts next, the open turn's pending posts, and the rulings in force.
Rows whose order carries no meaning are sorted, so the same state always prints the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from fightlog.events.model import AnyEvent
from fightlog.kit.ruleset import ruleset_for
from fightlog.reducers.derive import Slot, next_to_post, posting_order
from fightlog.reducers.state import Combatant, SceneState, TurnState
from fightlog.report.wording import plural, spoken
from fightlog.report.narration import (
    Namer,
    Scene,
    actions_text,
    by_the_gm,
    effect_text,
    kind_of,
    namer,
    one_line,
    pools_text,
    unit_of,
)

NONE = "-"


def align(rows: Sequence[Sequence[str]], indent: str = "") -> list[str]:
    """Rows padded into columns two spaces apart, without trailing spaces."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(map(len, rows), default=0))]
    lines = []
    for row in rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def state_lines(state: SceneState, events: Mapping[int, AnyEvent] = {}) -> list[str]:
    """The whole state. ``events`` may hold the event at ``state.seq`` (its kind goes in the
    header) and the events the rulings in force are about (to say what they were)."""
    who = namer(state)
    last = events.get(state.seq)
    lines = [header(state, None if last is None else kind_of(last), who), ""]
    lines += combatant_table(state)
    lines += [""] + effect_lines(state, who)
    lines += [""] + order_lines(state, who)
    lines += [""] + pending_lines(state, who)
    lines += [""] + ruling_lines(state, who, events)
    return [one_line(line).rstrip() for line in lines]


def wanted_events(state: SceneState) -> set[int]:
    """The events ``state_lines`` can use: the last one and those the rulings are about."""
    return {state.seq, *(r.target for r in state.rulings)} - {0}


def header(state: SceneState, kind: str | None, who: Namer) -> str:
    """``duel (roe7) "Title" after seq 12 (dice_rolled): round 2; in progress``."""
    info = state.scene
    if info is None:
        return f"(no scene) after seq {state.seq}"
    title = f' "{info.title}"' if info.title else ""
    after = f"after seq {state.seq}" + (f" ({kind})" if kind else "")
    if info.ended:
        ended = [f"winner {who(info.winner)}"] if info.winner else []
        ended += [info.end_reason] if info.end_reason else []
        status = "ended" + (": " + ", ".join(ended) if ended else "")
    else:
        status = "in progress"
    return f"{info.scene}{title} ({info.ruleset}) {after}: {_round(state.turn, who, info.ended)}; {status}"


def _round(turn: TurnState, who: Namer, ended: bool) -> str:
    """Which round the state is in: ``before round 1``, ``round 2, Bob's turn``, ``round 2,
    between turns``, ``round 1 over, round 2 next`` (no next round once the scene ended)."""
    if turn.round == 0:
        return "no round played" if ended else "before round 1"
    if not turn.in_round:
        return f"round {turn.round} over" + ("" if ended else f", round {turn.round + 1} next")
    if turn.current is None:
        return f"round {turn.round}, between turns"
    return f"round {turn.round}, {who(turn.current)}'s turn"


def combatant_table(state: SceneState) -> list[str]:
    """One row per combatant (sorted by name); the weapons, spent, range and position (``at``)
    columns appear only when some combatant has something in them."""
    if not state.combatants:
        return ["combatants: none"]
    who = namer(state)
    people = sorted(state.combatants.values(), key=lambda c: (c.name, c.actor))
    columns: list[tuple[str, Callable[[Combatant], str], bool]] = [
        ("name", _name, True),
        ("side", lambda c: c.side or NONE, True),
        ("pools", lambda c: pools_text(c.pools, c.pool_max) or NONE, True),
        ("statuses", lambda c: ", ".join(spoken(s) for s in c.statuses) or NONE, True),
        ("weapons", _weapons, False),
        ("spent", lambda c: ", ".join(f"{k} {v}" for k, v in sorted(c.spent.items())) or NONE, False),
        ("range", lambda c: _range(c, who), False),
        ("at", lambda c: NONE if c.position is None else f"({c.position[0]}, {c.position[1]})", False),
    ]
    table = [[render(c) for c in people] for _, render, _ in columns]
    shown = [i for i, (_, _, always) in enumerate(columns) if always or any(v != NONE for v in table[i])]
    rows = [[columns[i][0] for i in shown]]
    rows += [[table[i][r] for i in shown] for r in range(len(people))]
    return align(rows)


def _name(c: Combatant) -> str:
    return c.name + ("" if c.role == "pc" else f" ({c.role})")


def _weapons(c: Combatant) -> str:
    """Weapons that are not simply ready: needing a reload, cooling down, or fired since
    the last reload."""
    shown = []
    for name, weapon in sorted(c.weapons.items()):
        if weapon.needs_reload:
            shown.append(f"{name} needs reload")
        elif weapon.cooldown:
            shown.append(f"{name} cooldown {weapon.cooldown}")
        elif weapon.fired:
            shown.append(f"{name} fired {weapon.fired}")
    return ", ".join(shown) or NONE


def _range(c: Combatant, who: Namer) -> str:
    if c.band is None:
        return NONE
    return c.band + (f" of {who(c.relative_to)}" if c.relative_to else "")


def effect_lines(state: SceneState, who: Namer) -> list[str]:
    if not state.effects:
        return ["effects: none"]
    effects = sorted(state.effects.values(), key=lambda e: (who(e.target), e.name, e.effect))
    return ["effects:"] + [f"  {effect_text(e, who, state)}" for e in effects]


def order_lines(state: SceneState, who: Namer) -> list[str]:
    """The posting order under a header: place, name, initiative, standing; arrivals last; then
    who is next."""
    slots = posting_order(state)
    turn = state.turn
    nxt = next_to_post(state)
    if not slots:
        return ["posting order: not set", f"next: {who(nxt) if nxt else NONE}"]
    rows = [["", "name", "initiative", "standing"]]
    for place, slot in enumerate(slots, 1):
        arriving = slot.standing == "arriving"
        score = turn.initiative.get(slot.actor)
        init = NONE if score is None else " ".join(str(s) for s in score)
        rows.append([NONE if arriving else f"{place}.", who(slot.actor), init, _standing(slot, state, who)])
    title = "posting order" + _order_round(turn, state.scene is not None and state.scene.ended)
    return [f"{title}:"] + align(rows, "  ") + [f"next: {who(nxt) if nxt else NONE}"]


def _order_round(turn: TurnState, ended: bool) -> str:
    """The round the posting order is for: the open one, else the next one (the last one
    once the scene ended)."""
    if turn.in_round or (ended and turn.round):
        return f" (round {turn.round})"
    return "" if ended else f" (for round {turn.round + 1})"


def _spent(part: str, count: int, words: Mapping[str, tuple[str, str]]) -> str:
    """``2 actions``, ``1 move action``, or as the ruleset tells the part (``spent_words``)."""
    one, many = words.get(part) or (("action", "actions") if part == "action" else (f"{part} action", f"{part} actions"))
    return plural(count, one, many)


def _standing(slot: Slot, state: SceneState, who: Namer) -> str:
    if slot.standing == "arriving":
        arrival = next(a for a in state.turn.arrivals if a.actor == slot.actor)
        after = f"after {who(arrival.after)}, " if arrival.after else ""
        return f"arriving: {after}from round {arrival.round}"
    if slot.standing == "posting" and state.turn.spent:
        ruleset = ruleset_for(None if state.scene is None else state.scene.ruleset)
        used = ruleset.turn_spent(state, slot.actor)  # their own posts, as their ruleset counts
        if used:
            return f"posting (spent {', '.join(_spent(k, v, ruleset.spent_words) for k, v in sorted(used.items()))})"
    return slot.standing + (f": {slot.note}" if slot.note else "")


def pending_lines(state: SceneState, who: Namer) -> list[str]:
    if not state.pending:
        return ["pending: none"]
    lines = ["pending:"]
    for post in state.pending:
        reading = actions_text(post.actions, who, unit_of(state)) or "no actions"
        answer = f" (answering seq {post.responds_to})" if post.responds_to is not None else ""
        lines.append(f"  seq {post.seq}  {who(post.actor)}: {reading}{answer}")
    return lines


def ruling_lines(state: SceneState, who: Namer, events: Mapping[int, AnyEvent]) -> list[str]:
    if not state.rulings:
        return ["rulings: none"]
    scene = Scene(who, state, state)
    rows = [[f"seq {r.seq}", by_the_gm(r, events.get(r.target), scene)] for r in state.rulings]
    return ["rulings in force:"] + align(rows, "  ")
