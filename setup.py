"""The compiled build: the audit's hot modules turned into C extensions by mypyc.

``pyproject.toml`` holds everything else (metadata, the top folders, the data files); this
file finds the packages below those folders and adds the extensions. A wheel build (``pip install .``) compiles
``HOT_MODULES`` with mypyc, unless ``FIGHTLOG_PURE=1`` is set, no C compiler is found, or
mypyc or the compiler fails (then the wheel is pure Python, and the build log says why);
``FIGHTLOG_OPT_LEVEL`` sets the C compiler's optimisation (3 by default; the test suite builds
at 0, the same code, a C file a module, in about two fifths of the time); ``FIGHTLOG_COMPILE`` (module names,
comma-separated) compiles only those of ``HOT_MODULES`` (the suite's test of a failing
compiler needs one, not a minute of mypyc). An
editable install (``pip install -e .``) is never compiled: a compiled module is imported
before its source, so an edit would not take effect. Both builds run the same source and give the same results; the compiled one is
faster (``bench/README.md``).

mypyc derives module names from where the files lie, and the repository maps its folders
onto ``fightlog.*`` (``[tool.setuptools.package-dir]``), so the package is first copied into
``build/mypyc-src`` in its installed shape.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tomllib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HOT_MODULES = [
    "fightlog.reducers.fold",
    "fightlog.reducers.folder",
    "fightlog.reducers.scene",
    "fightlog.reducers.combatants",
    "fightlog.reducers.turns",
    "fightlog.reducers.declarations",
    "fightlog.reducers.effects",
    "fightlog.reducers.derive",
    "fightlog.audit.order",
    "fightlog.audit.window",
    "fightlog.audit.dice_checks",
    "fightlog.audit.pools",
    "fightlog.kit.chained",
    "fightlog.audit.reading",
    "fightlog.audit.recorded",
    "fightlog.audit.answers",
    "fightlog.dice.fastpath",
    "fightlog.dice.recompute",
    "fightlog.rules.roe7.audit",
    "fightlog.rules.roe7.audit_scene",
    "fightlog.rules.roe7.audit_rolls",
    "fightlog.rules.roe7.audit_effects",
    "fightlog.rules.roe7.audit_damage",
    "fightlog.rules.roe7.audit_attacks",
    "fightlog.rules.roe7.audit_posts",
    "fightlog.rules.roe7.table",
    "fightlog.rules.roe7.attack_rolls",
    "fightlog.rules.traveller.audit",
    "fightlog.rules.traveller.modifiers",
    "fightlog.rules.traveller.fighters",
    "fightlog.rules.traveller.checks",
    "fightlog.rules.traveller.harm",
    "fightlog.rules.traveller.attack",
    "fightlog.rules.en51.audit",
    "fightlog.rules.en51.audit_against",
    "fightlog.rules.en51.bw",
    "fightlog.rules.en51.harm",
    "fightlog.rules.bleedingsun.audit",
    "fightlog.rules.bleedingsun.audit_attacks",
    "fightlog.rules.bleedingsun.audit_plans",
    "fightlog.rules.bleedingsun.audit_dying",
    "fightlog.rules.bleedingsun.planning",
    "fightlog.rules.bleedingsun.post_params",
    "fightlog.rules.bleedingsun.resolve",
    "fightlog.rules.bleedingsun.arithmetic",
    "fightlog.rules.bleedingsun.fighters",
    "fightlog.rules.bleedingsun.grapple",
    "fightlog.rules.bleedingsun.immediate",
    "fightlog.kit.cards",
    "fightlog.kit.options",
    "fightlog.report.narration.lines",
    "fightlog.report.narration.steps",
    "fightlog.report.narration.kinds",
    "fightlog.report.narration.course",
    "fightlog.report.narration.rolls",
    "fightlog.report.narration.combat",
    "fightlog.report.narration.effects",
    "fightlog.report.narration.rulings",
    "fightlog.report.narration.changes",
    "fightlog.report.narration.phrases",
]
"""What the audit spends its time in (``bench/README.md``): the fold and its reducers, the
posting-order checks and the window of recent events (the main process); the chain-checked
read, the dice recomputation and the checks of events as recorded (the child); roe7's checks
and its table (both); traveller's, en51's and bleeding-sun's checks and what they recompute
with (the attack's DMs and the fighter they read; the black and white faces, the armour, what
an attack had to beat; an attack's plan, threshold, DV and soak) and the kit's card and
options readers they ask for every fighter (``kit.cards``, ``kit.options``), about two fifths
of those audits' main process (bleeding-sun's: three fifths); and the words ``replay`` tells each event in (``report/narration``,
about 40% of its time). The modules that define msgspec Structs stay interpreted (mypyc cannot
compile them), and so do the ones tests or benches patch or subclass (``auditor``, ``one_pass``, ``two_process``,
``Roe7Rules``, ``FairGenerator``): a compiled function's calls are bound when compiled."""

