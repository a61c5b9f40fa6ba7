"""A scenario played with a fixed seed, handed back as plain data for snapshot tests.

``play_fight`` runs a scenario file through its ruleset's engine in memory (as
``fightlog run`` does) and returns a ``Fight``: the log, the final state, the replay text and
the audit's findings, each the same data the CLI prints (``fightlog state --format json``,
``fightlog replay``, ``fightlog audit --format json``). Nothing is written to disk.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from fightlog.api import (
    DiceSeedError,
    HouseRules,
    InputError,
    RefusedError,
    SceneEnded,
    audit_events,
    audit_lines,
    fold_events,
    playable,
    read_house_rules,
    replay_text,
    run_scenario,
    scenario_ruleset,
    scenario_seed,
    state_data,
    table_for,
)
from fightlog.api import seed_hex as _seed_hex

Seed = int | str
"""A fixed seed: an integer (0 <= seed < 2**256, used as 32 big-endian bytes) or 64 hex digits,
as ``--seed`` takes it (``fightlog.api.seed_hex``: a decimal string is an integer)."""

DERIVED_FIELDS: Final = frozenset({"prev", "batch"})
"""Event fields left out of ``Fight.log``: ``prev`` is the hash of the line before, so one
changed event would change every later line of a snapshot, and ``batch`` says how the store
grouped an append, not what happened (``Fight.jsonl`` keeps them)."""


@dataclass(frozen=True)
class Fight:
    """One fight as plain data (lists, dicts, strings, integers), ready for ``== snapshot``."""

    scenario: str
    seed: str
    options: dict[str, Any]
    log: list[dict[str, Any]]
    state: dict[str, Any]
    replay: str
    findings: list[dict[str, Any]]
    audit: str
    winner: str | None
    jsonl: str

    def as_data(self) -> dict[str, Any]:
        """Everything but the raw ``jsonl`` (the snapshot of a whole fight)."""
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "options": self.options,
            "log": self.log,
            "state": self.state,
            "replay": self.replay,
            "findings": self.findings,
            "audit": self.audit,
            "winner": self.winner,
        }


def seed_hex(seed: Seed, scenario: str | None = None) -> str:
    """``seed`` as the 64 hex digits a scene commits to (``fightlog.api.seed_hex``); a bad
    seed is an ``InputError`` saying what is accepted (and the ``scenario`` it was for)."""
    try:
        return _seed_hex(seed, what="seed")
    except DiceSeedError as exc:
        raise InputError(f"fight(..., seed=...): {exc.message.removeprefix('seed: ')}", path=scenario) from None


def check_house_rules(path: str | os.PathLike[str]) -> HouseRules:
    """The house-rules file at ``path``, read and checked before any fight plays under it:
    against the ruleset it names (its ``ruleset`` key), else against the playable rulesets,
    one of which must take every option it sets. The first problem is an ``InputError``
    naming the file and line (for the ruleset that knows most of its options)."""
    rules = read_house_rules(path)
    if rules.ruleset is not None:
        try:
            table = table_for(rules.ruleset)
        except RefusedError as exc:
            raise InputError(f"ruleset: {exc.message}", path=rules.path, line=rules.lines.get("ruleset")) from None
        rules.overrides(rules.ruleset, table.option_type)
        return rules
    rules.check_any({ruleset: table_for(ruleset).option_type for ruleset in playable()})
    return rules


def house_rules_for(scenario: str | os.PathLike[str], files: Mapping[str | None, str]) -> str | None:
    """Of the run's house-rules files (``files``: by the ruleset each names, ``None`` for one
    naming none), the one ``scenario`` plays under: its ruleset's, else the one for every
    ruleset, else none (a scenario that does not read: none, its fight says why)."""
    if not files:
        return None
    try:
        ruleset: str | None = scenario_ruleset(scenario)
    except (InputError, RefusedError):
        ruleset = None
    return files.get(ruleset) or files.get(None)


def house_rules(path: str | os.PathLike[str] | None, options: Mapping[str, Any] | None, where: str) -> HouseRules | None:
    """The house rules a fight plays under: the file at ``path`` (if any) with ``options``
    over it (named ``where`` in errors)."""
    base = read_house_rules(path) if path is not None else None
    if not options:
        return base
    values = {**(base.values if base is not None else {}), **options}
    lines = dict(base.lines) if base is not None else {}
    for name in options:
        lines.pop(name, None)
    return HouseRules(path=where, values=values, lines=lines, ruleset=base.ruleset if base is not None else None)


def play_fight(
    scenario: str | os.PathLike[str],
    *,
    seed: Seed | None = None,
    house: str | os.PathLike[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Fight:
    """Play ``scenario`` with ``seed`` (else the scenario's own; a fight without a fixed seed
    is refused: its snapshot would never match), under the ``house`` rules file and the
    ``options`` overrides. Bad input raises ``InputError`` naming the file and line."""
    name = os.fspath(scenario)
    if options is not None and not isinstance(options, Mapping):
        raise InputError(f"fight(..., options=...): a mapping of option names to values, such as "
                         f"{{'modifier_cap': 20}}, not {type(options).__name__} {options!r:.60}", path=name)
    fixed = seed_hex(seed, name) if seed is not None else scenario_seed(name)
    if fixed is None:
        raise InputError("no fixed seed: pass seed= or set seed in the scenario (a fresh seed changes every roll)", path=name)
    rules = house_rules(house, options, where=f"{name}: options")
    store = run_scenario(name, seed=fixed, house=rules)
    events = [event for _, event in store.read()]
    report = audit_events(events)
    jsonl = store.to_bytes().decode("utf-8")
    ended = events[-1]
    return Fight(
        scenario=name,
        seed=fixed,
        options=dict(getattr(events[0], "options", {})),
        log=[_without_derived(line) for line in jsonl.splitlines()],
        state=_json_data(state_data(fold_events(events))),
        replay=replay_text(events),
        findings=_json_data(report.findings),
        audit="\n".join(audit_lines(report)),
        winner=ended.winner if isinstance(ended, SceneEnded) else None,
        jsonl=jsonl,
    )


def _json_data(value: Any) -> Any:
    """``value`` as its JSON reads back (lists, not tuples; sorted keys), as the CLI prints it."""
    return msgspec.json.decode(msgspec.json.encode(value, order="sorted"))


def _without_derived(line: str) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.json.decode(line)
    for field in DERIVED_FIELDS:
        data.pop(field, None)
    return data
