"""Shared fixtures: a valid sample log as events and as bytes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fightlog.events.model import AnyEvent
from fightlog.events.store import MemoryStore
from fightlog.fixtures import sample_duel

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


def sample_log_bytes() -> bytes:
    store = MemoryStore()
    store.append(sample_duel.events())
    return store.to_bytes()


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own checkpoint-key directory (never the user's ~/.cache)."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


@pytest.fixture
def sample_events() -> list[AnyEvent]:
    return sample_duel.events()


@pytest.fixture
def sample_log(tmp_path: Path) -> Path:
    """A valid 64-event log on disk."""
    path = tmp_path / "fight.jsonl"
    path.write_bytes(sample_log_bytes())
    return path


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the group
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``-n``, pyproject.toml), the tests that build the project into
    ``build/`` (the wheel fixture and test_packaging's own builds) run in one worker, first:
    two builds in one folder at once would clobber each other, and the wheel is built once."""
    building = [item for item in items
                if "wheel" in getattr(item, "fixturenames", ()) or item.path.name == "test_packaging.py"]
    for item in building:
        item.add_marker(pytest.mark.xdist_group("build"))
    # first in the run: the build and the suite's second pass on it take minutes in one worker,
    # so they start at once while the other worker takes the rest (collected last, they ended
    # the run alone)
    chosen = {id(item) for item in building}
    items[:] = building + [item for item in items if id(item) not in chosen]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel, once per test run.

    setuptools builds in ``build/`` and never prunes it, so a stale copy of a deleted module
    could slip into the wheel: start from a clean slate (``build/`` is git-ignored output).
    """
    shutil.rmtree(REPO / "build", ignore_errors=True)
    # gcc -O0, a C file a module (setup.py): the same compiled code paths in a fraction of the
    # build time (the benches build at -O3)
    return build_wheel(tmp_path_factory.mktemp("wheel"), {**os.environ, "FIGHTLOG_OPT_LEVEL": "0"})


def build_wheel(out: Path, env: dict[str, str] | None = None) -> Path:
    """Build the project's wheel into ``out`` (with this environment's setuptools and mypy)."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    (built,) = out.glob("fightlog-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the wheel installed (non-editable), for PYTHONPATH or mypy."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    return target
