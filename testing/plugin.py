"""The fightlog pytest plugin (entry point ``pytest11: fightlog``), loaded by pytest wherever
fightlog is installed.

Fixtures:

- ``fight``: ``fight("duel.toml", seed=7)`` plays a scenario file (relative to the test
  file) with a fixed seed and returns a ``Fight``: ``.log``, ``.state``, ``.replay``,
  ``.findings``, ``.audit``, ``.winner`` as plain data. ``house=`` names a house-rules file,
  ``options=`` overrides options directly. Each fight is played once per session.
- ``fight_snapshot``: syrupy's ``snapshot`` with ``FightSnapshotExtension`` (needs syrupy).

Options: ``--fightlog-house-rules FILE`` (or the ini key ``fightlog_house_rules``) plays every
fight of the run under a house-rules file, so a rule change shows every consequence as
snapshot diffs. A scenario that cannot be played fails its test with the one-line error
``fightlog run`` would print, not a traceback.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pytest

from fightlog.errors import FightlogError

if TYPE_CHECKING:  # pytest loads this plugin in every run: the engine is imported on first use
    from fightlog.testing.fight import Fight, Seed

_CACHE_KEY = pytest.StashKey["dict[tuple[Any, ...], Fight | str]"]()
"""Fights played this session (or the error that stopped one), by scenario, seed and rules."""


class FightRunner(Protocol):
    """What the ``fight`` fixture hands a test."""

    def __call__(
        self,
        scenario: str | os.PathLike[str],
        *,
        seed: Seed | None = None,
        house: str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Fight: ...


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fightlog", "fightlog fights as tests")
    group.addoption(
        "--fightlog-house-rules",
        dest="fightlog_house_rules",
        metavar="FILE",
        default=None,
        help="Play every fight of the run under this house-rules file (TOML option overrides).",
    )
    parser.addini(
        "fightlog_house_rules",
        "House-rules file (relative to the rootdir) every fight plays under unless a test names one.",
        default="",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_CACHE_KEY] = {}


def pytest_report_header(config: pytest.Config) -> str | None:
    house = _default_house(config)
    return f"fightlog: every fight under the house rules in {house}" if house is not None else None


@pytest.fixture
def fight(request: pytest.FixtureRequest) -> FightRunner:
    """Play a scenario file with a fixed seed; see the module docstring."""
    from fightlog.testing import fight as fights

    here = Path(request.path).parent
    config = request.config
    cache = config.stash[_CACHE_KEY]
    default = _default_house(config)

    def run(
        scenario: str | os.PathLike[str],
        *,
        seed: Seed | None = None,
        house: str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Fight:
        path = _relative(here, scenario)
        rules = _relative(here, house) if house is not None else default
        key = (path, repr(seed), rules, tuple(sorted((options or {}).items())))
        if key not in cache:
            try:
                cache[key] = fights.play_fight(path, seed=seed, house=rules, options=options)
            except FightlogError as exc:
                cache[key] = f"fightlog: {exc}"
        found = cache[key]
        if isinstance(found, str):  # failed outside the except: no chained traceback
            pytest.fail(found, pytrace=False)
        return copy.deepcopy(found)  # a test that edits its fight must not edit the next one's

    return run


@pytest.fixture
def fight_snapshot(snapshot: Any) -> Any:
    """syrupy's ``snapshot`` storing readable JSON (``FightSnapshotExtension``)."""
    from fightlog.testing.snapshot import FightSnapshotExtension

    return snapshot.use_extension(FightSnapshotExtension)


def _default_house(config: pytest.Config) -> str | None:
    given: str | None = config.getoption("fightlog_house_rules")
    if given:
        return os.path.abspath(given)
    ini = config.getini("fightlog_house_rules")
    if isinstance(ini, str) and ini:
        return str(config.rootpath / ini)
    return None


def _relative(here: Path, path: str | os.PathLike[str]) -> str:
    return os.fspath(here / path) if not os.path.isabs(path) else os.fspath(path)
