"""Avrae replies whose dice were rerolled or exploded, as avrae's d20 library prints them.

d20 (``d20/expression.py``): ``rr`` rerolls every selected die, selects again, and goes on
until nothing is selected (``SetOperator.reroll``), so one die may be rerolled many times and
its rerolls interleave with the other dice's; ``ro`` rerolls each selected die once; ``e``
adds a die for every selected die, new ones included, each die exploding once
(``SetOperator.explode``); ``ra`` adds one die for the first selected die. ``Die.reroll``
drops the old face and appends the new one, ``Die.explode`` marks the face and the operation
appends a die; ``k``/``p`` drop whole dice. ``MarkdownStringifier`` (``d20/stringifiers.py``)
prints each die's faces oldest first, a replaced face struck (``~~2~~``), a dropped die
struck whole (``~~1, 5~~``), a 1 or top face bold after striking (``**~~1~~**``, while a
dropped die's reads ``~~**1**~~``), ``!`` on a face that exploded.

The strings below are printed by the d20 library itself (``d20_prints``: each die draws its
own listed faces, so the output does not depend on the order d20 visits a set of dice in).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from unittest import mock

import d20
import d20.expression
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from fightlog.audit.dice_checks import DiceAudit
from fightlog.dice.dialects import compile_in
from fightlog.dice.external import check_event, check_reply
from fightlog.dice.replies import read_replies, read_reply
from fightlog.dice.verify import RollVerifier
from fightlog.errors import DiceError
from fightlog.events.model import DiceRolled, Die


class _Listed:
    """A die's listed faces, drawn in order (``randrange(size)`` is a face minus one)."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def randrange(self, size: int) -> int:
        return self.faces.pop(0) - 1


def d20_rolls(expr: str, source: Callable[[int], Any]) -> Any:
    """d20 rolling ``expr`` where die ``k`` (in the order d20 makes them: the term's, then
    those its explosions add) draws from ``source(k)`` (``randrange(size)``): each die its
    own faces, whatever order d20 visits a set of dice in (``rr`` loops over a ``set``)."""
    made: dict[int, Any] = {}
    drawing: list[Any] = []
    add_roll = d20.expression.Die._add_roll

    def patched(self: Any) -> None:
        if id(self) not in made:
            made[id(self)] = source(len(made))
        drawing.append(made[id(self)])
        try:
            add_roll(self)
        finally:
            drawing.pop()

    def randrange(size: int, *rest: int) -> int:
        assert not rest, "no d% here"
        return int(drawing[-1].randrange(size))

    with mock.patch.object(d20.expression.Die, "_add_roll", patched), \
            mock.patch.object(d20.expression.random, "randrange", randrange):
        return d20.roll(expr)


def d20_prints(expr: str, chains: list[list[int]]) -> str:
    """What d20 prints for ``expr`` when its dice, in the order d20 makes them, show the
    listed faces oldest first. Every face listed must be drawn: the chains are exactly what
    d20's rules do with them."""
    listed = [_Listed(list(c)) for c in chains]
    text = str(d20_rolls(expr, lambda k: listed[k]).result)
    assert not any(d.faces for d in listed), "faces d20 did not draw"
    return text


def bang(text: str) -> str:
    """The reply Avrae's ``!r`` sends for a d20 one-liner ``roll = `total```."""
    roll, total = text.rsplit(" = ", 1)
    return f"<@42>  :game_die:\n**Result**: {roll}\n**Total**: {total.strip('`')}"


HONEST = [
    # one die rerolled twice: read well before, kept as the plain case
    ("1d6rr<3", [[1, 2, 5]], "1d6rr<3 (**~~1~~**, ~~2~~, 5) = `5`"),
    # two dice rerolled in the same passes: d20 rerolls both, then selects again
    ("2d6rr<3", [[1, 2, 5], [2, 1, 4]], "2d6rr<3 (**~~1~~**, ~~2~~, 5, ~~2~~, **~~1~~**, 4) = `9`"),
    ("3d6rr1", [[1, 1, 4], [3], [1, 6]], "3d6rr1 (**~~1~~**, **~~1~~**, 4, 3, **~~1~~**, **6**) = `13`"),
    ("2d6rr<3", [[2, 5], [1, 1, 2, 4]],
     "2d6rr<3 (~~2~~, 5, **~~1~~**, **~~1~~**, ~~2~~, 4) = `9`"),
    # a dropped die before a rerolled one: ~~2~~ is the dropped die, not a face 1 replaced
    ("4d6rr1kh3", [[2], [1, 5], [4], [6]], "4d6rr1kh3 (~~2~~, **~~1~~**, 5, 4, **6**) = `15`"),
    # a die rerolled by two operations, another by one
    ("3d10rr>7rol1", [[5], [2, 8], [9, 2]], "3d10rr>7rol1 (5, ~~2~~, 8, ~~9~~, 2) = `15`"),
    ("2d6ro<3rr1", [[1, 1, 4], [5]], "2d6ro<3rr1 (**~~1~~**, **~~1~~**, 4, 5) = `9`"),
    # a rerolled die dropped afterwards: struck whole, its faces inside unstruck
    ("2d6rr1kl1", [[1, 6], [3]], "2d6rr1kl1 (~~**1**, **6**~~, 3) = `3`"),
    # the die an explosion added, rerolled
    ("2d6e6rr1", [[6], [2], [1, 3]], "2d6e6rr1 (**6!**, 2, **~~1~~**, 3) = `11`"),
    # d20 marks a face once however many operations explode it: 4 added two dice
    ("1d20rah1el1ro12", [[4], [14], [6]], "1d20rah1el1ro12 (4!, 14, 6) = `24`"),
    # a set item dropped whole: nothing struck inside it, its rerolls included
    ("(1d6rr1, 1d6rr1)kh1", [[1, 3], [5]], "(~~1d6rr1 (**1**, 3)~~, 1d6rr1 (5))kh1 = `5`"),
]


