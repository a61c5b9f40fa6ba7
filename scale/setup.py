"""What every fight of a simulated run shares (``Setup``), read from a scenario file or a
roster file: the ruleset, the options in force (house rules applied), who joins where, and
the policy each side plays by. Pure data, so it travels to Dask workers as it is."""

from __future__ import annotations

import os
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from fightlog.errors import InputError, RefusedError
from fightlog.events.model import Json
from fightlog.events.seeds import DEFAULT_SCENE
from fightlog.kit.house import HouseRules
from fightlog.kit.inputs import read_toml
from fightlog.kit.policy import named_policy
from fightlog.kit.ruleset import policy_for, ruleset_for
from fightlog.kit.table import Entrant, Table, table_for
from fightlog.reducers.fold_rules import GenericFoldRules

MAX_ROUNDS = 100
"""A fight still undecided after this many rounds ends as a draw."""


class Setup(Struct, frozen=True, kw_only=True):
    """A run's fixed part: every fight plays it with its own seed."""

    ruleset: str
    scene: str
    options: dict[str, Json]
    entrants: tuple[Entrant, ...]
    reserve: tuple[str, ...] = ()
    title: str | None = None
    max_rounds: int = MAX_ROUNDS
    policy: str | None = None
    """The policy fighters decide by (``fightlog.kit.policy.named_policy``), when not the
    ruleset's default."""

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides of the fight, sorted (a combatant without a side is a side of one)."""
        return tuple(sorted({_side(e) for e in self.entrants}))


def _side(entrant: Entrant) -> str:
    side = getattr(entrant.joined, "side", None)
    return side if isinstance(side, str) else entrant.actor


def load_setup(path: str, house: HouseRules | None = None, *, max_rounds: int = MAX_ROUNDS,
               policy: str | None = None) -> Setup:
    """The setup of a scenario file (a TOML with ``roster``: its roster, options, ``join``,
    ``reserve`` and ``[positions]``; its steps are not played) or of a roster file (a TOML
    with ``ruleset``: every combatant joins, in roster order). One ``InputError`` on the file
    for anything that cannot fight: no such file, no ruleset that plays, no policy for it,
    fewer than two sides, nobody with a weapon (in a ruleset whose sheets list weapons).
    ``policy`` (``--policy``) goes over the scenario's own ``policy``."""
    data = read_toml(Path(path), path, "scenario or roster")
    if "roster" in data:
        from fightlog.kit.scenario_file import load_scenario  # pydantic: only when a scenario is given

        scenario = load_scenario(path)
        file = scenario.file
        ruleset, roster, scene, own = file.ruleset, scenario.roster, scenario.scene, dict(file.options)
        join, reserve, positions, title = file.join, tuple(file.reserve), dict(file.positions), file.title
        policy = policy or file.policy
    elif isinstance(data.get("ruleset"), str):
        ruleset, roster, scene, own = data["ruleset"], path, DEFAULT_SCENE, {}
        join, reserve, positions = None, (), {}
        title = data.get("title") if isinstance(data.get("title"), str) else None
    else:
        raise InputError("neither a scenario (it has no 'roster') nor a roster (it names no 'ruleset')", path=path)
    table = _table(ruleset, path)
    if policy is not None:
        try:
            named_policy(policy)
        except InputError as exc:
            raise InputError(exc.message, path=path) from None
    elif policy_for(ruleset) is None:
        raise InputError(f"ruleset {ruleset!r} has no policy to simulate fights with (Ruleset.policy_module)",
                         path=path)
    table.options(own, where=path)
    overrides = house.overrides(ruleset, table.option_type) if house is not None else {}
    options = table.options({**own, **overrides}, where=house.path if house is not None and overrides else path)
    found = {e.actor: e for e in table.roster(os.fspath(roster))}
    names = list(join) if join is not None else [a for a in found if a not in reserve]
    for actor in [*names, *reserve, *positions]:
        if actor not in found:
            raise InputError(f"{actor!r} is not in the roster ({', '.join(found)})", path=path)
    chosen = [found[a] for a in [*names, *reserve]]
    keeps_map = getattr(table, "no_map", None) is None  # (a ruleset without a map refuses positions)
    entrants = _placed(chosen, positions) if keeps_map or positions else tuple(chosen)
    setup = Setup(ruleset=ruleset, scene=scene, options=options, entrants=entrants, reserve=reserve, title=title,
                  max_rounds=max_rounds, policy=policy)
    fighting = {_side(e) for e in entrants if e.actor not in reserve}
    if len(fighting) < 2:
        shown = ", ".join(sorted(fighting)) or "none"
        raise InputError(f"the sides cannot fight: a fight needs two sides, this one has {shown}", path=path)
    rules = ruleset_for(ruleset)
    arms_by_sheet = getattr(type(rules), "weapons", None) is not GenericFoldRules.weapons
    if arms_by_sheet and not any(rules.weapons(getattr(e.joined, "sheet", {})) for e in entrants):
        raise InputError("the sides cannot fight: nobody carries a weapon", path=path)
    return setup


SPACING = (10, 2)
"""Where a fighter stands when the file says nothing: sides 10 m apart, a side's members 2 m
apart along it (a roster has no positions; rulesets that measure distance need them; one
that keeps no map, ``TableBase.no_map``, is given none)."""


def _placed(entrants: list[Entrant], positions: dict[str, tuple[int, int]]) -> tuple[Entrant, ...]:
    sides = sorted({_side(e) for e in entrants})
    rank: dict[str, int] = {}
    placed = []
    for entrant in entrants:
        side = _side(entrant)
        rank[side] = rank.get(side, -1) + 1
        spot = positions.get(entrant.actor)
        if spot is None and entrant.position is None:
            spot = (SPACING[0] * sides.index(side), SPACING[1] * rank[side])
        placed.append(entrant if spot is None else replace(entrant, position=spot))
    return tuple(placed)


def _table(ruleset: str, path: str) -> Table:
    try:
        return table_for(ruleset)
    except RefusedError as exc:
        raise InputError(f"ruleset: {exc.message}", path=path) from None
