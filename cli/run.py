"""``fightlog run``: play a scenario file (a scripted fight) into a new log."""

from __future__ import annotations

import os
import tempfile

import click

from fightlog.cli.errors import reports_errors
from fightlog.cli.narrate import namer
from fightlog.cli.options import house_option, seed_option
from fightlog.errors import InputError
from fightlog.events.model import SceneEnded
from fightlog.reducers.fold import fold


@click.command(
    epilog="""\b
Examples:
  fightlog run scenarios/pump-house.toml -o pump-house.jsonl
  fightlog run scenarios/pump-house.toml -o pump-house.jsonl --seed 5eed...5eed   # reproducible
  fightlog run scenarios/pump-house.toml -o house.jsonl --options house-rules.toml --force
  fightlog replay pump-house.jsonl && fightlog verify --dice pump-house.jsonl

\b
Exit codes: 0 written; 2 bad input (the scenario, its roster or options, a step the rules
refuse: its line is named), LOG exists (without --force), or usage. On any error LOG is
left as it was."""
)
@click.argument("scenario", metavar="SCENARIO")
@click.option("-o", "--output", "log", required=True, metavar="LOG", help="The log file to write.")
@seed_option
@click.option("--force", is_flag=True, help="Replace LOG if it exists and is not empty.")
@house_option
@reports_errors
def run(scenario: str, log: str, seed: str | None, force: bool, house: str | None) -> None:
    """Play SCENARIO (TOML: ruleset, roster, steps) and write the fight to LOG.

    The whole fight is decided in memory, from scene_started (dice committed to the seed:
    --seed, else the scenario's seed, else a fresh one) to scene_ended (the seed revealed),
    then LOG is written at once (a temporary file renamed over it). See docs/play.md.
    """
    from fightlog.rules.scenario import read_overrides, run_scenario

    if os.path.isdir(log):
        raise InputError("is a directory, not a log file", path=log)
    if not force and os.path.exists(log) and os.path.getsize(log) > 0:
        raise InputError("exists and is not empty (--force replaces it)", path=log)
    overrides = read_overrides(house) if house is not None else None
    store = run_scenario(scenario, seed=seed, overrides=overrides, overrides_path=house)
    write_atomically(log, store.to_bytes())
    events = [event for _, event in store.read()]
    ended = events[-1]
    revealed = ended.seed if isinstance(ended, SceneEnded) else None
    click.echo(f"wrote {log}: {len(events)} events, seed {revealed} (revealed in scene_ended)")
    if isinstance(ended, SceneEnded) and ended.winner:
        click.echo(f"winner: {namer(fold(events))(ended.winner)}")


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` all at once: a temporary file in the same directory,
    fsynced, then renamed over ``path`` (readers see the old file or the new one)."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write in {directory}: {exc.strerror}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o666 & ~_umask())  # as a plain open() would have made it
        os.replace(temp, path)
    except OSError as exc:
        os.unlink(temp)
        raise InputError(f"cannot write: {exc.strerror}", path=path) from None
    except BaseException:
        os.unlink(temp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
