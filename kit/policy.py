"""Policies: how a simulated fighter decides its next declaration (``fightlog sim``).

A ruleset that plays can name a default policy (``Ruleset.policy()``, from its
``policy_module``'s ``POLICY``). A policy is asked, for the combatant whose turn is open, for
the posts it would make, best first (``choices``); the driver (``fightlog.scale.fights``)
posts the first one the table accepts and ends the turn when none is (a refused post writes
nothing, so trying costs no event). After each accepted post it asks ``answers``: posts
by others that answer it (a defensive turn, a reaction), each tried the same way.

A policy is deterministic: it reads only the state and ``Choice``, a chooser drawn from the
fight's own seed (``fightlog.dice.FairGenerator`` under a scene id of its own, so the fight's
dice are not disturbed), so the same fight seed gives the same decisions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol, cast

from fightlog.dice import FairGenerator
from fightlog.errors import InputError
from fightlog.events.model import Action
from fightlog.kit.actions import parse_actions
from fightlog.kit.table import Post
from fightlog.reducers.state import Combatant, SceneState

POLICY_SCENE = "policy"
"""The scene id the policy's chooser draws under (never a fight's own scene id: its dice)."""


class Choice:
    """Uniform picks from a fight's seed, numbered like rolls: ``pick(options)`` is
    deterministic given the seed and how many picks came before."""

    def __init__(self, seed: str) -> None:
        self._gen = FairGenerator(seed, POLICY_SCENE, ())
        self._index = 0

    def below(self, bound: int) -> int:
        """A whole number in ``[0, bound)`` (``bound`` >= 1)."""
        if bound <= 1:
            return 0
        face = self._gen.faces(self._index, (bound,))[0]
        self._index += 1
        return face - 1

    def pick(self, options: Sequence[str]) -> str:
        """One of ``options`` (not empty)."""
        return options[self.below(len(options))]


class Policy(Protocol):
    """What ``fightlog sim`` asks a ruleset's policy (see the module docstring)."""

    def choices(self, state: SceneState, actor: str, choice: Choice) -> Sequence[Post]:
        """The posts ``actor`` would make in the open turn, best first (may be empty)."""
        ...

    def answers(self, state: SceneState, poster: str, choice: Choice) -> Sequence[Post]:
        """Posts by others that answer what ``poster`` just declared (defences, reactions),
        each tried in order; empty when nothing waits for an answer."""
        ...


def enemies(state: SceneState, actor: str, out: frozenset[str]) -> list[Combatant]:
    """The combatants of other sides still in the fight (not in ``out``), weakest first
    (fewest ``hp``, then id): the target a simple policy picks."""
    me = state.combatants[actor]
    mine = me.side or me.actor
    found = [c for c in state.combatants.values()
             if (c.side or c.actor) != mine and out.isdisjoint(c.statuses)]
    return sorted(found, key=lambda c: (c.pools.get("hp", 0), c.actor))


class Plan(Protocol):
    """A ruleset's list of what a fighter might do against a target, best first: each item
    one post's actions in the ``--do`` syntax (``fightlog.kit.actions``)."""

    def __call__(self, state: SceneState, actor: str, target: str) -> Sequence[Sequence[str]]: ...


class Straightforward:
    """A default policy most rulesets can use: attack the weakest enemy still in the fight
    (ties broken by ``Choice``) with what ``plan`` lists, best first; answer nothing unless
    ``reply`` says how (``reply(state, poster)``: the posts that answer it)."""

    def __init__(self, out: frozenset[str], plan: Plan,
                 reply: Callable[[SceneState, str], Sequence[Post]] | None = None) -> None:
        self.out = out
        self.plan = plan
        self.reply = reply

    def choices(self, state: SceneState, actor: str, choice: Choice) -> Sequence[Post]:
        foes = enemies(state, actor, self.out)
        if not foes:
            return ()
        weakest = [c.actor for c in foes if c.pools.get("hp", 0) == foes[0].pools.get("hp", 0)]
        target = choice.pick(weakest)
        return [Post(actor=actor, actions=_parsed(tuple(do))) for do in self.plan(state, actor, target)]

    def answers(self, state: SceneState, poster: str, choice: Choice) -> Sequence[Post]:
        return () if self.reply is None else self.reply(state, poster)


@lru_cache(maxsize=4096)
def _parsed(do: tuple[str, ...]) -> tuple[Action, ...]:
    return parse_actions(do)


def toward(state: SceneState, actor: str, target: str, metres: int) -> tuple[int, int] | None:
    """The whole-metre point ``metres`` from ``actor`` toward ``target`` (stopping a metre
    short of them), or ``None`` when either has no position."""
    here, there = state.combatants[actor].position, state.combatants[target].position
    if here is None or there is None:
        return None
    dx, dy = there[0] - here[0], there[1] - here[1]
    span = max(abs(dx), abs(dy))
    if span <= 1:
        return here
    step = min(metres, span - 1)
    return (here[0] + dx * step // span, here[1] + dy * step // span)


class PolicyError(InputError):
    """A user's policy (``named_policy``) that failed while playing, or gave what is not a
    post: the user's code, so bad input, not fightlog's internal error."""


def named_policy(name: str) -> Policy:
    """The policy a scenario or ``--policy`` names: ``package.module`` (its ``POLICY``) or
    ``package.module:NAME``; ``InputError`` when it cannot be imported or is not a policy."""
    module, _, attr = name.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr or "POLICY")
    except Exception as exc:  # noqa: BLE001 - a user's module may fail in any way
        raise InputError(f"policy {name!r} does not load: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(found, "choices", None)) or not callable(getattr(found, "answers", None)):
        raise InputError(f"policy {name!r} is not a policy (it needs choices() and answers(): fightlog.kit.policy)")
    return cast(Policy, found)
