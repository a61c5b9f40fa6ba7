"""A fight whose every free-text field holds what a player might type to break a page:
names, sides, weapons, pools, posts, roll sources and GM rulings (``hostile_events``)."""

from __future__ import annotations

from fightlog.events.model import (
    FORMAT_VERSION,
    Action,
    AnyEvent,
    AttackResolved,
    CombatantJoined,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    Die,
    InitiativeSet,
    Modifier,
    RoundEnded,
    RoundStarted,
    RulingMade,
    SceneEnded,
    SceneStarted,
    TurnEnded,
    TurnStarted,
)
from fightlog.events.store import MemoryStore

CORPUS = [
    "<script>window.__xss = 1; alert('xss')</script>",
    '"><img src=x onerror="window.__xss = 2; alert(2)">',
    "javascript:window.__xss=3;alert(3)",
    "<a href=\"javascript:alert(4)\">click me</a>",
    "\u202eevil\u202c reversed \u2067isolate",
    "{{ 7 * 7 }} {% raw %} ${alert(5)}",
    "</bdi></li></ol></details><svg onload=alert(6)>",
    "w" * 10_000,
]
"""Hostile texts: script tags, attribute breakouts, ``javascript:`` links, RTL overrides,
template syntax, closing tags, a 10,000-character word."""


def hostile_events(text: str, other: str | None = None, *, ruleset: str = "house-rules-unknown") -> list[AnyEvent]:
    """A short fight (two fighters, a round, a post, rolls, damage, a ruling, an out-of-turn
    post) with ``text`` (and ``other``) in every free-text field, sealed as a log is."""
    store = MemoryStore()
    return store.append(_unsealed(text, text if other is None else other, ruleset))


def _unsealed(text: str, other: str, ruleset: str) -> list[AnyEvent]:
    return [
        SceneStarted(scene="hostile", ruleset=ruleset, format=FORMAT_VERSION, title=text, gm=other,
                     options={"house": text}),
        CombatantJoined(actor="a", name=text, side=other, pools={"hp": 30, text[:200]: 3},
                        pool_max={"hp": 30}, sheet={"weapons": [text]}),
        CombatantJoined(actor=other[:200], name=other + "2", side=text, pools={"hp": 30}, pool_max={"hp": 30}),
        InitiativeSet(order=["a", other[:200]], by=text),
        RoundStarted(round=1),
        TurnStarted(actor="a", round=1),
        DeclarationPosted(actor="a", text=text + "\n" + other,
                          actions=[Action(type="attack", target=other[:200], weapon=text, params={"why": text})]),
        DiceRolled(roller="a", purpose=text[:100], notation="1d20", dice=[Die(sides=20, face=17), Die(sides=20, face=3, kept=False)],
                   modifiers=[Modifier(value=2, source=text)], total=19, generator="external", tool=other),
        AttackResolved(attacker="a", target=other[:200], hit=True, score=19, against=10, weapon=text, notes=[other]),
        DamageApplied(target=other[:200], raw=9, taken=9, source="a", damage_type=text[:100]),
        DamageApplied(target="a", raw=1, taken=1, pool=text[:200]),  # a pool named by a player, charted
        TurnEnded(actor="a", round=1),
        DeclarationPosted(actor="a", text=other),  # out of turn: nobody's turn is open
        RoundEnded(round=1),
        RulingMade(by=text, action="void", target=10, reason=other),
        SceneEnded(winner="a", reason=text),
    ]


def log_bytes(events: list[AnyEvent]) -> bytes:
    store = MemoryStore()
    store.append(events)
    return store.to_bytes()
