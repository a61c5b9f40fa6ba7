"""``.ci/typecheck``, the one documented command (docs/architecture.md), passes: mypy --strict
on the whole package and the import-linter layer contracts, both on a pure-Python wheel of
the checkout installed in a temporary folder (neither tool follows the editable install's
folder mapping)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_typecheck_command_passes() -> None:
    done = subprocess.run(
        [str(REPO / ".ci" / "typecheck")],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
    assert "Contracts: 5 kept, 0 broken." in done.stdout
