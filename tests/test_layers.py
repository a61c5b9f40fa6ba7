"""The layers of docs/architecture.md hold: import-linter checks the contracts in
pyproject.toml (``[tool.importlinter]``) on an installed copy (grimp, like mypy, reads a
package from one folder, and the checkout maps several folders into ``fightlog``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def lint(site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", script, "--no-cache", "--no-logo", str(REPO / "pyproject.toml")],
        cwd=site,
        env=env,
        capture_output=True,
        text=True,
    )


def test_the_contracts_are_kept(installed: Path) -> None:
    done = lint(installed)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.lower().replace("0 broken", "")
    assert "5 kept, 0 broken" in done.stdout


def test_an_import_upwards_breaks_them(installed: Path, tmp_path: Path) -> None:
    """The check is not vacuous: a reducer that imports the audit, and a ruleset that imports
    another, are each reported."""
    site = tmp_path / "site"
    shutil.copytree(installed / "fightlog", site / "fightlog")
    (site / "fightlog" / "reducers" / "upward.py").write_text("import fightlog.audit.auditor\n")
    (site / "fightlog" / "rules" / "roe7" / "borrowed.py").write_text("from fightlog.rules.d20evasion import ruleset\n")
    done = lint(site)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fightlog.reducers.upward -> fightlog.audit.auditor" in done.stdout
    assert "fightlog.rules.roe7.borrowed -> fightlog.rules.d20evasion.ruleset" in done.stdout