ROOT = Path(__file__).resolve().parent
STAGE = ROOT / "build" / "mypyc-src"


def _package_dirs() -> dict[str, Path]:
    """Every package and its folder: the top folders ``[tool.setuptools.package-dir]`` maps,
    and each folder below them that holds an ``__init__.py`` (found, not listed)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        tops = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    found: dict[str, Path] = {}
    for package, folder in tops.items():
        root = ROOT / folder
        if not (root / "__init__.py").is_file():
            continue
        found[package] = root
        if package == "fightlog":
            continue  # the root's subpackages are the other top folders
        for init in sorted(root.rglob("__init__.py")):
            inner = init.parent.relative_to(root)
            if inner.parts and "__pycache__" not in inner.parts:
                found[".".join((package, *inner.parts))] = init.parent
    return found


def _stage() -> list[str]:
    """Copy every package's modules into ``STAGE`` as installed; the staged hot modules."""
    shutil.rmtree(STAGE, ignore_errors=True)
    for package, folder in PACKAGES.items():
        target = STAGE.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for source in folder.glob("*.py"):
            shutil.copy2(source, target / source.name)
    only = {name.strip() for name in os.environ.get("FIGHTLOG_COMPILE", "").split(",") if name.strip()}
    if only - set(HOT_MODULES):
        raise SystemExit(f"FIGHTLOG_COMPILE names what HOT_MODULES does not hold: {', '.join(sorted(only - set(HOT_MODULES)))}")
    names = [name for name in HOT_MODULES if not only or name in only]
    return [str(STAGE.joinpath(*name.split(".")).with_suffix(".py")) for name in names]


def _has_compiler() -> bool:
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(compiler) and shutil.which(compiler[0]) is not None


def _prune() -> None:
    """setuptools reuses ``build/lib`` and ``build/lib.<platform>`` and never prunes them: a
    module since moved or deleted (or compiled by an earlier build and since dropped from
    ``HOT_MODULES``) would slip into the wheel, so a wheel build starts without them."""
    for stale in (ROOT / "build").glob("lib*"):
        shutil.rmtree(stale, ignore_errors=True)


def _extensions() -> list[Extension]:
    if "bdist_wheel" not in sys.argv:  # metadata, sdist, editable: nothing to compile
        return []
    _prune()
    if os.environ.get("FIGHTLOG_PURE") == "1":
        print("fightlog: FIGHTLOG_PURE=1: building pure Python", file=sys.stderr)
        return []
    if not _has_compiler():
        print("fightlog: no C compiler found: building pure Python (slower audits)", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    try:
        level = os.environ.get("FIGHTLOG_OPT_LEVEL", "3")
        # at -O0 nothing is inlined, so a C file a module costs nothing at run time, and the
        # build takes 1m45s against 2m40s as one 22 MB file (the test suite's build)
        split = level == "0"
        extensions = list(mypycify(_stage(), opt_level=level, group_name="fightlog._native", multi_file=split))
        for extension in extensions:  # mypyc writes the group's header there, the C files above it
            extension.include_dirs.append(str(Path("build") / "fightlog"))
        return extensions
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error (a newer mypy's, say)
        print(f"fightlog: mypyc could not compile ({exc!r}): building pure Python", file=sys.stderr)
        return []


class BuildExtOrPure(build_ext):
    """Build the extensions; if the C compiler fails, ship none of them (the source of every
    module is in the wheel either way, so it runs as pure Python)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            for ext in self.extensions:  # a module without the shared library cannot import
                built = Path(self.get_ext_fullpath(ext.name))
                built.unlink(missing_ok=True)
            print(f"fightlog: compiling failed ({str(exc)[:200]}): building pure Python", file=sys.stderr)


PACKAGES = _package_dirs()

setup(packages=sorted(PACKAGES), ext_modules=_extensions(), cmdclass={"build_ext": BuildExtOrPure})
