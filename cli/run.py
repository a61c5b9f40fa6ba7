"""``fightlog run``: play a scenario file (a scripted fight) into a new log."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import click

from fightlog.cli.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK, reports_errors
from fightlog.cli.options import check_new_log, house_option, seed_option
from fightlog.errors import FightlogError, InputError
from fightlog.events.model import AnyEvent, SceneEnded, SceneStarted
from fightlog.reducers.fold import fold
from fightlog.report.narration import namer
from fightlog.report.wording import plural

if TYPE_CHECKING:
    from fightlog.kit.house import HouseRules


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog run fixtures/roe7/scenarios/alley-duel.toml -o alley.jsonl
  fightlog run fixtures/roe7/scenarios/alley-duel.toml -o alley.jsonl --force --seed 7   # reproducible
  fightlog run fixtures/roe7/scenarios/alley-duel.toml -o alley-house.jsonl --options fixtures/roe7/house-rules.toml
  fightlog replay alley.jsonl && fightlog verify --dice alley.jsonl
  fightlog run --check fixtures/roe7/scenarios      # did any fight change? (exit 0: none)
  fightlog run --check fixtures/roe7/scenarios --options fixtures/roe7/house-rules.toml  # what a house rule changes

\b
Exit codes: 0 written (with --check: every fight as stored); 1 with --check: some fight
changed or has no stored log; 2 bad input (the scenario, its roster or options, a step the
rules refuse: its line is named), LOG exists (without --force), or usage. On any error LOG
is left as it was.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@click.argument("scenario", metavar="SCENARIO", required=False)
@click.option("-o", "--output", "log", metavar="LOG", help="The log file to write.")
@click.option(
    "--check",
    "check",
    metavar="DIR",
    help="Instead: play every DIR/NAME.toml and compare it with its stored DIR/NAME.jsonl "
    "(same seed: the scenario's, else the one the stored log revealed).",
)
@seed_option("The scene's dice seed (default: the scenario's seed, else a fresh one).")
@click.option("--force", is_flag=True, help="Replace LOG if it exists and is not empty.")
@house_option
@reports_errors
def run(scenario: str | None, log: str | None, check: str | None, seed: str | None, force: bool, house: str | None) -> None:
    """Play SCENARIO (TOML: ruleset, roster, steps) and write the fight to LOG; or, with
    --check DIR, replay every scenario of DIR against its stored log and say which fights
    changed, at which event, and how.

    The whole fight is decided in memory, from scene_started (dice committed to the seed:
    --seed, else the scenario's seed, else a fresh one) to scene_ended (the seed revealed),
    then LOG is written at once (a temporary file renamed over it). See docs/play.md.
    """
    from fightlog.kit.house import read_house_rules
    from fightlog.kit.scenario import run_scenario

    if check is not None:
        if scenario is not None or log is not None or seed is not None or force:
            raise click.UsageError("--check DIR takes no SCENARIO, -o, --seed or --force")
        found = check_scenarios(check, read_house_rules(house) if house is not None else None)
        raise SystemExit(found)
    if scenario is None or log is None:
        raise click.UsageError("give SCENARIO and -o LOG (or --check DIR)")

    check_new_log(log, force, {"the scenario": scenario, "the house rules": house})
    rules = read_house_rules(house) if house is not None else None
    store = run_scenario(scenario, seed=seed, house=rules)
    write_atomically(log, store.to_bytes())
    events = [event for _, event in store.read()]
    ended = events[-1]
    revealed = ended.seed if isinstance(ended, SceneEnded) else None
    scene = events[0].scene if isinstance(events[0], SceneStarted) else None
    click.echo(f"wrote {log}: {plural(len(events), 'event')}, scene {scene}, seed {revealed} (revealed in scene_ended)")
    if isinstance(ended, SceneEnded) and ended.winner:
        click.echo(f"winner: {namer(fold(events))(ended.winner)}")


def check_scenarios(directory: str, house: HouseRules | None) -> int:
    """Play each scenario of ``directory`` against its stored log; print one line each and a
    summary; the exit code (0 all as stored, 1 some changed or unstored, 2 some unusable)."""
    if not os.path.isdir(directory):
        raise InputError("not a directory of scenarios", path=directory)
    tomls = sorted(n for n in os.listdir(directory) if n.endswith(".toml"))
    regular = [n for n in tomls if os.path.isfile(os.path.join(directory, n))]  # a FIFO would wait for a writer
    names = [n for n in regular if _maybe_scenario(os.path.join(directory, n))]
    for name in tomls:
        if name not in regular:
            click.echo(f"skipped  {name}: not a regular file (a FIFO, a device or a directory)")
        elif name not in names:
            click.echo(f"skipped  {name}: not a scenario (no roster key, no [[steps]]: a roster or house rules?)")
    if not names:
        raise InputError("no scenario files (*.toml with a roster or [[steps]]) here", path=directory)
    tally = {"same": 0, "changed": 0, "unstored": 0, "unusable": 0}
    said: set[str] = set()  # the house rules' refusals printed once, not once a scenario
    for name in names:
        tally[_check_one(os.path.join(directory, name), name, house, said)] += 1
    skipped = len(tomls) - len(names)
    click.echo(
        f"checked {plural(len(names), 'scenario')}: {tally['same']} same, {tally['changed']} changed, "
        f"{tally['unstored']} without a stored log, {tally['unusable']} unusable"
        + (f"; {skipped} other TOML file{'s' if skipped != 1 else ''} skipped" if skipped else "")
    )
    if tally["unusable"]:
        return EXIT_BAD_INPUT
    return EXIT_FINDINGS if tally["changed"] or tally["unstored"] else EXIT_OK


def _maybe_scenario(path: str) -> bool:
    """Whether the TOML file at ``path`` may be a scenario: it does not read as TOML, or is
    empty (the check says why), or it has a ``roster`` key or ``[[steps]]`` (a roster or a
    house-rules file kept beside the scenarios has neither)."""
    from pathlib import Path

    from fightlog.kit.inputs import read_toml

    try:
        data = read_toml(Path(path), path, "scenario")  # as the check reads it: a BOM, the size limit
    except InputError:
        return True
    return not data or "roster" in data or "steps" in data


_STAND_IN_SEED = "0" * 64
"""The seed a scenario naming none is tried with when no stored log reveals one (``run``
draws a fresh one: a step the rules refuse is refused whatever the dice, but for a step
that depends on an earlier roll)."""


def _check_one(path: str, name: str, house: HouseRules | None, said: set[str]) -> str:
    """Play the scenario at ``path`` against its stored log and print its line; its verdict:
    ``same``, ``changed``, ``unstored`` or ``unusable`` (a refusal of the house rules ``said``
    already is named, not repeated)."""
    from fightlog.events.compare import describe, field_changes, first_difference
    from fightlog.events.reader import read_log
    from fightlog.kit.scenario import run_scenario, scenario_ruleset, scenario_seed

    stored = path[: -len(".toml")] + ".jsonl"
    try:
        if house is not None and house.ruleset is not None and house.ruleset != scenario_ruleset(path):
            house = None  # house rules for another ruleset: this fight plays without them
        if not os.path.exists(stored):  # the scenario itself must play, as the command it suggests plays it
            run_scenario(path, seed=scenario_seed(path) or _STAND_IN_SEED, house=house)
            click.echo(f"UNSTORED {name}: no {os.path.basename(stored)} (write it: fightlog run {path} -o {stored})")
            return "unstored"
        expected = [event for _, event in read_log(stored)]
        ended = expected[-1] if expected else None
        revealed = ended.seed if isinstance(ended, SceneEnded) else None
        seed = scenario_seed(path) or revealed
        if seed is None:
            raise InputError("the stored log reveals no seed and the scenario names none", path=stored)
        actual = [event for _, event in run_scenario(path, seed=seed, house=house).read()]
    except FightlogError as exc:  # bad input, a ruleset that does not load, a bad seed: this fight's
        shown = str(exc)
        if house is not None and isinstance(exc, InputError) and exc.path == house.path and shown in said:
            shown = f"the house rules, as above ({house.path})"
        said.add(shown)
        click.echo(f"UNUSABLE {name}: {shown}")
        return "unusable"
    if house is not None and expected and actual:
        rules = field_changes(_options(expected[0]), _options(actual[0]))
        shown = ", ".join(f"{k} {_plain(a)} -> {_plain(b)}" for k, a, b in rules) or "none"
        click.echo(f"         {name}: house rules changed: {shown}")
    diff = first_difference(expected, actual, ignore=frozenset({"options"}) if house is not None else frozenset())
    if diff is None:
        click.echo(f"same     {name}: {plural(len(actual), 'event')}")
        return "same"
    click.echo(f"CHANGED  {name}: {describe(diff)}{_scene_hint(expected, actual)}")
    return "changed"


def _scene_hint(expected: list[AnyEvent], actual: list[AnyEvent]) -> str:
    """When only the scene id tells the stored fight from the played one (a scenario written
    before the ``scene`` key, whose id was its file's name): how to get the stored dice back."""
    stored, played = (e[0].scene if e and isinstance(e[0], SceneStarted) else None for e in (expected, actual))
    if stored is None or stored == played:
        return ""
    return f" (the stored fight's scene is {stored!r}: add scene = {json.dumps(stored)} to the scenario to play it)"


def _options(event: object) -> dict[str, Any]:
    return dict(event.options) if isinstance(event, SceneStarted) else {}


def _plain(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` all at once (``fightlog.events.replacing``: a temporary file in the
    same directory, fsynced, then renamed over ``path``)."""
    from fightlog.events.replacing import replacing

    with replacing(path) as handle:
        handle.write(data)
