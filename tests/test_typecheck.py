"""The whole package is mypy --strict clean (checked on an installed copy: mypy cannot
follow the editable install's import hook)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_mypy_strict(installed: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "fightlog"],
        cwd=installed,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
