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
snapshot diffs. Give it once a ruleset for a project of several: a file naming its
``ruleset`` applies to that ruleset's fights only, one naming none to every fight no file
names. The files are checked when the session starts: a bad one, or two for one ruleset, is
a usage error (exit 4) before any test runs.

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

_HOUSE_KEY = pytest.StashKey["dict[str | None, str]"]()
"""The run's house-rules files, by the ruleset each names (``None``: for every ruleset)."""

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
        action="append",
        default=[],
        help="Play every fight of the run under this house-rules file (TOML option overrides); once a ruleset: "
             "a file naming its ruleset applies to that ruleset's fights.",
    )
    parser.addini(
        "fightlog_house_rules",
        "House-rules files (relative to the rootdir, one a line) every fight plays under unless a test names one.",
        type="linelist",
        default=[],
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_CACHE_KEY] = {}
    config.stash[_UNPLAYED_KEY] = set()
    config.stash[_HOUSE_KEY] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Check the house-rules files before any test runs: a bad one, or two for one ruleset, is
    a usage error naming it (pytest exits 4), not the same failure in every test."""
    config = session.config
    houses = _default_houses(config)
    if not houses:
        return
    from fightlog.testing.fight import check_house_rules

    given = "--fightlog-house-rules" if config.getoption("fightlog_house_rules") else "fightlog_house_rules (ini)"
    found: dict[str | None, str] = {}
    for house in houses:
        try:
            ruleset = check_house_rules(house).ruleset
        except FightlogError as exc:
            raise pytest.UsageError(f"{given}: fightlog: {exc}") from None
        if ruleset in found:
            which = f"for {ruleset}: keep one" if ruleset is not None else \
                "naming no ruleset (each for every fight): give each the ruleset it is for"
            raise pytest.UsageError(f"{given}: {found[ruleset]} and {house}: two house-rules files {which}")
        found[ruleset] = house
    config.stash[_HOUSE_KEY] = found


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
    houses = _default_houses(config)
    if not houses:
        return None
    if len(houses) == 1:
        return f"fightlog: every fight under the house rules in {houses[0]}"
    return f"fightlog: fights under the house rules in {', '.join(houses)} (each for the ruleset it names)"


@pytest.fixture
def fight(request: pytest.FixtureRequest) -> FightRunner:
    """Play a scenario file with a fixed seed; see the module docstring."""
    from fightlog.testing import fight as fights

    here = Path(request.path).parent
    config = request.config
    cache = config.stash[_CACHE_KEY]
    houses = config.stash[_HOUSE_KEY]

    def run(
        scenario: str | os.PathLike[str],
        *,
        seed: Seed | None = None,
        house: str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Fight:
        for name, given_path in (("scenario", scenario), ("house", house)):
            if given_path is not None and not isinstance(given_path, (str, os.PathLike)):
                pytest.fail(f"fightlog: fight(..., {name}=...): a file's path (str or os.PathLike), not "
                            f"{type(given_path).__name__} {given_path!r:.60}", pytrace=False)
        path = _relative(here, scenario)
        rules = _relative(here, house) if house is not None else fights.house_rules_for(path, houses)
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


def _default_houses(config: pytest.Config) -> list[str]:
    """The run's house-rules files: the option's (each time given), else the ini key's lines."""
    given: list[str] = config.getoption("fightlog_house_rules") or []
    if given:
        return [os.path.abspath(path) for path in given]
    ini = config.getini("fightlog_house_rules")
    lines = [ini] if isinstance(ini, str) else list(ini)
    return [str(config.rootpath / line) for line in lines if line]


def _relative(here: Path, path: str | os.PathLike[str]) -> str:
    return os.fspath(here / path) if not os.path.isabs(path) else os.fspath(path)