@pytest.mark.parametrize(("expr", "chains", "text"), HONEST, ids=[h[2][:40] for h in HONEST])
def test_d20_prints_these_and_they_read_and_add_up(expr: str, chains: list[list[int]], text: str) -> None:
    assert d20_prints(expr, chains) == text
    for reply in (text, bang(text)):
        read = read_reply(reply, bot="Avrae")
        assert read is not None and not read.problems, reply
        assert [[*d.rerolled, d.face] for d in read.dice] == chains
        assert check_reply(read) == [], reply


def test_an_explosion_chain_goes_past_a_hundred_dice_as_in_d20() -> None:
    """d20 bounds explosions only by the 1000 dice one roll rolls (``RollContext``), not per
    die: fightlog's own ``!`` stops a chain at 100, the avrae dialect's ``e`` does not."""
    chains = [[5]] * 121 + [[20]]
    text = d20_prints("1d20e<20", chains)
    assert text == f"1d20e<20 ({'5!, ' * 121}**20**) = `625`"
    read = read_reply(text, bot="Avrae")
    assert read is not None and len(read.dice) == 122
    assert check_reply(read) == []
    assert compile_in("1d20e<20", "avrae").bounds()[1] >= 625


def test_verify_and_the_audit_accept_an_honest_reroll() -> None:
    read = read_reply(bang(HONEST[1][2]), roller="carol")
    assert read is not None
    event = replace(read.event(), seq=7)
    verifier = RollVerifier()
    verifier.feed(7, event)
    assert verifier.finish() == []
    audit = DiceAudit()
    audit.feed(event)
    assert [f.code for f in audit.finish()] == ["dice.unverifiable"]


DISHONEST = [
    # the face shown is one rr rerolls: it should have been rerolled again
    ("1d6rr<3 (**~~1~~**, 2) = `2`", "roll-reroll", "die 1 (1 -> 2): 1d6rr<3 rerolls its 2 again but the reply kept it"),
    ("2d6rr<3 (**~~1~~**, 2, **~~1~~**, ~~2~~, 4) = `6`", "roll-reroll",
     "die 1 (1 -> 2): 2d6rr<3 rerolls its 2 again but the reply kept it"),
    ("3d6rr1 (**~~1~~**, 4, 3, **~~1~~**, **1**) = `8`", "roll-reroll",
     "die 3 (1 -> 1): 3d6rr1 rerolls its 1 again but the reply kept it"),
    # a face rr does not reroll was rerolled
    ("1d6rr<3 (~~4~~, 5) = `5`", "roll-reroll", "the reply rerolled die 1 (4 -> 5) but 1d6rr<3 does not reroll it"),
    ("1d6rr<3 (**~~1~~**, ~~4~~, 5) = `5`", "roll-reroll",
     "die 1 (1 -> 4 -> 5): the reply rerolled its 4 but 1d6rr<3 does not reroll it"),
    ("1d20ro1 (**~~1~~**, **~~1~~**, 5) = `5`", "roll-reroll",
     "die 1 (1 -> 1 -> 5): the reply rerolled its 1 but 1d20ro1 does not reroll it"),
    # the dice are right, the total is not
    ("2d6rr<3 (**~~1~~**, ~~2~~, 5, ~~2~~, **~~1~~**, 4) = `10`", "roll-total",
     "total 10 recorded, dice and modifiers give 9"),
    # the wrong die dropped
    ("4d6rr1kh3 (~~4~~, **~~1~~**, 5, 2, **6**) = `15`", "roll-kept", "4d6rr1kh3 keeps 4, 5, 6 but the reply kept 5, 2, 6"),
]


