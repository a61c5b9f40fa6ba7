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
snapshot diffs. The file is checked when the session starts: a bad one is a usage error
(exit 4) before any test runs.

A scenario that cannot be played fails its test with the one-line error ``fightlog run``
would print, not a traceback; the test's snapshots are kept: syrupy counts such a test as
skipped, so it neither reports them unused nor deletes them with ``--snapshot-update``.
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

_UNPLAYED_KEY = pytest.StashKey["set[str]"]()
"""The tests a fight failed in (a scenario that cannot be played): their snapshots are kept."""


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
    config.stash[_UNPLAYED_KEY] = set()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Check the house-rules file before any test runs: a bad one is a usage error naming
    it (pytest exits 4), not the same failure in every test."""
    config = session.config
    house = _default_house(config)
    if house is None:
        return
    from fightlog.testing.fight import check_house_rules

    given = "--fightlog-house-rules" if config.getoption("fightlog_house_rules") else "fightlog_house_rules (ini)"
    try:
        check_house_rules(house)
    except FightlogError as exc:
        raise pytest.UsageError(f"{given}: fightlog: {exc}") from None


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A test a fight failed in never reached its snapshot assertions: tell syrupy it was
    skipped (after syrupy has counted its setup and call, before the teardown it ignores),
    so it neither reports those snapshots unused nor deletes them on ``--snapshot-update``."""
    if item.nodeid in item.config.stash[_UNPLAYED_KEY]:
        snapshots = getattr(item.config, "_syrupy", None)  # syrupy's session, when it runs
        ran_item = getattr(snapshots, "ran_item", None)
        if callable(ran_item):
            ran_item(item.nodeid, "skipped")


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
        given = tuple(sorted(options.items())) if isinstance(options, Mapping) else repr(options)  # else refused
        key = (path, repr(seed), rules, given)
        if key not in cache:
            try:
                cache[key] = fights.play_fight(path, seed=seed, house=rules, options=options)
            except FightlogError as exc:
                cache[key] = f"fightlog: {exc}"
        found = cache[key]
        if isinstance(found, str):  # failed outside the except: no chained traceback
            config.stash[_UNPLAYED_KEY].add(request.node.nodeid)
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
