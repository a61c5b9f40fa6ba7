"""``.ci/typecheck``, the one documented command (docs/architecture.md), passes: mypy --strict
on the whole package and the import-linter layer contracts, on the wheel installed in a
folder (neither tool follows the editable install's folder mapping). The suite hands it the
wheel its packaging tests built (``FIGHTLOG_SITE``) rather than building another."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_typecheck_command_passes(installed: Path) -> None:
    done = subprocess.run(
        [str(REPO / ".ci" / "typecheck")],
        env={**os.environ, "PYTHON": sys.executable, "FIGHTLOG_SITE": str(installed)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
    assert "Contracts: 5 kept, 0 broken." in done.stdout