@pytest.mark.parametrize(("text", "code", "words"), DISHONEST, ids=[d[0][:40] for d in DISHONEST])
def test_a_reroll_d20_would_not_make_is_named(text: str, code: str, words: str) -> None:
    for reply in (text, bang(text)):
        read = read_reply(reply, bot="Avrae")
        assert read is not None and not read.problems
        found = check_reply(read)
        assert [d.code for d in found] == [code], found
        assert words in found[0].message


# --------------------------------------------------------------------------- properties

SIDES = [2, 3, 4, 6, 8, 10, 12, 20]


@st.composite
def d20_term(draw: st.DrawFn) -> str:
    """A d20 dice term with rerolls and explosions among keeps and drops (``mi``/``ma``
    left out: a forced face's drawn face is not recorded)."""
    sides = draw(st.sampled_from(SIDES))
    ops = ""
    for kind in draw(st.lists(st.sampled_from(["rr", "rr", "ro", "ra", "e", "k", "p"]), min_size=1, max_size=4)):
        face = draw(st.integers(1, sides))
        pick = draw(st.integers(1, 3))
        choices = [f"{face}", f"<{face}", f">{face}"] + ([] if kind == "rr" else [f"h{pick}", f"l{pick}"])
        ops += kind + draw(st.sampled_from(choices))
    return f"{draw(st.integers(1, 8))}d{sides}{ops}"


@st.composite
def d20_expression(draw: st.DrawFn) -> str:
    first = draw(d20_term())
    if draw(st.booleans()):
        return first
    return f"{first} + {draw(d20_term())} + {draw(st.integers(0, 5))}"


def d20_roll(expr: str, seed: int) -> Any:
    """d20 rolling ``expr``, each die from its own generator seeded from ``seed``; None when
    the notation is one fightlog refuses (an ``rr`` or ``e`` matching every face) or d20
    stops it (1000 dice rolled)."""
    try:
        compile_in(expr, "avrae")
    except DiceError:
        return None
    try:
        return d20_rolls(expr, lambda k: random.Random(seed * 4096 + k))
    except d20.errors.TooManyRolls:
        return None


@settings(max_examples=100, database=None, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(d20_expression(), st.integers(0, 2**32))
def test_every_roll_d20_prints_reads_and_adds_up(expr: str, seed: int) -> None:
    rolled = d20_roll(expr, seed)
    assume(rolled is not None)
    text = str(rolled.result)
    rolls = read_replies(text, bot="Avrae")
    assert len(rolls) == 1 and not rolls[0].problems, text
    assert rolls[0].total == rolled.total
    assert [str(d) for d in check_reply(rolls[0])] == [], text


@st.composite
def rerolled_event(draw: st.DrawFn) -> tuple[DiceRolled, str]:
    """An honest reply of ``NdSrr...`` read into its event, at least one die rerolled."""
    sides = draw(st.sampled_from([4, 6, 8, 10, 12, 20]))
    below = draw(st.integers(2, sides // 2 + 1))
    expr = f"{draw(st.integers(1, 6))}d{sides}rr<{below}"
    rolled = d20_roll(expr, draw(st.integers(0, 2**32)))
    assume(rolled is not None)
    read = read_reply(str(rolled.result), bot="Avrae")
    assert read is not None
    event = read.event()
    assume(any(d.rerolled for d in event.dice))
    return event, expr


def _with_dice(event: DiceRolled, dice: list[Die]) -> DiceRolled:
    return replace(event, dice=dice, total=sum(d.face for d in dice))


@settings(max_examples=20, database=None, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(rerolled_event(), st.data())
def test_a_reroll_stopped_early_or_made_wrongly_is_named(case: tuple[DiceRolled, str], data: st.DataObject) -> None:
    """Only the dice are changed, the total follows them: what is named is the reroll."""
    event, expr = case
    assert check_event(event, "roll") == []
    dice = list(event.dice)
    i = data.draw(st.sampled_from([i for i, d in enumerate(dice) if d.rerolled]))
    stopped = replace(dice[i], face=dice[i].rerolled[-1], rerolled=dice[i].rerolled[:-1])
    found = check_event(_with_dice(event, dice[:i] + [stopped] + dice[i + 1 :]), "roll")
    assert [d.code for d in found] == ["roll-reroll"], (expr, found)
    j = data.draw(st.sampled_from(range(len(dice))))
    extra = replace(dice[j], rerolled=[*dice[j].rerolled, dice[j].face],
                    face=data.draw(st.integers(1, dice[j].sides)))
    found = check_event(_with_dice(event, dice[:j] + [extra] + dice[j + 1 :]), "roll")
    assert [d.code for d in found] == ["roll-reroll"], (expr, found)
    found = check_event(replace(event, total=event.total + 1), "roll")
    assert [d.code for d in found] == ["roll-total"], (expr, found)
