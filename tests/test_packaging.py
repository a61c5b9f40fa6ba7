"""Packaging: one namespaced package in site-packages, a console script, python -m, a
verify path that stays light (no pydantic, no rulesets), and the compiled build (setup.py:
the hot modules compiled by mypyc, passing the same suite)."""

from __future__ import annotations

import ast
import os
import shutil
import sysconfig
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO, build_wheel

SAMPLE = FIXTURES / "roe7" / "sample-duel.jsonl"


def test_wheel_installs_only_the_fightlog_namespace(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/", 1)[0] for name in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"fightlog"}
    for expected in [
        "fightlog/__init__.py",
        "fightlog/__main__.py",
        "fightlog/errors.py",
        "fightlog/py.typed",
        "fightlog/events/model.py",
        "fightlog/reducers/__init__.py",
        "fightlog/rules/__init__.py",
        "fightlog/dice/fair.py",
        "fightlog/rules/roe7/sheet.py",
        "fightlog/cli/main.py",
        "fightlog/fixtures/roe7/sample-duel.jsonl",
        "fightlog/report/page/templates/report.html.j2",
        "fightlog/report/page/templates/page.js",
    ]:
        assert expected in names
    assert not any(n.startswith(("fightlog/tests", "tests/", "fightlog/bench")) for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    declared = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "fightlog = fightlog.cli:main" in declared
    assert "[pytest11]\nfightlog = fightlog.testing.plugin" in declared  # the plugin for users' tests


def test_the_installed_wheel_runs_from_anywhere(installed: Path, tmp_path: Path) -> None:
    target = installed
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-m", "fightlog", "verify", str(SAMPLE)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "intact: 64 events" in done.stdout
    assert str(target) in subprocess.run(
        [sys.executable, "-c", "import fightlog.events; print(fightlog.events.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout


def test_the_installed_wheel_writes_a_report_with_its_templates(installed: Path, tmp_path: Path) -> None:
    """The report's templates are package data: an installed copy finds them."""
    env = {**os.environ, "PYTHONPATH": str(installed), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "fightlog", "report", str(SAMPLE), "-o", "page.html"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    assert 'id="e64"' in (tmp_path / "page.html").read_text(encoding="utf-8")


def test_python_dash_m_and_console_script_agree(tmp_path: Path) -> None:
    module = subprocess.run([sys.executable, "-m", "fightlog", "verify", str(SAMPLE)], cwd=REPO, capture_output=True, text=True)
    script = subprocess.run([str(Path(sys.executable).parent / "fightlog"), "verify", str(SAMPLE)], capture_output=True, text=True)
    assert module.returncode == script.returncode == 0
    assert module.stdout == script.stdout


def test_verify_path_imports_neither_pydantic_nor_rulesets() -> None:
    code = (
        "import sys\n"
        "from fightlog.cli.main import main\n"
        f"sys.argv = ['fightlog', 'verify', {str(SAMPLE)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic' or m.startswith('fightlog.rules.'))\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in done.stdout


def test_every_package_directory_ships_in_the_wheel(wheel: Path) -> None:
    """Packages are found, not listed: every folder with an ``__init__.py`` under the top
    folders ``pyproject.toml`` maps is a package of the wheel (``setup.py: _package_dirs``),
    a new ruleset under ``rules/`` included, with no line to add."""
    tops = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    assert "packages" not in tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if name.endswith("/__init__.py")}
    on_disk = set()
    for name, folder in tops.items():
        root = REPO / folder
        for init in ([root / "__init__.py"] if name == "fightlog" else root.rglob("__init__.py")):
            relative = init.parent.relative_to(root).parts
            if "__pycache__" not in relative:
                on_disk.add("/".join((*name.split("."), *relative, "__init__.py")))
    assert "fightlog/rules/roe7/__init__.py" in on_disk
    assert sorted(on_disk - shipped) == []


def hot_modules() -> list[str]:
    """``setup.py``'s ``HOT_MODULES`` (read, not imported: importing it runs ``setup()``)."""
    for node in ast.parse((REPO / "setup.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["HOT_MODULES"]:
            found: list[str] = ast.literal_eval(node.value)
            return found
    raise AssertionError("setup.py has no HOT_MODULES")


def needs_a_compiler() -> None:
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if os.environ.get("FIGHTLOG_PURE") == "1" or shutil.which(compiler[0]) is None:
        pytest.skip("no C compiler (or FIGHTLOG_PURE=1): the wheel is pure Python")


def test_the_wheel_compiles_the_hot_modules_and_keeps_their_source(wheel: Path) -> None:
    needs_a_compiler()
    names = zipfile.ZipFile(wheel).namelist()
    hot = hot_modules()
    assert "fightlog.reducers.fold" in hot and "fightlog.audit.reading" in hot
    for module in hot:
        path = module.replace(".", "/")
        assert f"{path}.py" in names
        assert [n for n in names if n.startswith(f"{path}.cpython-") and n.endswith(".so")], module
    shared = [n for n in names if n.startswith("fightlog/_native__mypyc.") and n.endswith(".so")]
    assert shared  # mypyc's shared library, inside the package
    compiled = {n.split(".cpython-")[0].replace("/", ".") for n in names if n.endswith(".so")}
    assert compiled == {*hot, "fightlog._native__mypyc"}  # nothing else: the Struct modules stay interpreted


@pytest.mark.parametrize("setting", [{"FIGHTLOG_PURE": "1"}, {"CC": "/nonexistent/cc"}], ids=["FIGHTLOG_PURE", "no compiler"])
def test_a_pure_python_wheel_when_asked_or_without_a_compiler(tmp_path: Path, setting: dict[str, str]) -> None:
    built = build_wheel(tmp_path, {**os.environ, **setting})
    assert built.name.endswith("-py3-none-any.whl")
    assert not [n for n in zipfile.ZipFile(built).namelist() if n.endswith(".so")]


@pytest.mark.slow
def test_a_compiler_that_fails_leaves_a_wheel_that_runs_as_pure_python(tmp_path: Path) -> None:
    needs_a_compiler()
    shutil.rmtree(REPO / "build", ignore_errors=True)  # build/ would hold the wheel fixture's extensions
    only = {"FIGHTLOG_COMPILE": "fightlog.kit.chained"}  # one module fails as all would, in less time
    built = build_wheel(tmp_path / "wheel", {**os.environ, "CC": "false", "LDSHARED": "false", **only})
    assert not [n for n in zipfile.ZipFile(built).namelist() if n.endswith(".so")]  # none half-built
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(built)], check=True)
    done = subprocess.run(
        [sys.executable, "-m", "fightlog", "audit", str(FIXTURES / "roe7" / "disputed-duel.jsonl")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "audit: clean" in done.stdout


@pytest.mark.slow
def test_the_compiled_build_passes_the_whole_suite(installed: Path) -> None:
    """The suite (but this file, the type check and the docs' and help pages' commands) run again on the installed compiled wheel: mypyc checks the
    annotations at run time and binds calls early, so the compiled build can differ."""
    needs_a_compiler()
    env = {**os.environ, "PYTHONPATH": str(installed)}
    where = subprocess.run(
        [sys.executable, "-c", "import fightlog.reducers.fold as m; print(m.__file__)"],
        cwd=REPO, env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert where.startswith(str(installed)) and where.endswith(".so")
    # Once is enough for what checks the source or the docs, not the build: the type check
    # (it would build and install the wheel again), the docs' and the help pages' command lines;
    # and for what runs no compiled module (setup.py's HOT_MODULES): the bench harness, the
    # transcript importer, the dice dialects and bot replies, the reliability suite (the store
    # under crashes and concurrent writers, tampering, bad input to the reader), the pytest
    # plugin's and the example plugin's sessions in fresh processes (plugin loading; the fights
    # they play are played compiled by test_scenarios), and logs read from pipes (the reading is
    # interpreted code; the commands' output is compared on both builds elsewhere), the log's
    # reader and store (interpreted), and the command line's edges, wording, JSON style and
    # completion, the dispute and rulings (interpreted: audit/dispute*, fork, requests),
    # d20-evasion (interpreted; the fold it runs on is compiled and run by the rest), and
    # the Dask plumbing and edges of batch and sim (scale/: interpreted; their pure work runs compiled),
    # the charts, the tally and the pages (scale/chart*, scale/tally, report/page: interpreted; the
    # narration a page shows runs compiled in the replay tests), action strings, house-rules files (pydantic), and the ruleset
    # docs' citations of tests. The commands that fold, audit and play run compiled in the CLI
    # tests kept (audit, replay, state, run, play). Keeps the suite within its 10 minutes.
    once = (
        "test_packaging.py", "test_typecheck.py", "test_layers.py", "test_docs_commands.py", "cli/test_help_examples.py",
        "bench", "importing", "dice/test_dialect_avrae.py", "dice/test_dialect_cli.py",
        "dice/test_dialect_fixes.py", "dice/test_dialects.py", "dice/test_replies.py",
        "dice/test_external.py", "dice/test_d20_rerolls.py", "dice/test_bot_limits.py", "dice/test_dice_d20_oracle.py",
        "reliability", "testing", "kit", "cli/test_piped_logs.py", "events",
        "cli/test_command_table.py", "cli/test_completion.py", "cli/test_edge.py", "cli/test_json_output.py",
        "cli/test_narration.py", "cli/test_no_traceback.py", "cli/test_read_roll_cli.py", "cli/test_run_check.py",
        "cli/test_seed_option.py", "cli/test_wording.py", "audit/test_dispute.py", "audit/test_dispute_hand_run.py",
        "cli/test_dispute_cli.py", "cli/test_rule_cli.py", "rules/d20evasion",
        "scale/test_cluster.py", "scale/test_cli.py", "scale/test_chart_png.py", "scale/test_tally.py",
        "report/test_report_browser.py", "report/test_sim_page.py", "rules/test_actions.py", "rules/test_traceability.py",
        "rules/test_house.py",
    )
    skip = [arg for name in once for arg in ("--ignore", f"tests/{name}")]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", *skip, "tests"],
        cwd=REPO, env=env, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
