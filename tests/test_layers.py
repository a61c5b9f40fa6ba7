"""The layer contracts of pyproject.toml (``[tool.importlinter]``) catch what they forbid.
That the code keeps them is checked by ``.ci/typecheck`` (tests/test_typecheck.py); here, on a
copy of the installed package, an import upward and one between rulesets are each reported."""

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
